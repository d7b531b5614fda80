import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookInput } from '@guard/adapters';
import type { Evaluation, Settled } from '@guard/core';
import { evaluate, newChat } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookDeps } from '../../src/hook/call.js';
import { decide, stepEntry } from '../../src/hook/decide.js';
import { BROKEN_CODE } from '../../src/hook/failure.js';
import type { Clock } from '../../src/hook/reply.js';
import type { ChatMemory, SessionLayer } from '../../src/hook/session.js';
import { NO_MEMORY } from '../../src/hook/session.js';
import type { Settings } from '../../src/state/settings.js';
import { DEFAULT_SETTINGS } from '../../src/state/settings.js';
import { AGENT_CASES, ASKED, BLOCKED, fixture, HARMLESS } from '../hook-cases.js';
import { shellStep, stageCall } from './stage-call.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-decide-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const codex = AGENT_CASES[0];
if (codex === undefined) throw new Error('no codex case');

/** A clock that notes a chat start's longer deadline. */
function clock(): Clock & { readonly starts: number[] } {
  const starts: number[] = [];
  return { starts, due: () => Date.now() + 60_000, starting: () => void starts.push(1) };
}

/** A session layer that notes its calls; `memory` for steps (a fresh chat by default). */
function layer(
  seen: string[],
  memory: () => ChatMemory = () => ({ chat: newChat('codex', 'c1', Date.now()), save: () => undefined }),
): SessionLayer {
  return {
    forStep: () => {
      seen.push('forStep');
      return memory();
    },
    onEvent: (_agent, input) => {
      seen.push(`onEvent ${input.type}`);
      return input.type === 'start' ? 'guard is on.' : undefined;
    },
  };
}

async function decided(
  payload: Record<string, unknown>,
  settings: Settings = DEFAULT_SETTINGS,
  deps: HookDeps = {},
  lockedRules: readonly string[] = [],
) {
  const seen: string[] = [];
  const session = deps.session ?? layer(seen);
  const { call, err } = await stageCall(['codex'], guardHome, { deps: { ...deps, session } });
  const input: HookInput = call.payload.read(payload, undefined, ['node', 'codex']);
  const time = clock();
  const decision = await decide(call, { settings, lockedRules, input }, time);
  return { decision, seen, starts: time.starts, call, err };
}

const OFF: Settings = { ...DEFAULT_SETTINGS, enabled: false };
const mcp = (tool: string, input: Record<string, unknown>) => ({
  ...fixture('codex/synth-pre-tool-use-mcp'),
  tool_name: `mcp__memory__${tool}`,
  tool_input: input,
});

