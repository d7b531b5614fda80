import type { AgentId, HookInput, HookReply } from '@guard/adapters';
import type { Environment, Verdict } from '@guard/core';
import { evaluate } from '@guard/core';
import type { Settings } from '../state/settings.js';
import { STRICTEST_SETTINGS } from '../state/settings.js';
import type { AgentPayload } from './adapter.js';
import { mainEvent, stepEventFor } from './adapter.js';

/**
 * The failure policy (SPEC §7), in one place: what guard answers when it could not judge a step
 * normally (bad payload, unreadable state, an exception, the deadline).
 *
 * - guard off: no objection, as for every other step.
 * - fail-closed: block. Where a block has no meaning (a chat start, a result) the event's own
 *   reply is given instead.
 * - fail-open (default): every rule that needs nothing but the step itself (no chat memory, no
 *   look at the disk, no project policy) still applies to whatever step could be read, so an ask
 *   stays an ask and a block a block; only what could not be read at all goes ahead. When a part
 *   of guard's own code could not be loaded (a lazy chunk of the hook bundle missing or broken),
 *   a step those rules let through is asked: it is judged as by a rule that threw.
 * - settings not known yet (the deadline came first): as under fail-closed; a failure never
 *   loosens.
 */
export interface FailureContext {
  readonly agent: AgentId;
  readonly payload: AgentPayload;
  /** The event as best known: from the payload, the raw text, or `--event`. */
  readonly event: string | undefined;
  /** The payload as the adapter read it, when it could. */
  readonly input: HookInput | undefined;
  /** The settings, when they could be read. */
  readonly settings: Settings | undefined;
  readonly env: Environment;
  /** What failed was guard's own code (a lazy chunk of the hook bundle missing or broken). */
  readonly brokenCode?: boolean;
}

/** The code the hook loader gives the error of a part of guard's own code it could not load. */
export const BROKEN_CODE = 'GUARD_CODE_BROKEN';

/** Whether `error` is the hook loader's: a part of guard's own code could not be loaded. */
export function isBrokenCode(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === BROKEN_CODE;
}

/** The reply for a failure, and how it came about. */
export interface FailureAnswer {
  readonly reply: HookReply;
  readonly decision: Verdict['decision'];
  readonly how: 'off' | 'failure';
  /** Rule ids of the never-list findings that still applied. */
  readonly rules: readonly string[];
}

/** No objection: each adapter renders it in its agent's way (silence, `{}`, `{"decision":"ask"}` …). */
export const NO_OBJECTION: Verdict = { decision: 'allow', findings: [], agentMessage: '', userMessage: '' };

/** What the agent is told when fail-closed blocks a step guard could not judge. */
export const FAIL_CLOSED_MESSAGE =
  'guard could not check this step and fail-closed is on, so the step does not run; try it again, and if this keeps happening the person can see why with `guard log`.';

/** What to answer when guard failed; never throws. */
export function failureAnswer(context: FailureContext): FailureAnswer {
  const { payload, input } = context;
  const settings = context.settings ?? STRICTEST_SETTINGS;
  const failClosed = settings.failClosed;
  const off = !settings.enabled;
  const stepEvent =
    input === undefined
      ? stepEventFor(context.agent, context.event, payload)
      : input.type === 'step'
        ? input.event
        : undefined;

  if (stepEvent === undefined) {
    // a chat start, a result, a message: nothing to stop, answer the event
    const event = input?.event ?? context.event ?? mainEvent(context.agent);
    return {
      reply: payload.toEventReply(event, undefined),
      decision: 'allow',
      how: off ? 'off' : 'failure',
      rules: [],
    };
  }
  // an ask is put to the person where the step says someone can answer (else the agent is told no)
  const canAsk = input?.type === 'step' && input.canAsk;
  const reply = (verdict: Verdict): HookReply => payload.toReply(verdict, { event: stepEvent, canAsk, failClosed });
  if (off) return { reply: reply(NO_OBJECTION), decision: 'allow', how: 'off', rules: [] };
  if (failClosed) {
    const verdict: Verdict = {
      decision: 'block',
      findings: [],
      agentMessage: FAIL_CLOSED_MESSAGE,
      userMessage: FAIL_CLOSED_MESSAGE,
    };
    return { reply: reply(verdict), decision: 'block', how: 'failure', rules: [] };
  }
  if (input?.type !== 'step') return { reply: reply(NO_OBJECTION), decision: 'allow', how: 'failure', rules: [] };
  const verdict = stepAlone(input, context.env);
  if (verdict.decision === 'allow' && context.brokenCode === true)
    return { reply: reply(UNCHECKED_VERDICT), decision: 'ask', how: 'failure', rules: [] };
  if (verdict.decision === 'allow') return { reply: reply(NO_OBJECTION), decision: 'allow', how: 'failure', rules: [] };
  return {
    reply: reply(verdict),
    decision: verdict.decision,
    how: 'failure',
    rules: verdict.findings.map((finding) => finding.ruleId),
  };
}

/** Said when guard broke even while judging the step by itself. */
const UNCHECKED =
  'guard could not check this step (the person can see why with `guard log`), so the person decides whether it runs.';

/**
 * The step judged by every rule with no outside knowledge (no memory, probe or policy). Should
 * even that fail, an ask: a step that could be read is never let through because guard broke.
 */
function stepAlone(input: Extract<HookInput, { type: 'step' }>, env: Environment): Verdict {
  try {
    return evaluate(input.step, env);
  } catch {
    return UNCHECKED_VERDICT;
  }
}

const UNCHECKED_VERDICT: Verdict = { decision: 'ask', findings: [], agentMessage: UNCHECKED, userMessage: UNCHECKED };
