import type { AgentId, HookInput, HookReply } from '@guard/adapters';
import type { Environment, Rule, ToolStep, Verdict } from '@guard/core';
import { evaluate, rules } from '@guard/core';
import type { Settings } from '../state/settings.js';
import { STRICTEST_SETTINGS } from '../state/settings.js';
import type { AgentPayload } from './adapter.js';
import { mainEvent, stepEventFor } from './adapter.js';
import { stepsInText } from './partial.js';

/**
 * The failure policy (SPEC §7), in one place: what guard answers to a step it could not check
 * (a payload it could not read, an exception, guard's own code broken, the deadline). Silence, the
 * agents' "no objection", is given only to a step guard read and checked; every other step is asked,
 * with a sentence saying what happened, and the never list still blocks whatever step could be read.
 *
 * - guard off: no objection, as for every other step.
 * - the rules judged the step before the deadline came: their verdict.
 * - a step that could be read: judged by every rule that needs nothing but the step itself (no chat
 *   memory, no look at the disk, no project policy). A block stays a block; anything else is asked.
 * - a payload that could not be read (not JSON, cut short, a field of a type the adapter does not
 *   take): the commands, paths and URLs its text holds (partial.ts) are judged by the never list. A
 *   block stays a block; anything else is asked.
 * - fail-closed: what is asked above is blocked.
 * - where the agent cannot ask (headless, an event without a prompt; for a payload that could not be
 *   read, unless the agent's command line says someone can), the adapter turns the ask into a block,
 *   as for every ask.
 * - not a step (a chat start, a result): the event's own reply; there is nothing to stop. An event
 *   guard could not tell is taken for a step.
 * - settings not known yet (the deadline came first): as under fail-closed; a failure never loosens.
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
  /** What kept guard from checking the step. */
  readonly what: Unchecked;
  /** Stdin's text as far as it was read, for the never list when it could not be read as a step. */
  readonly text?: string;
  /** The agent's command line, for whether an ask reaches a person when the payload could not be read. */
  readonly parentArgs?: readonly string[];
  /** The rules' verdict on the step, when they judged it before the deadline came. */
  readonly checked?: Verdict;
}

/** What kept guard from checking a step: its payload, the deadline, its own code, or another failure. */
export type Unchecked = 'unread' | 'deadline' | 'broken' | 'error';

/** What happened, as the reply tells it. */
const WHAT: Readonly<Record<Unchecked, string>> = {
  unread: 'guard could not read this step',
  deadline: 'guard ran out of time before it finished checking this step',
  broken: "guard's own files are missing or broken, so it could not check this step (installing guard again mends it)",
  error: 'guard failed while checking this step',
};

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
  /** What the agent was told, where it differs from the decision (an ask nobody can answer is a block). */
  readonly answer?: 'block';
  readonly how: 'off' | 'failure';
  /** Rule ids of the findings that still applied. */
  readonly rules: readonly string[];
}

/** No objection: each adapter renders it in its agent's way (silence, `{}`, `{"decision":"ask"}` …). */
export const NO_OBJECTION: Verdict = { decision: 'allow', findings: [], agentMessage: '', userMessage: '' };

/** What to answer when guard could not check a step; never throws. */
export function failureAnswer(context: FailureContext): FailureAnswer {
  const { payload, input } = context;
  const settings = context.settings ?? STRICTEST_SETTINGS;
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
      how: settings.enabled ? 'failure' : 'off',
      rules: [],
    };
  }
  // an ask is put to the person where the step says someone can answer (else the agent is told no);
  // without a step read, where the agent's command line says so
  const canAsk =
    input === undefined
      ? payload.canAskUnread?.(context.parentArgs ?? []) === true
      : input.type === 'step' && input.canAsk;
  const told = (verdict: Verdict, notice?: string): FailureAnswer => ({
    reply: payload.toReply(verdict, {
      event: stepEvent,
      canAsk,
      failClosed: settings.failClosed,
      ...(input?.type === 'step' ? { tool: input.step.toolName } : {}),
      ...(notice === undefined ? {} : { notice }),
    }),
    decision: verdict.decision,
    ...(verdict.decision === 'ask' && !canAsk ? { answer: 'block' as const } : {}),
    how: 'failure',
    rules: verdict.findings.map((finding) => finding.ruleId),
  });
  if (!settings.enabled) return { ...told(NO_OBJECTION), how: 'off' };
  if (context.checked !== undefined) return told(context.checked);
  const what = `${WHAT[context.what]}; \`guard log\` says why`;
  const judged = input?.type === 'step' ? stepAlone(input.step, context.env) : neverList(context.text ?? '', context);
  if (judged.decision === 'block') return told(judged, what);
  if (settings.failClosed) return told(message('block', failClosedMessage(context.what)));
  if (judged.decision === 'ask') return told(judged, what);
  return told(message('ask', what));
}

/** What the agent is told when fail-closed blocks a step guard could not check. */
export function failClosedMessage(what: Unchecked): string {
  return `${WHAT[what]} and fail-closed is on, so the step does not run; try it again, and if this keeps happening the person can see why with \`guard log\``;
}

/** A verdict with no finding: its message is the whole reason. */
function message(decision: 'ask' | 'block', text: string): Verdict {
  return { decision, findings: [], agentMessage: text, userMessage: text };
}

/**
 * The step judged by every rule with no outside knowledge (no memory, probe or policy). Should
 * even that fail, no objection, which the caller asks about: nothing was checked.
 */
function stepAlone(step: ToolStep, env: Environment): Verdict {
  // the whole catalogue, else (should a rule throw) the never list alone
  for (const catalogue of [rules, NEVER])
    try {
      return evaluate(step, { ...env, rules: catalogue });
    } catch {
      // the next, narrower catalogue
    }
  return NO_OBJECTION;
}

/** The never list's rules: each blocks in every mode. */
const NEVER: readonly Rule[] = rules.filter((rule) => rule.meta.decision === 'block');

/**
 * The steps a payload's text holds, read loosely (partial.ts), judged by the never list alone: the
 * first block, else no objection (which the caller asks about: nothing was checked).
 */
function neverList(text: string, context: FailureContext): Verdict {
  for (const step of stepsInText(text, { agent: context.agent, home: context.env.home })) {
    try {
      const verdict = evaluate(step, { ...context.env, rules: NEVER });
      if (verdict.decision === 'block') return verdict;
    } catch {
      // a step the rules cannot judge: the others still may; the answer is an ask at least
    }
  }
  return NO_OBJECTION;
}
