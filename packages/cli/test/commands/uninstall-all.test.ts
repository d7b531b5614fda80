import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentId, ConfigLevel } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusJson } from '../../src/agents/inspect.js';
import { uninstallAll } from '../../src/commands/uninstall.js';
import { captureIo } from '../capture-io.js';
import { makeAgentHome, readIfThere } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

let box: AgentHome;
beforeEach(() => {
  box = makeAgentHome();
  box.env.CODEX_HOME = join(box.root, 'codex-home');
  box.env.COPILOT_HOME = join(box.root, 'copilot-home');
});
afterEach(() => box.cleanup());

/** Where each agent's files are (written out here, not asked of the adapters). */
const PATHS: Record<AgentId, Record<ConfigLevel, (b: AgentHome) => string>> = {
  codex: {
    user: (b) => join(b.root, 'codex-home', 'hooks.json'),
    project: (b) => join(b.project, '.codex', 'hooks.json'),
  },
  cursor: {
    user: (b) => join(b.home, '.cursor', 'hooks.json'),
    project: (b) => join(b.project, '.cursor', 'hooks.json'),
  },
  antigravity: {
    user: (b) => join(b.home, '.gemini', 'config', 'hooks.json'),
    project: (b) => join(b.project, '.agents', 'hooks.json'),
  },
  copilot: {
    user: (b) => join(b.root, 'copilot-home', 'hooks', 'guard.json'),
    project: (b) => join(b.project, '.github', 'hooks', 'guard.json'),
  },
  'claude-code': {
    user: (b) => join(b.home, '.claude', 'settings.json'),
    project: (b) => join(b.project, '.claude', 'settings.json'),
  },
  gemini: {
    user: (b) => join(b.home, '.gemini', 'settings.json'),
    project: (b) => join(b.project, '.gemini', 'settings.json'),
  },
  opencode: {
    user: (b) => join(b.home, '.config', 'opencode', 'plugins', 'guard.js'),
    project: (b) => join(b.project, '.opencode', 'plugins', 'guard.js'),
  },
  kilo: {
    user: (b) => join(b.home, '.config', 'kilo', 'plugins', 'guard.js'),
    project: (b) => join(b.project, '.kilo', 'plugins', 'guard.js'),
  },
  qwen: {
    user: (b) => join(b.home, '.qwen', 'settings.json'),
    project: (b) => join(b.project, '.qwen', 'settings.json'),
  },
  windsurf: {
    user: (b) => join(b.home, '.codeium', 'windsurf', 'hooks.json'),
    project: (b) => join(b.project, '.windsurf', 'hooks.json'),
  },
  droid: {
    user: (b) => join(b.home, '.factory', 'hooks.json'),
    project: (b) => join(b.project, '.factory', 'hooks.json'),
  },
  cline: {
    user: (b) => join(b.home, '.cline', 'hooks', 'PreToolUse.bash'),
    project: (b) => join(b.project, '.clinerules', 'hooks', 'PreToolUse.bash'),
  },
  crush: {
    user: (b) => join(b.home, '.config', 'crush', 'crush.json'),
    project: (b) => join(b.project, 'crush.json'),
  },
  auggie: {
    user: (b) => join(b.home, '.augment', 'settings.json'),
    project: (b) => join(b.project, '.augment', 'settings.json'),
  },
  kiro: {
    user: (b) => join(b.home, '.kiro', 'agents', 'guard.json'),
    project: (b) => join(b.project, '.kiro', 'agents', 'guard.json'),
  },
};
const AGENTS = Object.keys(PATHS) as AgentId[];
const LEVELS: readonly ConfigLevel[] = ['user', 'project'];
const NAMES: Record<AgentId, string> = {
  codex: 'Codex',
  cursor: 'Cursor',
  antigravity: 'Antigravity',
  copilot: 'GitHub Copilot',
  'claude-code': 'Claude Code',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  kilo: 'Kilo Code CLI',
  qwen: 'Qwen Code',
  windsurf: 'Windsurf',
  droid: 'Factory Droid',
  cline: 'Cline',
  crush: 'Crush',
  auggie: 'Augment Auggie',
  kiro: 'Kiro CLI',
};

const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

async function setUp(agent: AgentId, level: ConfigLevel): Promise<void> {
  const result = await box.guard('setup', agent, ...(level === 'project' ? ['--project'] : []));
  expect(result, `setup ${agent} ${level}`).toMatchObject({ code: 0, stderr: '' });
}

async function installedAnywhere(): Promise<string[]> {
  const report = JSON.parse((await box.guard('status', '--json')).stdout) as StatusJson;
  return report.agents.flatMap((agent) =>
    agent.levels.filter((level) => level.installed).map((level) => `${agent.agent} ${level.level}`),
  );
}

