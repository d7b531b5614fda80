import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { adapters, systemHookFile, withFallback } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/agents/config-io.js';
import { howYesIsSeen, status } from '../../src/commands/status.js';
import { ownAnswerOf } from '../../src/agents/inspect.js';
import type { LevelStatus, StatusJson } from '../../src/agents/inspect.js';
import { hookScriptPath } from '../../src/self.js';
import { captureIo, NOWHERE } from '../capture-io.js';
import { underRoot } from '../../src/agents/system.js';
import { makeAgentHome, readIfThere, setupOptions } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

let box: AgentHome;
beforeEach(() => {
  box = makeAgentHome();
});
afterEach(() => box.cleanup());

async function statusJson(): Promise<StatusJson> {
  const result = await box.guard('status', '--json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as StatusJson;
}

function levelOf(report: StatusJson, agent: AgentId, level: 'user' | 'project'): LevelStatus {
  const found = report.agents.find((entry) => entry.agent === agent)?.levels.find((entry) => entry.level === level);
  expect(found, `${agent} ${level}`).toBeDefined();
  return found as LevelStatus;
}

const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

describe('guard status --json', () => {
  it('on a machine with nothing set up: switches, folder, every agent at both levels, not installed', async () => {
    const report = await statusJson();
    expect(report).toMatchObject({
      enabled: true,
      failClosed: false,
      guardHome: box.guardHome,
      hookScript: { path: hookScriptPath() },
    });
    expect(report.agents.map((agent) => agent.agent)).toEqual([
      'codex',
      'cursor',
      'antigravity',
      'copilot',
      'claude-code',
      'gemini',
      'opencode',
      'qwen',
      'windsurf',
      'droid',
      'cline',
      'kilo',
      'crush',
      'auggie',
      'kiro',
    ]);
    for (const agent of report.agents) {
      expect(agent.capabilities).toEqual(adapters[agent.agent].capabilities);
      expect(agent.name).toBe(adapters[agent.agent].displayName);
      // nothing is set up, so the agents' own settings are not even read
      expect(agent.hooksOff).toEqual([]);
      // the machine's own managed files (system.test.ts has them under a scratch root) are only named here
      const own = agent.levels.filter((level) => level.level !== 'system');
      expect(own.map((level) => [level.level, level.exists, level.installed, level.commands])).toEqual([
        ['user', false, false, []],
        ['project', false, false, []],
      ]);
      // (under the scratch system root every in-process run is given)
      const declared = systemHookFile(adapters[agent.agent].files, process.platform);
      expect(agent.levels.find((level) => level.level === 'system')?.path).toBe(
        declared === undefined ? undefined : underRoot(join(NOWHERE, 'system-root'), declared),
      );
    }
    expect(levelOf(report, 'codex', 'user').path).toBe(join(box.home, '.codex', 'hooks.json'));
    expect(levelOf(report, 'copilot', 'project').path).toBe(join(box.project, '.github', 'hooks', 'guard.json'));
  });

  it('honours CODEX_HOME, COPILOT_HOME, CLAUDE_CONFIG_DIR, GEMINI_CLI_HOME and QWEN_HOME', async () => {
    box.env.CODEX_HOME = join(box.root, 'ch');
    box.env.COPILOT_HOME = join(box.root, 'cp');
    box.env.CLAUDE_CONFIG_DIR = join(box.root, 'cc');
    box.env.GEMINI_CLI_HOME = join(box.root, 'gh');
    box.env.QWEN_HOME = join(box.root, 'qh');
    const report = await statusJson();
    expect(levelOf(report, 'codex', 'user').path).toBe(join(box.root, 'ch', 'hooks.json'));
    expect(levelOf(report, 'copilot', 'user').path).toBe(join(box.root, 'cp', 'hooks', 'guard.json'));
    expect(levelOf(report, 'claude-code', 'user').path).toBe(join(box.root, 'cc', 'settings.json'));
    expect(levelOf(report, 'claude-code', 'project').path).toBe(join(box.project, '.claude', 'settings.json'));
    expect(levelOf(report, 'gemini', 'user').path).toBe(join(box.root, 'gh', '.gemini', 'settings.json'));
    expect(levelOf(report, 'gemini', 'project').path).toBe(join(box.project, '.gemini', 'settings.json'));
    expect(levelOf(report, 'qwen', 'user').path).toBe(join(box.root, 'qh', 'settings.json'));
    expect(levelOf(report, 'qwen', 'project').path).toBe(join(box.project, '.qwen', 'settings.json'));
  });

  it('after setup: installed where setup wrote, with the command, up to date', async () => {
    await box.guard('setup', 'cursor');
    await box.guard('setup', 'codex', '--project');
    const report = await statusJson();
    const cursor = levelOf(report, 'cursor', 'user');
    expect(cursor).toMatchObject({ exists: true, installed: true, upToDate: true, agentFailClosed: false });
    expect(cursor.commands.map((command) => [command.command, command.node, command.script])).toEqual([
      [hookCommand('cursor'), process.execPath, hookScriptPath()],
    ]);
    // this guard's own install and Node: nothing to advise
    expect(cursor.commands.map((command) => [command.nodeIs, command.scriptIs, command.advice])).toEqual([
      ['this', 'this', undefined],
    ]);
    const codex = levelOf(report, 'codex', 'project');
    expect(codex).toMatchObject({ exists: true, installed: true, upToDate: true });
    // Codex has no fail-closed switch of its own: nothing is claimed about it
    expect(codex.agentFailClosed).toBeUndefined();
    // but it has a trust gate, and a fresh setup has not passed it
    expect(codex.codexTrust).toEqual({
      state: 'untrusted',
      detail: "4 of guard's 4 hooks are not trusted yet, so Codex skips them",
    });
    expect(cursor.codexTrust).toBeUndefined();
    expect((await box.guard('status')).stdout).toContain(
      "; NOT running: 4 of guard's 4 hooks are not trusted yet, so Codex skips them (open Codex in a terminal, type /hooks, trust guard's hook)\n",
    );
    expect(levelOf(report, 'codex', 'user').installed).toBe(false);
    expect(levelOf(report, 'cursor', 'project').installed).toBe(false);
  });

  it('names the MCP servers the chat-start scan does not ask for their tools (remote, or never started by guard), per agent set up', async () => {
    await box.guard('setup', 'cursor');
    const servers = {
      local: { command: 'node', args: ['server.js'] },
      api: { url: 'https://mcp.example.com/mcp' },
      docs: { serverUrl: 'https://docs.example.com/sse' },
    };
    write(join(box.home, '.cursor', 'mcp.json'), `${JSON.stringify({ mcpServers: servers })}\n`);
    // an agent not set up: its servers are not guard's business here
    write(join(box.home, '.codeium', 'windsurf', 'mcp_config.json'), `${JSON.stringify({ mcpServers: servers })}\n`);
    const report = (await statusJson()) as StatusJson & { mcpNotScanned: unknown };
    expect(report.mcpNotScanned).toEqual([
      { agent: 'cursor', server: 'api', why: 'remote, not contacted' },
      { agent: 'cursor', server: 'docs', why: 'remote, not contacted' },
    ]);
    expect((await box.guard('status')).stdout).toContain(
      '  MCP servers not scanned (their calls go ahead, their arguments judged): api (remote, not contacted), docs (remote, not contacted)\n',
    );
  });

  it('a local MCP server, or none at all: nothing named as not scanned', async () => {
    await box.guard('setup', 'cursor');
    expect(((await statusJson()) as StatusJson & { mcpNotScanned: unknown }).mcpNotScanned).toEqual([]);
    write(join(box.home, '.cursor', 'mcp.json'), `${JSON.stringify({ mcpServers: { local: { command: 'node' } } })}\n`);
    expect(((await statusJson()) as StatusJson & { mcpNotScanned: unknown }).mcpNotScanned).toEqual([]);
    expect((await box.guard('status')).stdout).not.toContain('MCP servers not scanned');
  });

  it("after setup the commands answer by themselves when guard's files go; an older setup's do not until setup runs again", async () => {
    expect((await box.guard('status')).stdout).not.toContain('To remove guard');
    await box.guard('setup', 'cursor');
    expect(levelOf(await statusJson(), 'cursor', 'user')).toMatchObject({ ownAnswer: 'written', upToDate: true });
    const text = (await box.guard('status')).stdout;
    expect(text).toContain("; answers by itself if guard's files go;");
    expect(text).toContain('; the agent runs a step when the hook itself fails (fail-closed off)\n');
    // set up somewhere: the order that removes guard cleanly (from a checkout there is no package to remove)
    expect(text).toMatch(
      /\nTo remove guard: `guard uninstall --all` first \(in each project set up with --project\)\.\n$/,
    );
    // what setup wrote before commands had an answer of their own
    const file = join(box.home, '.cursor', 'hooks.json');
    write(file, adapters.cursor.install('', { hookCommand: hookCommand('cursor'), failClosed: false }));
    const old = levelOf(await statusJson(), 'cursor', 'user');
    expect(old).toMatchObject({ ownAnswer: 'missing', upToDate: false });
    expect(old.commands.map((command) => [command.command, command.resolves])).toEqual([[hookCommand('cursor'), true]]);
    expect((await box.guard('status')).stdout).toContain(
      "; command resolves; does NOT answer by itself if guard's files go (setup adds that); out of date",
    );
    await box.guard('setup', 'cursor');
    expect(levelOf(await statusJson(), 'cursor', 'user')).toMatchObject({ ownAnswer: 'written', upToDate: true });
  });

  it("Copilot's per-event commands show as one command", async () => {
    await box.guard('setup', 'copilot');
    const level = levelOf(await statusJson(), 'copilot', 'user');
    expect(level.commands.map((command) => command.command)).toEqual([hookCommand('copilot')]);
  });

  it("fail-closed: Cursor's own switch is out of date until setup runs again", async () => {
    await box.guard('setup', 'cursor');
    write(join(box.guardHome, 'settings.yaml'), 'failClosed: true\n');
    expect(levelOf(await statusJson(), 'cursor', 'user')).toMatchObject({ upToDate: false, agentFailClosed: false });
    await box.guard('setup', 'cursor');
    const report = await statusJson();
    expect(report.failClosed).toBe(true);
    expect(levelOf(report, 'cursor', 'user')).toMatchObject({ upToDate: true, agentFailClosed: true });
  });

  it("an entry set up before guard's folder was moved is not up to date: the command pins the folder", async () => {
    // the box moves guard's folder with GUARD_HOME; these entries were written without it
    const gemini = join(box.home, '.gemini', 'settings.json');
    write(gemini, adapters.gemini.install('', setupOptions('gemini')));
    expect(levelOf(await statusJson(), 'gemini', 'user')).toMatchObject({ installed: true, upToDate: false });
    expect(await box.guard('setup', 'gemini')).toMatchObject({ code: 0 });
    expect(readIfThere(gemini)).toContain(JSON.stringify(box.guardHome));
    expect(levelOf(await statusJson(), 'gemini', 'user')).toMatchObject({ installed: true, upToDate: true });
    // an agent that hands its hooks the whole environment: the command itself names guard's
    // folder (off Windows), so an inherited GUARD_HOME cannot move it
    const claude = join(box.home, '.claude', 'settings.json');
    write(claude, adapters['claude-code'].install('', setupOptions('claude-code')));
    const pinned = process.platform !== 'win32';
    expect(levelOf(await statusJson(), 'claude-code', 'user')).toMatchObject({ installed: true, upToDate: !pinned });
    write(claude, adapters['claude-code'].install('', setupOptions('claude-code', { guardHome: box.guardHome })));
    expect(levelOf(await statusJson(), 'claude-code', 'user')).toMatchObject({ installed: true, upToDate: true });
  });

  it('a command whose script is gone does not resolve, and says which file', async () => {
    const file = join(box.home, '.gemini', 'config', 'hooks.json');
    const gone = join(box.root, 'old-checkout', 'dist', 'bin.js');
    write(
      file,
      adapters.antigravity.install('', {
        hookCommand: `"${process.execPath}" "${gone}" hook antigravity`,
        failClosed: false,
      }),
    );
    const level = levelOf(await statusJson(), 'antigravity', 'user');
    expect(level).toMatchObject({ installed: true, upToDate: false });
    expect(level.commands).toEqual([
      {
        command: `"${process.execPath}" "${gone}" hook antigravity`,
        node: process.execPath,
        script: gone,
        resolves: false,
        problem: `the hook script ${gone} does not exist`,
        nodeIs: 'this',
        scriptIs: 'missing',
        advice:
          `The guard this command runs is gone (${gone} does not exist: guard was moved, reinstalled elsewhere or removed), so Antigravity cannot run its hook.` +
          ' Run `guard setup antigravity` to point it at this guard and this Node.',
      },
    ]);
  });

  it('a file that does not parse is reported with its line, not installed', async () => {
    const file = join(box.home, '.cursor', 'hooks.json');
    write(file, '{\n  "version": 2,\n  "hooks": {}\n}\n');
    const level = levelOf(await statusJson(), 'cursor', 'user');
    expect(level).toMatchObject({ exists: true, installed: false });
    expect(level.error).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: Cursor ignores a hook file whose "version" is not 1`,
      ),
    );
  });

  it('a file without guard is there but not installed', async () => {
    write(join(box.home, '.cursor', 'hooks.json'), '{"version":1,"hooks":{"stop":[{"command":"./x.sh"}]}}');
    const level = levelOf(await statusJson(), 'cursor', 'user');
    expect(level).toEqual({
      level: 'user',
      path: join(box.home, '.cursor', 'hooks.json'),
      exists: true,
      installed: false,
      commands: [],
    });
  });
});

describe("guard status: the agents' own settings that keep guard's hooks from running", () => {
  // Gemini CLI's machine-wide files, moved into the box (the machine's own are not this test's)
  beforeEach(() => {
    box.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(box.root, 'etc', 'gemini-system.json');
    box.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH = join(box.root, 'etc', 'gemini-defaults.json');
    box.env.QWEN_CODE_SYSTEM_SETTINGS_PATH = join(box.root, 'etc', 'qwen-system.json');
    box.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = join(box.root, 'etc', 'qwen-defaults.json');
  });
  const hooksOff = (report: StatusJson, agent: AgentId) =>
    report.agents.find((entry) => entry.agent === agent)?.hooksOff;

  it("Claude Code's disableAllHooks, in the user's settings or the project's local ones", async () => {
    await box.guard('setup', 'claude-code');
    expect(hooksOff(await statusJson(), 'claude-code')).toEqual([]);
    const user = join(box.home, '.claude', 'settings.json');
    write(user, readIfThere(user)?.replace('{', '{\n  "disableAllHooks": true,') ?? '');
    write(join(box.project, '.claude', 'settings.local.json'), '{"disableAllHooks": true}\n');
    const report = await statusJson();
    expect(hooksOff(report, 'claude-code')).toEqual([
      {
        scope: 'everywhere',
        message: expect.stringMatching(new RegExp(`^${escape(user)} sets "disableAllHooks": true`)),
      },
      { scope: 'everywhere', message: expect.stringContaining('settings.local.json sets "disableAllHooks": true') },
    ]);
    // guard's own file still parses and is up to date: the switch is the agent's
    expect(levelOf(report, 'claude-code', 'user')).toMatchObject({ installed: true, upToDate: true });
    expect((await box.guard('status')).stdout).toContain(
      `  NOT RUNNING: ${user} sets "disableAllHooks": true, so Claude Code runs no hooks at all, guard's included`,
    );
  });

  it("Gemini CLI's hooksConfig.enabled, and folder trust for the folder status runs in", async () => {
    await box.guard('setup', 'gemini', '--project');
    const trust = join(box.home, '.gemini', 'trustedFolders.json');
    const [untrusted] = hooksOff(await statusJson(), 'gemini') ?? [];
    expect(untrusted).toEqual({
      scope: 'here',
      message: expect.stringContaining(`does not trust ${box.project} (yet)`),
    });
    expect((await box.guard('status')).stdout).toContain('  not running in this folder: Gemini CLI does not trust');
    write(trust, `{"${box.project}": "TRUST_FOLDER"}`);
    expect(hooksOff(await statusJson(), 'gemini')).toEqual([]);
    write(join(box.home, '.gemini', 'settings.json'), '// mine\n{ "hooksConfig": { "enabled": false } }\n');
    expect(hooksOff(await statusJson(), 'gemini')).toEqual([
      { scope: 'everywhere', message: expect.stringContaining('"hooksConfig": {"enabled": false}') },
    ]);
  });

  it("Qwen Code's disableAllHooks: a project's settings switch off the user's hooks; the system's win over both", async () => {
    await box.guard('setup', 'qwen');
    expect(hooksOff(await statusJson(), 'qwen')).toEqual([]);
    const project = join(box.project, '.qwen', 'settings.json');
    write(project, '// the team\'s\n{ "disableAllHooks": true }\n');
    expect(hooksOff(await statusJson(), 'qwen')).toEqual([
      {
        scope: 'everywhere',
        message: expect.stringMatching(new RegExp(`^${escape(project)} sets "disableAllHooks": true, so Qwen Code`)),
      },
    ]);
    // the system's settings are merged last: on there, the project's switch counts for nothing,
    // and status says it tried
    write(join(box.root, 'etc', 'qwen-system.json'), '{ "disableAllHooks": false }\n');
    expect(hooksOff(await statusJson(), 'qwen')).toEqual([
      {
        scope: 'overruled',
        message: expect.stringMatching(
          new RegExp(
            `^${escape(project)} sets "disableAllHooks": true, but .*qwen-system\\.json, which wins over it, sets "disableAllHooks": false: guard's hooks run all the same\\.$`,
          ),
        ),
      },
    ]);
    const { stdout } = await box.guard('status');
    expect(stdout).toContain(`  tried to switch guard off, cannot: ${project} sets "disableAllHooks": true, but`);
    expect(stdout).not.toContain('NOT RUNNING');
  });

  it("Kiro CLI: the agent a chat starts with, a project's agent in guard's place, and the person's agents without guard's hook", async () => {
    await box.guard('setup', 'kiro');
    const settings = join(box.home, '.kiro', 'settings', 'cli.json');
    // Kiro's built-in default agent runs no hooks until guard's agent is made the default
    expect(hooksOff(await statusJson(), 'kiro')).toEqual([
      {
        scope: 'everywhere',
        message: expect.stringMatching(/^Kiro CLI starts a chat with its built-in default agent/),
      },
    ]);
    expect((await box.guard('status')).stdout).toContain(
      '  NOT RUNNING: Kiro CLI starts a chat with its built-in default agent, which runs no hooks, and it has no guard hook',
    );
    write(settings, '{\n  "chat.defaultAgent": "guard"\n}\n');
    expect(hooksOff(await statusJson(), 'kiro')).toEqual([]);
    // an agent of the person's own, and a cloned project's agent named guard
    const mine = join(box.home, '.kiro', 'agents', 'review.json');
    write(mine, '{ "name": "review", "tools": ["read"] }\n');
    const project = join(box.project, '.kiro', 'agents', 'guard.json');
    write(project, '{ "name": "guard", "tools": ["*"] }\n');
    expect(hooksOff(await statusJson(), 'kiro')).toEqual([
      { scope: 'here', message: expect.stringContaining(`${project} takes the place of guard's agent in this folder`) },
      { scope: 'partly', message: expect.stringMatching(new RegExp(`^${escape(mine)} \\(the agent "review"\\)`)) },
    ]);
    const { stdout } = await box.guard('status');
    expect(stdout).toContain(`  not running in this folder: ${project} takes the place of guard's agent`);
    expect(stdout).toContain(`  not running in some chats: ${mine} (the agent "review") has no guard hook`);
    expect(stdout).not.toContain('NOT RUNNING');
  });

  it('an agent guard is not set up for is not looked at', async () => {
    write(join(box.home, '.claude', 'settings.json'), '{"disableAllHooks": true}\n');
    expect(hooksOff(await statusJson(), 'claude-code')).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('guard status (text)', () => {
  it('names the switches, each agent, where guard is and what a failure does', async () => {
    await box.guard('setup', 'antigravity');
    write(join(box.guardHome, 'settings.yaml'), 'enabled: false\n');
    const { code, stdout } = await box.guard('status');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^guard is off \(every step goes ahead; `guard on` turns it back on\); fail-closed is off\.\n/,
    );
    expect(stdout).toContain(`folder: ${box.guardHome}\n`);
    expect(stdout).toContain(
      `\nAntigravity\n  user     ${join(box.home, '.gemini', 'config', 'hooks.json')}\n           installed; `,
    );
    expect(stdout).toContain(`           ${hookCommand('antigravity')}\n`);
    expect(stdout).toContain(`  if the hook fails: ${adapters.antigravity.capabilities.onHookFailure}\n`);
    expect(stdout).toContain(`  if it times out: ${adapters.copilot.capabilities.onHookTimeout}\n`);
    expect(stdout).toContain(`\nCodex\n  user     ${join(box.home, '.codex', 'hooks.json')}\n           no file\n`);
    expect(stdout).toContain('ask: block, then the agent asks you in the chat');
  });

  it('a bad settings file is a clear error', async () => {
    write(join(box.guardHome, 'settings.yaml'), 'enabled: perhaps\n');
    const result = await box.guard('status');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^guard: settings\.yaml: enabled must be true or false, not "perhaps" \(in .+\)\.\nFix or delete settings\.yaml/,
    );
  });
});

describe('guard status from the home folder', () => {
  it("lists a file once when the project's file is the user's own", async () => {
    const { io, stdout } = captureIo({ cwd: box.home, home: box.home });
    await status({ json: true }, { ...io, env: box.env });
    const report = JSON.parse(stdout()) as StatusJson;
    const cursor = report.agents.find((agent) => agent.agent === 'cursor');
    expect(
      cursor?.levels.filter((level) => level.level !== 'system').map((level) => [level.level, level.path]),
    ).toEqual([['user', join(box.home, '.cursor', 'hooks.json')]]);
    // the near miss: Copilot's project file (.github/hooks) is not its user file, so both stay
    expect(report.agents.find((agent) => agent.agent === 'copilot')?.levels.map((level) => level.level)).toEqual([
      'user',
      'project',
      'system',
    ]);
  });
});

describe('guard status names the exact command for an out-of-date entry', () => {
  it.for([
    { level: 'user' as const, args: [] as string[], want: 'out of date (run `guard setup cursor`)' },
    { level: 'project' as const, args: ['--project'], want: 'out of date (run `guard setup cursor --project`)' },
  ])('$level', async ({ args, want }) => {
    await box.guard('setup', 'cursor', ...args);
    write(join(box.guardHome, 'settings.yaml'), 'failClosed: true\n');
    const { stdout } = await box.guard('status');
    expect(stdout).toContain(want);
    expect(stdout.match(/out of date/g)).toHaveLength(1);
  });
});

describe('how a yes is seen, per agent', () => {
  it.for([
    { agent: 'codex', says: /your next message in the chat/ },
    { agent: 'cursor', says: /result comes back/ },
    { agent: 'copilot', says: /result comes back/ },
    { agent: 'antigravity', says: /cannot be seen .* every asked step is asked again/ },
    { agent: 'claude-code', says: /result comes back/ },
    { agent: 'gemini', says: /your next message in the chat/ },
    { agent: 'qwen', says: /result comes back/ },
    { agent: 'droid', says: /your next message in the chat/ },
  ] as const)('$agent', ({ agent, says }) => {
    expect(howYesIsSeen(adapters[agent].capabilities)).toMatch(says);
  });
});

describe('guard status says when the install or the Node a hook command names moved, changed or went away', () => {
  // stand-ins that exist: another guard install and another Node
  const otherFiles = (): { otherScript: string; otherNode: string } => {
    const otherScript = join(box.root, 'other install', 'dist', 'hook-entry.cjs');
    const otherNode = join(box.root, 'node-22', 'bin', 'node');
    write(otherScript, '');
    write(otherNode, '');
    return { otherScript, otherNode };
  };
  it.for([
    {
      name: 'this guard, this Node',
      node: () => process.execPath,
      script: () => hookScriptPath(),
      nodeIs: 'this',
      scriptIs: 'this',
      says: [],
    },
    {
      name: 'the install moved or was removed',
      node: () => process.execPath,
      script: () => join(box.root, 'moved away', 'dist', 'hook-entry.cjs'),
      nodeIs: 'this',
      scriptIs: 'missing',
      says: [
        /^The guard this command runs is gone \(.*moved away.* does not exist: guard was moved, reinstalled elsewhere or removed\), so Cursor cannot run its hook\./,
      ],
    },
    {
      name: 'another install (the checkout, the package)',
      node: () => process.execPath,
      script: () => otherFiles().otherScript,
      nodeIs: 'this',
      scriptIs: 'other',
      says: [/^This command runs another guard \(.*other install.*\), not this one \(/],
    },
    {
      name: 'Node is gone',
      node: () => join(box.root, 'node-18', 'bin', 'node'),
      script: () => hookScriptPath(),
      nodeIs: 'missing',
      scriptIs: 'this',
      says: [
        /^The Node program it names is gone \(.*node-18.* does not exist: Node was upgraded, moved or removed\), so the hook cannot start\./,
      ],
    },
    {
      name: 'another Node than the one running guard',
      node: () => otherFiles().otherNode,
      script: () => hookScriptPath(),
      nodeIs: 'other',
      scriptIs: 'this',
      says: [/^It names another Node \(.*node-22.*\) than the one running guard now \(/],
    },
    {
      name: 'both gone',
      node: () => join(box.root, 'node-18', 'bin', 'node'),
      script: () => join(box.root, 'moved away', 'hook-entry.cjs'),
      nodeIs: 'missing',
      scriptIs: 'missing',
      says: [/The guard this command runs is gone/, /The Node program it names is gone/],
    },
    {
      name: 'by name, not by path',
      node: () => 'node',
      script: () => 'hook-entry.cjs',
      nodeIs: 'relative',
      scriptIs: 'relative',
      says: [
        /^This command does not name Node and guard's hook script by full paths, so it depends on Cursor's PATH and folder\./,
      ],
    },
  ] as const)('$name', async ({ node, script, nodeIs, scriptIs, says }) => {
    const command = `"${node()}" "${script()}" hook cursor`;
    write(
      join(box.home, '.cursor', 'hooks.json'),
      adapters.cursor.install('', {
        hookCommand: command,
        failClosed: false,
        fallback: { node: node(), script: script(), home: box.guardHome },
      }),
    );
    const level = levelOf(await statusJson(), 'cursor', 'user');
    expect(level.commands.map((entry) => [entry.command, entry.nodeIs, entry.scriptIs])).toEqual([
      [command, nodeIs, scriptIs],
    ]);
    const advice = level.commands[0]?.advice;
    const text = (await box.guard('status')).stdout;
    if (says.length === 0) {
      expect(advice).toBeUndefined();
      expect(level.upToDate).toBe(true);
      return;
    }
    expect(level.upToDate).toBe(false);
    for (const pattern of says) expect(advice).toMatch(pattern);
    expect(advice).toMatch(/ Run `guard setup cursor` to point it at this guard and this Node\.$/);
    // the text form says the same, under the command
    expect(text).toContain(`           ${command}\n           ${advice}\n`);
  });

  it('a project file names `guard setup <agent> --project`', async () => {
    const gone = join(box.root, 'gone', 'hook-entry.cjs');
    write(
      join(box.project, '.cursor', 'hooks.json'),
      adapters.cursor.install('', { hookCommand: `"${process.execPath}" "${gone}" hook cursor`, failClosed: false }),
    );
    const level = levelOf(await statusJson(), 'cursor', 'project');
    expect(level.commands[0]?.advice).toMatch(/ Run `guard setup cursor --project` to point it at this guard/);
  });
});

describe("ownAnswerOf: whether guard's commands in a file answer by themselves", () => {
  const plain = '"/usr/bin/node" "/opt/guard/dist/hook-entry.cjs" hook copilot --event preToolUse';
  const own = withFallback(
    plain,
    { node: '/usr/bin/node', script: '/opt/guard/dist/hook-entry.cjs' },
    {
      stdout: '{}\n',
      exitCode: 0,
    },
  );
  it.for([
    { name: 'every command has its own answer', commands: [own, own], platform: 'linux', want: 'written' },
    { name: "PowerShell's plain command beside it", commands: [own, `& ${plain}`], platform: 'linux', want: 'written' },
    { name: 'one command of an older setup among them', commands: [own, plain], platform: 'linux', want: 'missing' },
    { name: 'an older setup, beside PowerShell', commands: [plain, `& ${plain}`], platform: 'darwin', want: 'missing' },
    { name: 'the plain command on Windows', commands: [plain], platform: 'win32', want: 'windows' },
    { name: 'an answer of its own on Windows too', commands: [own], platform: 'win32', want: 'written' },
  ])('$name: $want', ({ commands, platform, want }) => {
    expect(ownAnswerOf(commands, platform)).toBe(want);
  });
});
