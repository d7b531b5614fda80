import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { adapters, AGENT_IDS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardCodexHooks, withoutCodexTrust } from '../../../adapters/src/codex/trust.js';
import { setup } from '../../src/commands/setup.js';
import { captureIo } from '../capture-io.js';
import { makeAgentHome, mtimeOf, readIfThere, setupOptions } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

let box: AgentHome;
beforeEach(() => {
  box = makeAgentHome();
  box.env.CODEX_HOME = join(box.root, 'codex-home');
  box.env.COPILOT_HOME = join(box.root, 'copilot-home');
});
afterEach(() => box.cleanup());

/** Where each agent's files must land (written out here, not asked of the adapters). */
const PATHS: Record<AgentId, { user: (b: AgentHome) => string; project: (b: AgentHome) => string }> = {
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
  // guard's own agent: Kiro's hooks belong to an agent file
  kiro: {
    user: (b) => join(b.home, '.kiro', 'agents', 'guard.json'),
    project: (b) => join(b.project, '.kiro', 'agents', 'guard.json'),
  },
};

/** A person's own config per agent, in a layout guard would never write (indent, order, no final newline). */
const USER_FILES: Record<EditedAgent, string> = {
  codex:
    '{\n    "description": "my hooks",\n    "hooks": {\n        "Stop": [\n            { "hooks": [ { "type": "command", "command": "notify-send done" } ] }\n        ]\n    }\n}\n',
  cursor: '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./format.sh" }]\n  }\n}\n',
  antigravity:
    '{\n  "lint": {\n    "PostToolUse": [\n      { "matcher": "run_command", "hooks": [{ "type": "command", "command": "./lint.sh", "timeout": 10 }] }\n    ]\n  }\n}',
  copilot: '{"version":1,"hooks":{"sessionEnd":[{"type":"command","bash":"./bye.sh"}]}}',
  'claude-code':
    '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(npm test)"] },\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "./done.sh" }] }]\n    }\n}',
  gemini:
    '// mine\n{\n\t"ui": { "theme": "GitHub" }, /* light */\n\t"hooks": { "SessionEnd": [{ "hooks": [{ "name": "bye", "type": "command", "command": "./bye.sh" }] }] }\n}\n',
  qwen: '{\n    "$version": 4, // mine\n    "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "./done.sh" }] }] }\n}',
  windsurf:
    '{\n    "hooks": {\n        "post_cascade_response": [ { "command": "./notify.sh", "show_output": false } ]\n    }\n}',
  droid:
    '{\n    // mine\n    "Stop": [{ "hooks": [{ "type": "command", "command": "./done.sh", "timeout": 5 }] }],\n    "showHookOutput": true\n}',
  crush:
    '{\n    "$schema": "https://charm.land/crush.json",\n    "hooks": { "PreToolUse": [ { "matcher": "^bash$", "command": "./audit.sh" } ] }\n}',
  auggie:
    '{\n    "model": "sonnet", // mine\n    "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "./done.sh", "timeout": 5000 }] }] }\n}',
  // an agent of the person's own that is already named guard
  kiro: '{\n    "name": "guard",\n    "tools": ["*"],\n    "hooks": {\n        "stop": [ { "command": "./notify.sh" } ]\n    }\n}',
};

/** A change the person makes to their own part of the file after setup. */
const EDITS: Record<EditedAgent, readonly [string, string]> = {
  codex: ['notify-send done', 'notify-send finished'],
  cursor: ['./format.sh', './fmt.sh'],
  antigravity: ['./lint.sh', './lint-all.sh'],
  copilot: ['./bye.sh', './ciao.sh'],
  'claude-code': ['./done.sh', './finished.sh'],
  gemini: ['./bye.sh', './ciao.sh'],
  qwen: ['./done.sh', './finished.sh'],
  windsurf: ['./notify.sh', './ping.sh'],
  droid: ['./done.sh', './finished.sh'],
  crush: ['./audit.sh', './check.sh'],
  auggie: ['./done.sh', './finished.sh'],
  kiro: ['./notify.sh', './ping.sh'],
};

const AGENTS = Object.keys(PATHS) as AgentId[];
/**
 * The agents whose hook file the person shares with guard (OpenCode's is a plugin file of guard's
 * alone, and Cline's a hook file of guard's alone beside the person's: below).
 */
type EditedAgent = Exclude<AgentId, 'opencode' | 'kilo' | 'cline'>;
const EDITED = AGENTS.filter(
  (agent): agent is EditedAgent => agent !== 'opencode' && agent !== 'kilo' && agent !== 'cline',
);
const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

