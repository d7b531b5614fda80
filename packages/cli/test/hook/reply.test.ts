import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/hook/reply.js';
import { ceilingMs, deadlineFrom, deadlinesFor, replyStage, START_DEADLINE_MS } from '../../src/hook/reply.js';
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
    { value: undefined, ms: undefined },
    { value: '0', ms: undefined },
    { value: '-5', ms: undefined },
    { value: '1.5', ms: undefined },
    { value: 'soon', ms: undefined },
    { value: '', ms: undefined },
  ])('GUARD_DEADLINE_MS=$value: $ms ms', ({ value, ms }) => {
    expect(deadlineFrom(value === undefined ? {} : { GUARD_DEADLINE_MS: value })).toBe(ms);
  });
});

describe("ceilingMs: the agent's own timeout less the margin (30 %, at least 3 s)", () => {
  it.for([
    { seconds: 30, ms: 21_000 },
    { seconds: 10, ms: 7_000 },
    { seconds: 60, ms: 42_000 },
    // near misses: where 3 s is more than 30 %, and a timeout shorter than the margin
    { seconds: 5, ms: 2_000 },
    { seconds: 2, ms: 0 },
  ])('$seconds s: $ms ms', ({ seconds, ms }) => {
    expect(ceilingMs(seconds)).toBe(ms);
  });
});

describe('deadlinesFor: a knob only shortens; a chat start gets longer within the same ceiling', () => {
  it.for([
    { name: 'nothing asked', seconds: 10, env: {}, options: {}, step: 7_000, start: 7_000 },
    { name: 'nothing asked, 30 s', seconds: 30, env: {}, options: {}, step: 21_000, start: 21_000 },
    { name: 'shorter asked', seconds: 30, env: { GUARD_DEADLINE_MS: '500' }, options: {}, step: 500, start: 7_000 },
    { name: 'longer asked', seconds: 10, env: { GUARD_DEADLINE_MS: '60000' }, options: {}, step: 7_000, start: 7_000 },
    { name: 'not a number', seconds: 10, env: { GUARD_DEADLINE_MS: 'soon' }, options: {}, step: 7_000, start: 7_000 },
    {
      name: 'wantedMs in its place',
      seconds: 30,
      env: { GUARD_DEADLINE_MS: '500' },
      options: { wantedMs: 900 },
      step: 900,
      start: 7_000,
    },
    { name: 'wantedMs longer', seconds: 10, env: {}, options: { wantedMs: 60_000 }, step: 7_000, start: 7_000 },
    { name: 'a reserve', seconds: 10, env: {}, options: { reserveMs: 1_000 }, step: 6_000, start: 6_000 },
    {
      name: 'a reserve, at most half',
      seconds: 30,
      env: { GUARD_DEADLINE_MS: '300' },
      options: { reserveMs: 1_000 },
      step: 150,
      start: 6_000,
    },
  ])('$name: step $step ms, start $start ms', ({ seconds, env, options, step, start }) => {
    expect(deadlinesFor(seconds, env, options)).toEqual({ step, start });
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
      name: 'fail-open, a harmless step (not checked: asked)',
      settings: DEFAULT_SETTINGS,
      command: HARMLESS,
      decision: 'ask',
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
    // Codex's ask is a deny too: one that has the agent ask the person in the chat
    expect(codex.denies({ stdout: out[0] ?? '', stderr: err.join(''), code: 0 })).toBe(decision !== 'allow');
    if (settings === undefined) expect(out[0]).toMatch(/fail-closed is on/);
    if (decision === 'ask') expect(out[0]).toMatch(/approval first\. Guard failed while checking this step/);
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

  // the rules judged the step before the deadline came (the second opinion or settling did not finish)
  it.for([
    { name: 'their block', checked: 'block', stdout: /"deny".*the rules said no/i },
    { name: 'their no objection', checked: 'allow', stdout: /^$/ },
    { name: 'nothing judged yet: asked', checked: undefined, stdout: /"deny".*ran out of time/ },
  ] as const)("the deadline gives the rules' verdict when they finished: $name", async ({ checked, stdout }) => {
    const { call, out } = await stageCall(['codex'], HOME, { deps: { deadlineMs: 20 } });
    call.known.settings = DEFAULT_SETTINGS;
    call.known.input = call.payload.read(codex.shell(HARMLESS), undefined, ['node', 'codex']);
    call.known.event = call.known.input.event;
    if (checked !== undefined)
      call.known.checked = { decision: checked, findings: [], agentMessage: 'the rules said no', userMessage: '' };
    const expired = await replyStage(call).expired;
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(stdout);
    expect(expired.line).toMatchObject({ how: 'deadline', decision: checked ?? 'ask' });
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
