import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { adapters, AGENT_IDS, readFallback } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusJson } from '../../src/agents/inspect.js';
import { setupCommand } from '../../src/agents/admin.js';
import { changeableFiles, systemAgents, systemFileOf, systemOptions, underRoot } from '../../src/agents/system.js';
import type { SystemWorld } from '../../src/agents/system.js';
import { agentShellRunner, diagnose } from '../../src/commands/doctor.js';
import { setup, setupAll } from '../../src/commands/setup.js';
import { status } from '../../src/commands/status.js';
import { uninstall, uninstallAll, uninstallAllSystem } from '../../src/commands/uninstall.js';
import { GuardError } from '../../src/errors.js';
import { SYSTEM_ROOT } from '../../src/world/system-root.js';
import { captureIo } from '../capture-io.js';
import { makeAgentHome, readIfThere, snapshotOf, setupOptions } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

/** Each agent's managed hook file per platform, written out here (not asked of the adapters); none for the rest. */
const SYSTEM_PATHS: Partial<Record<AgentId, Readonly<Record<'linux' | 'darwin' | 'win32', string | undefined>>>> = {
  'claude-code': {
    linux: '/etc/claude-code/managed-settings.json',
    darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
    win32: 'C:/Program Files/ClaudeCode/managed-settings.json',
  },
  copilot: {
    linux: '/etc/github-copilot/policy.d/guard.json',
    darwin: '/etc/github-copilot/policy.d/guard.json',
    win32: 'C:/ProgramData/GitHub/Copilot/policy.d/guard.json',
  },
  cursor: {
    linux: '/etc/cursor/hooks.json',
    darwin: '/Library/Application Support/Cursor/hooks.json',
    win32: 'C:/ProgramData/Cursor/hooks.json',
  },
  gemini: {
    linux: '/etc/gemini-cli/settings.json',
    darwin: '/Library/Application Support/GeminiCli/settings.json',
    win32: 'C:/ProgramData/gemini-cli/settings.json',
  },
  qwen: {
    linux: '/etc/qwen-code/settings.json',
    darwin: '/Library/Application Support/QwenCode/settings.json',
    win32: 'C:/ProgramData/qwen-code/settings.json',
  },
  windsurf: {
    linux: '/etc/windsurf/hooks.json',
    darwin: '/Library/Application Support/Windsurf/hooks.json',
    win32: 'C:/ProgramData/Windsurf/hooks.json',
  },
  codex: { linux: '/etc/codex/hooks.json', darwin: '/etc/codex/hooks.json', win32: undefined },
  // Auggie's machine folder is /etc/augment on every platform but Windows
  auggie: {
    linux: '/etc/augment/settings.json',
    darwin: '/etc/augment/settings.json',
    win32: 'C:/ProgramData/augment/settings.json',
  },
  // Droid 0.215.0 asks for Linux's path on every platform; on Windows it names no fixed folder
  droid: { linux: '/etc/factory/settings.json', darwin: '/etc/factory/settings.json', win32: undefined },
};
type Managed = 'claude-code' | 'copilot' | 'cursor' | 'gemini' | 'qwen' | 'windsurf' | 'codex' | 'auggie' | 'droid';
const MANAGED = AGENT_IDS.filter((agent): agent is Managed => SYSTEM_PATHS[agent] !== undefined);
const PLATFORMS = ['linux', 'darwin', 'win32'] as const;

