import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '@guard/adapters/agents';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookDeps, HookIo } from '../../src/hook/run.js';
import { runHook } from '../../src/hook/run.js';
import { BROKEN_CODE } from '../../src/hook/failure.js';
import { deadlinesFor } from '../../src/hook/reply.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { NOWHERE } from '../capture-io.js';
import type { AgentCase, Answer } from '../hook-cases.js';
import { AGENT_CASES, ASKED, BLOCKED, fixtureText, HARMLESS } from '../hook-cases.js';
import { scaled } from '../../../../test/machine.js';

/**
 * Silence means checked (SPEC §7): per agent and per way guard can fail to check a step, a
 * never-list step is blocked wherever its text could be read, an asked step is asked (a deny where
 * nobody can answer), and a harmless step goes ahead only when guard read and checked it in time.
 * Each row is its own call with its own guard folder, so the rows run at once: the deadlines below
 * are short, and the rows that wait for one wait together.
 */

/** The deadline of the rows that run into it, and how late the late payload comes after it. */
const DEADLINE_MS = 1_500;
const LATE_MS = 2_500;

interface Path {
  readonly name: string;
  /** Whether guard reads the step in time (only then may a harmless step go ahead). */
  readonly checked: boolean;
  /** Whether what reached guard holds the step's text (then the never list blocks a never-list step). */
  readonly readable: boolean;
  /** What the reply says happened. */
  readonly says?: RegExp;
  /** Stdin for a step of this agent, and the runtime's replaceable parts. */
  stdin(agent: AgentCase, command: string): AsyncIterable<Uint8Array | string>;
  readonly deps?: HookDeps;
}

const text = (agent: AgentCase, command: string): string => JSON.stringify(agent.shell(command));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function* now(...texts: string[]): AsyncGenerator<string> {
  for (const piece of texts) yield piece;
}

/** The whole payload, after the deadline. */
async function* late(payload: string): AsyncGenerator<string> {
  await sleep(LATE_MS);
  yield payload;
}

/** The payload up to just after the command's string, and then nothing, never closed. */
function cutShort(payload: string, command: string): AsyncGenerator<string> {
  const quoted = JSON.stringify(command);
  return openEnded(payload.slice(0, payload.indexOf(quoted) + quoted.length));
}

/** `text`, on a stdin that never closes. */
async function* openEnded(text: string): AsyncGenerator<string> {
  yield text;
  await new Promise(() => undefined);
}

const PATHS: readonly Path[] = [
  { name: 'the whole payload in time', checked: true, readable: true, stdin: (agent, cmd) => now(text(agent, cmd)) },
  {
    name: 'a payload that comes late, within the deadline',
    checked: true,
    readable: true,
    stdin: async function* (agent, cmd) {
      await sleep(100);
      yield text(agent, cmd);
    },
  },
  {
    name: 'a payload that comes after the deadline',
    checked: false,
    readable: false,
    says: /ran out of time/i,
    stdin: (agent, cmd) => late(text(agent, cmd)),
    deps: { deadlineMs: DEADLINE_MS },
  },
  {
    name: 'half a payload on a stdin that never closes',
    checked: false,
    readable: true,
    says: /ran out of time/i,
    stdin: (agent, cmd) => cutShort(text(agent, cmd), cmd),
    deps: { deadlineMs: DEADLINE_MS },
  },
  {
    name: 'not JSON (garbage after the payload)',
    checked: false,
    readable: true,
    says: /could not read this step/i,
    stdin: (agent, cmd) => now(`${text(agent, cmd)} and then some garbage`),
  },
  {
    // words with one that is not a string: no adapter reads it as the command
    name: 'a field of the wrong type (the command as an array with a null in it)',
    checked: false,
    readable: true,
    says: /could not read this step/i,
    stdin: (agent, cmd) =>
      now(text(agent, cmd).replace(JSON.stringify(cmd), JSON.stringify([...cmd.split(' '), null]))),
  },
  {
    name: 'an exception (the project policy throws)',
    checked: false,
    readable: true,
    says: /failed while checking this step/i,
    stdin: (agent, cmd) => now(text(agent, cmd)),
    deps: { policy: () => Promise.reject(new Error('the policy broke')) },
  },
  {
    name: "guard's own code broken (a lazy chunk that cannot be loaded)",
    checked: false,
    readable: true,
    says: /own files are missing or broken/i,
    stdin: (agent, cmd) => now(text(agent, cmd)),
    deps: {
      policy: () =>
        Promise.reject(
          Object.assign(new Error("guard's own file hook-lazy-x.cjs could not be loaded"), { code: BROKEN_CODE }),
        ),
    },
  },
];

interface Result extends Answer {
  readonly line: LogEntry;
}

