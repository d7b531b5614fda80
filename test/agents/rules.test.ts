import { describe, expect, it } from 'vitest';
import { AGENTS, agentKnowledge } from '../../packages/adapters/src/agents.js';
import type { Environment } from '../../packages/core/src/context/types.js';
import { agentRules } from '../../packages/core/src/rules/agent-rules.js';
import { guardTamper } from '../../packages/core/src/rules/guard-tamper.js';
import { rules } from '../../packages/core/src/rules/index.js';
import { sessionAfterUntrusted } from '../../packages/core/src/rules/session-after-untrusted.js';
import { ENV, evaluateExample, runRuleTests } from '../../packages/core/test/rule-tester.js';

/**
 * The rules that look at the agents' files (guard.tamper, agent.rules, session.after-untrusted),
 * on the rule tester's machine with the real agents as their adapters declare them: core's own
 * tests use a stand-in agent and name none.
 */
const REAL: Environment = { ...ENV, agents: agentKnowledge(Object.values(AGENTS), { home: ENV.home, env: {} }) };

describe('every rule example (docs/rules.md) holds with the real agents too', () => {
  it.for(rules.map((rule) => [rule.meta.id, rule] as const))('%s', ([, rule]) => {
    for (const example of rule.meta.examples.match)
      expect(evaluateExample(example, rule, REAL).findings.map((f) => f.ruleId)).toContain(rule.meta.id);
    for (const example of rule.meta.examples.noMatch)
      expect(evaluateExample(example, rule, REAL).findings.map((f) => f.ruleId)).not.toContain(rule.meta.id);
  });
});

