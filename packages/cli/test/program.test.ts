import { beforeEach, describe, expect, it, vi } from 'vitest';
import { doctor } from '../src/commands/doctor.js';
import { explain } from '../src/commands/explain.js';
import { showLog } from '../src/commands/log.js';
import { report } from '../src/commands/report.js';
import { scan } from '../src/commands/scan.js';
import { failClosed } from '../src/commands/fail-closed.js';
import { toggle } from '../src/commands/toggle.js';
import { setup, setupAll, systemWorld } from '../src/commands/setup.js';
import { status } from '../src/commands/status.js';
import type { SystemWorld } from '../src/agents/system.js';
import {
  uninstall,
  uninstallAll,
  uninstallAllSystem,
  systemWorld as uninstallWorld,
} from '../src/commands/uninstall.js';
import { GuardError } from '../src/errors.js';
import { main } from '../src/main.js';
import { captureIo } from './capture-io.js';

vi.mock('../src/commands/explain.js');
vi.mock('../src/commands/log.js');
vi.mock('../src/commands/report.js');
vi.mock('../src/commands/scan.js');
vi.mock('../src/commands/toggle.js');
vi.mock('../src/commands/fail-closed.js');
vi.mock('../src/commands/setup.js');
vi.mock('../src/commands/uninstall.js');
vi.mock('../src/commands/status.js');
vi.mock('../src/commands/doctor.js');

