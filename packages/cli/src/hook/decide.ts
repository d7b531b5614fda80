// The hook's third stage: decide. guard off, an event that is not a step (the session layer's),
// or a step: the chat's memory, the project's policy, the rules with git and the disk behind a
// probe, the second opinion, and core's settle against the chat. It writes nothing of its own: what
// the answer leaves to keep goes into the decision, for the record stage once the reply is out.
import { existsSync } from 'node:fs';
import type { HookInput, HookReply, ReplyContext, YesLasts } from '@guard/adapters';
import { DOCTOR_CHAT, driftNotice, POLICY_HELD_NOTICE } from '@guard/adapters/messages';
import type { Change, Evaluation, Probe, Settled } from '@guard/core';
import {
  apply,
  consultable,
  evaluate,
  holdLocked,
  keepsServer,
  onServerScan,
  rememberedBy,
  settle,
  stepText,
  unlockedYes,
  viewOf,
  whyUnchecked,
  withoutLockedAllows,
} from '@guard/core';
import { projectYes } from '../state/allowed.js';
import type { CallAnswer, CallClaim } from '../state/calls.js';
import { claimCall } from '../state/calls.js';
import { driftSentence, untoldDrifts } from '../state/pins.js';
import type { Settings } from '../state/settings.js';
import type { TimedProbe } from '../world/probe.js';
import { createProbe } from '../world/probe.js';
import type { PinnedResult } from '../world/project-policy.js';
import { pinnedPolicy } from '../world/project-policy.js';
import type { AgentPayload } from './adapter.js';
import type { Call, CallEntry } from './call.js';
import { describeInput, oneLine } from './call.js';
import { isBrokenCode, NO_OBJECTION } from './failure.js';
import type { Answer, Clock } from './reply.js';
import type { Consulted, ConsultInput } from './second-opinion.js';
import type { ChatMemory, SessionLayer } from './session.js';
import { chatSessions, NO_MEMORY } from './session.js';
import type { ReadStep } from './step.js';

/** What the call leaves to write once its reply is out (the record stage's). */
export interface Afterwards {
  /**
   * The chat the step was judged in, what the answer changes in it, and an MCP server whose tool
   * goes ahead (known from now on, if the chat asked about it): kept only if this answer went out.
   */
  readonly chat?: { readonly memory: ChatMemory; readonly change: Change; readonly server?: string };
  /** The second opinion paused after its failures: a line of its own in the log. */
  readonly paused?: string;
  /** The session layer, for its housekeeping. */
  readonly session?: SessionLayer;
  /** What the call learnt of the project policy's pin (`told`: this answer told the chat of a waiting change). */
  readonly pin?: { readonly keep: (told: boolean) => void; readonly told: boolean };
  /** The drifts of the agents' hook files this answer told (state/pins.ts): told, once it went out. */
  readonly told?: readonly string[];
  /** Keeps this answer for the other hooks of the same tool call (state/calls.ts), once it went out. */
  readonly keepCall?: () => void;
}

/** The answer decided on, and what it leaves to record. */
export interface Decision extends Answer {
  readonly after: Afterwards;
}

type StepInput = Extract<HookInput, { type: 'step' }>;

const DAY_MS = 86_400_000;

/** The most one git question may take in a hook call, and what is kept back from the deadline for answering. */
const GIT_BUDGET_MS = 1_000;
const ANSWER_RESERVE_MS = 400;

/**
 * What the second opinion leaves of the hook's deadline for everything after it: settling, the
 * reply, the log and saving the chat, on a busy machine.
 */
const AFTER_OPINION_MS = 400;

