import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { adapters, withFallback } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import {
  baseCommand,
  checkCommand,
  hookCommand,
  installOptions,
  isInstalledPackage,
  locationsFrom,
  splitCommand,
} from '../../src/agents/config-io.js';
import { hookScriptPath } from '../../src/self.js';
import { guardHomeFrom } from '../../src/state/settings.js';
import { captureIo } from '../capture-io.js';

const root = mkdtempSync(join(tmpdir(), 'guard-agents-'));
const NO_OUTPUT = { stdout: '', exitCode: 0 };
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hookCommand', () => {
  it.for([
    {
      name: 'plain paths',
      node: '/usr/bin/node',
      script: '/opt/guard/dist/bin.js',
      platform: 'linux',
      want: '"/usr/bin/node" "/opt/guard/dist/bin.js" hook codex',
    },
    {
      name: 'a space in a path',
      node: '/Applications/My Node/node',
      script: '/home/dev/guard x/bin.js',
      platform: 'darwin',
      want: '"/Applications/My Node/node" "/home/dev/guard x/bin.js" hook codex',
    },
    {
      name: 'shell-special characters stay literal',
      node: '/n/$HOME/`x`/"q"\\',
      script: '/s.js',
      platform: 'linux',
      want: '"/n/\\$HOME/\\`x\\`/\\"q\\"\\\\" "/s.js" hook codex',
    },
    {
      name: 'Windows keeps backslashes as they are',
      node: 'C:\\Program Files\\nodejs\\node.exe',
      script: 'C:\\guard\\bin.js',
      platform: 'win32',
      want: '"C:\\Program Files\\nodejs\\node.exe" "C:\\guard\\bin.js" hook codex',
    },
  ])('$name', ({ node, script, platform, want }) => {
    expect(hookCommand('codex', node, script, platform)).toBe(want);
  });

  it.for(['/usr/bin/node', '/Applications/My Node/node', "/it's/odd", '/n/$HOME/`x`/"q"\\', '/tab\there'])(
    'a POSIX shell reads the quoted path back as %j',
    (path) => {
      const command = hookCommand('cursor', path, '/s.js', 'linux');
      const echoed = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${command.replace(/ hook cursor$/, '')}`], {
        encoding: 'utf8',
      });
      expect(echoed).toBe(`${path}\n/s.js\n`);
      expect(splitCommand(command)).toEqual([path, '/s.js', 'hook', 'cursor']);
    },
  );

  it('never uses npx or a bare guard, and points at the built hook entry script', () => {
    const command = hookCommand('copilot');
    expect(command).toBe(`"${process.execPath}" "${hookScriptPath()}" hook copilot`);
    expect(hookScriptPath()).toMatch(/[/\\]packages[/\\]cli[/\\]dist[/\\]hook-entry\.cjs$/);
    expect(hookScriptPath('file:///opt/guard/dist/agents.js')).toBe('/opt/guard/dist/hook-entry.cjs');
    expect(hookScriptPath('file:///opt/guard/src/agents.ts')).toBe('/opt/guard/dist/hook-entry.cjs');
    expect(command).not.toMatch(/npx|^guard /);
  });
});

describe('splitCommand and baseCommand', () => {
  it.for([
    { command: 'guard hook codex', words: ['guard', 'hook', 'codex'] },
    { command: "'/a b/node'  /x.js hook cursor", words: ['/a b/node', '/x.js', 'hook', 'cursor'] },
    { command: '/a\\ b/node "" x', words: ['/a b/node', '', 'x'] },
    {
      command: '& "/n/node" "/s.js" hook copilot --event preToolUse',
      words: ['/n/node', '/s.js', 'hook', 'copilot', '--event', 'preToolUse'],
    },
    { command: 'a&b c', words: ['a&b', 'c'] },
    { command: '', words: [] },
    { command: '"unclosed', words: ['unclosed'] },
  ])('$command', ({ command, words }) => {
    expect(splitCommand(command)).toEqual(words);
  });

  it.for([
    { command: '"/n" "/s" hook copilot --event preToolUse', base: '"/n" "/s" hook copilot' },
    { command: '& "/n" "/s" hook copilot --event postToolUse', base: '"/n" "/s" hook copilot' },
    { command: '"/n" "/s" hook codex', base: '"/n" "/s" hook codex' },
    // not guard's tail: kept as it is
    { command: '"/n" "/s" hook codex --events x y', base: '"/n" "/s" hook codex --events x y' },
    // the command with its own answer for when guard's files are gone: the plain command inside
    {
      command: withFallback('"/n" "/s" hook copilot --event preToolUse', { node: '/n', script: '/s' }, NO_OUTPUT),
      base: '"/n" "/s" hook copilot',
    },
  ])('baseCommand($command)', ({ command, base }) => {
    expect(baseCommand(command)).toBe(base);
  });
});

describe('installOptions: the files whose absence the command answers by itself', () => {
  const { io } = captureIo();
  // guard's folder as setup finds it, which the command pins
  const home = guardHomeFrom(io.env, io.home());
  it.for([
    { platform: 'linux', fallback: { node: process.execPath, script: hookScriptPath(), home } },
    { platform: 'darwin', fallback: { node: process.execPath, script: hookScriptPath(), home } },
    // no command form keeps cmd.exe's and PowerShell's quoting: the plain command there
    { platform: 'win32', fallback: undefined },
  ])('$platform', ({ platform, fallback }) => {
    const options = installOptions('codex', false, io, platform);
    expect(options.fallback).toEqual(fallback);
    expect(options.hookCommand).toBe(hookCommand('codex', process.execPath, hookScriptPath(), platform));
  });
});

describe('checkCommand', () => {
  const script = join(root, 'bin.js');
  writeFileSync(script, '');
  it.for([
    { name: 'both there', command: `"${process.execPath}" "${script}" hook codex`, resolves: true, problem: undefined },
    {
      name: 'script missing',
      command: `"${process.execPath}" "${join(root, 'gone.js')}" hook codex`,
      resolves: false,
      problem: /the hook script .*gone\.js does not exist/,
    },
    {
      name: 'node missing',
      command: `"${join(root, 'node')}" "${script}" hook codex`,
      resolves: false,
      problem: /the Node program .*node does not exist/,
    },
    {
      name: 'bare program name',
      command: 'guard hook codex',
      resolves: false,
      problem: /"guard" is not an absolute path/,
    },
    { name: 'empty', command: '', resolves: false, problem: /the Node program is missing/ },
  ])('$name', ({ command, resolves, problem }) => {
    const check = checkCommand(command);
    expect(check.resolves).toBe(resolves);
    if (problem === undefined) expect(check.problem).toBeUndefined();
    else expect(check.problem).toMatch(problem);
  });
});

describe('checkCommand: is it this guard and this Node?', () => {
  const script = join(root, 'this', 'hook-entry.cjs');
  const other = join(root, 'other', 'hook-entry.cjs');
  const node = join(root, 'this', 'node');
  const otherNode = join(root, 'other', 'node');
  for (const file of [script, other, node, otherNode]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
  }
  const here = { node, script };
  it.for([
    { name: 'both its own', command: `"${node}" "${script}" hook codex`, nodeIs: 'this', scriptIs: 'this' },
    { name: 'another install', command: `"${node}" "${other}" hook codex`, nodeIs: 'this', scriptIs: 'other' },
    { name: 'another Node', command: `"${otherNode}" "${script}" hook codex`, nodeIs: 'other', scriptIs: 'this' },
    {
      name: 'a moved install',
      command: `"${node}" "${join(root, 'moved', 'hook-entry.cjs')}" hook codex`,
      nodeIs: 'this',
      scriptIs: 'missing',
    },
    {
      name: 'a removed Node',
      command: `"${join(root, 'old', 'node')}" "${script}" hook codex`,
      nodeIs: 'missing',
      scriptIs: 'this',
    },
    { name: 'by name', command: 'node hook-entry.cjs hook codex', nodeIs: 'relative', scriptIs: 'relative' },
    { name: 'empty', command: '', nodeIs: 'relative', scriptIs: 'relative' },
  ] as const)('$name', ({ command, nodeIs, scriptIs }) => {
    expect(checkCommand(command, here)).toMatchObject({ nodeIs, scriptIs });
  });
});

describe('isInstalledPackage', () => {
  it.for([
    { script: '/usr/lib/node_modules/agent-step-guard/dist/hook-entry.cjs', installed: true },
    { script: '/home/me/my tools/lib/node_modules/agent-step-guard/dist/hook-entry.cjs', installed: true },
    {
      script: 'C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\agent-step-guard\\dist\\hook-entry.cjs',
      installed: true,
    },
    { script: '/home/me/guard/packages/cli/dist/hook-entry.cjs', installed: false },
    { script: '/home/me/agent-step-guard/packages/cli/dist/hook-entry.cjs', installed: false },
    { script: '/usr/lib/node_modules/agent-step-guardian/dist/hook-entry.cjs', installed: false },
  ])('$script', ({ script, installed }) => {
    expect(isInstalledPackage(script)).toBe(installed);
  });
  it('the tests run guard from the checkout', () => {
    expect(isInstalledPackage()).toBe(false);
  });
});

describe('locationsFrom', () => {
  const project = join(root, 'repo');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'a', 'b'), { recursive: true });
  mkdirSync(join(root, 'loose', 'dir'), { recursive: true });
  it.for([
    { name: 'inside a git project: its root', cwd: join(project, 'a', 'b'), env: {}, want: { projectRoot: project } },
    {
      name: 'outside any project: the cwd',
      cwd: join(root, 'loose', 'dir'),
      env: {},
      want: { projectRoot: join(root, 'loose', 'dir') },
    },
    {
      name: 'CODEX_HOME, COPILOT_HOME, CLAUDE_CONFIG_DIR, GEMINI_CLI_HOME and QWEN_HOME',
      cwd: project,
      env: {
        CODEX_HOME: '/x/codex',
        COPILOT_HOME: '/x/cop',
        CLAUDE_CONFIG_DIR: '/x/claude',
        GEMINI_CLI_HOME: '/x/gh',
        QWEN_HOME: '/x/qwen',
      },
      want: {},
      files: {
        codex: '/x/codex/hooks.json',
        copilot: '/x/cop/hooks/guard.json',
        'claude-code': '/x/claude/settings.json',
        gemini: '/x/gh/.gemini/settings.json',
        qwen: '/x/qwen/settings.json',
      },
    },
    {
      name: 'empty variables count as unset',
      cwd: project,
      env: { CODEX_HOME: '', COPILOT_HOME: '', CLAUDE_CONFIG_DIR: '', GEMINI_CLI_HOME: '', QWEN_HOME: '' },
      want: {},
    },
  ])('$name', ({ cwd, env, want, files }) => {
    const { io } = captureIo({ cwd, home: '/home/dev' });
    const where = locationsFrom({ ...io, env });
    expect(where).toMatchObject({ home: '/home/dev', ...want });
    // each agent finds its own folder from the environment, or its default under the home folder
    const byDefault = {
      codex: '/home/dev/.codex/hooks.json',
      copilot: '/home/dev/.copilot/hooks/guard.json',
      'claude-code': '/home/dev/.claude/settings.json',
      gemini: '/home/dev/.gemini/settings.json',
      qwen: '/home/dev/.qwen/settings.json',
    };
    for (const [agent, path] of Object.entries(files ?? byDefault)) {
      expect(adapters[agent as AgentId].configPath('user', where)).toBe(path);
    }
  });
});