describe.each(EDITED)('guard setup %s', (agent) => {
  const adapter = adapters[agent];
  // the box moves guard's folder (GUARD_HOME): an agent that cleans its hooks' environment is told where it is
  const options = () => setupOptions(agent, { guardHome: box.guardHome });

  it('creates a missing file and its folders, and uninstall takes both away again', async () => {
    const file = PATHS[agent].user(box);
    const before = readdirSync(box.root).sort();
    const result = await box.guard('setup', agent);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(
      `Created ${file} with guard's hook (events: ${adapter.capabilities.events.join(', ')}).`,
    );
    expect(result.stdout).toMatch(/\nNext: .+\n$/);
    expect(readIfThere(file)).toBe(adapter.install('', options()));
    expect(existsSync(`${file}.guard-backup`)).toBe(false);

    const removed = await box.guard('uninstall', agent);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toContain(`Removed ${file} (guard had created it).`);
    expect(existsSync(file)).toBe(false);
    // the folders guard made are gone too; guard's own folder (records) stays
    expect(readdirSync(box.root).sort()).toEqual([...before, 'guard'].sort());
  });

  it("keeps every byte of the person's file, backs it up once, and uninstall gives it back exactly", async () => {
    const file = PATHS[agent].user(box);
    write(file, USER_FILES[agent]);
    const result = await box.guard('setup', agent);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Updated ${file}: added guard's hook`);
    expect(result.stdout).toContain(`Kept a copy of the original in ${file}.guard-backup.`);
    const after = readIfThere(file) as string;
    expect(after).toBe(adapter.install(USER_FILES[agent], options()));
    expect(adapter.uninstall(after)).toBe(USER_FILES[agent]);
    expect(readIfThere(`${file}.guard-backup`)).toBe(USER_FILES[agent]);

    const removed = await box.guard('uninstall', agent);
    expect(removed.code).toBe(0);
    expect(readIfThere(file)).toBe(USER_FILES[agent]);
    expect(existsSync(`${file}.guard-backup`)).toBe(false);
  });

  it.runIf(process.platform !== 'win32').for([
    { name: '0600 under umask 022', mode: 0o600, umask: 0o022 },
    { name: '0644 under umask 077', mode: 0o644, umask: 0o077 },
    { name: '0640 under umask 002', mode: 0o640, umask: 0o002 },
    { name: '0664 under umask 000', mode: 0o664, umask: 0o000 },
  ])(
    "keeps the file's mode ($name) through setup and uninstall, and its backup is no easier to read",
    async ({ mode, umask }) => {
      const file = PATHS[agent].user(box);
      write(file, USER_FILES[agent]);
      chmodSync(file, mode);
      const modeOf = (path: string): number => statSync(path).mode & 0o777;
      const saved = process.umask(umask);
      try {
        expect((await box.guard('setup', agent)).code).toBe(0);
        expect(modeOf(file)).toBe(mode);
        expect(modeOf(`${file}.guard-backup`)).toBe(mode & ~umask);
        expect((await box.guard('uninstall', agent)).code).toBe(0);
        expect(readIfThere(file)).toBe(USER_FILES[agent]);
        expect(modeOf(file)).toBe(mode);
        // a person's change after setup: uninstall edits the text, and the mode stays too
        expect((await box.guard('setup', agent)).code).toBe(0);
        write(file, (readIfThere(file) as string).replace(...EDITS[agent]));
        expect((await box.guard('uninstall', agent)).code).toBe(0);
        expect(readIfThere(file)).toBe(USER_FILES[agent].replace(...EDITS[agent]));
        expect(modeOf(file)).toBe(mode);
      } finally {
        process.umask(saved);
      }
    },
  );

  it.runIf(process.platform !== 'win32').for(['022', '077'])(
    'a file setup creates is 0644 less the umask (%s)',
    async (octal) => {
      const umask = Number.parseInt(octal, 8);
      const saved = process.umask(umask);
      try {
        expect((await box.guard('setup', agent)).code).toBe(0);
        expect(statSync(PATHS[agent].user(box)).mode & 0o777).toBe(0o644 & ~umask);
      } finally {
        process.umask(saved);
      }
    },
  );

  it('a second setup changes nothing and says so', async () => {
    const file = PATHS[agent].user(box);
    write(file, USER_FILES[agent]);
    await box.guard('setup', agent);
    const bytes = readIfThere(file);
    const mtime = mtimeOf(file);
    const again = await box.guard('setup', agent);
    // Codex alone repeats how to trust the hook, while Codex does not trust it yet
    const trust =
      agent === 'codex'
        ? 'Next: open Codex in a terminal, type /hooks, and trust the guard hook; until then Codex skips it without a word.\n'
        : '';
    expect(again).toEqual({ code: 0, stdout: `Already set up: ${file} (nothing changed).\n${trust}`, stderr: '' });
    expect(readIfThere(file)).toBe(bytes);
    expect(mtimeOf(file)).toBe(mtime);
  });

  it('refuses a file that does not parse, naming the file and line, and writes nothing', async () => {
    const file = PATHS[agent].user(box);
    const broken = '{\n  "version": 1,\n  "hooks": {\n    "x": [1,, 2]\n  }\n}\n';
    write(file, broken);
    const result = await box.guard('setup', agent);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^guard: ${escape(file)}:4: .+\\. guard wrote nothing\\.\\nFix that line`),
    );
    expect(readIfThere(file)).toBe(broken);
    // nothing beside it either (no backup, no temporary file)
    expect(readdirSync(dirname(file))).toEqual([file.slice(dirname(file).length + 1)]);
    expect(existsSync(join(box.guardHome, 'installs.json'))).toBe(false);
  });

  it('--dry-run prints a diff and writes nothing (existing file)', async () => {
    const file = PATHS[agent].user(box);
    write(file, USER_FILES[agent]);
    const mtime = mtimeOf(file);
    const result = await box.guard('setup', agent, '--dry-run');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Would update ${file} (dry run: nothing written):\n--- ${file}\n+++ ${file}\n@@ -`);
    expect(result.stdout).toContain(`hook ${agent}`);
    expect(result.stdout.split('\n').some((line) => line.startsWith('+') && line.includes(`hook ${agent}`))).toBe(true);
    expect(readIfThere(file)).toBe(USER_FILES[agent]);
    expect(mtimeOf(file)).toBe(mtime);
    expect(existsSync(`${file}.guard-backup`)).toBe(false);
    expect(existsSync(box.guardHome)).toBe(false);
  });

  it('--dry-run on a missing file shows the whole new file and creates no folder', async () => {
    const file = PATHS[agent].user(box);
    const result = await box.guard('setup', agent, '--dry-run');
    expect(result.code).toBe(0);
    const lines = adapter.install('', options()).trimEnd().split('\n');
    expect(result.stdout).toBe(
      `Would create ${file} (dry run: nothing written):\n--- /dev/null\n+++ ${file}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}\n`).join('')}`,
    );
    expect(existsSync(dirname(file))).toBe(false);
  });

  it('--project writes the project file at the git root, not in the cwd or the home folder', async () => {
    const result = await box.guard('setup', agent, '--project');
    expect(result.code).toBe(0);
    const file = PATHS[agent].project(box);
    expect(result.stdout).toContain(`Created ${file}`);
    expect(result.stdout).toContain(
      `This file applies only when ${adapter.displayName} works in this project${adapter.projectNeedsTrust ? ', and only once you trust this folder there' : ''}.\n`,
    );
    expect(readIfThere(file)).toBe(adapter.install('', options()));
    expect(existsSync(PATHS[agent].user(box))).toBe(false);
    expect(readdirSync(box.cwd)).toEqual([]);

    expect((await box.guard('uninstall', agent)).stdout).toBe(`guard is not set up in ${PATHS[agent].user(box)}.\n`);
    expect((await box.guard('uninstall', agent, '--project')).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(box.project)).toEqual(['.git', 'src']);
  });

  it('uninstall keeps what the person changed after setup, and takes only guard out', async () => {
    const file = PATHS[agent].user(box);
    write(file, USER_FILES[agent]);
    await box.guard('setup', agent);
    const [mine, changed] = EDITS[agent];
    write(file, (readIfThere(file) as string).replace(mine, changed));
    const result = await box.guard('uninstall', agent);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Removed guard's hook from ${file}; the rest of the file is as it was.`);
    expect(readIfThere(file)).toBe(USER_FILES[agent].replace(mine, changed));
  });
});

