import type { Chat } from '../chat/chat.js';
import { rememberedBy } from '../chat/chat.js';
import { shortHash } from '../chat/ids.js';
import { stepText } from '../context/build.js';
import type { Evaluation } from '../evaluate.js';
import { parsePatch } from '../facts/patch.js';
import type { Finding, ToolStep } from '../types.js';
import { consultable } from './candidate.js';
import type { Judgement, Memo, OpinionBars, OpinionHealth } from './types.js';
import { HEALTHY, OPINION_LIMITS } from './types.js';

/** The rule id a raised step is reported under (in the log, the report and the agent's reply). */
export const OPINION_ID = 'second-opinion';

/** What the hook does about the second opinion for one step. */
export type Plan =
  /** Not a step for the second opinion (or the person already said yes to it): nothing to do or log. */
  | { readonly kind: 'skip' }
  /** A step it would judge, but it cannot now: the rules' verdict stands, logged as not judged. */
  | { readonly kind: 'unavailable'; readonly why: string }
  /** The chat remembers the answer for this step under this request: nothing is sent. */
  | { readonly kind: 'remembered'; readonly asked: Asked; readonly judgement: Judgement }
  /** Ask the model. */
  | { readonly kind: 'send'; readonly asked: Asked };

/** The identity of one judgement: which step, under which request, in which turn. */
export interface Asked {
  /** What a yes to a raised step is remembered by (the step, whatever the request). */
  readonly memoryKey: string;
  /** What the answer is remembered by (the step and the request). */
  readonly key: string;
  readonly turn: string;
  /** The request question is asked too (guard has the person's request for this turn). */
  readonly withRequest: boolean;
}

/** What `planOpinion` needs to know. */
export interface PlanInput {
  readonly step: ToolStep;
  /** The rules' verdict (and what the reader found in the step). */
  readonly evaluation: Evaluation;
  /** The chat as read before the step (undefined: the payload names no chat). */
  readonly chat: Chat | undefined;
  /** The person's request for this turn, when guard has it. */
  readonly request?: { readonly text: string; readonly time: number };
  readonly health: OpinionHealth;
  /** ms since epoch. */
  readonly now: number;
}

/**
 * Whether the second opinion is asked about a step (SPEC §11), in this order: only a step it
 * judges at all (`consultable`); not one the person already said yes to in this chat; an answer
 * the chat remembers for the same step under the same request is used again; nothing is sent while
 * it is paused, or once this turn's judgements are spent. Every "cannot" is reported as such, never
 * as "no objection".
 */
export function planOpinion(input: PlanInput): Plan {
  const { step, evaluation, chat, request, health, now } = input;
  if (!consultable(step, evaluation)) return { kind: 'skip' };
  if (chat === undefined) return { kind: 'unavailable', why: 'the payload names no chat to keep its budget in' };
  const stepKey = shortHash(`${step.kind}\u0000${step.cwd}\u0000${whatItDoes(step, evaluation)}`, 20);
  const memoryKey = `${OPINION_ID}:${stepKey}`;
  if (rememberedBy(chat)(memoryKey)) return { kind: 'skip' };
  const withRequest = request !== undefined;
  const key = shortHash(`${stepKey}\u0000${withRequest ? `r:${request.text}` : '-'}`, 20);
  const turn = turnOf(step, request, now);
  const asked: Asked = { memoryKey, key, turn, withRequest };
  const memo = chat.opinion?.memos.find((entry) => entry.key === key);
  if (memo !== undefined) {
    const judgement: Judgement =
      memo.outside === undefined
        ? { irreversible: memo.irreversible }
        : { irreversible: memo.irreversible, outside: memo.outside };
    return { kind: 'remembered', asked, judgement };
  }
  const paused = pausedUntil(health, now);
  if (paused !== undefined) return { kind: 'unavailable', why: `paused until ${new Date(paused).toISOString()}` };
  const sent = chat.opinion?.turn === turn ? chat.opinion.sent : 0;
  if (sent >= OPINION_LIMITS.perTurn)
    return { kind: 'unavailable', why: `this turn's ${OPINION_LIMITS.perTurn} judgements are spent` };
  return { kind: 'send', asked };
}

/**
 * What the step does, the way the rules read it, for remembering answers: a shell command as the
 * commands it runs after unwrapping (`sudo rm x` and `rm x` are one), where, and what they write;
 * a write by its file and how (not its content).
 */