/** Decides the answer to the call as read; throws what fails (the failure answer follows). */
export async function decide(call: Call, { settings, lockedRules, input }: ReadStep, clock: Clock): Promise<Decision> {
  if (!settings.enabled) return off(call.payload, input, settings);
  const session = call.deps.session ?? guardSessions(call, settings, lockedRules);
  if (input.type === 'step') return judge(call, input, settings, lockedRules, clock, session);
  if (input.type === 'start') clock.starting();
  const entry: CallEntry = { ...describeInput(input, input.event), how: input.type === 'ignore' ? 'ignored' : 'event' };
  // another hook of the same call (the host runs two of guard's) keeps what it changes in the chat:
  // its notice, given again
  const claim = input.type === 'ignore' ? undefined : claimed(call, input);
  if (claim?.first === false) {
    const answer = await answerOf(claim, clock);
    if (answer !== undefined && 'event' in answer)
      return { reply: call.payload.toEventReply(input.event, answer.notice), entry, unlogged: true, after: {} };
  }
  const notice = await session.onEvent(call.agent, input, call.guardHome);
  const chat = input.type === 'start' || input.type === 'prompt' ? input.chatId : undefined;
  const { reply, told } = withDrifts(call, chat, notice, (text) => call.payload.toEventReply(input.event, text));
  return {
    reply,
    entry,
    after: {
      session,
      ...told,
      ...(claim?.first === true
        ? { keepCall: () => claim.keep({ event: true, ...(notice === undefined ? {} : { notice }) }) }
        : {}),
    },
  };
}

/**
 * The reply with the untold drifts of the agents' hook files added to its notice, where the reply
 * carries a notice at all (an event's context for the model, an ask's or a block's text): a step
 * that goes ahead says nothing, and is not made an ask to say it. `reply` words the answer.
 */
function withDrifts(
  call: Call,
  chat: string | undefined,
  notice: string | undefined,
  reply: (notice: string | undefined) => HookReply,
): { reply: HookReply; told?: { told: readonly string[] } } {
  const plain = reply(notice);
  // doctor's own calls are not the person's chat: the notice waits for one that is
  const drifts = chat === DOCTOR_CHAT ? [] : untoldDrifts(call.guardHome);
  if (drifts.length === 0) return { reply: plain };
  const told = driftNotice(drifts.map(driftSentence));
  const carried = reply(notice === undefined || notice === '' ? told : `${notice} ${told}`);
  if (carried.stdout === plain.stdout && carried.exitCode === plain.exitCode) return { reply: plain };
  return { reply: carried, told: { told: drifts.map((drift) => drift.key) } };
}

/** guard's own session layer: chat memory in guard's folder, per the settings. */
function guardSessions(call: Call, settings: Settings, lockedRules: readonly string[]): SessionLayer {
  return chatSessions({
    guardHome: call.guardHome,
    env: call.env,
    strict: settings.strict,
    lockedRules,
    idleMs: settings.idleDays * DAY_MS,
    scanEnv: call.io.env,
    startedAt: call.started,
  });
}

