import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { newChat } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookDeps, HookIo } from '../../src/hook/run.js';
import { runHook } from '../../src/hook/run.js';
import type { SessionLayer } from '../../src/hook/session.js';
import { NOWHERE } from '../capture-io.js';
import { AGENT_CASES, ASKED, HARMLESS, fixture } from '../hook-cases.js';
import { pieces } from './stage-call.js';

// The hook as a short sequence of named stages (call, step, decide, reply, record), and the rule
// that holds them together: nothing is written before the agent has its answer.

describe('runHook', () => {
  const source = readFileSync(new URL('../../src/hook/run.ts', import.meta.url), 'utf8');

  /** The lines of a function, from its `export async function` line to its closing brace. */
  function linesOf(text: string, name: string): number | undefined {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line.startsWith(`export async function ${name}(`));
    if (start < 0) return undefined;
    const end = lines.findIndex((line, at) => at > start && line === '}');
    return end < 0 ? undefined : end - start + 1;
  }

  it('is at most 80 lines, a sequence over the stage modules', () => {
    const lines = linesOf(source, 'runHook');
    expect(lines).toBeDefined();
    expect(lines).toBeLessThanOrEqual(80);
    for (const stage of ['./call.js', './step.js', './decide.js', './reply.js', './record.js'])
      expect(source).toContain(`from '${stage}'`);
  });

  it.for([
    { name: 'a short function', text: 'export async function runHook(a) {\n  return a;\n}\n', lines: 3 },
    { name: 'a long one', text: `export async function runHook(a) {\n${'  a++;\n'.repeat(90)}}\n`, lines: 92 },
    { name: 'another name', text: 'export async function runHooks(a) {\n}\n', lines: undefined },
    { name: 'no closing brace', text: 'export async function runHook(a) {\n  a++;\n', lines: undefined },
  ])('the count reads $name as $lines lines', ({ text, lines }) => {
    expect(linesOf(text, 'runHook')).toBe(lines);
  });
});

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-stages-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

/** guard's folder: each file's path and size, but the premises a decision may keep before its answer. */
function folder(allowed: RegExp | undefined): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const name = relative(guardHome, path);
        if (!PREMISES.test(name) && !(allowed?.test(name) ?? false)) files.set(name, statSync(path).size);
      }
    }
  };
  walk(guardHome);
  return files;
}

/**
 * What a decision stands on, kept by the stage that decides it: the last good settings, the second
 * opinion's health (its failures are counted before the answer), and their locks.
 */
const PREMISES = /^(?:settings\.last-good\.json|second-opinion\.json)(?:\.lock)?$/;

interface Watched {
  readonly code: number;
  readonly stdout: string;
  /** guard's folder before the call, when the reply was written, and after the call. */
  readonly before: Map<string, number>;
  readonly atReply: Map<string, number> | undefined;
  readonly after: Map<string, number>;
  /** The session layer's calls and the reply, in the order they came. */
  readonly order: readonly string[];
}

async function watched(
  args: readonly string[],
  stdin: AsyncIterable<string> | string,
  deps: HookDeps = {},
  allowed?: RegExp,
): Promise<Watched> {
  let stdout = '';
  let atReply: Map<string, number> | undefined;
  const order: string[] = [];
  const io: HookIo = {
    stdin: typeof stdin === 'string' ? pieces(stdin) : stdin,
    stopInput: () => undefined,
    out: (text) => {
      stdout += text;
      order.push('reply');
      atReply = folder(allowed);
    },
    err: () => undefined,
    env: { GUARD_HOME: guardHome },
    home: () => NOWHERE,
    tmp: () => '/tmp',
    parentArgs: () => ['node', 'agent'],
  };
  const before = folder(allowed);
  const session = deps.session === undefined ? {} : { session: recording(deps.session, order) };
  const code = await runHook(args, io, { ...deps, ...session });
  return { code, stdout, before, atReply, after: folder(allowed), order };
}

/** A session layer whose calls are noted in `order`. */
function recording(layer: SessionLayer, order: string[]): SessionLayer {
  return {
    forStep: async (...args) => {
      order.push('forStep');
      const memory = await layer.forStep(...args);
      return {
        ...memory,
        save: (change) => void order.push('save', ...(Object.keys(change).length > 0 ? ['(a change)'] : [])),
        serverRan: () => void order.push('serverRan'),
      };
    },
    onEvent: (...args) => {
      order.push('onEvent');
      return layer.onEvent(...args);
    },
    tidy: () => void order.push('tidy'),
  };
}

const codex = AGENT_CASES.find((item) => item.agent === 'codex');
if (codex === undefined) throw new Error('no codex case');
const json = (value: unknown): string => JSON.stringify(value);
const OPINION_ON = 'secondOpinion: true\nsecondOpinionUrl: http://127.0.0.1:9/v1\nsecondOpinionModel: judge\n';
/** A model server that cannot be reached: each consult is a failure. */
const unreachable: HookDeps = { post: () => Promise.reject(new Error('connect ECONNREFUSED')) };
const prompt = json({ ...fixture('codex/user-prompt-submit'), prompt: 'fix the typo in README.md' });
const offTask = (n: number): string =>
  json({ ...fixture('codex/synth-pre-tool-use-interactive'), tool_input: { command: `node tools/job-${n}.js` } });

