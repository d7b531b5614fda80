import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentId, Effect, HookFiles } from '../../packages/adapters/src/index.js';
import { adapters, AGENT_IDS, fallbackReply } from '../../packages/adapters/src/index.js';
import { hookCommand, splitCommand } from '../../packages/cli/src/agents/config-io.js';
import { requireBuild } from './bin.js';
import { scaled } from '../machine.js';

// A hook that outlives guard: the exact command setup writes, run the way the agents run it (a
// POSIX shell, `sh -c`; bash too where there is one; split into words and started without a shell,
// as Cursor is said to do) with a step on stdin, from a copy of the
// built hook in a folder whose path has a space, a quote and a dollar in it. While guard's files
// are there it answers as guard; with its hook script, its whole package or its Node gone, the
// command itself answers: the agent's ask (block under fail-closed), never silence or a crash.

const DIST = fileURLToPath(new URL('../../packages/cli/dist/', import.meta.url));
const DANGEROUS = 'git push --force origin main';
const HARMLESS = 'echo guard-orphan';
/** How an agent starts the command: through a shell, or split into words as a shell would and started directly. */
type Runner = readonly [string, string] | 'split';
const RUNNERS: readonly Runner[] = [
  ['/bin/sh', '-c'],
  ...(existsSync('/bin/bash') ? [['/bin/bash', '-c'] as const] : []),
  'split',
];

const box = mkdtempSync(join(tmpdir(), "guard orphan 'q' $x "));
const guardHome = join(box, 'guard home');
const env = { PATH: process.env['PATH'] ?? '', HOME: join(box, 'home'), GUARD_HOME: guardHome, GUARD_RESIDENT: 'off' };

/** What is gone from the install when the agent runs the command. */
type Gone = 'nothing' | 'hook script' | 'package' | 'Node';

/** A copy of the built hook (its package) and a link to this Node, each in a folder of its own. */
function install(name: string, gone: Gone): { node: string; script: string } {
  const root = join(box, name);
  const pkg = join(root, "lib's pkg", 'dist');
  const bin = join(root, 'node $bin');
  mkdirSync(pkg, { recursive: true });
  mkdirSync(bin, { recursive: true });
  for (const file of readdirSync(DIST)) if (/^hook[-.]/.test(file)) copyFileSync(join(DIST, file), join(pkg, file));
  const node = join(bin, 'node');
  symlinkSync(process.execPath, node);
  const script = join(pkg, 'hook-entry.cjs');
  if (gone === 'hook script') rmSync(script);
  if (gone === 'package') rmSync(join(root, "lib's pkg"), { recursive: true });
  if (gone === 'Node') rmSync(node);
  return { node, script };
}

/** The commands setup writes for the agent with these files, by event. */
function written(agent: AgentId, files: HookFiles, failClosed: boolean): Map<string, string> {
  const adapter = adapters[agent];
  const options = { hookCommand: hookCommand(agent, files.node, files.script, 'linux'), failClosed, fallback: files };
  const text = adapter.install('', options);
  return new Map(adapter.capabilities.events.map((event) => [event, adapter.installedCommand(text, event) ?? '']));
}