describe('decide', () => {
  it.for([
    { name: 'a blocked step, guard off', payload: codex.shell(BLOCKED), entry: { how: 'off', decision: 'allow' } },
    { name: 'a chat start, guard off', payload: fixture('codex/session-start'), entry: { how: 'off' } },
  ])('$name: no objection, and the session layer is not asked', async ({ payload, entry }) => {
    const { decision, seen, starts } = await decided(payload, OFF);
    expect(decision.entry).toMatchObject(entry);
    expect(decision.after).toEqual({});
    expect(seen).toEqual([]);
    expect(starts).toEqual([]);
  });

  it.for([
    { name: 'a chat start', file: 'codex/session-start', how: 'event', starts: 1, reply: /guard is on\./ },
    { name: 'a message', file: 'codex/user-prompt-submit', how: 'event', starts: 0, reply: /^$/ },
    { name: 'a result', file: 'codex/post-tool-use-bash', how: 'event', starts: 0, reply: /^$/ },
    { name: 'a stop', file: 'codex/stop', how: 'ignored', starts: 0, reply: /^$/ },
  ])('$name: the session layer decides, logged as $how', async ({ file, how, starts, reply }) => {
    const { decision, seen, starts: started } = await decided(fixture(file));
    expect(seen).toEqual([expect.stringMatching(/^onEvent /)]);
    expect(decision.entry.how).toBe(how);
    expect(decision.reply.stdout).toMatch(reply);
    expect(started).toHaveLength(starts);
    expect(decision.after.session).toBeDefined();
    expect(decision.after.chat).toBeUndefined();
  });

  it.for([
    { name: 'a harmless step', payload: codex.shell(HARMLESS), decision: 'allow', server: undefined },
    { name: 'an asked step', payload: codex.shell(ASKED), decision: 'ask', server: undefined },
    {
      name: 'an MCP tool that goes ahead: its server',
      payload: mcp('read_graph', {}),
      decision: 'allow',
      server: 'memory',
    },
    {
      name: 'an MCP tool that is asked: no server',
      payload: mcp('delete_entities', { entityNames: ['guard'] }),
      decision: 'ask',
      server: undefined,
    },
  ])('$name: the chat and what to keep in it, for after the reply', async ({ payload, decision, server }) => {
    const { decision: made, seen } = await decided(payload);
    expect(seen).toEqual(['forStep']);
    expect(made.entry).toMatchObject({ how: 'rules', decision });
    expect(made.after.chat?.server).toBe(server);
    expect(made.after.chat?.change).toBeDefined();
    expect(made.after.paused).toBeUndefined();
  });

  const unreadable = (error: Error) => () => {
    throw error;
  };
  it.for([
    { name: 'fail-open', failClosed: false, error: new Error('EACCES'), throws: false },
    { name: 'fail-closed', failClosed: true, error: new Error('EACCES'), throws: true },
    {
      name: "fail-open, guard's own code broken",
      failClosed: false,
      error: Object.assign(new Error('chunk'), { code: BROKEN_CODE }),
      throws: true,
    },
  ])("the chat's memory cannot be read, $name: judged as a fresh chat unless it throws", async (row) => {
    const seen: string[] = [];
    const settings = { ...DEFAULT_SETTINGS, failClosed: row.failClosed };
    const deps = { session: layer(seen, unreadable(row.error)) };
    if (row.throws) {
      await expect(decided(codex.shell(HARMLESS), settings, deps)).rejects.toBe(row.error);
      return;
    }
    const { decision, call, err } = await decided(codex.shell(HARMLESS), settings, deps);
    expect(decision.after.chat?.memory).toBe(NO_MEMORY);
    expect(call.known.problems).toEqual([expect.stringMatching(/^the chat's memory could not be read \(EACCES\)/)]);
    expect(err).toHaveLength(1);
  });

  it.for([
    { name: 'fail-closed, git gave up', failClosed: true, gaveUp: true, command: HARMLESS, throws: true },
    { name: 'fail-closed, git answered', failClosed: true, gaveUp: false, command: HARMLESS, throws: false },
    { name: 'fail-open, git gave up', failClosed: false, gaveUp: true, command: HARMLESS, throws: false },
    {
      name: 'fail-closed, git gave up on a blocked step',
      failClosed: true,
      gaveUp: true,
      command: BLOCKED,
      throws: false,
    },
  ])('$name: throws $throws', async ({ failClosed, gaveUp, command, throws }) => {
    const settings = { ...DEFAULT_SETTINGS, failClosed };
    const made = decided(codex.shell(command), settings, { probe: () => ({ gaveUp: () => gaveUp }) });
    if (throws) await expect(made).rejects.toThrow(/git did not answer within its time budget/);
    else await expect(made).resolves.toBeDefined();
  });
});

describe('stepEntry', () => {
  const env = { home: '/h', tmp: '/tmp' };
  const asked: Evaluation = evaluate(shellStep(ASKED), env);
  const harmless: Evaluation = evaluate(shellStep(HARMLESS), env);
  const told = (decision: 'allow' | 'ask' | 'block', how: Settled['how'], extra: Partial<Settled> = {}): Settled => ({
    verdict: { ...asked, decision },
    how,
    mode: 'standard',
    byMode: [],
    change: {},
    ...extra,
  });

  it.for([
    {
      name: 'deferred to the next event',
      evaluation: asked,
      settled: told('allow', 'deferred'),
      canAsk: true,
      entry: { decision: 'allow', rules: [], how: 'ignored', reason: 'judged again on the next event for this call' },
    },
    {
      name: 'an ask told as an ask',
      evaluation: asked,
      settled: told('ask', 'rules'),
      canAsk: true,
      entry: { decision: 'ask', rules: ['git.push'], how: 'rules', reason: asked.findings[0]?.reason },
    },
    {
      name: 'an ask nobody can answer',
      evaluation: asked,
      settled: told('ask', 'rules'),
      canAsk: false,
      entry: { decision: 'ask', answer: 'block', rules: ['git.push'], how: 'rules' },
    },
    {
      name: 'an ask an earlier yes let through',
      evaluation: asked,
      settled: told('allow', 'memory'),
      canAsk: true,
      entry: { decision: 'ask', answer: 'allow', how: 'memory' },
    },
    {
      name: 'an ask the mode let through',
      evaluation: asked,
      settled: told('allow', 'mode', { mode: 'full' }),
      canAsk: true,
      entry: { decision: 'ask', answer: 'allow', how: 'mode', mode: 'full' },
    },
    {
      name: 'an ask with an approval code',
      evaluation: asked,
      settled: told('ask', 'rules', { approvalCode: 'AB2C' }),
      canAsk: true,
      entry: { decision: 'ask', code: 'AB2C' },
    },
    {
      name: 'a step a remembered yes let through names the rules of that yes',
      evaluation: { ...harmless, remembered: asked.findings },
      settled: told('allow', 'memory'),
      canAsk: true,
      entry: { decision: 'allow', rules: ['git.push'], how: 'memory' },
    },
    {
      name: 'a harmless step',
      evaluation: harmless,
      settled: told('allow', 'rules'),
      canAsk: true,
      entry: { decision: 'allow', rules: [], how: 'rules' },
    },
  ])('$name', ({ evaluation, settled, canAsk, entry }) => {
    const made = stepEntry(evaluation, settled, canAsk);
    expect(made).toMatchObject(entry);
    for (const field of ['answer', 'code', 'mode'] as const) if (!(field in entry)) expect(made[field]).toBeUndefined();
  });
});

/**
 * A tool of an MCP server whose tools the chat-start scan could not read: scanned again within what
 * is left of the call's deadline, and asked while still unread. (The server here is declared in no
 * file of the agent's, so the scan finds nothing to start: test/hook/scenarios-mcp-unread.test.ts
 * runs real stand-in servers through the built hook.)
 */
describe('an MCP server the chat-start scan could not read', () => {
  const unread = (): ChatMemory => ({
    chat: {
      ...newChat('codex', 'c1', Date.now()),
      uncheckedServers: { memory: 'did not answer within the time limit' },
    },
    save: () => undefined,
  });
  async function judged(payload: Record<string, unknown>, memory: () => ChatMemory, leftMs: number) {
    const { call } = await stageCall(['codex'], guardHome, { deps: { session: layer([], memory) } });
    const input: HookInput = call.payload.read(payload, undefined, ['node', 'codex']);
    const time: Clock = { due: () => Date.now() + leftMs, starting: () => undefined };
    return decide(call, { settings: DEFAULT_SETTINGS, lockedRules: [], input }, time);
  }

  it.for([
    {
      name: 'time left: tried again, still unread, with the newer why',
      leftMs: 60_000,
      why: "no longer declared in the agent's files",
    },
    {
      name: 'no time left: not tried, asked with the start’s why',
      leftMs: 0,
      why: 'did not answer within the time limit',
    },
  ])('$name', async ({ leftMs, why }) => {
    const decision = await judged(mcp('read_graph', {}), unread, leftMs);
    expect(decision.entry).toMatchObject({ decision: 'ask', rules: ['mcp.poisoned-server'] });
    expect(decision.entry.reason).toContain(`MCP server memory to check them for injection (${why})`);
    const change = decision.after.chat?.change;
    if (leftMs > 0) expect(change?.uncheckedServers).toEqual({ memory: why });
    else expect(change?.uncheckedServers).toBeUndefined();
  });

  it.for([
    { name: 'another server of the chat', payload: { ...mcp('read_graph', {}), tool_name: 'mcp__tickets__lookup' } },
    { name: 'a shell step', payload: codex.shell(HARMLESS) },
  ])('$name: no scan, no finding', async ({ payload }) => {
    const decision = await judged(payload, unread, 60_000);
    expect(decision.entry).toMatchObject({ decision: 'allow', rules: [] });
    expect(decision.after.chat?.change.uncheckedServers).toBeUndefined();
  });
});