describe("guard setup opencode: a plugin file of guard's alone", () => {
  const adapter = adapters.opencode;
  const options = () => setupOptions('opencode', { guardHome: box.guardHome });

  it('creates the plugin and its folders; a second setup changes nothing; uninstall removes both', async () => {
    const file = PATHS.opencode.user(box);
    const before = readdirSync(box.root).sort();
    const result = await box.guard('setup', 'opencode');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Created ${file} with guard's hook (events: tool.execute.before, chat.message).`);
    expect(readIfThere(file)).toBe(adapter.install('', options()));
    expect((await box.guard('setup', 'opencode')).stdout).toBe(`Already set up: ${file} (nothing changed).\n`);
    const removed = await box.guard('uninstall', 'opencode');
    expect(removed.stdout).toContain(`Removed ${file} (guard had created it).`);
    expect(readdirSync(box.root).sort()).toEqual([...before, 'guard'].sort());
  });

  it("a plugin of the person's own named guard.js is refused and left as it was, and beside it guard's is written in no other name", async () => {
    const file = PATHS.opencode.user(box);
    const mine = 'export default { id: "mine", server: async () => ({}) };\n';
    write(file, mine);
    const result = await box.guard('setup', 'opencode');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not guard's for OpenCode; move it aside/);
    expect(readIfThere(file)).toBe(mine);
    expect(readdirSync(dirname(file))).toEqual(['guard.js']);
    expect((await box.guard('uninstall', 'opencode')).stdout).toBe(`guard is not set up in ${file}.\n`);
    expect(readIfThere(file)).toBe(mine);
  });

  it("--dry-run shows the whole file and creates no folder; --project writes the project's plugin folder", async () => {
    const file = PATHS.opencode.user(box);
    const dry = await box.guard('setup', 'opencode', '--dry-run');
    expect(dry.stdout).toMatch(
      new RegExp(`^Would create ${escape(file)} \\(dry run: nothing written\\):\n--- /dev/null\n`),
    );
    expect(existsSync(dirname(dirname(file)))).toBe(false);
    const project = await box.guard('setup', 'opencode', '--project');
    expect(project.stdout).toContain(`Created ${PATHS.opencode.project(box)}`);
    expect(project.stdout).toContain('This file applies only when OpenCode works in this project.\n');
    expect(existsSync(file)).toBe(false);
    expect((await box.guard('uninstall', 'opencode', '--project')).code).toBe(0);
    expect(existsSync(PATHS.opencode.project(box))).toBe(false);
  });
});