/** A step: judged by the rules against the chat, its project and the disk, then settled in the chat. */
async function judge(
  call: Call,
  input: StepInput,
  settings: Settings,
  lockedRules: readonly string[],
  clock: Clock,
  session: SessionLayer,
): Promise<Decision> {
  const { step } = input;
  const { deps, payload } = call;
  const failClosed = settings.failClosed;
  // another hook of the same tool call decides it, or did: its answer, given again
  const claim = claimed(call, input);
  if (claim?.first === false) {
    const answer = await answerOf(claim, clock);
    if (answer !== undefined && 'verdict' in answer) return answeredBefore(call, input, failClosed, answer);
  }
  const { memory, rescan } = await rescanned(call, step, await chatMemory(call, session, step, failClosed), clock);
  const described = describeInput(input, input.event);
  const pinned: PinnedResult = await (deps.policy?.(step.projectRoot) ??
    pinnedPolicy(call.guardHome, step.projectRoot, {
      agent: call.agent,
      chat: step.chatId,
      step: described.step ?? '',
    }));
  const { error: policyError, held } = pinned;
  // the rules the system settings lock: no allow list, project yes or mode lets them go ahead
  const policy = withoutLockedAllows(pinned.policy, lockedRules);
  const forProject = projectYes(call.guardHome, step.projectRoot);
  // git gets what is left of the deadline after what answering and saving need, so a slow git
  // ends in a "could not check" in time rather than in the deadline's failure answer
  const probe: Probe & Partial<TimedProbe> =
    deps.probe?.() ??
    createProbe({ timeoutMs: GIT_BUDGET_MS, answerBy: clock.due() - ANSWER_RESERVE_MS, env: call.io.env });
  const evaluation = holdLocked(
    evaluate(step, {
      ...call.env,
      probe,
      session: viewOf(memory.chat),
      policy,
      failClosed,
      remembered: rememberedBy(memory.chat, unlockedYes(lockedRules, forProject)),
      ...(deps.rules === undefined ? {} : { rules: deps.rules }),
    }),
    lockedRules,
  );
  const asked = {
    canAsk: input.canAsk,
    ask: payload.capabilities.ask,
    deferred: input.deferAsk === true,
    mode: settings.mode,
    lockedRules,
    ...(memory.announce === undefined ? {} : { announce: memory.announce }),
  };
  // fail-closed: a look guard could not finish in time is a failure, and a failure blocks
  if (failClosed && probe.gaveUp?.() === true && evaluation.decision !== 'block')
    throw new Error('git did not answer within its time budget, so guard could not check this step');
  // the rules' verdict stands should the deadline come before the rest (the second opinion, settling)
  call.known.checked = evaluation;
  // the second opinion may raise what the rules let through (only loaded when it is on)
  const opinion =
    settings.secondOpinion.on && input.deferAsk !== true && consultable(step, evaluation)
      ? await secondOpinion(call, clock, settings.secondOpinion, {
          step,
          evaluation,
          chat: memory.chat,
          idleMs: settings.idleDays * DAY_MS,
        })
      : undefined;
  const judged = opinion?.evaluation ?? evaluation;
  const kept = opinion?.change === undefined ? undefined : { opinion: opinion.change };
  const reached = settle(memory.chat, step, judged, asked, { now: Date.now(), exists: existsSync });
  // a change to the project policy that waits is told to the chat once, with the first answer that
  // says anything (an ask or a block; a step that goes ahead says nothing)
  const tells = held?.tell === true && reached.verdict.decision !== 'allow';
  const settled = tells ? withNotice(reached, POLICY_HELD_NOTICE) : reached;
  const entry = stepEntry(judged, settled, input.canAsk);
  const context = replyContext(input, failClosed, settled, payload);
  const { reply, told } = withDrifts(call, step.chatId, context.notice, (notice) =>
    payload.toReply(settled.verdict, notice === undefined ? context : { ...context, notice }),
  );
  return {
    reply,
    entry: {
      ...described,
      ...(policyError === undefined ? {} : { error: `project policy: ${policyError}` }),
      ...(held === undefined ? {} : { policyHeld: held.loosens }),
      ...entry,
      ...(judged !== evaluation && entry.how === 'rules' ? { how: 'second-opinion' as const } : {}),
      ...(opinion?.record === undefined ? {} : { opinion: opinion.record }),
    },
    after: {
      chat: {
        memory,
        change: kept === undefined && rescan === undefined ? settled.change : { ...settled.change, ...kept, ...rescan },
        // a new or changed MCP server whose tool goes ahead after a yes is known from now on
        ...(step.kind === 'mcp' && keepsServer(settled) ? { server: step.server } : {}),
      },
      ...(opinion?.paused === undefined ? {} : { paused: opinion.paused }),
      ...(pinned.keep === undefined ? {} : { pin: { keep: pinned.keep, told: tells } }),
      session,
      ...told,
      ...(claim?.first === true
        ? { keepCall: () => claim.keep({ ...callContext(context), verdict: settled.verdict }) }
        : {}),
    },
  };
}

/**
 * The claim on a call, where the host sends every hook of the call something alike (it may run two
 * of guard's hooks for it): undefined where it does not, or guard's folder cannot be written (then
 * this hook decides on its own, as it would without a claim).
 */
function claimed(call: Call, input: Exclude<HookInput, { type: 'ignore' }>): CallClaim | undefined {
  if (input.sameCall === undefined) return undefined;
  const step = input.type === 'step' ? input.step : input.type === 'result' ? input.result.step : undefined;
  const chat = step?.chatId ?? (input.type === 'start' || input.type === 'prompt' ? input.chatId : '');
  try {
    return claimCall(
      call.guardHome,
      [call.agent, chat, input.type, input.sameCall, ...(step === undefined ? [] : [step.kind, stepText(step)])],
      call.command,
    );
  } catch {
    return undefined;
  }
}

/** How long a later hook of a call waits for the first one's answer at most, and how often it looks. */
const CALL_WAIT_MS = 2_500;
const CALL_POLL_MS = 20;