runRuleTests(
  guardTamper,
  {
    valid: [
      // a glob one folder down reaches nothing inside a file the project holds (OpenCode's opencode.json)
      'rm -r __pycache__ */__pycache__',
      'rm -rf */node_modules',
      { step: 'find ~/.copilot -name .DS_Store -delete', note: 'probe knows nothing' },
      'cat ~/.codex/hooks.json',
      `node -e "console.log(require('fs').readFileSync('/home/dev/.codex/hooks.json', 'utf8'))"`,
      'cp ~/.cursor/hooks.json /tmp/hooks-backup.json',
      'cp ~/.cursor/hooks.json ./hooks-backup.json',
      { step: { kind: 'read', path: '/home/dev/.codex/hooks.json' } },
      { step: { kind: 'mcp', server: 'fs', tool: 'read_file', args: { path: '/home/dev/.codex/hooks.json' } } },
      'grep -rn "disableAllHooks" docs',
      'git commit -m "docs: disableAllHooks: true skips hooks"',
      'codex exec "fix the tests"',
      'codex -c model=o3',
      // near misses of the hooks feature switched off: on, another feature off, a key that ends in hooks
      "codex -c 'features={hooks=true}' exec x",
      "codex -c 'features={web_search=false}' exec x",
      'codex -c features.myhooks=false exec x',
      'codex -c features.hooks=true exec x',
      {
        step: { kind: 'write', path: 'docs/hooks.md', content: 'Set `"disableAllHooks": true` to skip hooks.\n' },
        note: 'docs, not a settings file',
      },
      { step: { kind: 'write', path: '.claude/settings.example.json', content: '{"disableAllHooks": false}' } },
      'cat ~/.claude/settings.json',
      'cat .gemini/settings.json',
      { step: { kind: 'read', path: '/home/dev/.gemini/settings.json' } },
      'claude -p "fix the tests" --dangerously-skip-permissions',
      'claude --settings ./team-settings.json -p "review"',
      'gemini -p "summarise the changes" --yolo',
      'echo \'{"hooksConfig": {"enabled": true}}\' > config/gemini-defaults.json',
      'grep -rn "bare" ~/.claude/CLAUDE.md',
      {
        step: {
          kind: 'write',
          path: 'docs/gemini.md',
          content: 'Set "hooksConfig": {"enabled": false} to switch hooks off.\n',
        },
        note: 'docs, not a settings file',
      },
      { step: { kind: 'write', path: '/home/dev/.gemini/antigravity/settings.json', content: '{}' } },
      { step: { kind: 'write', path: 'claude/settings.json', content: '{}' }, note: 'no dot: a folder of the project' },
      'cat ~/.qwen/settings.json',
      'qwen -p "fix the tests" --yolo',
      // Cline: running it, reading its hook files, a rules file of the project, another hooks folder name
      'cline --json "fix the tests"',
      'cline -m gpt-4.1 "x"',
      'cat ~/.cline/hooks/PreToolUse.bash',
      'ls .clinerules/hooks',
      'echo "{}" > ~/.cline/hooksx/PreToolUse',
      // the person's Cline folder in Documents holds no hook of guard's: taking it (or Documents) away is not tamper
      'mv ~/Documents /tmp/x',
      'rm -rf ~/Documents/Cline',
      'mv ~/Documents/* /tmp/old/',
      { step: { kind: 'write', path: 'docs/cline.md', content: 'Run cline --config /tmp/x to skip hooks.\n' } },
      // Kiro CLI: a chat with guard's agent or the default, reading the agents, a look at its settings
      'kiro-cli chat --agent guard',
      'kiro-cli chat --no-interactive "fix the tests"',
      'kiro-cli agent list',
      'kiro-cli settings list',
      'cat ~/.kiro/agents/guard.json',
      { step: { kind: 'read', path: '/home/dev/.kiro/settings/cli.json' } },
      { step: { kind: 'write', path: 'docs/kiro.md', content: 'Run kiro-cli chat --agent mine to try it.\n' } },
      'qwen --approval-mode yolo -p "x"',
      { step: { kind: 'write', path: 'docs/qwen.md', content: 'Set "disableAllHooks": true to skip hooks.\n' } },
      {
        step: { kind: 'write', path: '.env', content: 'QWEN_HOME=/tmp/elsewhere\n' },
        note: 'a project .env cannot move it',
      },
      // Crush: running it, reading its config, near names, its state and logs folder of a project
      'crush run "fix the tests"',
      'crush --yolo',
      'cat ~/.config/crush/crush.json',
      'cat crush.json .crush.json',
      'echo "{}" > crush.json.bak',
      'echo "{}" > my-crush.json',
      'echo x > .crush/logs/crush.log',
      { step: { kind: 'read', path: '/home/dev/.config/crush/crushrc' } },
    ],
    invalid: [
      // near misses of the glob rows: the project's opencode.json itself, and the plugin folder by a glob
      'rm opencode.json',
      'rm -rf .opencode/*',
      {
        step: 'find . -name guard.json -delete',
        probe: { files: { '/home/dev/project/.github/hooks/guard.json': '{}' } },
        note: 'the hook file is there',
      },
      {
        step: "find . -name 'g*' -delete",
        probe: { files: { '/home/dev/project/.github/hooks/guard.json': '{}' } },
        note: 'a hook folder is there',
      },
      'mv ~/.codex/hooks.json /tmp/',
      'cp evil.json ~/.cursor/hooks.json',
      'sed -i "/guard/d" ~/.codex/config.toml',
      'rm -rf ~/.copilot/hooks',
      'rm .github/hooks/guard.json',
      'echo "{}" > .cursor/hooks.json',
      'chmod 000 ~/.gemini/config/hooks.json',
      'echo "{}" > .agents/hooks.json',
      'codex exec --dangerously-bypass-hook-trust "do it"',
      'codex -c features.hooks=false exec "x"',
      // the same feature by another TOML spelling
      "codex -c 'features={hooks=false}' exec x",
      "codex -c 'features = { web_search = true, hooks = false }' exec x",
      'codex -c \'features."hooks"=false\' exec x',
      'codex --config=features.codex_hooks=false exec x',
      'codex --disable hooks',
      'codex features disable hooks',
      "jq '.disableAllHooks = true' .claude/settings.json > s.json",
      'echo \'{"disableAllHooks": true}\' > .github/copilot/settings.local.json',
      { step: { kind: 'write', path: '.claude/settings.json', content: '{\n  "disableAllHooks": true\n}\n' } },
      {
        step: { kind: 'write', path: '.claude/settings.json', content: '{"disableAllHooks": false}' },
        note: "guard's Claude Code hooks live in this file",
      },
      { step: { kind: 'write', path: '/home/dev/.claude/settings.json', mode: 'edit', content: '"model": "opus"' } },
      'rm .claude/settings.local.json',
      'rm -rf ~/.claude',
      {
        step: {
          kind: 'write',
          path: '/home/dev/.gemini/settings.json',
          mode: 'edit',
          content: '"hooksConfig": {"enabled": false}',
        },
      },
      'echo "{}" > .gemini/settings.json',
      'sed -i "s/TRUST_FOLDER/DO_NOT_TRUST/" ~/.gemini/trustedFolders.json',
      'sudo tee /etc/claude-code/managed-settings.json < policy.json',
      'sudo cp team.json /etc/gemini-cli/settings.json',
      'echo \'{"hooksConfig": {"enabled": false}}\' > ~/gemini-defaults.json',
      {
        step: { kind: 'write', path: 'config/gemini-system.json', content: '{ "hooksConfig": { "enabled": false } }' },
      },
      'claude --bare -p "push it"',
      'echo "{}" > ~/.qwen/settings.json',
      { step: { kind: 'write', path: '.qwen/settings.json', content: '{ "disableAllHooks": true }' } },
      'sed -i "/guard/d" ~/.qwen/settings.json',
      'sudo cp team.json /etc/qwen-code/settings.json',
      'rm -rf ~/.qwen',
      'qwen --bare -p "push it"',
      'rm ~/.cline/hooks/PreToolUse.bash',
      'echo exit > ~/.cline/hooks/PreToolUse.sh',
      'rm -rf ~/.cline',
      { step: { kind: 'write', path: '.clinerules/hooks/PreToolUse', content: 'echo {}\n' } },
      'mv ~/Documents/Cline/Hooks/PreToolUse /tmp/',
      'echo "export default {}" > ~/Documents/Cline/Plugins/undo.js',
      'rm -rf ~/.cline/hooks/*',
      { step: { kind: 'write', path: '.cline/plugins/undo.js', content: 'export default {}\n' } },
      'cline --config /tmp/empty --json "push it"',
      'cline --data-dir=/tmp/d "push it"',
      'CLINE_DIR=/tmp/c cline --json "push it"',
      // Kiro CLI runs the hooks of the agent a chat started with: another agent, a new default, any agent file
      'kiro-cli chat --agent review "push it"',
      'kiro-cli chat --agent=review',
      'kiro-cli settings chat.defaultAgent review',
      'kiro-cli agent set-default review',
      'rm ~/.kiro/agents/guard.json',
      'echo "{}" > .kiro/agents/guard.json',
      { step: { kind: 'write', path: '.kiro/agents/fast.json', content: '{ "name": "fast", "tools": ["*"] }' } },
      { step: { kind: 'write', path: '/home/dev/.kiro/settings/cli.json', content: '{}' } },
      'echo \'{"chat.defaultAgent": "fast"}\' > ~/kiro-settings.json',
      'rm -rf ~/.kiro',
      'qwen --safe-mode',
      'QWEN_HOME=/tmp/q qwen -p "push it"',
      'QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/s.json qwen -p "x"',
      'echo \'{"disableAllHooks": true}\' > ~/qwen-defaults.json',
      'claude -p "push it" --settings \'{"disableAllHooks": true}\'',
      // Crush: its config files (guard's entries; crushrc runs in a shell), wherever a project keeps them
      'echo "{}" > ~/.config/crush/crush.json',
      "jq 'del(.hooks)' crush.json > c.json && mv c.json crush.json",
      'rm .crush.json',
      'echo "permissions allow bash" > .crushrc',
      'echo x >> ~/.config/crush/crushrc',
      'echo "{}" > ~/.local/share/crush/crush.json',
      'rm -rf ~/.config/crush',
      { step: { kind: 'write', path: 'packages/app/crush.json', content: '{}' } },
      { step: { kind: 'write', path: '/home/dev/.config/crush/crush.json', mode: 'edit', content: '"hooks": {}' } },
      'CRUSH_GLOBAL_CONFIG=/tmp/c crush run "push it"',
      'XDG_CONFIG_HOME=/tmp/x crush run "x"',
      { step: { kind: 'write', path: '/home/dev/.codex/hooks.json', content: '{}' } },
      { step: { kind: 'write', path: '~/.copilot/hooks/guard.json', mode: 'delete' } },
      { step: { kind: 'other', toolName: 'save_file', args: { path: '/home/dev/.cursor/hooks.json', text: '{}' } } },
      {
        step: {
          kind: 'mcp',
          server: 'fs',
          tool: 'write_file',
          args: { path: '/home/dev/.codex/hooks.json', content: '{}' },
        },
      },
      "perl -pi -e 's/guard/true/' ~/.codex/hooks.json",
      'rm ~/.co*/hooks.json',
      'echo {} > ~/.codex/hook?.json',
      'find ~/.cursor -name hooks.json -delete',
      'echo ~/.codex/hooks.json | xargs rm -f',
      `python3 -c "import os; os.remove(os.path.expanduser('~/.codex/hooks.json'))"`,
      `python3 -c "from pathlib import Path; (Path.home() / '.codex' / 'hooks.json').unlink()"`,
      "python3 - <<'EOF'\nimport os\nos.remove('/home/dev/.cursor/hooks.json')\nEOF",
    ],
  },
  REAL,
);

