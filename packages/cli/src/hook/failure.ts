import type { AgentId, HookInput, HookReply } from '@guard/adapters';
import type { Environment, Verdict } from '@guard/core';
import { evaluate, rules } from '@guard/core';
import type { Settings } from '../state/settings.js';
import type { AgentPayload } from './adapter.js';
import { mainEvent, stepEventFor } from './adapter.js';

/**
 * The failure policy (SPEC §7), in one place: what guard answers when it could not judge a step
 * normally (bad payload, unreadable state, an exception, the deadline).
 *
 * - guard off: no objection, as for every other step.
 * - fail-closed: block. Where a block has no meaning (a chat start, a result) the event's own
 *   reply is given instead.
 * - fail-open (default): the never list still applies to whatever step could be read; everything
 *   else, and anything that could not be read at all, goes ahead.
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

const BLOCK_RULES = rules.filter((rule) => rule.meta.decision === 'block');

/** What to answer when guard failed; never throws. */
export function failureAnswer(context: FailureContext): FailureAnswer {
  const { payload, input, settings } = context;
  const failClosed = settings?.failClosed ?? false;
  const off = settings?.enabled === false;
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
  const reply = (verdict: Verdict): HookReply =>
    payload.toReply(verdict, { event: stepEvent, canAsk: false, failClosed });
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
  const neverList = input?.type === 'step' ? blockOnly(input, context.env) : undefined;
  if (neverList?.decision === 'block') {
    return {
      reply: reply(neverList),
      decision: 'block',
      how: 'failure',
      rules: neverList.findings.map((finding) => finding.ruleId),
    };
  }
  return { reply: reply(NO_OBJECTION), decision: 'allow', how: 'failure', rules: [] };
}

/** The step judged by the never list alone, with no outside knowledge; undefined if that fails too. */
function blockOnly(input: Extract<HookInput, { type: 'step' }>, env: Environment): Verdict | undefined {
  try {
    return evaluate(input.step, { ...env, rules: BLOCK_RULES });
  } catch {
    return undefined;
  }
}