async function* neverEnding(): AsyncGenerator<string> {
  yield '{"hook_event_name": ';
  await new Promise(() => undefined);
}

describe('nothing is written before the reply is out', () => {
  const rows: {
    name: string;
    settings?: string;
    first?: readonly (readonly [string, HookDeps])[];
    stdin: () => AsyncIterable<string> | string;
    deps?: HookDeps;
    /** Changed by the decision before its answer (an event's own change to the chat). */
    allowed?: RegExp;
    /** What the call writes once the reply is out. */
    writes: RegExp;
  }[] = [
    { name: "a harmless step's log line", stdin: () => json(codex.shell(HARMLESS)), writes: /^log\.jsonl$/ },
    {
      name: "an asked step's question in the chat",
      stdin: () => json(codex.shell(ASKED)),
      writes: /^chats[\\/][^\\/]+\.changes[\\/][^\\/]+\.json$/,
    },
    {
      name: "the turn's request, kept for the second opinion",
      settings: OPINION_ON,
      stdin: () => prompt,
      allowed: /^chats[\\/][^\\/]+\.changes[\\/]/,
      writes: /\.request\.json$/,
    },
    {
      name: "the second opinion's pause after its third failure",
      settings: OPINION_ON,
      first: [
        [prompt, unreachable],
        [offTask(1), unreachable],
        [offTask(2), unreachable],
      ],
      stdin: () => offTask(3),
      deps: unreachable,
      writes: /^log\.jsonl$/,
    },
    { name: "a failure's log line", stdin: () => '{"hook_event_name": "PreToolUse", ', writes: /^log\.jsonl$/ },
    { name: "the deadline's log line", stdin: neverEnding, deps: { deadlineMs: 50 }, writes: /^log\.jsonl$/ },
  ];

  it.for(rows)('$name', async (row) => {
    if (row.settings !== undefined) writeFileSync(join(guardHome, 'settings.yaml'), row.settings);
    for (const [stdin, deps] of row.first ?? []) await watched(['codex'], stdin, deps);
    const logged = (): number => readLog().length;
    const linesBefore = logged();
    const run = await watched(['codex'], row.stdin(), row.deps, row.allowed);
    expect(run.order).toEqual(['reply']);
    // guard's folder as the agent gets its answer is the folder before the call...
    expect(run.atReply).toEqual(run.before);
    // ...and the call did write what it writes, after
    const written = [...run.after.keys()].filter((name) => run.after.get(name) !== run.before.get(name));
    expect(written.filter((name) => row.writes.test(name))).not.toEqual([]);
    expect(logged()).toBeGreaterThan(linesBefore);
    if (row.name.includes('pause')) expect(readLog().at(-1)).toMatch(/"how":"second-opinion-paused"/);
  });

  it('the folder compared is all of it: a write before the reply is seen', async () => {
    // the near miss: a session layer that writes in guard's folder as it decides
    const writes: SessionLayer = {
      forStep: () => {
        writeFileSync(join(guardHome, 'early.json'), '{}');
        return { chat: newChat('codex', 'c1', Date.now()), save: () => undefined };
      },
      onEvent: () => undefined,
    };
    const run = await watched(['codex'], json(codex.shell(HARMLESS)), { session: writes });
    expect(run.atReply).not.toEqual(run.before);
    expect(run.atReply?.has('early.json')).toBe(true);
  });

  it.for([
    {
      name: 'a step whose MCP tool goes ahead: the server kept as known, the chat saved, then tidied',
      stdin: json({ ...fixture('codex/synth-pre-tool-use-mcp'), tool_name: 'mcp__memory__read_graph', tool_input: {} }),
      order: ['forStep', 'reply', 'serverRan', 'save', 'tidy'],
    },
    {
      name: "an asked step: the chat's question saved, then tidied",
      stdin: json(codex.shell(ASKED)),
      order: ['forStep', 'reply', 'save', '(a change)', 'tidy'],
    },
    {
      name: 'a result: the event decided by the session layer, its housekeeping after the reply',
      stdin: json(fixture('codex/post-tool-use-bash')),
      order: ['onEvent', 'reply', 'tidy'],
    },
  ])('$name', async ({ stdin, order }) => {
    const layer: SessionLayer = {
      forStep: () => ({
        chat: { ...newChat('codex', 'c1', Date.now()), newServers: {} },
        save: () => undefined,
        serverRan: () => undefined,
      }),
      onEvent: () => undefined,
    };
    const run = await watched(['codex'], stdin, { session: layer });
    expect(run.order).toEqual(order);
  });
});

function readLog(): string[] {
  try {
    return readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
}