/** An administrator's own managed file per agent: comments, other entries, a layout guard would never write. */
const MANAGED_FILES: Record<Managed, string> = {
  'claude-code':
    '{\n    "permissions": { "deny": ["Bash(curl *)"] },\n    "allowedMcpServers": [],\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "/opt/audit/done.sh" }] }]\n    }\n}',
  copilot: '{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"/opt/audit/start.sh"}]}}',
  cursor: '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "/opt/audit/stop.sh" }]\n  }\n}\n',
  gemini:
    '// managed by IT\n{\n\t"security": { "auth": { "enforcedType": "oauth-personal" } }, /* keep */\n\t"hooks": { "SessionEnd": [{ "hooks": [{ "name": "audit", "type": "command", "command": "/opt/audit/bye.sh" }] }] }\n}\n',
  qwen: '{\n    "$version": 4, // managed\n    "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "/opt/audit/done.sh" }] }] }\n}',
  windsurf:
    '{\n    "hooks": {\n        "post_cascade_response": [ { "command": "/opt/audit/log.sh", "show_output": false } ]\n    }\n}',
  auggie:
    '{\n    "model": "sonnet", // managed\n    "hooks": { "SessionEnd": [{ "hooks": [{ "type": "command", "command": "/opt/audit/bye.sh" }] }] }\n}',
  // a settings file whose hooks are under `hooks` (not a hooks.json), read with comments
  droid:
    '// managed by IT\n{\n  "model": "custom:team-model", /* for everyone */\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "/opt/audit/done.sh" }] }]\n  }\n}\n',
  codex:
    '{\n    "description": "IT hooks",\n    "hooks": {\n        "Stop": [\n            { "hooks": [ { "type": "command", "command": "/opt/audit/done.sh" } ] }\n        ]\n    }\n}\n',
};