/**
 * The first hook's answer to the call, waited for while it decides: undefined when it gave none in
 * time (it failed, or ran out of time), and this hook then decides on its own, within its deadline.
 */
async function answerOf(claim: CallClaim & { first: false }, clock: Clock): Promise<CallAnswer | undefined> {
  const until = Math.min(Date.now() + CALL_WAIT_MS, clock.due() - ANSWER_RESERVE_MS - GIT_BUDGET_MS);
  for (;;) {
    const answer = claim.answer();
    // the same hook command again: the same payload sent twice, each decided
    if (answer === 'again') return undefined;
    if (answer !== undefined || Date.now() >= until) return answer;
    await new Promise((resolve) => setTimeout(resolve, CALL_POLL_MS));
  }
}

/**
 * The answer another hook of the same call gave, in this call's words: its verdict on this event,
 * with no log line of its own, and nothing kept (the first hook kept what the answer changes).
 */
function answeredBefore(
  call: Call,
  input: StepInput,
  failClosed: boolean,
  answer: Extract<CallAnswer, { verdict: unknown }>,
): Decision {
  const { verdict, ...said } = answer;
  return {
    reply: call.payload.toReply(verdict, { ...said, event: input.event, canAsk: input.canAsk, failClosed }),
    entry: { ...describeInput(input, input.event), decision: verdict.decision, rules: [], how: 'rules' },
    unlogged: true,
    after: {},
  };
}

/** What a reply said beside the verdict, as kept for the other hooks of the same call. */
function callContext(context: ReplyContext): Omit<Extract<CallAnswer, { verdict: unknown }>, 'verdict'> {
  return {
    ...(context.approvalCode === undefined ? {} : { approvalCode: context.approvalCode }),
    ...(context.notice === undefined ? {} : { notice: context.notice }),
    ...(context.yesLasts === undefined ? {} : { yesLasts: context.yesLasts }),
  };
}

function withNotice(settled: Settled, notice: string): Settled {
  return { ...settled, notice: settled.notice === undefined ? notice : `${settled.notice} ${notice}` };
}

/**
 * The chat's memory for a step. When it cannot be read, fail-closed blocks (a failure); fail-open
 * judges the step as the first of a fresh chat, so every rule that needs no memory still applies.
 */
async function chatMemory(
  call: Call,
  session: SessionLayer,
  step: StepInput['step'],
  failClosed: boolean,
): Promise<ChatMemory> {
  try {
    return await session.forStep(call.agent, step, call.guardHome);
  } catch (error) {
    // guard's own code that could not be loaded (the chat-start scan) is a failure, never a fresh chat
    if (failClosed || isBrokenCode(error)) throw error;
    const problem = `the chat's memory could not be read (${oneLine(error)}); judged as a fresh chat`;
    call.known.problems.push(problem);
    call.io.err(`guard: ${problem}\n`);
    return NO_MEMORY;
  }
}

/** The most a call spends scanning an MCP server again, and the least worth starting one for. */
const RESCAN_MS = 3_000;
const MIN_RESCAN_MS = 200;

/**
 * A tool of a local MCP server whose tools the chat-start scan could not read (SPEC §7, "silence
 * means checked"): the server is scanned again within what is left of the call's deadline (after
 * git's budget and the answer's), in-process or in the resident checker alike, and the step is
 * judged in the chat as that scan leaves it (core's `onServerScan`: read clean, it is not asked
 * about again in the chat; still unread, its tools ask). Any other step costs one lookup.
 */
async function rescanned(
  call: Call,
  step: StepInput['step'],
  memory: ChatMemory,
  clock: Clock,
): Promise<{ memory: ChatMemory; rescan?: Change }> {
  const chat = memory.chat;
  if (step.kind !== 'mcp' || chat === undefined || whyUnchecked(chat.uncheckedServers, step.server) === undefined)
    return { memory };
  const timeoutMs = Math.min(RESCAN_MS, clock.due() - Date.now() - GIT_BUDGET_MS - ANSWER_RESERVE_MS);
  // no time left to try: the server stays unread, and its tool asks
  if (timeoutMs < MIN_RESCAN_MS) return { memory };
  const { rescanServer } = await import('../world/start-scan.js');
  const scan = await rescanServer(
    { agent: call.agent, projectRoot: step.projectRoot, home: call.env.home, env: call.io.env, timeoutMs },
    step.server,
  );
  const rescan = onServerScan(step.server, scan);
  return { memory: { ...memory, chat: apply(chat, rescan) }, rescan };
}