async function run(args: readonly string[]) {
  const captured = captureIo();
  const code = await main(['node', 'guard', ...args], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('argv → explain', () => {
  it.for([
    { name: 'words after --', args: ['explain', '--', 'git', 'status'], command: 'git status', json: false },
    {
      name: 'one quoted word is used as is',
      args: ['explain', '--', 'sudo sh -c "git  push"'],
      command: 'sudo sh -c "git  push"',
      json: false,
    },
    { name: '--json', args: ['explain', '--json', '--', 'ls', '-la'], command: 'ls -la', json: true },
    { name: 'no -- needed for plain words', args: ['explain', 'git', 'status'], command: 'git status', json: false },
    // once the command has started, its own options belong to it
    {
      name: 'options after the first word pass through',
      args: ['explain', '--json', 'git', 'push', '--force', '--json'],
      command: 'git push --force --json',
      json: true,
    },
    {
      name: 'a -- inside the command is kept',
      args: ['explain', 'git', 'checkout', '--', '.'],
      command: 'git checkout -- .',
      json: false,
    },
  ])('$name', async ({ args, command, json }) => {
    const { code, stderr } = await run(args);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(explain).toHaveBeenCalledTimes(1);
    expect(explain).toHaveBeenCalledWith({ command, json, jsonl: false, cwd: undefined }, expect.anything());
  });

  it('passes --cwd on as given (the command resolves it)', async () => {
    expect((await run(['explain', '--cwd', 'sub/dir', '--', 'rm', '-rf', 'build'])).code).toBe(0);
    expect(explain).toHaveBeenCalledWith(
      { command: 'rm -rf build', json: false, jsonl: false, cwd: 'sub/dir' },
      expect.anything(),
    );
  });

  it('--jsonl takes no command', async () => {
    expect((await run(['explain', '--jsonl', '--cwd', '/home/dev/project'])).code).toBe(0);
    expect(explain).toHaveBeenCalledWith(
      { command: undefined, json: false, jsonl: true, cwd: '/home/dev/project' },
      expect.anything(),
    );
  });
});

describe('argv → setup, uninstall, status, doctor', () => {
  // the machine's system side, as the commands hand it over (a stand-in: nothing here reads the real one)
  const MACHINE = { root: 'the machine' } as unknown as SystemWorld;
  beforeEach(() => {
    vi.mocked(systemWorld).mockReturnValue(MACHINE);
    vi.mocked(uninstallWorld).mockReturnValue(MACHINE);
  });
  it.for([
    {
      args: 'setup codex',
      call: () => expect(setup).toHaveBeenCalledWith('codex', { project: false, dryRun: false }, expect.anything()),
    },
    {
      args: 'setup cursor --project --dry-run',
      call: () => expect(setup).toHaveBeenCalledWith('cursor', { project: true, dryRun: true }, expect.anything()),
    },
    {
      args: 'uninstall antigravity',
      call: () => expect(uninstall).toHaveBeenCalledWith('antigravity', { project: false }, expect.anything()),
    },
    {
      args: 'uninstall copilot --project',
      call: () => expect(uninstall).toHaveBeenCalledWith('copilot', { project: true }, expect.anything()),
    },
    // the user's and the project's, naming the system's it leaves
    { args: 'uninstall --all', call: () => expect(uninstallAll).toHaveBeenCalledWith(expect.anything(), MACHINE) },
    {
      args: 'setup copilot --system --dry-run',
      call: () =>
        expect(setup).toHaveBeenCalledWith(
          'copilot',
          { project: false, dryRun: true, system: MACHINE },
          expect.anything(),
        ),
    },
    {
      args: 'setup --all --system',
      call: () =>
        expect(setupAll).toHaveBeenCalledWith({ project: false, dryRun: false, system: MACHINE }, expect.anything()),
    },
    {
      args: 'uninstall cursor --system',
      call: () =>
        expect(uninstall).toHaveBeenCalledWith('cursor', { project: false, system: MACHINE }, expect.anything()),
    },
    {
      args: 'uninstall --all --system',
      call: () => expect(uninstallAllSystem).toHaveBeenCalledWith(MACHINE, expect.anything()),
    },
    { args: 'status', call: () => expect(status).toHaveBeenCalledWith({ json: false }, expect.anything()) },
    { args: 'status --json', call: () => expect(status).toHaveBeenCalledWith({ json: true }, expect.anything()) },
    { args: 'doctor', call: () => expect(doctor).toHaveBeenCalledWith({ json: false }, expect.anything()) },
    { args: 'doctor --json', call: () => expect(doctor).toHaveBeenCalledWith({ json: true }, expect.anything()) },
  ])('guard $args', async ({ args, call }) => {
    const { code, stderr } = await run(args.split(' '));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    call();
    expect(
      vi.mocked(setup).mock.calls.length +
        vi.mocked(setupAll).mock.calls.length +
        vi.mocked(uninstall).mock.calls.length +
        vi.mocked(uninstallAll).mock.calls.length +
        vi.mocked(uninstallAllSystem).mock.calls.length +
        vi.mocked(status).mock.calls.length +
        vi.mocked(doctor).mock.calls.length,
    ).toBe(1);
  });

  it.for([
    { args: ['uninstall', 'codex', '--dry-run'], stderr: /unknown option '--dry-run'/ },
    { args: ['status', 'codex'], stderr: /too many arguments/ },
    { args: ['doctor', '--project'], stderr: /unknown option '--project'/ },
    { args: ['uninstall'], stderr: /Name the agent to take guard out of, or pass --all/ },
    { args: ['uninstall', 'codex', '--all'], stderr: /--all takes guard out of every agent/ },
    {
      args: ['uninstall', 'codex', '--all', '--system'],
      stderr: /--all takes guard out of every agent, so it takes no agent/,
    },
    { args: ['setup', 'codex', '--system', '--project'], stderr: /--project and --system name two different files/ },
    {
      args: ['uninstall', 'codex', '--project', '--system'],
      stderr: /--project and --system name two different files/,
    },
  ])('usage error: guard $args.0 $args.1 $args.2', async ({ args, stderr }) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
    expect(
      [setup, setupAll, uninstall, uninstallAll, uninstallAllSystem, status, doctor].every(
        (command) => vi.mocked(command).mock.calls.length === 0,
      ),
    ).toBe(true);
  });
});

describe('argv → on, off, fail-closed', () => {
  it.for([
    { args: ['on'], toggled: 'on', failClosedTo: undefined },
    { args: ['off'], toggled: 'off', failClosedTo: undefined },
    { args: ['fail-closed', 'on'], toggled: undefined, failClosedTo: 'on' },
    { args: ['fail-closed', 'off'], toggled: undefined, failClosedTo: 'off' },
    // alone it shows the state, as `guard mode` does
    { args: ['fail-closed'], toggled: undefined, failClosedTo: 'show' },
  ])('guard $args.0 $args.1', async ({ args, toggled, failClosedTo }) => {
    expect(await run(args)).toMatchObject({ code: 0, stderr: '' });
    expect(vi.mocked(toggle).mock.calls.map((call) => call[0])).toEqual(toggled === undefined ? [] : [toggled]);
    expect(vi.mocked(failClosed).mock.calls.map((call) => call[0] ?? 'show')).toEqual(
      failClosedTo === undefined ? [] : [failClosedTo],
    );
  });

  it.for([
    ['on', 'now'],
    ['off', '--force'],
    ['fail-closed', 'maybe'],
    ['fail-closed', 'on', 'off'],
  ])('usage error: guard %s', async (args) => {
    expect((await run(args)).code).toBe(2);
    expect(toggle).not.toHaveBeenCalled();
    expect(failClosed).not.toHaveBeenCalled();
  });
});

describe('usage errors exit 2 and never reach the command', () => {
  it.for([
    {
      name: 'unknown command',
      args: ['frobnicate'],
      stderr: /^guard: unknown command 'frobnicate'\nRun `guard --help` for usage\.\n$/,
    },
    { name: 'unknown top-level option', args: ['--frob'], stderr: /^guard: unknown option '--frob'\n/ },
    { name: 'explain without a command', args: ['explain'], stderr: /No command to explain/ },
    { name: 'explain with -- and nothing after', args: ['explain', '--json', '--'], stderr: /No command to explain/ },
    { name: 'explain with a blank command', args: ['explain', '--', '   '], stderr: /No command to explain/ },
    {
      name: 'explain --jsonl with a command',
      args: ['explain', '--jsonl', '--', 'ls'],
      stderr: /--jsonl reads the commands from stdin/,
    },
    {
      name: 'explain --cwd without a folder',
      args: ['explain', '--cwd'],
      stderr: /option '--cwd <dir>' argument missing/,
    },
    {
      name: 'explain with an unknown option',
      args: ['explain', '--frob', '--', 'ls'],
      stderr: /unknown option '--frob'/,
    },
    {
      name: 'setup without an agent',
      args: ['setup'],
      stderr: /^guard: Name the agent to set guard up in, or pass --all\.\nRun `guard setup <agent>` \(codex, /,
    },
    { name: 'setup with an unknown agent', args: ['setup', 'vim'], stderr: /'vim' is invalid for argument 'agent'/ },
    { name: 'setup with an unknown option', args: ['setup', 'codex', '--force'], stderr: /unknown option '--force'/ },
    { name: 'fail-closed with a bad state', args: ['fail-closed', 'maybe'], stderr: /'maybe' is invalid/ },
    { name: 'hook without an agent', args: ['hook'], stderr: /^guard: missing required argument 'agent'\n/ },
    { name: 'log -n zero', args: ['log', '-n', '0'], stderr: /Expected a whole number above 0/ },
    { name: 'log -n not a number', args: ['log', '-n', 'ten'], stderr: /Expected a whole number above 0/ },
    { name: 'log with an unknown decision', args: ['log', '--decision', 'maybe'], stderr: /'maybe' is invalid/ },
    {
      name: 'scan --json --html',
      args: ['scan', '--json', '--html', 'scan.html'],
      stderr: /^guard: --json prints one document and --html writes a page; give one\.\nRun `guard scan --json`/,
    },
    {
      name: 'scan --html --json, the other way round',
      args: ['scan', '--agent', 'codex', '--html', 'scan.html', '--json'],
      stderr: /--json prints one document and --html writes a page/,
    },
    {
      name: 'report --json --html',
      args: ['report', '--json', '--html', 'report.html'],
      stderr: /^guard: --json prints one document and --html writes a page; give one\.\nRun `guard report --json`/,
    },
  ])('$name', async ({ args, stderr }) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
    expect(explain).not.toHaveBeenCalled();
    expect(scan).not.toHaveBeenCalled();
    expect(report).not.toHaveBeenCalled();
  });
});

describe('argv → log, report', () => {
  it.for([
    { args: ['log'], call: () => expect(showLog).toHaveBeenCalledWith({ json: false }, expect.anything()) },
    {
      args: ['log', '--json', '--chat', 'c1', '--decision', 'block', '-n', '5'],
      call: () =>
        expect(showLog).toHaveBeenCalledWith(
          { json: true, chat: 'c1', decision: 'block', count: 5 },
          expect.anything(),
        ),
    },
    {
      args: ['log', '--jsonl'],
      call: () => expect(showLog).toHaveBeenCalledWith({ json: false, jsonl: true }, expect.anything()),
    },
    { args: ['report'], call: () => expect(report).toHaveBeenCalledWith({ json: false }, expect.anything()) },
    {
      args: ['report', '--chat', 'c1', '--json'],
      call: () => expect(report).toHaveBeenCalledWith({ json: true, chat: 'c1' }, expect.anything()),
    },
    {
      args: ['report', '--html', 'report.html'],
      call: () => expect(report).toHaveBeenCalledWith({ json: false, html: 'report.html' }, expect.anything()),
    },
  ])('guard $args', async ({ args, call }) => {
    expect(await run(args)).toMatchObject({ code: 0, stderr: '' });
    call();
  });
});

describe('argv → scan', () => {
  it.for([
    { args: ['scan'], options: { agents: [], json: false } },
    {
      args: ['scan', '--agent', 'codex', 'qwen', '--since', '30d', '--project', 'app', '--json'],
      options: { agents: ['codex', 'qwen'], since: '30d', project: 'app', json: true },
    },
    { args: ['scan', '--agent', 'codex', '--agent', 'gemini'], options: { agents: ['codex', 'gemini'], json: false } },
    { args: ['scan', '--html', 'scan.html'], options: { agents: [], json: false, html: 'scan.html' } },
  ])('guard $args', async ({ args, options }) => {
    expect(await run(args)).toMatchObject({ code: 0, stderr: '' });
    expect(scan).toHaveBeenLastCalledWith(options, expect.anything());
  });

  it.for([
    [['scan', '--agent', 'claude'], /argument 'claude' is invalid/],
    [['scan', '--since'], /option '--since <when>' argument missing/],
    [['scan', 'codex'], /too many arguments|unknown command/],
  ] as const)('guard %j is a usage error', async ([args, stderr]) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(stderr);
  });
});