function whatItDoes(step: ToolStep, evaluation: Evaluation): string {
  switch (step.kind) {
    case 'shell':
      if (evaluation.invocations.length === 0 || evaluation.opaque.length > 0) return step.command;
      return evaluation.invocations
        .map((inv) =>
          [
            inv.cwd,
            inv.remoteHost ?? '',
            inv.name,
            ...inv.args,
            ...inv.redirects.filter((r) => r.write).map((r) => `${r.op}${r.target}`),
          ].join('\u0001'),
        )
        .join('\u0002');
    case 'write':
      return `${step.mode}\u0001${step.path}\u0001${step.toPath ?? ''}`;
    case 'patch':
      return parsePatch(step.patch)
        .files.map((file) => `${file.op}\u0001${file.path}\u0001${file.moveTo ?? ''}`)
        .join('\u0002');
    default:
      return stepText(step);
  }
}

/**
 * The turn a step belongs to: the agent's own turn id where it sends one; else the person's last
 * message; else a window of time (an agent that shows guard neither).
 */
function turnOf(step: ToolStep, request: PlanInput['request'], now: number): string {
  if (step.turnId !== undefined && step.turnId !== '') return `t:${step.turnId}`;
  if (request !== undefined) return `m:${request.time}`;
  return `w:${Math.floor(now / OPINION_LIMITS.windowMs)}`;
}

/** Whether a judgement raises the step: both answers clear their bars (the first alone, higher, with no request). */
export function raises(judgement: Judgement, withRequest: boolean, bars: OpinionBars): boolean {
  if (!withRequest) return judgement.irreversible >= bars.irreversibleAlone;
  return judgement.irreversible >= bars.irreversible && (judgement.outside ?? 0) >= bars.outside;
}

/**
 * The rules' verdict raised to an ask by the second opinion, with one finding that says so and why.
 * Only an allow is ever raised; anything else is returned as it is.
 */
export function raised(evaluation: Evaluation, judgement: Judgement, asked: Asked): Evaluation {
  if (evaluation.decision !== 'allow') return evaluation;
  const finding: Finding = {
    ruleId: OPINION_ID,
    decision: 'ask',
    reason: opinionReason(judgement, asked.withRequest),
    span: [0, evaluation.text.length],
    memoryKey: asked.memoryKey,
    remember: 'chat',
    // no concern guard can place: the person turned the second opinion on to be asked, in every mode
    concern: undefined,
  };
  return {
    ...evaluation,
    decision: 'ask',
    findings: [finding],
    agentMessage: `guard: ${finding.reason}`,
    userMessage: finding.reason,
  };
}

/** The one sentence that says the second opinion raised the step, and why. */
export function opinionReason(judgement: Judgement, withRequest: boolean): string {
  const p = (value: number): string => value.toFixed(2);
  if (!withRequest || judgement.outside === undefined)
    return `guard's second opinion (a local model) judged this step almost certainly impossible to undo (${p(judgement.irreversible)}), and guard has no request from the person for this turn to check it against.`;
  return `guard's second opinion (a local model) judged this step hard or impossible to undo (${p(judgement.irreversible)}) and outside what the person asked for in this turn (${p(judgement.outside)}).`;
}

/** An answer to remember. */
export function memoOf(asked: Asked, judgement: Judgement): Memo {
  return { key: asked.key, ...judgement };
}

/** Until when the second opinion is paused, or undefined when it is not. */
export function pausedUntil(health: OpinionHealth, now: number): number | undefined {
  return health.pausedUntil !== undefined && now < health.pausedUntil ? health.pausedUntil : undefined;
}

/** Health after an answer: the failures in a row start over. */
export function afterAnswer(health: OpinionHealth): OpinionHealth {
  return health.failures === 0 && health.pausedUntil === undefined ? health : HEALTHY;
}

/**
 * Health after a failure (no answer in time, an error, an answer it could not read): one more in a
 * row, and at the third a pause (`paused`: it began now, and is to be logged, once).
 */
export function afterFailure(
  health: OpinionHealth,
  why: string,
  now: number,
): { readonly health: OpinionHealth; readonly paused: boolean } {
  // a pause that ran out starts the count over
  const failures =
    (pausedUntil(health, now) === undefined && health.pausedUntil !== undefined ? 0 : health.failures) + 1;
  if (failures >= OPINION_LIMITS.failuresBeforePause)
    return { health: { failures: 0, pausedUntil: now + OPINION_LIMITS.pauseMs, why }, paused: true };
  return { health: { failures, why }, paused: false };
}