function run(runner: Runner, command: string, input: string): { stdout: string; stderr: string; code: number | null } {
  const [file = '', ...args] = runner === 'split' ? splitCommand(command) : [runner[0], runner[1], command];
  const result = spawnSync(file, args, { input, env, encoding: 'utf8', cwd: box, timeout: scaled(60_000) });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

const ROWS: readonly { readonly gone: Gone; readonly failClosed: boolean }[] = [
  { gone: 'nothing', failClosed: false },
  { gone: 'hook script', failClosed: false },
  { gone: 'package', failClosed: false },
  { gone: 'Node', failClosed: false },
  { gone: 'package', failClosed: true },
  { gone: 'Node', failClosed: true },
];
const installs = new Map<string, { node: string; script: string }>();

afterAll(() => rmSync(box, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('a hook that outlives guard', () => {
  beforeAll(() => {
    requireBuild();
    mkdirSync(guardHome, { recursive: true });
    ROWS.forEach((row, index) => installs.set(`${row.gone}-${row.failClosed}`, install(`install ${index}`, row.gone)));
  });

  const cases = AGENT_IDS.flatMap((agent) => ROWS.map((row) => ({ agent, ...row })));
  it.for(cases)('$agent, $gone gone, fail-closed $failClosed', ({ agent, gone, failClosed }) => {
    const adapter = adapters[agent];
    const files = installs.get(`${gone}-${failClosed}`) as { node: string; script: string };
    const commands = written(agent, files, failClosed);
    const step = (text: string): { event: string; input: string } => {
      const call = adapter.doctor.shellCall(text, box);
      return { event: call.event, input: JSON.stringify(call.payload) };
    };
    const effect = (shell: Runner, text: string): Effect => {
      const { event, input } = step(text);
      const answer = run(shell, commands.get(event) as string, input);
      return adapter.doctor.readReply(answer.stdout, answer.code ?? -1, failClosed).effect;
    };
    for (const shell of RUNNERS) {
      const how = shell === 'split' ? 'split into words' : shell[0];
      if (gone === 'nothing') {
        // guard itself answers: its verdicts, the harmless step not held up by the command's form
        expect(effect(shell, DANGEROUS), how).toBe('block');
        expect(effect(shell, HARMLESS), how).toBe('no-objection');
        continue;
      }
      const asks = adapter.capabilities.ask === 'native' && !failClosed;
      expect(effect(shell, DANGEROUS), how).toBe(asks ? 'ask' : 'block');
      expect(effect(shell, HARMLESS), how).toBe(asks ? 'ask' : 'block');
    }
    if (gone === 'nothing') return;
    // every event gets exactly its own answer, byte for byte, with the agent's exit code, on stderr
    // too where the agent reads it there (Windsurf)
    for (const [event, command] of commands) {
      const want = fallbackReply(adapter, event, failClosed);
      expect(run(['/bin/sh', '-c'], command, '{}'), event).toEqual({
        stdout: want.stdout,
        stderr: want.stderr ?? '',
        code: want.exitCode,
      });
    }
  });
});

// The same command run in a world the agent changed for it (issue 25): what guard's folder is
// found by and what Node loads come from setup, not from the environment the hook inherits; a hook
// that cannot start under a limit set around the agent gets the command's own answer, never
// silence; a hook that answered keeps its answer and exit code.
describe.skipIf(process.platform === 'win32')('a hook run in a changed world', () => {
  const world = join(box, 'changed world');
  const loose = join(world, 'loose');
  const marker = join(world, 'preloaded');
  const preload = join(world, 'preload.cjs');
  const pinned = { node: '', script: '', home: guardHome };
  beforeAll(() => {
    requireBuild();
    mkdirSync(loose, { recursive: true });
    mkdirSync(guardHome, { recursive: true });
    // the settings an agent would point guard at: guard switched off
    writeFileSync(join(loose, 'settings.yaml'), 'enabled: false\n');
    writeFileSync(preload, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    const files = install('changed world install', 'nothing');
    Object.assign(pinned, files);
  });

  const changes: readonly { name: string; env: Record<string, string>; limit?: string }[] = [
    { name: 'GUARD_HOME at a folder that switches guard off', env: { GUARD_HOME: loose } },
    { name: 'XDG_STATE_HOME moved', env: { XDG_STATE_HOME: loose } },
    { name: 'HOME moved', env: { HOME: loose } },
    { name: 'GUARD_HOME emptied', env: { GUARD_HOME: '' } },
    { name: 'NODE_OPTIONS --require', env: { NODE_OPTIONS: `--require ${preload}` } },
    { name: 'NODE_PATH at another folder', env: { NODE_PATH: loose } },
    { name: 'a memory limit', env: {}, limit: 'ulimit -v 200000' },
    // (below five open files the shell itself cannot run the hook: it exits 2 with no answer, and
    // no command can help; with no CPU time at all the shell is killed before it reads a word)
    { name: 'a limit on open files', env: {}, limit: 'ulimit -n 6' },
  ];
  const cases = AGENT_IDS.flatMap((agent) => changes.map((change) => ({ agent, ...change })));
  it.for(cases)('$agent, $name: guard answers, or the command does', ({ agent, env: changed, limit }) => {
    const adapter = adapters[agent];
    const commands = written(agent, pinned, false);
    const call = adapter.doctor.shellCall(DANGEROUS, box);
    const command = commands.get(call.event) as string;
    const shell = limit === undefined ? command : `${limit}; ${command}`;
    rmSync(marker, { force: true });
    const result = spawnSync('/bin/sh', ['-c', shell], {
      input: JSON.stringify(call.payload),
      env: { ...env, ...changed },
      encoding: 'utf8',
      cwd: box,
      timeout: 60_000,
    });
    const effect = adapter.doctor.readReply(result.stdout, result.status ?? -1, false).effect;
    // guard's block, or (when the hook could not start) the command's own ask or block
    expect(limit === undefined ? ['block'] : ['ask', 'block']).toContain(effect);
    if (limit !== undefined) expect(result.stdout).toBe(fallbackReply(adapter, call.event, false).stdout);
    expect(existsSync(marker)).toBe(false);
  });

  // near misses: the folder setup found is the one used, a Node option the person set at setup
  // time is no different from one inherited (emptied alike), and guard's own answers pass unchanged
  it.for(AGENT_IDS)('%s: a folder given at setup is the one the hook reads', (agent) => {
    const adapter = adapters[agent];
    const commands = written(agent, { ...pinned, home: loose }, false);
    const call = adapter.doctor.shellCall(DANGEROUS, box);
    const result = spawnSync('/bin/sh', ['-c', commands.get(call.event) as string], {
      input: JSON.stringify(call.payload),
      env,
      encoding: 'utf8',
      cwd: box,
      timeout: 60_000,
    });
    // guard is off in that folder: the step goes ahead, as the person set it
    expect(adapter.doctor.readReply(result.stdout, result.status ?? -1, false).effect).toBe('no-objection');
  });

  it.for(AGENT_IDS)('%s: a harmless step and a dangerous one keep their answers and exit codes', (agent) => {
    const adapter = adapters[agent];
    const commands = written(agent, pinned, false);
    for (const [text, want] of [
      [HARMLESS, 'no-objection'],
      [DANGEROUS, 'block'],
    ] as const) {
      const call = adapter.doctor.shellCall(text, box);
      const input = JSON.stringify(call.payload);
      const result = spawnSync('/bin/sh', ['-c', commands.get(call.event) as string], {
        input,
        env,
        encoding: 'utf8',
        cwd: box,
        timeout: 60_000,
      });
      const bare = spawnSync(pinned.node, [pinned.script, 'hook', agent, '--event', call.event], {
        input,
        env,
        encoding: 'utf8',
        cwd: box,
        timeout: 60_000,
      });
      expect(adapter.doctor.readReply(result.stdout, result.status ?? -1, false).effect).toBe(want);
      expect(result.status).toBe(bare.status);
      expect(result.stdout.trim()).toBe(bare.stdout.trim());
    }
  });
});