describe('help and version exit 0', () => {
  it.for([['--help'], []])(
    'guard %s lists every command of the contract by group, with examples, on stdout',
    async (args) => {
      const { code, stdout, stderr } = await run(args);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const groups: Record<string, readonly string[]> = {
        'Set up:': ['setup', 'uninstall', 'status', 'doctor'],
        'Every day:': ['explain', 'on', 'off', 'allowed', 'forget'],
        'Settings:': ['mode', 'fail-closed', 'second-opinion', 'policy'],
        'Look back:': ['log', 'report', 'scan', 'rules'],
      };
      for (const [group, commands] of Object.entries(groups)) {
        const section = stdout.split(`\n${group}\n`)[1]?.split('\n\n')[0] ?? '';
        for (const command of commands) expect(section, group).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
      }
      // the agents' entry point is not a command for people
      expect(stdout).not.toMatch(/^ {2}hook\b/m);
      expect(stdout).toMatch(/\nExamples:\n {2}guard setup <agent> --dry-run .*\n.*<agent> is one of codex, cursor, /);
      expect(stdout).not.toContain('\nCommands:\n');
    },
  );

  it.for([
    { command: 'explain', options: ['--json', '--jsonl', '--cwd <dir>'] },
    { command: 'setup', options: ['--project', '--dry-run'] },
    { command: 'log', options: ['--json', '--chat <id>', '--decision <decision>', '-n <count>'] },
  ])('guard $command --help shows its options', async ({ command, options }) => {
    const { code, stdout } = await run([command, '--help']);
    expect(code).toBe(0);
    for (const option of options) expect(stdout).toContain(option);
    expect(explain).not.toHaveBeenCalled();
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('the error boundary', () => {
  it('a GuardError from a command becomes its message, hint and exit code', async () => {
    vi.mocked(explain).mockRejectedValueOnce(new GuardError('The folder is gone.', 'Run `guard explain -- ls`.', 1));
    const { code, stderr } = await run(['explain', '--', 'ls']);
    expect(code).toBe(1);
    expect(stderr).toBe('guard: The folder is gone.\nRun `guard explain -- ls`.\n');
  });

  it('a GuardError without a hint prints one line', async () => {
    vi.mocked(explain).mockRejectedValueOnce(new GuardError('Nothing to do.'));
    expect((await run(['explain', '--', 'ls'])).stderr).toBe('guard: Nothing to do.\n');
  });

  it('an unexpected error exits 1 with its stack', async () => {
    vi.mocked(explain).mockRejectedValueOnce(new TypeError('boom'));
    const { code, stdout, stderr } = await run(['explain', '--', 'ls']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^guard: unexpected error\nTypeError: boom\n {4}at /);
  });
});
