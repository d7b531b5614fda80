import { describe, expect, it } from 'vitest';
import { AGENTS, agentKnowledge } from '../../packages/adapters/src/agents.js';
import { NO_AGENTS } from '../../packages/core/src/facts/agents.js';
import type { PathContext } from '../../packages/core/src/facts/paths.js';
import { pathFacts } from '../../packages/core/src/facts/paths.js';

/**
 * What the real agents' files are to guard, as their adapters declare them (core's own tests use a
 * stand-in agent): rules, settings, MCP and memory files for agent.rules, hook files for
 * guard.tamper, in their default folders and in folders their variables move.
 */

const HOME = '/home/dev';
const world = (env: Readonly<Record<string, string>> = {}, tmp = '/var/folders/xy/T'): PathContext => ({
  cwd: '/home/dev/project/src',
  projectRoot: '/home/dev/project',
  home: HOME,
  tmp,
  guardHome: '/home/dev/.local/state/guard',
  agents: agentKnowledge(Object.values(AGENTS), { home: HOME, env }),
});
const ctx = world();
const REAL = ctx.agents ?? NO_AGENTS;

describe('the real agents: agentRules', () => {
  it.for([
    ['../AGENTS.md', 'rules'],
    ['packages/x/AGENTS.md', 'rules'],
    ['CLAUDE.md', 'rules'],
    ['~/.gemini/GEMINI.md', 'rules'],
    ['~/.codex/AGENTS.md', 'rules'],
    ['../.cursor/rules/style.mdc', 'rules'],
    ['../.cursorrules', 'rules'],
    ['../.github/copilot-instructions.md', 'rules'],
    ['../.github/instructions/ts.instructions.md', 'rules'],
    ['../.agents/rules/x.md', 'rules'],
    ['~/.agents/skills/guard/SKILL.md', 'rules'],
    ['../.claude/settings.json', 'settings'],
    ['../.claude/settings.local.json', 'settings'],
    ['../.codex/config.toml', 'settings'],
    ['~/.gemini/settings.json', 'settings'],
    ['../.vscode/settings.json', 'settings'],
    ['../.cursor/cli.json', 'settings'],
    ['~/.copilot/config.json', 'settings'],
    ['../.mcp.json', 'mcp'],
    ['../.cursor/mcp.json', 'mcp'],
    ['../.vscode/mcp.json', 'mcp'],
    ['~/.copilot/mcp-config.json', 'mcp'],
    ['~/.claude.json', 'mcp'],
    ['~/.gemini/extensions/tools/gemini-extension.json', 'mcp'],
    ['~/.gemini/extensions/tools/server/index.js', 'rules'],
    ['~/.codex/memories/notes.md', 'memory-note'],
    ['~/.claude/projects/-home-dev-project/memory/MEMORY.md', 'memory-note'],
    ['../QWEN.md', 'rules'],
    ['~/.qwen/QWEN.md', 'rules'],
    ['~/.qwen/output-language.md', 'rules'],
    ['~/.qwen/skills/review/SKILL.md', 'rules'],
    ['../.qwen/commands/ship.md', 'rules'],
    ['~/.qwen/extensions/tools/qwen-extension.json', 'mcp'],
    ['~/.qwen/extensions/tools/server/index.js', 'rules'],
    ['~/.qwen/projects/-home-dev-project/memory/notes.md', 'memory-note'],
  ] as const)('%s → %s', ([raw, kind]) => {
    expect(pathFacts(raw, ctx).agentRules).toBe(kind);
  });

  it.for([
    'claude.ts',
    '../.vscode/extensions.json',
    '../.cursor/notes.txt',
    '../.claude/notes.md',
    '~/.claude/projects/-home-dev-project/abc.jsonl',
    // near misses of the files above: another name beside them, the same name in a project
    '~/.claude.json.backup',
    '../.claude.json',
    '~/.gemini/extension-notes/x/gemini-extension.json',
    '../QWEN.md.bak',
    '~/.qwen/projects/-home-dev-project/chats/x.jsonl',
  ])('%s is not an agent rules file', (raw) => {
    expect(pathFacts(raw, ctx).agentRules).toBeUndefined();
  });
});