/** The second opinion on a step the rules let through, within what is left of the deadline. */
async function secondOpinion(
  call: Call,
  clock: Clock,
  second: Settings['secondOpinion'] & { on: true },
  asked: Pick<ConsultInput, 'step' | 'evaluation' | 'chat' | 'idleMs'>,
): Promise<Consulted> {
  if ('problem' in second)
    return {
      evaluation: asked.evaluation,
      record: { outcome: 'unavailable', why: `its settings cannot be used (${second.problem})` },
    };
  const { consult } = await import('./second-opinion.js');
  return consult({
    ...asked,
    guardHome: call.guardHome,
    agent: call.agent,
    config: second.config,
    env: call.io.env,
    timeLeftMs: clock.due() - Date.now() - AFTER_OPINION_MS,
    ...(call.deps.post === undefined ? {} : { post: call.deps.post }),
  });
}

/** What the adapter needs to word the answer to a step. */
function replyContext(input: StepInput, failClosed: boolean, settled: Settled, payload: AgentPayload): ReplyContext {
  // how long a yes lasts is told where guard learns of the yes (the person's message, or the
  // result), once the person chose a mode: in standard the ask reads word for word as it always has
  const carries =
    settled.mode !== 'standard' && (payload.capabilities.ask === 'block-then-chat' || payload.capabilities.results);
  return {
    event: input.event,
    canAsk: input.canAsk,
    failClosed,
    tool: input.step.toolName,
    ...(settled.approvalCode === undefined ? {} : { approvalCode: settled.approvalCode }),
    ...(settled.notice === undefined ? {} : { notice: settled.notice }),
    ...(settled.yesLasts === undefined || !carries ? {} : { yesLasts: yesLastsOf(settled.yesLasts, settled) }),
  };
}

/** How long a yes lasts, as the adapters word it: with the rules that ask each time, and those locked. */
function yesLastsOf(yesLasts: 'once' | 'longer', settled: Settled): YesLasts {
  const { yesOnceFor: partly, yesNotForProject: locked } = settled;
  if (locked !== undefined) return partly === undefined ? { locked } : { partly, locked };
  return partly === undefined ? yesLasts : { partly };
}

/** The log fields of a judged step: the rules' verdict, what the agent was told where it differs, and how. */
export function stepEntry(evaluation: Evaluation, settled: Settled, canAsk: boolean): CallEntry {
  if (settled.how === 'deferred') {
    return { decision: 'allow', rules: [], how: 'ignored', reason: 'judged again on the next event for this call' };
  }
  const told = settled.verdict.decision;
  // an ask nobody can answer reaches the agent as a block
  const answer = told === 'ask' && !canAsk ? 'block' : told !== evaluation.decision ? told : undefined;
  return {
    decision: evaluation.decision,
    ...(answer === undefined ? {} : { answer }),
    // a step an earlier yes let through names the rules that yes was for
    rules: (evaluation.findings.length > 0 ? evaluation.findings : evaluation.remembered).map(
      (finding) => finding.ruleId,
    ),
    ...(evaluation.findings[0] === undefined ? {} : { reason: evaluation.findings[0].reason }),
    ...(settled.approvalCode === undefined ? {} : { code: settled.approvalCode }),
    how: settled.how,
    // the mode that answered, where it is not the default
    ...(settled.mode === 'standard' ? {} : { mode: settled.mode }),
  };
}

/** guard is off: no objection to anything, in the agent's own words, logged as such. */
function off(payload: AgentPayload, input: HookInput, settings: Settings): Decision {
  const reply =
    input.type === 'step'
      ? payload.toReply(NO_OBJECTION, {
          event: input.event,
          canAsk: input.canAsk,
          failClosed: settings.failClosed,
          tool: input.step.toolName,
        })
      : payload.toEventReply(input.event, undefined);
  return {
    reply,
    entry: {
      ...describeInput(input, input.event),
      ...(input.type === 'step' ? { decision: 'allow' as const } : {}),
      how: 'off',
    },
    after: {},
  };
}