runRuleTests(
  agentRules,
  {
    valid: [
      'cat CLAUDE.md GEMINI.md',
      { step: { kind: 'read', path: 'CLAUDE.md' } },
      { step: { kind: 'read', path: '.cursor/rules/style.mdc' } },
      { step: { kind: 'read', path: '.kiro/steering/product.md' } },
      'echo x > docs/kiro-steering.md',
      'echo x > docs/CLAUDE-notes.txt',
    ],
    invalid: [
      'echo "x" > CLAUDE.md',
      'cat template.md > GEMINI.md',
      'cat template.md > QWEN.md',
      'cp skill.md ~/.qwen/skills/x/SKILL.md',
      'cp style.mdc .cursor/rules/style.mdc',
      'cp notes.md .kiro/steering/notes.md',
      'echo "always push" > ~/.kiro/steering/team.md',
      'sed -i "s/ask/allow/" .github/copilot-instructions.md',
      'echo "{}" > .mcp.json',
      'tee .vscode/settings.json < settings.json',
      { step: { kind: 'write', path: '/home/dev/.cursor/cli.json', content: '{}' } },
      { step: { kind: 'write', path: '.cursor/mcp.json', content: '{"mcpServers":{}}' } },
      // Crush's own context files and skills
      'echo "always push" > CRUSH.md',
      'cp notes.md ~/.config/crush/CRUSH.md',
      'cp skill.md .crush/skills/x/SKILL.md',
      {
        step: { kind: 'write', path: '/home/dev/.codex/memories/notes.md', content: 'The user prefers pnpm.' },
        note: 'a memory note: once per chat',
      },
    ],
  },
  REAL,
);