describe("guard setup cline: a hook file of guard's alone, beside the person's", () => {
  const adapter = adapters.cline;
  const options = () => setupOptions('cline', { guardHome: box.guardHome });
  const MINE = '#!/bin/sh\n# mine: every tool step goes to my audit log\ncat >> ~/audit.jsonl\n';

  it("creates guard's file beside the person's own PreToolUse, which stays byte for byte; uninstall gives the folder back", async () => {
    const file = PATHS.cline.user(box);
    const mine = join(dirname(file), 'PreToolUse');
    write(mine, MINE);
    const result = await box.guard('setup', 'cline');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Created ${file} with guard's hook (events: PreToolUse).`);
    expect(readIfThere(file)).toBe(adapter.install('', options()));
    expect(readIfThere(mine)).toBe(MINE);
    expect(readdirSync(dirname(file)).sort()).toEqual(['PreToolUse', 'PreToolUse.bash']);
    expect((await box.guard('setup', 'cline')).stdout).toBe(`Already set up: ${file} (nothing changed).\n`);
    const removed = await box.guard('uninstall', 'cline');
    expect(removed.stdout).toContain(`Removed ${file} (guard had created it).`);
    expect(readdirSync(dirname(file))).toEqual(['PreToolUse']);
    expect(readIfThere(mine)).toBe(MINE);
  });

  it('with no hooks folder: setup creates it, uninstall removes it while it is empty', async () => {
    const before = readdirSync(box.home).sort();
    expect((await box.guard('setup', 'cline')).code).toBe(0);
    expect((await box.guard('uninstall', 'cline')).code).toBe(0);
    expect(readdirSync(box.home).sort()).toEqual(before);
  });

  it("a PreToolUse.bash of the person's own is refused and left as it was", async () => {
    const file = PATHS.cline.user(box);
    write(file, MINE);
    const result = await box.guard('setup', 'cline');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not guard's for Cline; move it aside/);
    expect(readIfThere(file)).toBe(MINE);
    expect(readdirSync(dirname(file))).toEqual(['PreToolUse.bash']);
    expect((await box.guard('uninstall', 'cline')).stdout).toBe(`guard is not set up in ${file}.\n`);
    expect(readIfThere(file)).toBe(MINE);
  });

  it("--dry-run shows the whole file and creates no folder; --project writes the workspace's .clinerules/hooks", async () => {
    const file = PATHS.cline.user(box);
    const dry = await box.guard('setup', 'cline', '--dry-run');
    expect(dry.stdout).toMatch(
      new RegExp(`^Would create ${escape(file)} \\(dry run: nothing written\\):\n--- /dev/null\n`),
    );
    expect(dry.stdout).toContain('+#!/bin/sh\n');
    expect(existsSync(join(box.home, '.cline'))).toBe(false);
    const project = await box.guard('setup', 'cline', '--project');
    expect(project.stdout).toContain(`Created ${PATHS.cline.project(box)}`);
    expect(project.stdout).toContain('This file applies only when Cline works in this project.\n');
    expect(existsSync(file)).toBe(false);
    expect((await box.guard('uninstall', 'cline', '--project')).code).toBe(0);
    expect(existsSync(join(box.project, '.clinerules'))).toBe(false);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Setup cases of the self-attack count (issue 12): each it() below is one. */
describe.each(EDITED)("the person's file is a link or read-only (%s)", (agent) => {
  const adapter = adapters[agent];
  // the box moves guard's folder (GUARD_HOME): an agent that cleans its hooks' environment is told where it is
  const options = () => setupOptions(agent, { guardHome: box.guardHome });
  /** The person's real file, kept elsewhere (a dotfiles repository), and the link the agent reads. */
  const linked = (): { file: string; target: string } => {
    const file = PATHS[agent].user(box);
    const target = join(box.root, 'dotfiles', `${agent}.json`);
    write(target, USER_FILES[agent]);
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(target, file);
    return { file, target };
  };

  it('a symlinked file: setup edits the file it points to and the link stays; uninstall gives it back exactly', async () => {
    const { file, target } = linked();
    expect((await box.guard('setup', agent)).code).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    expect(readIfThere(target)).toBe(adapter.install(USER_FILES[agent], options()));
    expect((await box.guard('uninstall', agent)).code).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    expect(readIfThere(target)).toBe(USER_FILES[agent]);
  });

  it('a symlinked file the person edited after setup: uninstall takes only guard out, through the link', async () => {
    const { file, target } = linked();
    await box.guard('setup', agent);
    const [from, to] = EDITS[agent];
    writeFileSync(target, (readIfThere(target) as string).replace(from, to));
    await box.guard('uninstall', agent);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readIfThere(target)).toBe(USER_FILES[agent].replace(from, to));
  });

  it('a link to nothing is refused, saying why and what to do, and nothing is written', async () => {
    const file = PATHS[agent].user(box);
    const nowhere = join(box.root, 'dotfiles', 'missing.json');
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(nowhere, file);
    const result = await box.guard('setup', agent);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${file} is a link to ${nowhere}, which does not exist`);
    expect(result.stderr).toContain(`Create ${nowhere} (or remove the link)`);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(existsSync(nowhere)).toBe(false);
  });

  it('a read-only (0444) file keeps its mode through setup and uninstall, and its bytes come back', async () => {
    const file = PATHS[agent].user(box);
    write(file, USER_FILES[agent]);
    chmodSync(file, 0o444);
    expect((await box.guard('setup', agent)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(readIfThere(file)).toBe(adapter.install(USER_FILES[agent], options()));
    expect((await box.guard('uninstall', agent)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(readIfThere(file)).toBe(USER_FILES[agent]);
  });
});

// Antigravity's user hooks (~/.gemini/config/hooks.json) and Gemini CLI's settings (~/.gemini/settings.json)
// share ~/.gemini: a folder guard made for one goes with the last of the two, whatever the order.
describe('a folder guard made that two agents share', () => {
  const both: AgentId[] = ['antigravity', 'gemini'];
  it.for([
    { setUp: both, takeOut: both },
    { setUp: both, takeOut: [...both].reverse() },
    { setUp: [...both].reverse(), takeOut: both },
    { setUp: [...both].reverse(), takeOut: [...both].reverse() },
  ])('set up $setUp, taken out $takeOut: gone with the last', async ({ setUp, takeOut }) => {
    const shared = join(box.home, '.gemini');
    for (const agent of setUp) expect(await box.guard('setup', agent)).toMatchObject({ code: 0, stderr: '' });
    const [first, last] = takeOut as [AgentId, AgentId];
    expect(await box.guard('uninstall', first)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(PATHS[first].user(box))).toBe(false);
    expect(readdirSync(shared)).not.toHaveLength(0);
    expect(await box.guard('uninstall', last)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(shared)).toBe(false);
  });

  it.for([
    { name: 'the person had the folder, empty', mine: undefined },
    { name: 'the person had the folder, with a file of theirs', mine: 'GEMINI.md' },
  ])('near miss: $name, it stays', async ({ mine }) => {
    const shared = join(box.home, '.gemini');
    mkdirSync(shared, { recursive: true });
    if (mine !== undefined) writeFileSync(join(shared, mine), 'be brief\n');
    for (const agent of both) expect(await box.guard('setup', agent)).toMatchObject({ code: 0, stderr: '' });
    for (const agent of both) expect(await box.guard('uninstall', agent)).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(shared)).toEqual(mine === undefined ? [] : [mine]);
  });

  it("near miss: a file of the person's left in the shared folder keeps it", async () => {
    const shared = join(box.home, '.gemini');
    for (const agent of both) expect(await box.guard('setup', agent)).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(join(shared, 'GEMINI.md'), 'be brief\n');
    for (const agent of both) expect(await box.guard('uninstall', agent)).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(shared)).toEqual(['GEMINI.md']);
  });
});

describe('uninstall gives back the exact bytes where the text edit alone cannot', () => {
  it.for([
    { agent: 'codex' as const, before: '{}\n' },
    { agent: 'codex' as const, before: ' \n\n' },
    { agent: 'codex' as const, before: '{\n  "hooks": {\n    "PreToolUse": [],\n    "Stop": []\n  }\n}\n' },
    { agent: 'cursor' as const, before: '{\n  "version": 1,\n  "hooks": {}\n}\n' },
    { agent: 'antigravity' as const, before: '{}' },
    { agent: 'copilot' as const, before: '\r\n' },
  ])('$agent: $before', async ({ agent, before }) => {
    const file = PATHS[agent].user(box);
    write(file, before);
    expect((await box.guard('setup', agent)).code).toBe(0);
    // the near miss: the text edit alone would not give these bytes back
    expect(adapters[agent].uninstall(readIfThere(file) as string)).not.toBe(before);
    const result = await box.guard('uninstall', agent);
    expect(result.stdout).toContain(`Restored ${file} exactly as it was before guard's setup.`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('never restores a stale copy: a file the person changed between two setups keeps the change', async () => {
    const file = PATHS.codex.user(box);
    write(file, '{}\n');
    await box.guard('setup', 'codex');
    await box.guard('uninstall', 'codex');
    expect(readIfThere(file)).toBe('{}\n');
    const changed = USER_FILES.codex;
    write(file, changed);
    await box.guard('setup', 'codex');
    expect(readIfThere(`${file}.guard-backup`)).toBe(changed);
    await box.guard('uninstall', 'codex');
    expect(readIfThere(file)).toBe(changed);
  });

  it('keeps the first backup when a later setup changes the file again', async () => {
    const file = PATHS.cursor.user(box);
    write(file, USER_FILES.cursor);
    await box.guard('setup', 'cursor');
    writeFileSync(join(box.guardHome, 'settings.yaml'), 'failClosed: true\n');
    const result = await box.guard('setup', 'cursor');
    expect(result.stdout).toContain("refreshed guard's hook");
    expect(result.stdout).not.toContain('Kept a copy');
    expect(readIfThere(file)).toContain('"failClosed": true');
    expect(readIfThere(`${file}.guard-backup`)).toBe(USER_FILES.cursor);
    // still exactly what guard wrote last: the original comes back
    await box.guard('uninstall', 'cursor');
    expect(readIfThere(file)).toBe(USER_FILES.cursor);
  });
});

describe('uninstall leaves alone what is not guard’s', () => {
  it.for([
    { name: 'no file', text: undefined },
    { name: 'a file without guard', text: USER_FILES.cursor },
    {
      name: 'a file that names guard only in another hook',
      text: '{"version":1,"hooks":{"stop":[{"command":"echo guard hook codex later"}]}}\n',
    },
  ])('$name', async ({ text }) => {
    const file = PATHS.cursor.user(box);
    if (text !== undefined) write(file, text);
    const mtime = text === undefined ? undefined : mtimeOf(file);
    const result = await box.guard('uninstall', 'cursor');
    expect(result).toEqual({ code: 0, stdout: `guard is not set up in ${file}.\n`, stderr: '' });
    expect(readIfThere(file)).toBe(text);
    if (mtime !== undefined) expect(mtimeOf(file)).toBe(mtime);
  });

  it('refuses to edit a file that does not parse', async () => {
    const file = PATHS.cursor.user(box);
    write(file, '{"version":1,\n"hooks": [\n');
    const result = await box.guard('uninstall', 'cursor');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^guard: ${escape(file)}:\\d+: .+\\. guard changed nothing\\.\\n`));
    expect(readIfThere(file)).toBe('{"version":1,\n"hooks": [\n');
  });
});

describe('setup refuses what it cannot edit safely', () => {
  it('a file that is not UTF-8', async () => {
    const file = PATHS.copilot.user(box);
    mkdirSync(dirname(file), { recursive: true });
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    writeFileSync(file, bytes);
    const result = await box.guard('setup', 'copilot');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file} is not UTF-8 text`);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a config path that is a folder', async () => {
    const file = PATHS.cursor.user(box);
    mkdirSync(file, { recursive: true });
    const result = await box.guard('setup', 'cursor');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^guard: Cannot read ${escape(file)} \\(EISDIR\\)`));
  });

  it('a settings file that is not valid', async () => {
    mkdirSync(box.guardHome, { recursive: true });
    writeFileSync(join(box.guardHome, 'settings.yaml'), 'failClosed: maybe\n');
    const result = await box.guard('setup', 'codex');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^guard: settings\.yaml: failClosed must be true or false/);
    expect(existsSync(PATHS.codex.user(box))).toBe(false);
  });
});

describe('what setup tells the person to do next', () => {
  const NEXT: Record<AgentId, RegExp> = {
    codex: /\nNext: open Codex in a terminal, type \/hooks, and trust the guard hook/,
    cursor: /\nNext: Open a new chat in Cursor/,
    antigravity: /\nNext: Quit Antigravity completely/,
    copilot: /\nNext: Restart the Copilot CLI/,
    'claude-code': /\nNext: Start a new Claude Code session/,
    gemini: /\nNext: Start a new Gemini CLI session/,
    opencode: /\nNext: Start a new OpenCode session/,
    kilo: /\nNext: Start a new Kilo Code CLI session/,
    qwen: /\nNext: Start a new Qwen Code session/,
    windsurf: /\nNext: Reload the Windsurf window/,
    droid: /\nNext: Start a new Droid session/,
    cline: /\nNext: Start a new Cline task/,
    crush: /\nNext: Start Crush again: it reads its config when it starts/,
    auggie: /\nNext: Start a new Auggie session/,
    kiro: /\nNext: Start Kiro chats with guard's agent/,
  };
  it.for(AGENTS)("%s gets its own next step and no other agent's", async (agent) => {
    const { stdout } = await box.guard('setup', agent);
    for (const other of AGENTS) expect(NEXT[other].test(stdout), other).toBe(other === agent);
  });
});

describe('Codex trust after setup', () => {
  const trustFor = (text: string, file: string, hashOf: (hash: string) => string = (hash) => hash): string => {
    const ours = new Set(adapters.codex.installedCommands(text));
    return guardCodexHooks(file, text, (command) => ours.has(command))
      .map((hook) => `[hooks.state."${hook.key}"]\ntrusted_hash = "${hashOf(hook.hash)}"\n`)
      .join('\n');
  };

  it.for([
    {
      name: 'already trusted (same path, same definition)',
      hashOf: (hash: string) => hash,
      next: 'Next: Codex already trusts this hook; start a new Codex session.\n',
    },
    {
      name: 'trusted for an older definition',
      hashOf: () => 'sha256:00',
      next: 'Next: open Codex in a terminal, type /hooks, and trust the guard hook; until then Codex skips it without a word.\n',
    },
  ])('$name', async ({ hashOf, next }) => {
    const file = PATHS.codex.user(box);
    write(
      join(box.root, 'codex-home', 'config.toml'),
      trustFor(adapters.codex.install('', setupOptions('codex', { guardHome: box.guardHome })), file, hashOf),
    );
    const result = await box.guard('setup', 'codex');
    expect(result.stdout.endsWith(next)).toBe(true);
    // a second run changes nothing; it repeats the trust step only while it is still needed
    const again = await box.guard('setup', 'codex');
    expect(again.stdout).toBe(
      `Already set up: ${file} (nothing changed).\n${next.startsWith('Next: open') ? next : ''}`,
    );
  });

  it('the trustCodexHook seam is called with the file and commands, and its result is read back', async () => {
    const calls: [string, readonly string[]][] = [];
    const { io, stdout } = captureIo({ cwd: box.cwd, home: box.home });
    const file = PATHS.codex.user(box);
    await setup(
      'codex',
      {
        project: false,
        dryRun: false,
        trustCodexHook: async (path, commands) => {
          calls.push([path, commands]);
          write(join(box.root, 'codex-home', 'config.toml'), trustFor(readIfThere(path) as string, path));
        },
      },
      { ...io, env: box.env },
    );
    expect(calls).toEqual([[file, adapters.codex.installedCommands(readIfThere(file) ?? '')]]);
    expect(calls[0]?.[1]).toHaveLength(adapters.codex.capabilities.events.length);
    expect(stdout()).toMatch(/\nNext: Codex already trusts this hook; start a new Codex session\.\n$/);
  });
});

describe('uninstall codex takes out the trust setup had Codex write', () => {
  const config = (): string => join(box.root, 'codex-home', 'config.toml');
  /** What `codex app-server` config/batchWrite does to config.toml: its tables appended at the end. */
  const codexTrusts = async (project = false): Promise<void> => {
    const { io } = captureIo({ cwd: box.cwd, home: box.home });
    await setup(
      'codex',
      {
        project,
        dryRun: false,
        trustCodexHook: async (path, commands) => {
          const hooks = guardCodexHooks(path, readIfThere(path) as string, (command) => commands.includes(command));
          let text = readIfThere(config()) ?? '';
          if (!text.includes('[hooks.state]')) text += `${text === '' ? '' : '\n'}[hooks.state]\n`;
          for (const hook of hooks) text += `\n[hooks.state."${hook.key}"]\ntrusted_hash = "${hook.hash}"\n`;
          write(config(), text);
        },
      },
      { ...io, env: box.env },
    );
  };
  const PERSON =
    '# my Codex settings\nmodel = "gpt-5.5"   # the default\n\n[projects."/src/app"]\ntrust_level = "trusted"\n';

  it('a config.toml the trust went into comes back byte for byte', async () => {
    write(config(), PERSON);
    await codexTrusts();
    expect(readIfThere(config())).toContain('[hooks.state.');
    const result = await box.guard('uninstall', 'codex');
    expect(result.stdout).toContain(`Restored ${config()} exactly as it was before guard's setup.`);
    expect(readIfThere(config())).toBe(PERSON);
    expect(existsSync(`${config()}.guard-backup`)).toBe(false);
  });

  it('a config.toml the trust created goes away', async () => {
    await codexTrusts();
    expect(readIfThere(config())).toContain('trusted_hash');
    await box.guard('uninstall', 'codex');
    expect(existsSync(config())).toBe(false);
  });

  it("a config.toml the person changed since keeps the change; only guard's trust goes", async () => {
    write(config(), PERSON);
    await codexTrusts();
    write(config(), `${readIfThere(config())}\n[features]\nweb_search = true\n`);
    await box.guard('uninstall', 'codex');
    expect(readIfThere(config())).toBe(`${PERSON}\n[features]\nweb_search = true\n`);
  });

  it.for([
    { name: 'an empty [hooks.state] of the original', before: `${PERSON}\n[hooks.state]\n` },
    { name: 'blank lines at the end of the original', before: `${PERSON}\n\n` },
  ])('a config.toml the person changed since keeps $name', async ({ before }) => {
    write(config(), before);
    await codexTrusts();
    // a change of the person's at the top: the file is no longer as setup left it
    write(config(), `web_search = true\n${readIfThere(config())}`);
    await box.guard('uninstall', 'codex');
    expect(readIfThere(config())).toBe(`web_search = true\n${before}`);
  });

  it("a comment Codex left after the trust tables, and the person's later edit, both stay; only the trust goes", async () => {
    write(config(), PERSON);
    await codexTrusts();
    const trusted = readIfThere(config()) as string;
    // what codex app-server may leave after its tables, then the person's own edit
    write(config(), `${trusted}\n# written by Codex: do not edit\n[features]\nweb_search = true\n`);
    await box.guard('uninstall', 'codex');
    const left = readIfThere(config()) as string;
    expect(left).not.toContain('[hooks.state');
    expect(left).toContain('\n# written by Codex: do not edit\n[features]\nweb_search = true\n');
    expect(left.startsWith(PERSON)).toBe(true);
  });

  it('a config.toml Codex turned to CRLF keeps every line but the trust, in CRLF', async () => {
    write(config(), PERSON);
    await codexTrusts();
    const crlf = `${(readIfThere(config()) as string).replace(/\n/g, '\r\n')}\r\n# after the tables\r\n`;
    write(config(), crlf);
    await box.guard('uninstall', 'codex');
    const left = readIfThere(config()) as string;
    expect(left).not.toContain('hooks.state');
    expect(left).toContain(PERSON.replace(/\n/g, '\r\n'));
    expect(left.endsWith('\r\n# after the tables\r\n')).toBe(true);
  });

  it("CRLF that Codex's trust write brought in goes back to LF with the trust, the person's later edit kept", async () => {
    write(config(), PERSON);
    const { io } = captureIo({ cwd: box.cwd, home: box.home });
    await setup(
      'codex',
      {
        project: false,
        dryRun: false,
        // as app-server may: its tables appended, and the whole file written back with CRLF
        trustCodexHook: async (path, commands) => {
          const hooks = guardCodexHooks(path, readIfThere(path) as string, (command) => commands.includes(command));
          let text = `${readIfThere(config()) ?? ''}\n[hooks.state]\n`;
          for (const hook of hooks) text += `\n[hooks.state."${hook.key}"]\ntrusted_hash = "${hook.hash}"\n`;
          write(config(), text.replace(/\n/g, '\r\n'));
        },
      },
      { ...io, env: box.env },
    );
    expect(readIfThere(config())).toContain('\r\n[hooks.state]\r\n');
    write(config(), `${readIfThere(config()) as string}\r\n[features]\r\nweb_search = true\r\n`);
    await box.guard('uninstall', 'codex');
    expect(readIfThere(config())).toBe(`${PERSON}\n[features]\nweb_search = true\n`);
  });

  it('uninstalling one level keeps the trust of the other', async () => {
    write(config(), PERSON);
    await codexTrusts(false);
    await codexTrusts(true);
    const project = PATHS.codex.project(box);
    await box.guard('uninstall', 'codex');
    const left = readIfThere(config()) ?? '';
    expect(left.startsWith(PERSON)).toBe(true);
    expect(left).toContain(`[hooks.state."${project}:pre_tool_use:0:0"]`);
    expect(left).not.toContain(`[hooks.state."${PATHS.codex.user(box)}:`);
    await box.guard('uninstall', 'codex', '--project');
    expect(readIfThere(config())).toBe(PERSON);
  });
});

describe("withoutCodexTrust: guard's trust tables out of config.toml, the rest as it was", () => {
  const KEY = '/h/.codex/hooks.json:pre_tool_use:0:0';
  const OTHER = '/h/.codex/hooks.json:stop:0:0';
  // original: config.toml before setup, as uninstall knows it from the backup
  const rows: readonly { name: string; text: string; keys: string[]; out: string; original?: string }[] = [
    {
      name: 'the table and the [hooks.state] it leaves empty',
      text: `a = 1\n\n[hooks.state]\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: 'a = 1\n',
    },
    {
      name: "another hook's table stays",
      text: `[hooks.state]\n\n[hooks.state."${OTHER}"]\ntrusted_hash = "y"\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: `[hooks.state]\n\n[hooks.state."${OTHER}"]\ntrusted_hash = "y"\n`,
    },
    {
      name: 'a table in the middle, with a comment on its header',
      text: `[hooks.state."${KEY}"] # guard\ntrusted_hash = "x"\nenabled = true\n\n[tui]\ntheme = "dark"\n`,
      keys: [KEY],
      out: '[tui]\ntheme = "dark"\n',
    },
    {
      name: 'a comment left after the table (by Codex or the person) stays, with its blank line',
      text: `a = 1\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n\n# Codex keeps its notes here\n[tui]\ntheme = "dark"\n`,
      keys: [KEY],
      out: 'a = 1\n\n\n# Codex keeps its notes here\n[tui]\ntheme = "dark"\n',
    },
    {
      name: 'a comment right under the keys stays; the next trust table still goes',
      text: `[hooks.state."${KEY}"]\ntrusted_hash = "x"\n# mine\nz = 2\n[hooks.state."${KEY}"]\ntrusted_hash = "y"\n`,
      keys: [KEY],
      out: '# mine\nz = 2\n',
    },
    {
      name: 'CRLF lines stay CRLF',
      text: `a = 1\r\n[hooks.state."${KEY}"]\r\ntrusted_hash = "x"\r\n\r\n# note\r\n[tui]\r\n`,
      keys: [KEY],
      out: 'a = 1\r\n\r\n# note\r\n[tui]\r\n',
    },
    {
      name: 'a literal-string key',
      text: `x = 1\n[hooks.state.'${KEY}']\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: 'x = 1\n',
    },
    {
      name: 'a near miss: the same path, another event',
      text: `[hooks.state."${OTHER}"]\ntrusted_hash = "y"\n`,
      keys: [KEY],
      out: `[hooks.state."${OTHER}"]\ntrusted_hash = "y"\n`,
    },
    {
      name: 'an inline table is left alone',
      text: `[hooks]\nstate = { "${KEY}" = { trusted_hash = "x" } }\n`,
      keys: [KEY],
      out: `[hooks]\nstate = { "${KEY}" = { trusted_hash = "x" } }\n`,
    },
    {
      name: "nothing but guard's trust",
      text: `[hooks.state]\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: '',
    },
    {
      name: 'a [hooks.state] the original had stays, emptied',
      original: 'a = 1\n\n[hooks.state]\n',
      text: `a = 1\n\n[hooks.state]\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: 'a = 1\n\n[hooks.state]\n',
    },
    {
      name: "the original's own blank lines at the end stay; only those after them go",
      original: 'a = 1\n\n\n',
      text: `a = 1\n\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n\n`,
      keys: [KEY],
      out: 'a = 1\n\n\n',
    },
    {
      name: 'a near miss: an original without them',
      original: 'a = 1\n',
      text: `a = 1\n\n\n[hooks.state]\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: 'a = 1\n',
    },
    {
      name: 'an original of white space comes back',
      original: '\n',
      text: `\n[hooks.state]\n\n[hooks.state."${KEY}"]\ntrusted_hash = "x"\n`,
      keys: [KEY],
      out: '\n',
    },
  ];
  it.for(rows)('$name', ({ text, keys, out, original }) => {
    expect(withoutCodexTrust(text, keys, original)).toBe(out);
  });
});

describe('guard setup --all', () => {
  /** This machine has Claude Code's folder and a runnable `gemini` on PATH; a non-runnable `codex` is not an agent. */
  function machine(): void {
    mkdirSync(join(box.home, '.claude'), { recursive: true });
    const bin = join(box.root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(bin, 'codex'), 'not a program\n', { mode: 0o644 });
    box.env.PATH = `${bin}:${box.env.PATH ?? ''}`;
  }
  const notFound = AGENT_IDS.filter((id) => id !== 'claude-code' && id !== 'gemini');
  const SKIPPED = `Skipped, not found here: ${notFound.join(', ')} (\`guard setup <agent>\` sets one up anyway).\n`;

  it('--dry-run says what it would do per agent found, names the others as skipped, and writes nothing', async () => {
    machine();
    const result = await box.guard('setup', '--all', '--dry-run');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('claude-code (~/.claude):\n  ');
    expect(result.stdout).toContain('gemini (gemini on PATH):\n  ');
    expect(result.stdout.slice(-SKIPPED.length)).toBe(SKIPPED);
    for (const agent of AGENTS) expect(existsSync(PATHS[agent].user(box)), agent).toBe(false);
  });

  it('sets up each agent found and touches no other', async () => {
    machine();
    const result = await box.guard('setup', '--all');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readIfThere(PATHS['claude-code'].user(box))).toContain('hook claude-code');
    expect(readIfThere(PATHS.gemini.user(box))).toContain('hook gemini');
    for (const agent of ['codex', 'cursor', 'antigravity', 'copilot', 'windsurf', 'kiro'] as const)
      expect(existsSync(PATHS[agent].user(box)), agent).toBe(false);
    expect((await box.guard('setup', '--all')).stdout).toContain('Already set up');
  });

  it('one agent whose file does not parse fails the command at the end; the others are set up', async () => {
    machine();
    writeFileSync(PATHS['claude-code'].user(box), '{ "model": \n');
    const result = await box.guard('setup', '--all');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`  ${PATHS['claude-code'].user(box)}:`);
    expect(result.stderr).toContain(
      'guard: guard could not be set up in claude-code (see above); the other agents are done.\n',
    );
    expect(readIfThere(PATHS['claude-code'].user(box))).toBe('{ "model": \n');
    expect(readIfThere(PATHS.gemini.user(box))).toContain('hook gemini');
  });

  it('no agent found: says so, writes nothing, exit 0', async () => {
    const result = await box.guard('setup', '--all');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(
      'No agent was found on this machine (on PATH or by its folder); nothing changed.\n',
    );
  });

  it.for([
    {
      args: ['setup', '--all', 'codex'],
      stderr: /^guard: --all sets guard up in every agent found here, so it takes no agent\.\n/,
    },
    { args: ['setup'], stderr: /^guard: Name the agent to set guard up in, or pass --all\.\n/ },
  ])('guard $args: a usage error, nothing written', async ({ args, stderr }) => {
    machine();
    const result = await box.guard(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
    for (const agent of AGENTS) expect(existsSync(PATHS[agent].user(box)), agent).toBe(false);
  });
});

// Droid takes an event's list from hooks.json over settings.json's, and reads no hooks/hooks.json
// beside a hooks.json (seen on 0.215.0): setup names the person's own hooks it silences, and the fix
describe("guard setup droid: the person's own hooks that guard's hooks.json silences", () => {
  const own = '[{ "matcher": "*", "hooks": [{ "type": "command", "command": "npm run lint" }] }]';
  it.for([
    {
      name: "settings.json's own PreToolUse",
      files: { 'settings.json': `{ "hooks": { "PreToolUse": ${own} } }` },
      says: /^Warning: .*\/\.factory\/settings\.json has hooks of your own for PreToolUse, which Factory Droid no longer runs: .*Move those groups into hooks\.json, beside guard's\.$/m,
    },
    {
      name: 'an older hooks/hooks.json',
      files: { 'hooks/hooks.json': `{ "Stop": ${own} }` },
      says: /^Warning: .*\/\.factory\/hooks\/hooks\.json has hooks of your own, which Factory Droid no longer reads now that hooks\.json exists\./m,
    },
    // near misses
    {
      name: "settings.json's own Stop (guard lists none)",
      files: { 'settings.json': `{ "hooks": { "Stop": ${own} } }` },
    },
    { name: 'no hooks of their own', files: { 'settings.json': '{ "model": "custom:mine" }' } },
  ])('$name', async ({ files, says }) => {
    const folder = dirname(PATHS.droid.user(box));
    for (const [name, text] of Object.entries(files)) write(join(folder, name), text);
    const result = await box.guard('setup', 'droid');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    if (says === undefined) expect(result.stdout).not.toContain('Warning:');
    else expect(result.stdout).toMatch(says);
    // a dry run says it too, writing nothing
    await box.guard('uninstall', 'droid');
    const dry = await box.guard('setup', 'droid', '--dry-run');
    expect(dry.stdout.includes('Warning:')).toBe(says !== undefined);
    expect(existsSync(PATHS.droid.user(box))).toBe(false);
  });
});
