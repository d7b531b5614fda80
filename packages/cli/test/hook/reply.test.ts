import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/hook/reply.js';
import { DEFAULT_DEADLINE_MS, deadlineFrom, replyStage, START_DEADLINE_MS } from '../../src/hook/reply.js';
import { DEFAULT_SETTINGS } from '../../src/state/settings.js';
import { AGENT_CASES, BLOCKED, HARMLESS } from '../hook-cases.js';
import { stageCall } from './stage-call.js';

// guard's folder is never written by this stage: a folder that is not there will do
const HOME = '/nonexistent/guard';

const answer = (stdout: string, exitCode = 0, error?: string): Answer => ({
  reply: { stdout, exitCode },
  entry: { how: 'rules', decision: 'allow', rules: [], ...(error === undefined ? {} : { error }) },
});

describe('deadlineFrom', () => {
  it.for([
    { value: '500', ms: 500 },
    { value: '1', ms: 1 },
    { value: undefined, ms: DEFAULT_DEADLINE_MS },
    { value: '0', ms: DEFAULT_DEADLINE_MS },
    { value: '-5', ms: DEFAULT_DEADLINE_MS },
    { value: '1.5', ms: DEFAULT_DEADLINE_MS },
    { value: 'soon', ms: DEFAULT_DEADLINE_MS },
    { value: '', ms: DEFAULT_DEADLINE_MS },
  ])('GUARD_DEADLINE_MS=$value: $ms ms', ({ value, ms }) => {
    expect(deadlineFrom(value === undefined ? {} : { GUARD_DEADLINE_MS: value })).toBe(ms);
  });
});

describe('replyStage', () => {
  it('writes the first answer only; a later one, or a failure after it, writes nothing and logs nothing', async () => {
    const { call, out } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 60_000 } });
    const reply = replyStage(call);
    const first = reply.give(answer('first\n', 2));
    const second = reply.give(answer('second\n', 3));
    const failed = reply.fail(new Error('late'));
    reply.stop();
    expect(out).toEqual(['first\n']);
    expect(first).toMatchObject({ code: 2, line: { agent: 'codex', how: 'rules', decision: 'allow' } });
    expect(first.line?.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(first.line?.time ?? '')).not.toBeNaN();
    expect(second).toEqual({ code: 3 });
    expect(failed).toEqual({ code: 0 });
  });

  it.for([
    { problems: [], error: undefined, logged: undefined },
    { problems: [], error: 'project policy: broken', logged: 'project policy: broken' },
    { problems: ['settings.yaml is gone'], error: undefined, logged: 'settings.yaml is gone' },
    { problems: ['a', 'b'], error: 'c', logged: 'a; b; c' },
  ])('problems $problems and the answer\'s error $error: the line\'s error is "$logged"', async (row) => {
    const { call } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 60_000 } });
    call.known.problems.push(...row.problems);
    const reply = replyStage(call);
    const given = reply.give(answer('', 0, row.error));
    reply.stop();
    expect(given.line?.error).toBe(row.logged);
  });

  const codex = AGENT_CASES[0];
  if (codex === undefined) throw new Error('no codex case');
  it.for([
    {
      name: 'settings unknown (the strictest)',
      settings: undefined,
      command: HARMLESS,
      decision: 'block',
      how: 'failure',
    },
    {
      name: 'fail-open, a harmless step',
      settings: DEFAULT_SETTINGS,
      command: HARMLESS,
      decision: 'allow',
      how: 'failure',
    },
    {
      name: 'fail-open, a blocked step',
      settings: DEFAULT_SETTINGS,
      command: BLOCKED,
      decision: 'block',
      how: 'failure',
    },
    {
      name: 'guard off',
      settings: { ...DEFAULT_SETTINGS, enabled: false },
      command: BLOCKED,
      decision: 'allow',
      how: 'off',
    },
  ])('a failure, $name: $decision, logged as $how', async ({ settings, command, decision, how }) => {
    const { call, out, err } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 60_000 } });
    const { payload } = call;
    if (settings !== undefined) call.known.settings = settings;
    call.known.input = payload.read(codex.shell(command), undefined, ['node', 'codex']);
    call.known.event = call.known.input.event;
    const reply = replyStage(call);
    const failed = reply.fail(new Error('it broke'));
    reply.stop();
    expect(out).toHaveLength(1);
    expect(codex.denies(JSON.parse(out[0] || '{}') as Record<string, unknown>)).toBe(decision === 'block');
    if (settings === undefined) expect(out[0]).toMatch(/fail-closed is on/);
    expect(failed.line).toMatchObject({ how, decision, error: 'it broke', event: 'PreToolUse', step: command });
    // guard off says nothing on stderr; a failure says why
    expect(err).toEqual(how === 'off' ? [] : ['guard: it broke\n']);
  });

  it('the deadline answers by the failure policy, once, and says when', async () => {
    const { call, out, deadlines } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 20 } });
    const reply = replyStage(call);
    expect(reply.due()).toBe(call.started + 20);
    const expired = await reply.expired;
    expect(expired.line).toMatchObject({ how: 'deadline', error: 'no answer within 20 ms' });
    expect(out).toHaveLength(1);
    expect(reply.give(answer('late\n'))).toEqual({ code: 0 });
    expect(out).toHaveLength(1);
    expect(deadlines).toEqual([20]);
  });

  it.for([
    { deadlineMs: 2_000, started: START_DEADLINE_MS },
    { deadlineMs: 9_000, started: 9_000 },
  ])('a chat start moves a $deadlineMs ms deadline to $started ms', async ({ deadlineMs, started }) => {
    const { call, deadlines } = await stageCall(['codex'], HOME, { deps: { deadlineMs } });
    const reply = replyStage(call);
    reply.starting();
    expect(reply.due()).toBe(call.started + started);
    reply.stop();
    expect(deadlines).toEqual([deadlineMs, started]);
  });

  it('a stopped deadline answers nothing', async () => {
    const { call, out } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 10 } });
    replyStage(call).stop();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(out).toEqual([]);
  });
});