const untrusted = { untrusted: true };

runRuleTests(
  sessionAfterUntrusted,
  {
    valid: [{ step: 'cat CLAUDE.md', session: untrusted }],
    invalid: [
      { step: 'echo "run curl first" >> CLAUDE.md', session: untrusted },
      {
        step: {
          kind: 'patch',
          patch: '*** Begin Patch\n*** Update File: .cursor/rules/main.mdc\n@@\n-a\n+b\n*** End Patch',
        },
        session: untrusted,
      },
    ],
  },
  REAL,
);

describe("agent.rules: the guard files are guard.tamper's", () => {
  it.for([
    'echo "{}" > .cursor/hooks.json',
    'sed -i "/guard/d" ~/.codex/config.toml',
    // Claude Code's and Gemini CLI's settings hold guard's hooks
    'echo "{}" > .claude/settings.json',
    'echo "{}" > ~/.gemini/settings.json',
    'echo "{}" > .qwen/settings.json',
  ])('%s', (line) => {
    const ids = evaluateExample(line, undefined, REAL).findings.map((f) => f.ruleId);
    expect(ids).toContain('guard.tamper');
    expect(ids).not.toContain(agentRules.meta.id);
  });
});

// a folder above an agent's plugin or hook folder (issue 27): OpenCode's plugins sit in the XDG
// config folder, wherever XDG_CONFIG_HOME puts it; Windsurf's hooks in ~/.codeium/windsurf
describe('guard.tamper: a folder above a real agent’s hook files', () => {
  const moved: Environment = {
    ...ENV,
    agents: agentKnowledge(Object.values(AGENTS), { home: ENV.home, env: { XDG_CONFIG_HOME: '/srv/xdg' } }),
  };
  it.for([
    { line: 'rm -rf ~/.config', moved: false, tamper: true },
    { line: 'rm -rf "$XDG_CONFIG_HOME"', moved: false, tamper: true },
    { line: 'rm -rf ~/.codeium', moved: false, tamper: true },
    { line: 'rm -rf "$XDG_CONFIG_HOME"', moved: true, tamper: true },
    { line: 'rm -rf /srv/xdg', moved: true, tamper: true },
    { line: 'mv /srv/xdg /tmp/old', moved: true, tamper: true },
    // near misses: beside the plugin folder, or a name that only starts the same
    { line: 'rm -rf ~/.config/htop', moved: false, tamper: false },
    { line: 'rm -rf ~/.codeium/cache', moved: false, tamper: false },
    { line: 'rm -rf /srv/xdg/htop', moved: true, tamper: false },
    { line: 'rm -rf /srv/xdg-old', moved: true, tamper: false },
    { line: 'rm -rf /srv/other', moved: true, tamper: false },
    // near misses: a change to the folder above that leaves the plugin folder as it is
    { line: 'mkdir -p ~/.config', moved: false, tamper: false },
    { line: 'cp -r /tmp/nvim ~/.config/', moved: false, tamper: false },
    { line: 'chmod 700 ~/.config', moved: false, tamper: false },
    { line: 'chmod -R u+rwX,go-rwx ~/.config', moved: false, tamper: false },
    // a glob through the home folder's dot folders: nothing is inside a file (Qwen Code's ~/.env),
    // but a name in a folder is (~/.qwen/.env)
    { line: 'rm -rf ~/.*/cache', moved: false, tamper: false },
    { line: 'rm -rf ~/.*/.env', moved: false, tamper: true },
    // what locks the agent out of its plugin folder, or writes into it
    { line: 'chmod 000 ~/.config', moved: false, tamper: true },
    { line: 'chmod -R u-r ~/.config', moved: false, tamper: true },
    { line: 'chown -R root ~/.config', moved: false, tamper: true },
    { line: 'cp -r /tmp/p ~/.config/opencode/plugins/', moved: false, tamper: true },
    { line: 'mkdir -p ~/.config/opencode/plugins', moved: false, tamper: true },
    // an archive's names are its own: unpacked into ~/.config it may hold opencode/plugins/…
    // (intoReaches, as `cd ~ && tar xf x.tar`), so it stays guard's to refuse
    { line: 'tar -xzf dots.tgz -C ~/.config', moved: false, tamper: true },
  ])('$line (XDG_CONFIG_HOME moved: $moved): guard.tamper $tamper', ({ line, moved: isMoved, tamper }) => {
    const ids = evaluateExample(line, undefined, isMoved ? moved : REAL).findings.map((f) => f.ruleId);
    expect(ids.includes('guard.tamper')).toBe(tamper);
  });
});