let box: AgentHome;
let root: string;
beforeEach(() => {
  box = makeAgentHome();
  root = mkdtempSync(join(tmpdir(), 'guard-system-'));
});
afterEach(() => {
  box.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** A scratch system: rights and who may change guard's files as the row says. */
function world(
  more: { admin?: boolean; changeable?: readonly string[]; fileOpen?: boolean; platform?: string } = {},
): SystemWorld {
  return {
    root,
    platform: more.platform ?? 'linux',
    isAdmin: () => more.admin ?? true,
    changeable: () => more.changeable ?? [],
    // `fileOpen`: the managed file (or its folder) is one a user could change
    changeableAt: (paths) => (more.fileOpen === true ? paths.map((path) => `${path} (owned by user 1000)`) : []),
  };
}

/** The box's Io: its home, guard folder and project. */
function boxIo() {
  const captured = captureIo({ cwd: box.cwd, home: box.home });
  return { ...captured, io: { ...captured.io, env: box.env, tmp: () => box.root } };
}

/** Runs a command, returning what it printed and the GuardError it threw (if any). */
async function run(command: (io: ReturnType<typeof boxIo>['io']) => Promise<void>) {
  const captured = boxIo();
  let error: GuardError | undefined;
  try {
    await command(captured.io);
  } catch (thrown) {
    if (!(thrown instanceof GuardError)) throw thrown;
    error = thrown;
  }
  return { stdout: captured.stdout(), stderr: captured.stderr(), error };
}

/** Every file and folder under the scratch root, with its bytes (a folder as '/'). */
const snapshot = (): Record<string, string> => snapshotOf(root);

const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const fileOf = (agent: Managed, platform: 'linux' | 'darwin' | 'win32' = 'linux'): string =>
  underRoot(root, SYSTEM_PATHS[agent]?.[platform] as string);

describe('the managed hook file each agent declares', () => {
  it.each(AGENT_IDS.flatMap((agent) => PLATFORMS.map((platform) => [agent, platform] as const)))(
    '%s on %s, under the real root and under a scratch one',
    (agent, platform) => {
      const declared = SYSTEM_PATHS[agent]?.[platform];
      const real: SystemWorld = { ...world({ platform }), root: SYSTEM_ROOT };
      expect(systemFileOf(adapters[agent], real)).toBe(declared);
      expect(systemFileOf(adapters[agent], world({ platform }))).toBe(
        declared === undefined ? undefined : join(root, declared.replace(/^C:/, 'C')),
      );
    },
  );
});

describe('the agents with a system file', () => {
  it.each(PLATFORMS)('on %s: those the table gives a file, each with it; no other', (platform) => {
    const expected = AGENT_IDS.flatMap((agent) => {
      const declared = SYSTEM_PATHS[agent]?.[platform];
      return declared === undefined ? [] : [{ agent, file: underRoot(root, declared) }];
    });
    const found = systemAgents(world({ platform }));
    expect(found).toEqual(expected);
    // codex has none on Windows; opencode none anywhere
    expect(found.some(({ agent }) => agent === 'codex')).toBe(platform !== 'win32');
    expect(found.some(({ agent }) => agent === 'opencode')).toBe(false);
  });
});

describe.each(MANAGED)('guard setup %s --system', (agent) => {
  const adapter = adapters[agent];

  it.each(PLATFORMS.filter((platform) => SYSTEM_PATHS[agent]?.[platform] !== undefined))(
    '--dry-run on %s names the file and writes nothing, without rights and with a guard users can change',
    async (platform) => {
      const result = await run((io) =>
        setup(
          agent,
          { project: false, dryRun: true, system: world({ admin: false, changeable: ['x'], platform }) },
          io,
        ),
      );
      expect(result.error).toBeUndefined();
      expect(result.stdout).toContain(`Would create ${fileOf(agent, platform)} (dry run: nothing written):`);
      expect(result.stdout).toContain('This file applies to every user of this machine.');
      expect(readdirSync(root)).toEqual([]);
    },
  );

  it('creates the file (0644, folders 0755), keeps its record in the system folder, and uninstall takes both away', async () => {
    const file = fileOf(agent);
    const saved = process.umask(0o002);
    try {
      const result = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
      expect(result.error).toBeUndefined();
      expect(result.stdout).toContain(`Created ${file} with guard's hook`);
      // a managed hook needs none of the trust the user's layer asks for (Codex's /hooks)
      expect(result.stdout).not.toMatch(/with \/hooks|trust the guard hook/i);
      expect(result.stdout).toMatch(/^Next: /m);
    } finally {
      process.umask(saved);
    }
    const written = readIfThere(file) as string;
    expect(written).toBe(adapter.install('', systemOptions(setupOptions(agent, { guardHome: box.guardHome }))));
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o644);
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o755);
      // guard's own system folder, where the record is kept, too: not the umask's 0775
      expect(statSync(join(root, 'etc', 'guard')).mode & 0o777).toBe(0o755);
    }
    // the record is in guard's system folder, not in the user's
    expect(readIfThere(join(root, 'etc', 'guard', 'installs.json'))).toContain(JSON.stringify(file));
    expect(readIfThere(join(box.guardHome, 'installs.json')) ?? '').not.toContain(file);

    const removed = await run((io) => uninstall(agent, { project: false, system: world() }, io));
    expect(removed.error).toBeUndefined();
    expect(removed.stdout).toContain(`Removed ${file} (guard had created it).`);
    expect(readdirSync(root)).toEqual(['etc']);
    // nothing of guard's is left either: its system folder held only the record
    expect(readdirSync(join(root, 'etc'))).toEqual([]);
  });

  it("keeps every byte and the mode of the administrator's file, and uninstall gives it back exactly", async () => {
    const file = fileOf(agent);
    write(file, MANAGED_FILES[agent]);
    chmodSync(file, 0o640);
    const result = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    expect(result.error).toBeUndefined();
    expect(result.stdout).toContain(`Updated ${file}: added guard's hook`);
    const after = readIfThere(file) as string;
    expect(adapter.uninstall(after, { system: true })).toBe(MANAGED_FILES[agent]);
    expect(readIfThere(`${file}.guard-backup`)).toBe(MANAGED_FILES[agent]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o640);

    const again = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    expect(again.stdout).toContain(`Already set up: ${file} (nothing changed).`);

    const removed = await run((io) => uninstall(agent, { project: false, system: world() }, io));
    expect(removed.error).toBeUndefined();
    expect(removed.stdout).toContain(`Restored ${file} exactly as it was before guard's setup.`);
    expect(readIfThere(file)).toBe(MANAGED_FILES[agent]);
    expect(existsSync(`${file}.guard-backup`)).toBe(false);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("the command pins no user's guard folder (each user's hook keeps its own), where the user's does", async () => {
    await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    await run((io) => setup(agent, { project: false, dryRun: false }, io));
    const folders = (text: string, system?: { system: true }) =>
      adapter.installedCommands(text, system).map((command) => readFallback(command)?.files.home ?? '');
    const system = folders(readIfThere(fileOf(agent)) as string, { system: true });
    expect(system.length).toBeGreaterThan(0);
    expect(new Set(system)).toEqual(new Set(['']));
    const user = folders(
      readIfThere(adapter.configPath('user', { home: box.home, env: box.env, projectRoot: box.project })) as string,
    );
    expect(new Set(user)).toEqual(new Set([box.guardHome]));
  });

  it("its own answer when guard's files are gone names the administrator's commands, the user's the user's", async () => {
    await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    await run((io) => setup(agent, { project: false, dryRun: false }, io));
    const answers = (text: string, system?: { system: true }) =>
      adapter.installedCommands(text, system).map((command) => readFallback(command)?.reply.stdout ?? '');
    const system = answers(readIfThere(fileOf(agent)) as string, { system: true }).filter((answer) =>
      answer.includes('files are gone'),
    );
    const where = { home: box.home, env: box.env, projectRoot: box.project };
    const user = answers(readIfThere(adapter.configPath('user', where)) as string).filter((answer) =>
      answer.includes('files are gone'),
    );
    expect(system.length).toBeGreaterThan(0);
    for (const answer of system) expect(answer).toContain(`sudo guard setup ${agent} --system`);
    for (const answer of user) {
      expect(answer).toContain(`guard setup ${agent}`);
      expect(answer).not.toContain('--system');
    }
  });

  it.each([
    { name: 'no rights', admin: false, changeable: [], fileOpen: false, says: `sudo guard setup ${agent} --system` },
    {
      name: 'a guard users can change',
      admin: true,
      changeable: ['/home/someone/.npm-global/lib/node_modules (owned by user 1000)'],
      fileOpen: false,
      says: 'sudo npm install -g agent-step-guard',
    },
    {
      name: 'a managed file users can change',
      admin: true,
      changeable: [],
      fileOpen: true,
      says: 'owned by root and writable by them alone',
    },
  ])(
    'refuses with $name, says what to run, and writes nothing (new file or existing)',
    async ({ admin, changeable, fileOpen, says }) => {
      for (const existing of [false, true]) {
        if (existing) write(fileOf(agent), MANAGED_FILES[agent]);
        const before = snapshot();
        const result = await run((io) =>
          setup(agent, { project: false, dryRun: false, system: world({ admin, changeable, fileOpen }) }, io),
        );
        expect(result.error?.message).toContain('guard wrote nothing.');
        expect(`${result.error?.message} ${result.error?.hint}`).toContain(says);
        expect(snapshot()).toEqual(before);
      }
    },
  );

  it('uninstall --system without rights refuses and changes nothing; with them it goes ahead', async () => {
    await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    const before = snapshot();
    const refused = await run((io) => uninstall(agent, { project: false, system: world({ admin: false }) }, io));
    expect(refused.error?.hint).toContain(`sudo guard uninstall ${agent} --system`);
    expect(snapshot()).toEqual(before);
    // a guard users can change does not stop its own removal
    const done = await run((io) => uninstall(agent, { project: false, system: world({ changeable: ['x'] }) }, io));
    expect(done.error).toBeUndefined();
    expect(existsSync(fileOf(agent))).toBe(false);
  });
});

describe.each(AGENT_IDS.filter((agent) => SYSTEM_PATHS[agent] === undefined))('guard setup %s --system', (agent) => {
  it('says the agent has no system-wide file and writes nothing', async () => {
    const result = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    expect(result.error?.message).toContain('has no system-wide hook file guard knows of on this platform');
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('guard setup --all --system and guard uninstall --all --system', () => {
  it('sets up every agent with a managed file, names the others, and takes them all out again', async () => {
    const pre = fileOf('claude-code');
    write(pre, MANAGED_FILES['claude-code']);
    const result = await run((io) => setupAll({ project: false, dryRun: false, system: world() }, io));
    expect(result.error).toBeUndefined();
    for (const agent of MANAGED)
      expect(adapters[agent].installedCommands(readIfThere(fileOf(agent)) ?? '', { system: true })).not.toEqual([]);
    expect(result.stdout).toContain(
      `Skipped, no system-wide hook file guard knows of on this platform: ${AGENT_IDS.filter((id) => !(MANAGED as readonly string[]).includes(id)).join(', ')}.`,
    );

    // the user's own install stays when the system's go, and uninstall --all leaves the system's alone
    await run((io) => setup('cursor', { project: false, dryRun: false }, io));
    const user = join(box.home, '.cursor', 'hooks.json');
    const kept = await run((io) => uninstallAll(io, world()));
    expect(kept.stdout).toMatch(
      /guard's system-wide hook stays in .*\(for every user\); `sudo guard uninstall --all --system` takes it out/,
    );
    for (const agent of MANAGED) expect(kept.stdout).toContain(fileOf(agent));
    expect(existsSync(user)).toBe(false);
    expect(existsSync(fileOf('cursor'))).toBe(true);

    const removed = await run((io) => uninstallAllSystem(world(), io));
    expect(removed.error).toBeUndefined();
    expect(readIfThere(pre)).toBe(MANAGED_FILES['claude-code']);
    for (const agent of MANAGED.filter((agent) => agent !== 'claude-code'))
      expect(existsSync(fileOf(agent))).toBe(false);
  });

  it('without rights says so once and writes nothing; --dry-run needs none', async () => {
    const refused = await run((io) => setupAll({ project: false, dryRun: false, system: world({ admin: false }) }, io));
    expect(refused.error?.hint).toContain('sudo guard setup --all --system');
    expect(refused.stdout).toBe('');
    expect(readdirSync(root)).toEqual([]);
    const dry = await run((io) => setupAll({ project: false, dryRun: true, system: world({ admin: false }) }, io));
    expect(dry.error).toBeUndefined();
    for (const agent of MANAGED) expect(dry.stdout).toContain(`Would create ${fileOf(agent)}`);
    expect(readdirSync(root)).toEqual([]);
    const nothing = await run((io) => uninstallAllSystem(world({ admin: false }), io));
    expect(nothing.error?.hint).toContain('sudo guard uninstall --all --system');
  });
});

describe('guard status shows the user and the system install side by side', () => {
  it.each([
    { name: 'none', user: false, system: false, runs: 'none', line: "runs: no hook of guard's" },
    { name: 'the user', user: true, system: false, runs: 'user', line: 'runs: your own hook only' },
    { name: 'the system', user: false, system: true, runs: 'system', line: "runs: the system's hook" },
    {
      name: 'both',
      user: true,
      system: true,
      runs: 'both',
      line: "runs: both, the system's and yours (the system's answers first)",
    },
  ])('copilot set up for $name', async ({ user, system, runs, line }) => {
    if (user) await run((io) => setup('copilot', { project: false, dryRun: false }, io));
    if (system) await run((io) => setup('copilot', { project: false, dryRun: false, system: world() }, io));
    const json = JSON.parse((await run((io) => status({ json: true, system: world() }, io))).stdout) as StatusJson;
    const copilot = json.agents.find((entry) => entry.agent === 'copilot');
    const level = copilot?.levels.find((entry) => entry.level === 'system');
    expect(level).toMatchObject({ path: fileOf('copilot'), installed: system });
    if (system) expect(level?.upToDate).toBe(true);
    expect(copilot?.layers?.runs).toBe(runs);
    const text = (await run((io) => status({ json: false, system: world() }, io))).stdout;
    expect(text).toContain(`  system   ${fileOf('copilot')}`);
    expect(text).toContain(line);
    // an agent without a managed file has no system line and no layers
    expect(json.agents.find((entry) => entry.agent === 'opencode')?.layers).toBeUndefined();
    expect(json.agents.find((entry) => entry.agent === 'opencode')?.levels.map((entry) => entry.level)).not.toContain(
      'system',
    );
  });

  it('Claude Code with both runs them side by side', async () => {
    await run((io) => setup('claude-code', { project: false, dryRun: false }, io));
    await run((io) => setup('claude-code', { project: false, dryRun: false, system: world() }, io));
    const text = (await run((io) => status({ json: false, system: world() }, io))).stdout;
    expect(text).toContain("runs: both, the system's and yours (Claude Code runs them side by side)");
  });

  // Droid's managed file is a settings file, its own a hooks.json: each level is read in its own layout
  it('Factory Droid with both: each file installed and up to date, run side by side', async () => {
    await run((io) => setup('droid', { project: false, dryRun: false }, io));
    await run((io) => setup('droid', { project: false, dryRun: false, system: world() }, io));
    const json = JSON.parse((await run((io) => status({ json: true, system: world() }, io))).stdout) as StatusJson;
    const droid = json.agents.find((entry) => entry.agent === 'droid');
    for (const level of ['user', 'system'])
      expect(droid?.levels.find((entry) => entry.level === level)).toMatchObject({ installed: true, upToDate: true });
    expect(droid?.layers?.runs).toBe('both');
    const text = (await run((io) => status({ json: false, system: world() }, io))).stdout;
    expect(text).toContain("runs: both, the system's and yours (Factory Droid runs them side by side)");
  });
});

describe('the setup command to run again, with rights only for the system level', () => {
  it.each([
    ['user', 'linux', '`guard setup codex`'],
    ['project', 'linux', '`guard setup codex --project`'],
    ['system', 'linux', '`sudo guard setup codex --system`'],
    ['system', 'darwin', '`sudo guard setup codex --system`'],
    ['user', 'win32', '`guard setup codex`'],
    ['project', 'win32', '`guard setup codex --project`'],
    ['system', 'win32', '`guard setup codex --system` from a terminal run as administrator'],
  ] as const)('%s on %s: %s', (level, platform, said) => {
    expect(setupCommand('codex', level, platform)).toBe(said);
  });

  it.each([
    ['linux', '`sudo guard setup copilot --system` adds one', 'administrator'],
    ['win32', '`guard setup copilot --system` from a terminal run as administrator adds one', 'sudo'],
  ])("status on %s says how to add the system's hook in that platform's words", async (platform, said, not) => {
    await run((io) => setup('copilot', { project: false, dryRun: false }, io));
    const text = (await run((io) => status({ json: false, system: world({ platform }) }, io))).stdout;
    const runs = text.split('\n').find((line) => line.includes('runs: your own hook only')) ?? '';
    expect(runs).toContain(said);
    expect(runs).not.toContain(not);
  });
});

describe('a system file changed since setup', () => {
  it.each([
    { name: "guard's entries taken out", edit: (text: string) => adapters.copilot.uninstall(text), drift: 'removed' },
    { name: 'only laid out anew', edit: (text: string) => `${text}\n`, drift: undefined },
  ])('$name: status says so (or not), with the command to run', async ({ edit, drift }) => {
    const file = fileOf('copilot');
    write(file, MANAGED_FILES.copilot);
    await run((io) => setup('copilot', { project: false, dryRun: false, system: world() }, io));
    writeFileSync(file, edit(readIfThere(file) as string));
    const json = JSON.parse((await run((io) => status({ json: true, system: world() }, io))).stdout) as StatusJson;
    const found = json.agents.find((entry) => entry.agent === 'copilot')?.drift ?? [];
    if (drift === undefined) expect(found).toEqual([]);
    else
      expect(found).toEqual([
        expect.objectContaining({
          level: 'system',
          path: file,
          kind: drift,
          fix: 'Run `sudo guard setup copilot --system` again.',
        }),
      ]);
  });
});

describe('guard doctor checks the system file too', () => {
  it.runIf(process.platform !== 'win32').each(['claude-code', 'droid'] as const)(
    "%s: runs the system entry as the agent would: each user's hook answers from that user's guard folder",
    async (agent) => {
      await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
      const { io } = boxIo();
      const report = await diagnose(io, agentShellRunner(io), () => {}, world());
      const entry = report.agents.find((found) => found.agent === agent && found.level === 'system');
      expect(entry?.path).toBe(fileOf(agent));
      const checks = Object.fromEntries((entry?.checks ?? []).map((check) => [check.name, check]));
      expect(checks['harmless step goes ahead']).toMatchObject({ ok: true });
      expect(checks['dangerous step is blocked']).toMatchObject({ ok: true });
      expect(checks["answers when guard's files are gone"]).toMatchObject({ ok: true });
      // no user file: doctor checks no user level
      expect(report.agents.some((found) => found.agent === agent && found.level === 'user')).toBe(false);
    },
  );
});

describe("which of guard's own files a user could change", () => {
  // run as any user: the user running the test stands for root (the owner that counts as safe)
  const admin = process.getuid?.() ?? 0;
  it.runIf(process.platform !== 'win32')(
    'names a group- or world-writable file or folder, and not a root-owned 0644 file in a 0755 folder',
    () => {
      const dir = join(root, 'pkg', 'dist');
      mkdirSync(dir, { recursive: true });
      chmodSync(join(root, 'pkg'), 0o755);
      chmodSync(dir, 0o755);
      chmodSync(root, 0o755);
      const script = join(dir, 'hook-entry.cjs');
      const beside = join(dir, 'hook.bundle.cjs');
      writeFileSync(script, '');
      writeFileSync(beside, '');
      chmodSync(script, 0o644);
      chmodSync(beside, 0o644);
      const named = (): string[] => changeableFiles([process.execPath, script], 'linux', join(root, 'pkg'), admin);
      const mine = (list: string[]) => list.filter((entry) => entry.startsWith(root));
      expect(mine(named())).toEqual([]);
      chmodSync(beside, 0o664);
      expect(mine(named())).toEqual([`${beside} (writable by its group or by everyone)`]);
      chmodSync(beside, 0o644);
      chmodSync(dir, 0o777);
      expect(mine(named())).toEqual([`${dir} (writable by its group or by everyone)`]);
      // a file not there yet (a managed file setup would create) is judged by its folders
      const missing = join(dir, 'none', 'hooks.json');
      expect(mine(changeableFiles([missing], 'linux', undefined, admin))).toEqual([
        `${dir} (writable by its group or by everyone)`,
      ]);
      chmodSync(dir, 0o755);
      expect(mine(changeableFiles([missing], 'linux', undefined, admin))).toEqual([]);
      // near miss: the same files, owned by a user other than the one that counts as root, are named
      const other = admin + 1;
      expect(mine(changeableFiles([script], 'linux', undefined, other))).toEqual(
        [script, dir, join(root, 'pkg'), root].map((path) => `${path} (owned by user ${admin})`),
      );
    },
  );

  it('on Windows every file is named: guard cannot tell there, so it refuses', () => {
    expect(changeableFiles(['C:/node.exe', 'C:/guard/dist/hook-entry.cjs'], 'win32')).toHaveLength(2);
  });
});

// Gemini CLI and Qwen Code merge the system settings last: setup --system writes there the setting
// that keeps hooks on, so a user's own switch no longer turns the system's hooks off (and an
// administrator's switch that turns them all off is not overruled: setup refuses)
describe("setup --system keeps Gemini CLI's, Qwen Code's and Factory Droid's hooks on for every user", () => {
  const flat = (text: string | undefined): string => (text ?? '').replace(/\s+/g, '');
  it.each([
    { agent: 'gemini', admin: undefined, on: '"hooksConfig":{"enabled":true}', key: 'enabled', own: false },
    {
      agent: 'gemini',
      admin: '{\n  "hooksConfig": { "notifications": false } // quiet\n}\n',
      on: '"hooksConfig":{"notifications":false,"enabled":true}',
      key: 'enabled',
      own: false,
    },
    // the administrator's own "on" is kept as it is, not written twice
    {
      agent: 'gemini',
      admin: '{ "hooksConfig": { "enabled": true } }',
      on: '"hooksConfig":{"enabled":true}',
      key: 'enabled',
      own: true,
    },
    { agent: 'qwen', admin: undefined, on: '"disableAllHooks":false', key: 'disableAllHooks', own: false },
    {
      agent: 'qwen',
      admin: '{ "disableAllHooks": false, "model": {} }',
      on: '"disableAllHooks":false,"model":{}',
      key: 'disableAllHooks',
      own: true,
    },
    { agent: 'droid', admin: undefined, on: '"hooksDisabled":false', key: 'hooksDisabled', own: false },
    {
      agent: 'droid',
      admin: MANAGED_FILES.droid,
      on: '"hooksDisabled":false',
      key: 'hooksDisabled',
      own: false,
    },
    {
      agent: 'droid',
      admin: '{ "hooks": { "hooksDisabled": false } }',
      on: '"hooks":{"hooksDisabled":false,',
      key: 'hooksDisabled',
      own: true,
    },
  ] as const)('$agent, the administrator’s file $admin', async ({ agent, admin, on, key, own }) => {
    const file = fileOf(agent);
    if (admin !== undefined) write(file, admin);
    const result = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    expect(result.error).toBeUndefined();
    const after = readIfThere(file) as string;
    expect(flat(after)).toContain(on);
    expect(after.split(`"${key}"`).length - 1).toBe(1);
    // the text edit gives the administrator's file back too (the switch leaves with guard's hook);
    // one the administrator wrote before is given back by the backup alone (the text cannot tell whose it is)
    if (!own) expect(adapters[agent].uninstall(after, { system: true })).toBe(admin ?? '');
    const removed = await run((io) => uninstall(agent, { project: false, system: world() }, io));
    expect(removed.error).toBeUndefined();
    expect(readIfThere(file)).toBe(admin);
  });

  it.each([
    { agent: 'gemini', admin: '{\n  "hooksConfig": { "enabled": false }\n}\n', says: /"hooksConfig.enabled" is false/ },
    { agent: 'gemini', admin: '{ "hooksConfig": "on" }', says: /"hooksConfig" must be an object/ },
    { agent: 'qwen', admin: '{ "disableAllHooks": true }', says: /"disableAllHooks" is true here/ },
    { agent: 'droid', admin: '{ "hooks": { "hooksDisabled": true } }', says: /"hooks.hooksDisabled" is true here/ },
  ] as const)(
    '$agent: an administrator’s $admin is not overruled, and nothing is written',
    async ({ agent, admin, says }) => {
      write(fileOf(agent), admin);
      const before = snapshot();
      const result = await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
      expect(result.error?.message).toMatch(says);
      expect(result.error?.message).toContain('guard wrote nothing.');
      expect(snapshot()).toEqual(before);
    },
  );

  it('a file the administrator changed after setup: uninstall takes out the hook and the switch, and keeps the change', async () => {
    const file = fileOf('gemini');
    write(file, MANAGED_FILES.gemini);
    await run((io) => setup('gemini', { project: false, dryRun: false, system: world() }, io));
    writeFileSync(file, (readIfThere(file) as string).replace('oauth-personal', 'gemini-api-key'));
    const removed = await run((io) => uninstall('gemini', { project: false, system: world() }, io));
    expect(removed.stdout).toContain(`Removed guard's hook from ${file}; the rest of the file is as it was.`);
    expect(readIfThere(file)).toBe(MANAGED_FILES.gemini.replace('oauth-personal', 'gemini-api-key'));
  });

  // near misses: a user's or a project's file gets guard's hook alone
  it.each(['gemini', 'qwen', 'droid'] as const)('%s for the user writes no switch', async (agent) => {
    await run((io) => setup(agent, { project: false, dryRun: false }, io));
    const where = { home: box.home, env: box.env, projectRoot: box.project };
    const text = readIfThere(adapters[agent].configPath('user', where)) ?? '';
    expect(adapters[agent].installedCommands(text)).not.toEqual([]);
    expect(text).not.toMatch(/hooksConfig|disableAllHooks|hooksDisabled/);
  });

  it("status: a user's switch is overruled by the system settings setup wrote; a user's listing of guard's name is not", async () => {
    await run((io) => setup('gemini', { project: false, dryRun: false, system: world() }, io));
    const userFile = join(box.home, '.gemini', 'settings.json');
    const trust = join(box.home, '.gemini', 'trustedFolders.json');
    write(trust, JSON.stringify({ [box.project]: 'TRUST_FOLDER' }));
    const env = { ...box.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: fileOf('gemini') };
    const where = { home: box.home, env, projectRoot: box.project };
    const off = (user: string): [string, string][] => {
      write(userFile, user);
      const files = adapters.gemini.hookSwitches?.files(where) ?? [];
      const read = files.map((path) => ({ path, text: readIfThere(path) }));
      return (adapters.gemini.hookSwitches?.check(read, where) ?? []).map((found) => [found.scope, found.message]);
    };
    expect(off('{"hooksConfig": {"enabled": false}}')).toEqual([
      [
        'overruled',
        expect.stringMatching(/which wins over it, sets "hooksConfig": \{"enabled": true\}: guard's hooks run/),
      ],
    ]);
    expect(off('{"hooksConfig": {"disabled": ["guard"]}}')).toEqual([
      ['everywhere', expect.stringMatching(/lists "guard"/)],
    ]);
  });
});