describe('the real agents: guardFile', () => {
  it.for([
    ['~/.codex/hooks.json', 'hook-config'],
    ['~/.codex/config.toml', 'hook-config'],
    ['../.codex/hooks.json', 'hook-config'],
    ['../.codex/config.toml', 'hook-config'],
    ['~/.cursor/hooks.json', 'hook-config'],
    ['../.cursor/hooks.json', 'hook-config'],
    ['~/.gemini/config/hooks.json', 'hook-config'],
    ['~/.gemini/config', 'hook-config'],
    ['../.agents/hooks.json', 'hook-config'],
    ['~/.copilot/hooks/guard.json', 'hook-config'],
    ['~/.copilot/hooks', 'hook-config'],
    ['~/.copilot/settings.json', 'hook-config'],
    ['../.github/hooks/guard.json', 'hook-config'],
    ['../.github/copilot/settings.json', 'hook-config'],
    ['~/.codex', 'hook-config'],
    ['~/.cursor', 'hook-config'],
    ['/etc/github-copilot/policy.d/x.json', 'hook-config'],
    ['$CODEX_HOME/hooks.json', 'hook-config'],
    ['~/.claude/settings.json', 'hook-config'],
    ['../.claude/settings.json', 'hook-config'],
    ['../.claude/settings.local.json', 'hook-config'],
    ['~/.claude', 'hook-config'],
    ['/etc/claude-code/managed-settings.json', 'hook-config'],
    ['~/.gemini/settings.json', 'hook-config'],
    ['../.gemini/settings.json', 'hook-config'],
    ['~/.gemini/trustedFolders.json', 'hook-config'],
    ['/etc/gemini-cli/settings.json', 'hook-config'],
    ['~/.qwen/settings.json', 'hook-config'],
    ['../.qwen/settings.json', 'hook-config'],
    ['~/.qwen', 'hook-config'],
    ['~/.qwen/trustedFolders.json', 'hook-config'],
    ['/etc/qwen-code/settings.json', 'hook-config'],
    ['/etc/qwen-code/system-defaults.json', 'hook-config'],
    ['~/.cline/hooks/PreToolUse.bash', 'hook-config'],
    ['~/Documents/Cline/Hooks/TaskStart', 'hook-config'],
    ['../.clinerules/hooks/PreToolUse', 'hook-config'],
    ['../.cline/hooks/PreToolUse.py', 'hook-config'],
    ['~/.cline/plugins/x.js', 'hook-config'],
  ] as const)('%s → %s', ([raw, kind]) => {
    expect(pathFacts(raw, ctx).guardFile).toBe(kind);
  });

  it.for([
    '../.cursor/rules/a.mdc',
    '~/.codex/memories/x.md',
    '../.claude/notes.md',
    '../.claude/settings.example.json',
    '../claude/settings.json',
    '~/.claude/CLAUDE.md',
    '~/.gemini/GEMINI.md',
    '~/.gemini/antigravity/settings.json',
    '/etc/claude-codes/x.json',
    '~/.qwen/QWEN.md',
    '../.qwen/settings.example.json',
    // a project's .env cannot move Qwen Code's folder (it ignores QWEN_HOME there)
    '../.env',
    '/etc/qwen-codes/settings.json',
    '~/.cline/hooksx/PreToolUse',
    '../.clinerules/rules.md',
  ])('%s is not a guard file', (raw) => {
    expect(pathFacts(raw, ctx).guardFile).toBeUndefined();
  });

  it('on Windows', () => {
    const win: PathContext = {
      cwd: 'C:\\Users\\dev\\project',
      projectRoot: 'C:\\Users\\dev\\project',
      home: 'C:\\Users\\dev',
      tmp: 'C:\\Users\\dev\\AppData\\Local\\Temp',
      agents: REAL,
    };
    expect(pathFacts('C:\\Users\\dev\\.codex\\hooks.json', win).guardFile).toBe('hook-config');
    expect(pathFacts('C:\\ProgramData\\GitHub\\Copilot\\policy.d\\x.json', win).guardFile).toBe('hook-config');
    expect(pathFacts('C:\\Program Files\\ClaudeCode\\managed-settings.json', win).guardFile).toBe('hook-config');
  });
});