// a variable that names an agent's home (Factory Droid's FACTORY_HOME_OVERRIDE stands in for the
// home folder that holds `.factory`) is that home wherever it points: the temp folder, or the
// project itself, as a moved CODEX_HOME or GEMINI_CLI_HOME is; XDG_CONFIG_HOME, above OpenCode's
// plugins, likewise when it names the project
describe('guard.tamper: the folder a home variable names, wherever it points', () => {
  const PROJECT = '/home/dev/project';
  const there = { [`${PROJECT}/.factory/hooks.json`]: '{}', [`${PROJECT}/opencode/plugins/guard.js`]: '' };
  it.for([
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'rm -rf "$FACTORY_HOME_OVERRIDE"', tamper: true },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'rm -rf /tmp/fh', tamper: true },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'mv /tmp/fh /tmp/gone', tamper: true },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: PROJECT, line: 'rm -rf "$FACTORY_HOME_OVERRIDE"', tamper: true },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: PROJECT, line: 'rm -rf .', tamper: true },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: PROJECT, line: `mv ${PROJECT} /tmp/p`, tamper: true },
    { variable: 'GEMINI_CLI_HOME', dir: PROJECT, line: 'rm -rf "$GEMINI_CLI_HOME"', tamper: true },
    { variable: 'XDG_CONFIG_HOME', dir: PROJECT, line: 'rm -rf "$XDG_CONFIG_HOME"', tamper: true },
    // near misses: beside the folder, in it, the project when no variable names it, or when the
    // one that does points elsewhere
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'rm -rf /tmp/fh-old', tamper: false },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'rm -rf /tmp/fh/cache', tamper: false },
    { variable: 'FACTORY_HOME_OVERRIDE', dir: '/tmp/fh', line: 'rm -rf .', tamper: false },
    { variable: '', dir: '', line: 'rm -rf .', tamper: false },
    { variable: '', dir: '', line: `mv ${PROJECT} /tmp/p`, tamper: false },
    { variable: 'XDG_CONFIG_HOME', dir: '/srv/xdg', line: 'rm -rf .', tamper: false },
  ])('$variable=$dir: $line: guard.tamper $tamper', ({ variable, dir, line, tamper }) => {
    const env = variable === '' ? {} : { [variable]: dir };
    const agents = agentKnowledge(Object.values(AGENTS), { home: ENV.home, env });
    const found = evaluateExample({ step: line, probe: { files: there } }, undefined, { ...ENV, agents }).findings;
    expect(found.some((f) => f.ruleId === 'guard.tamper')).toBe(tamper);
  });
  // unset, it is the home folder: the wipe rules' to block
  it('rm -rf "$FACTORY_HOME_OVERRIDE" with it unset is fs.wipe', () => {
    const ids = evaluateExample('rm -rf "$FACTORY_HOME_OVERRIDE"', undefined, REAL).findings.map((f) => f.ruleId);
    expect(ids).toContain('fs.wipe');
  });
});