describe('guard uninstall --all', () => {
  it.for([
    { row: 'no file and no guard folder', files: false, guardFolder: false },
    // the person's own files (one of them broken) hold nothing of guard's: not touched, not reported
    { row: "the person's own files, one broken, and guard's folder", files: true, guardFolder: true },
  ])('with nothing set up ($row): says so once, changes nothing, exit 0', async ({ files, guardFolder }) => {
    const theirs: Record<string, string> = files
      ? {
          [PATHS['claude-code'].user(box)]: '{ "model": "sonnet", }\n',
          [PATHS.cursor.project(box)]: '{ "version": 1, "hooks": {} }\n',
        }
      : {};
    for (const [file, text] of Object.entries(theirs)) write(file, text);
    if (guardFolder) mkdirSync(box.guardHome, { recursive: true });
    const result = await box.guard('uninstall', '--all');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        'guard was not set up for any agent, at the user level or in this project; nothing changed.',
        ...(guardFolder
          ? [
              `guard's own folder is left as it is: ${box.guardHome} (settings, log, chats' memory); delete it to drop those too.`,
            ]
          : []),
        '',
      ].join('\n'),
    );
    for (const [file, text] of Object.entries(theirs)) expect(readIfThere(file)).toBe(text);
    for (const agent of AGENTS)
      for (const level of LEVELS) expect(existsSync(PATHS[agent][level](box))).toBe(PATHS[agent][level](box) in theirs);
  });

  it.for(AGENTS.flatMap((agent) => LEVELS.map((level) => ({ agent, level }))))(
    'takes out $agent at the $level level, and says so for that file',
    async ({ agent, level }) => {
      await setUp(agent, level);
      const file = PATHS[agent][level](box);
      expect(existsSync(file)).toBe(true);
      const result = await box.guard('uninstall', '--all');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`${NAMES[agent]} (${level}): Removed ${file} (guard had created it).\n`);
      expect(existsSync(file)).toBe(false);
      // the other level of the same agent, and every other agent, had nothing: not named at all
      expect(result.stdout).not.toContain('guard is not set up in');
      expect(result.stdout.match(/^[^:\n]+ \((user|project)\): /gm)).toHaveLength(1);
      expect(result.stdout).not.toContain('guard was not set up for any agent');
      expect(result.stdout.match(/^Next: /gm)).toHaveLength(1);
      expect(await installedAnywhere()).toEqual([]);
    },
  );

  it('takes out every agent at both levels at once, and gives back what the person had', async () => {
    const mine = '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "./bye.sh" }]\n  }\n}\n';
    write(PATHS.cursor.user(box), mine);
    for (const agent of AGENTS) for (const level of LEVELS) await setUp(agent, level);
    expect(await installedAnywhere()).toHaveLength(AGENTS.length * LEVELS.length);

    const result = await box.guard('uninstall', '--all');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readIfThere(PATHS.cursor.user(box))).toBe(mine);
    expect(result.stdout).toContain(
      `Cursor (user): Restored ${PATHS.cursor.user(box)} exactly as it was before guard's setup.\n`,
    );
    for (const agent of AGENTS) {
      for (const level of LEVELS) {
        if (agent !== 'cursor' || level !== 'user') expect(existsSync(PATHS[agent][level](box))).toBe(false);
      }
    }
    expect(result.stdout).not.toContain('not set up');
    // one next step per agent, not per file
    expect(result.stdout.match(/^Next: /gm)).toHaveLength(AGENTS.length);
    expect(result.stdout).toContain(
      'Next: quit Antigravity completely and start it again, so it stops calling guard.\n',
    );
    expect(await installedAnywhere()).toEqual([]);
    // a second run finds nothing left
    expect((await box.guard('uninstall', '--all')).stdout).toContain('guard was not set up for any agent');
  });

  it('a file of guard it cannot read fails the command at the end, after every other file is done', async () => {
    await setUp('codex', 'user');
    await setUp('copilot', 'project');
    // guard's entry is in it, but the person broke the file after setup
    const broken =
      '{\n  "version": 1,\n  "hooks": {\n    "beforeShellExecution": [{ "command": "guard hook cursor" }\n';
    write(PATHS.cursor.user(box), broken);
    const result = await box.guard('uninstall', '--all');
    expect(result.code).toBe(1);
    expect(existsSync(PATHS.codex.user(box))).toBe(false);
    expect(existsSync(PATHS.copilot.project(box))).toBe(false);
    expect(readIfThere(PATHS.cursor.user(box))).toBe(broken);
    expect(result.stderr).toMatch(
      new RegExp(`^Cursor \\(user\\): ${escape(PATHS.cursor.user(box))}:\\d+: .*guard changed nothing\\.\n`),
    );
    expect(result.stderr).toContain(
      `guard: guard could not be taken out of ${PATHS.cursor.user(box)} (see above); the other files are done.\n` +
        'Fix what is named above, then run `guard uninstall --all` again.\n',
    );
    expect(result.stdout).toContain(`Codex (user): Removed ${PATHS.codex.user(box)}`);
  });

  it("run from the home folder, where the project's file is the user's own, lists that file once", async () => {
    await setUp('cursor', 'user');
    const { io, stdout } = captureIo({ cwd: box.home, home: box.home });
    await uninstallAll({ ...io, env: box.env });
    const cursorFile = join(box.home, '.cursor', 'hooks.json');
    expect(stdout().match(new RegExp(escape(cursorFile), 'g'))).toHaveLength(1);
    expect(stdout()).toContain(`Cursor (user): Removed ${cursorFile} (guard had created it).\n`);
    expect(stdout()).not.toContain('Cursor (project)');
    // no other agent's file holds guard's entries, so none is named
    expect(stdout()).not.toContain('GitHub Copilot');
  });
});

describe('guard uninstall: usage', () => {
  it.for([
    { args: ['uninstall'], stderr: /^guard: Name the agent to take guard out of, or pass --all\.\n/ },
    { args: ['uninstall', '--all', 'codex'], stderr: /^guard: --all takes guard out of every agent .* no agent\.\n/ },
    { args: ['uninstall', '--all', '--project'], stderr: /^guard: --all .* no --project\.\n/ },
    { args: ['uninstall', 'claude'], stderr: /value 'claude' is invalid for argument 'agent'/ },
  ])('guard $args: exit 2, nothing changed', async ({ args, stderr }) => {
    await setUp('cursor', 'user');
    const result = await box.guard(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(stderr);
    expect(existsSync(PATHS.cursor.user(box))).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