/** One hook call through runHook, with a guard folder of its own (and `settings` in it). */
async function hookCall(
  args: readonly string[],
  stdin: AsyncIterable<Uint8Array | string>,
  options: { deps?: HookDeps; settings?: string; deadline?: (ms: number) => void; home?: string; tmp?: string } = {},
): Promise<Result> {
  const guardHome = mkdtempSync(join(tmpdir(), 'guard-unchecked-'));
  try {
    if (options.settings !== undefined) writeFileSync(join(guardHome, 'settings.yaml'), options.settings);
    let stdout = '';
    let stderr = '';
    const io: HookIo = {
      stdin,
      stopInput: () => undefined,
      out: (out) => void (stdout += out),
      err: (err) => void (stderr += err),
      env: { GUARD_HOME: guardHome },
      home: () => options.home ?? NOWHERE,
      tmp: () => options.tmp ?? '/tmp',
      // an agent run by a person: where the agent has a prompt, an ask reaches it
      parentArgs: () => ['node', 'agent'],
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    };
    const code = await runHook(args, io, options.deps ?? {});
    const lines = readFileSync(join(guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
    if (lines.length !== 1) throw new Error(`${lines.length} log lines, not one`);
    return { stdout, stderr, code, line: JSON.parse(lines[0] ?? '') as LogEntry };
  } finally {
    rmSync(guardHome, { recursive: true, force: true });
  }
}

/** A step of `agent` on `path`. */
function call(agent: AgentCase, path: Path, command: string, settings?: string): Promise<Result> {
  return hookCall(agent.args, path.stdin(agent, command), {
    ...(path.deps === undefined ? {} : { deps: path.deps }),
    ...(settings === undefined ? {} : { settings }),
  });
}

const ROWS = AGENT_CASES.flatMap((agent) =>
  PATHS.map((path) => ({ agent, path, label: `${agent.agent}: ${path.name}` })),
);

describe.concurrent('silence means checked', { timeout: scaled(60_000) }, () => {
  it.for(ROWS)('$label: a never-list step is never let through', async ({ agent, path }, { expect }) => {
    const result = await call(agent, path, BLOCKED);
    const { stdout, line } = result;
    expect(agent.wellFormed(result)).toBe(true);
    expect(stdout).not.toBe(agent.noObjection);
    // blocked wherever its text reached guard; else asked, never silent
    if (path.readable) {
      expect(agent.denies(result)).toBe(true);
      expect(line).toMatchObject({ decision: 'block', rules: expect.arrayContaining(['git.rewrite-shared-history']) });
    } else expect(line.decision).toBe('ask');
    if (path.says !== undefined) expect(stdout).toMatch(path.says);
  });

  it.for(ROWS)('$label: an asked step is asked', async ({ agent, path }, { expect }) => {
    const result = await call(agent, path, ASKED);
    const { stdout, line } = result;
    expect(agent.wellFormed(result)).toBe(true);
    expect(stdout).not.toBe(agent.noObjection);
    expect(line.decision).toBe('ask');
    if (path.says !== undefined) expect(stdout).toMatch(path.says);
  });

  it.for(ROWS)('$label: a harmless step goes ahead only when it was checked', async ({ agent, path }, { expect }) => {
    const result = await call(agent, path, HARMLESS);
    const { stdout, line } = result;
    expect(agent.wellFormed(result)).toBe(true);
    if (path.checked) {
      expect(result).toMatchObject({ code: 0, stdout: agent.noObjection });
      expect(line).toMatchObject({ decision: 'allow', how: 'rules' });
    } else {
      expect(stdout).not.toBe(agent.noObjection);
      expect(line).toMatchObject({ decision: 'ask', how: expect.stringMatching(/^(failure|deadline)$/) });
      expect(stdout).toMatch(path.says ?? /never/);
    }
  });

  const UNCHECKED = ROWS.filter((row) => !row.path.checked);
  it.for(UNCHECKED)('$label, fail-closed: a harmless step is blocked', async ({ agent, path }, { expect }) => {
    const result = await call(agent, path, HARMLESS, 'failClosed: true\n');
    const { stdout, line } = result;
    expect(agent.denies(result)).toBe(true);
    expect(stdout).toMatch(/fail-closed is on/);
    expect(line.decision).toBe('block');
  });

  it.for(UNCHECKED)(
    '$label, guard off: a never-list step goes ahead, as every step does',
    async ({ agent, path }, { expect }) => {
      const result = await call(agent, path, BLOCKED, 'enabled: false\n');
      expect(result).toMatchObject({ code: 0, stdout: agent.noObjection });
      expect(result.line.how).toBe('off');
    },
  );
});

describe.concurrent('HOME inside the temp folder (a container, a CI runner): home is still home', () => {
  // a home with a key folder and a work folder in it: deleting what is not there loses nothing
  const home = mkdtempSync(join(tmpdir(), 'guard-runner-home-'));
  for (const folder of ['.gnupg', 'work']) mkdirSync(join(home, folder));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const HOME_ROWS = AGENT_CASES.flatMap((agent) =>
    [
      { command: 'rm -rf ~/.gnupg', expected: 'asks', what: 'a key folder in home' },
      { command: 'rm -rf ~/work', expected: 'asks', what: 'a folder in home' },
      { command: 'rm -rf ~/.gnupg-gone', expected: 'goes ahead', what: 'a folder that is not there (near miss)' },
      { command: 'ls ~/.gnupg ~/work', expected: 'goes ahead', what: 'reading home (near miss)' },
    ].map((row) => ({ agent, ...row, label: `${agent.agent}: ${row.command} (${row.what})` })),
  );
  it.for(HOME_ROWS)('$label $expected', async ({ agent, command, expected }, { expect }) => {
    const result = await hookCall(agent.args, now(text(agent, command)), { home, tmp: tmpdir() });
    const { stdout, line } = result;
    expect(agent.wellFormed(result)).toBe(true);
    if (expected === 'goes ahead') {
      expect(result).toMatchObject({ code: 0, stdout: agent.noObjection });
      expect(line.decision).toBe('allow');
    } else {
      expect(stdout).not.toBe(agent.noObjection);
      expect(line).toMatchObject({ decision: 'ask', rules: ['fs.delete'] });
    }
  });
});

describe("every agent's deadline is its own hook timeout less the margin", () => {
  const EXPECTED: Readonly<Record<string, number>> = {
    codex: 21_000,
    cursor: 7_000,
    antigravity: 21_000,
    copilot: 7_000,
    'claude-code': 7_000,
    gemini: 7_000,
    opencode: 21_000,
    kilo: 21_000,
    qwen: 7_000,
    windsurf: 21_000,
    droid: 7_000,
    // Cline waits 120 s for a tool hook
    cline: 84_000,
    // Crush documents no hook timeout: guard answers within 30 s all the same
    crush: 21_000,
    auggie: 7_000,
    // guard's entries give it 30 s (timeout_ms), Kiro's own default
    kiro: 21_000,
  };
  it.for(AGENT_CASES)('$agent', async ({ agent, args }) => {
    const seconds = AGENTS[agent].files.hookTimeout;
    expect(deadlinesFor(seconds, {}).step).toBe(EXPECTED[agent]);
    expect(EXPECTED[agent]).toBeLessThan(seconds * 1000);
    // and a call is told that deadline
    const told: number[] = [];
    await hookCall(args, now(''), { deadline: (ms) => void told.push(ms) });
    expect(told).toEqual([EXPECTED[agent]]);
  });
});

// not a step: nothing to stop, so a failure answers the event as it always would (Antigravity
// registers only its step event: whatever fails there is answered as a step)
describe("a result whose handling fails gets its event's own reply", () => {
  const RESULTS = [
    { agent: 'codex', args: ['codex'], file: 'codex/post-tool-use-bash', event: 'PostToolUse' },
    { agent: 'cursor', args: ['cursor'], file: 'cursor/synth-post-tool-use-shell', event: 'postToolUse' },
    {
      agent: 'copilot',
      args: ['copilot', '--event', 'postToolUse'],
      file: 'copilot/post-tool-use-bash',
      event: 'postToolUse',
    },
    { agent: 'claude-code', args: ['claude-code'], file: 'claude-code/post-tool-use-bash', event: 'PostToolUse' },
    { agent: 'gemini', args: ['gemini'], file: 'gemini/after-tool-shell', event: 'AfterTool' },
    { agent: 'qwen', args: ['qwen'], file: 'qwen/post-tool-use-shell', event: 'PostToolUse' },
    { agent: 'droid', args: ['droid'], file: 'droid/post-tool-use-shell', event: 'PostToolUse' },
    { agent: 'auggie', args: ['auggie'], file: 'auggie/post-tool-use-shell', event: 'PostToolUse' },
    { agent: 'kiro', args: ['kiro'], file: 'kiro/doc-post-tool-use', event: 'postToolUse' },
  ] as const;
  it.for(RESULTS)('$agent $event', async ({ agent, args, file, event }) => {
    const failing = {
      forStep: () => Promise.reject(new Error('no')),
      onEvent: () => Promise.reject(new Error('broke')),
    };
    const { stdout, line } = await hookCall(args, now(fixtureText(file)), { deps: { session: failing } });
    expect(line).toMatchObject({ how: 'failure', decision: 'allow', event, error: 'broke' });
    expect(stdout).toBe(AGENTS[agent].toEventReply(event, undefined).stdout);
  });

  // cut short where its event is named (Copilot's comes with --event): that event's reply; cut
  // before (the near miss): guard cannot tell it from a step, so it is asked as one
  it.concurrent.for(
    RESULTS.flatMap((row) => [
      { ...row, named: true },
      { ...row, named: false },
    ]),
  )(
    '$agent $event, cut short and never ended (its event named: $named)',
    async ({ agent, args, file, event, named }, { expect }) => {
      const payload = fixtureText(file);
      const at = payload.indexOf(`"${event}"`);
      const cut = named ? (at < 0 ? payload.length / 2 : at + event.length + 2) : payload.indexOf('{') + 1;
      const { stdout, line } = await hookCall(args, openEnded(payload.slice(0, cut)), {
        deps: { deadlineMs: DEADLINE_MS },
      });
      expect(line.how).toBe('deadline');
      if (named || (args as readonly string[]).includes('--event'))
        expect(stdout).toBe(AGENTS[agent].toEventReply(event, undefined).stdout);
      else expect(stdout).toMatch(/ran out of time/i);
    },
  );
});