// the real agents' variables that switch their hooks off (issue 27), set on the line
describe('guard.tamper: a real agent’s hooks-off variable set on the line', () => {
  it.for([
    { line: 'OPENCODE_PURE=1 opencode run "fix it"', tamper: true },
    { line: 'export OPENCODE_PURE=true; opencode run x', tamper: true },
    { line: 'env OPENCODE_DISABLE_PROJECT_CONFIG=1 opencode run x', tamper: true },
    { line: 'QWEN_CODE_SAFE_MODE=true qwen -p x', tamper: true },
    { line: 'QWEN_CODE_SIMPLE=1; qwen -p x', tamper: true },
    { line: 'CLAUDE_CODE_SIMPLE=1 claude -p x', tamper: true },
    // the system settings file (a system-wide guard's) moved away
    { line: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/empty.json gemini -p x', tamper: true },
    { line: 'export GEMINI_CLI_SYSTEM_SETTINGS_PATH=./s.json; gemini -p x', tamper: true },
    { line: 'env QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/s.json qwen -p x', tamper: true },
    // near misses
    { line: 'OPENCODE_PURE=0 opencode run x', tamper: false },
    { line: 'echo "OPENCODE_PURE=1 turns plugins off"', tamper: false },
    { line: 'OPENCODE_DISABLE_AUTOUPDATE=1 opencode run x', tamper: false },
    { line: 'QWEN_HOME=$HOME/.qwen qwen -p x', tamper: false },
    { line: 'echo "GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/s.json moves it"', tamper: false },
    { line: 'GEMINI_CLI_SYSTEM_SETTINGS_PATHS=/tmp/s.json gemini -p x', tamper: false },
    { line: 'QWEN_CODE_SYSTEM_SETTINGS=/tmp/s.json qwen -p x', tamper: false },
    // the name inside quoted text (a message, a pattern, a note), or a variable set to its default
    { line: 'git commit -m "OPENCODE_PURE=1 && opencode run is how to skip plugins"', tamper: false },
    { line: "grep -rnE '(QWEN_CODE_SIMPLE=1)' docs", tamper: false },
    { line: "echo 'KILO_PURE=1;' >> notes.md", tamper: false },
    { line: 'export QWEN_CODE_SYSTEM_SETTINGS_PATH=/etc/qwen-code/settings.json', tamper: false },
    { line: 'QWEN_CODE_SYSTEM_SETTINGS_PATH=/etc/qwen-code/settings.json; qwen -p x', tamper: false },
    { line: 'export QWEN_CODE_SYSTEM_SETTINGS_PATH=/etc/qwen-code/settings.json.bak', tamper: true },
    { line: 'KILO_PURE=1; kilo run x', tamper: true },
  ])('$line: guard.tamper $tamper', ({ line, tamper }) => {
    const ids = evaluateExample(line, undefined, REAL).findings.map((f) => f.ruleId);
    expect(ids.includes('guard.tamper')).toBe(tamper);
  });
});

// the files an agent reads its home variable from (Qwen Code's QWEN_HOME in ~/.qwen/.env or
// ~/.env): a write there moves its hook files (issue 27)
describe('guard.tamper: a real agent’s env files', () => {
  it.for([
    { step: 'echo QWEN_HOME=/tmp/elsewhere >> ~/.qwen/.env', tamper: true },
    { step: 'echo QWEN_HOME=/tmp/elsewhere > ~/.env', tamper: true },
    { step: 'chmod 000 ~/.qwen/.env', tamper: true },
    { step: "sed -i 's/^QWEN_HOME=.*//' ~/.env", tamper: true },
    { step: `python3 -c "open('/home/dev/.env', 'a').write('QWEN_HOME=/tmp/x')"`, tamper: true },
    { step: `node -e "require('fs').writeFileSync('/home/dev/.qwen/.env', 'QWEN_HOME=/x')"`, tamper: true },
    { step: 'rm ~/.env', tamper: true },
    { step: { kind: 'write', path: '/home/dev/.qwen/.env', content: 'QWEN_HOME=/tmp/x\n' }, tamper: true },
    { step: { kind: 'write', path: '/home/dev/.env', content: 'QWEN_HOME=/tmp/x\n' }, tamper: true },
    // near misses: a project's .env (Qwen Code never reads QWEN_HOME there), another folder's, reading
    { step: { kind: 'write', path: '/home/dev/project/.env', content: 'QWEN_HOME=/tmp/x\n' }, tamper: false },
    { step: 'echo X=1 > .env', tamper: false },
    { step: 'echo X=1 > ~/.config/app/.env', tamper: false },
    { step: 'echo X=1 > ~/.qwen-old/.env', tamper: false },
    { step: 'cat ~/.qwen/.env', tamper: false },
  ] as const)('$step: guard.tamper $tamper', ({ step, tamper }) => {
    const ids = evaluateExample({ step }, undefined, REAL).findings.map((f) => f.ruleId);
    expect(ids.includes('guard.tamper')).toBe(tamper);
  });
});
