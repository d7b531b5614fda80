import type { Evaluation } from './evaluate.js';
import { describe } from './evaluate.js';
import type { AsksInEveryMode, Concern, Decision, Finding } from './types.js';

/**
 * Modes (SPEC §12, seed 003): how much goes ahead without asking. The rules report what a step is
 * about (each ask rule has one concern class); one decision function per mode turns that into an
 * answer. No mode touches a block (the never list, a project's own blocks, the chat's blocks after
 * injection signs), and there is no mode that asks about everything.
 */
export type Mode = 'standard' | 'extended' | 'full';

export const MODES: readonly Mode[] = ['standard', 'extended', 'full'];

export const DEFAULT_MODE: Mode = 'standard';

/** What a mode reads of one asked finding. */
export interface AskFacts {
  /** The rule's concern class; undefined for an ask guard cannot place (a project's own rule, the second opinion). */
  readonly concern: Concern | undefined;
  /** The rule asks in every mode (the chat's raised bar, or a step whose worst case is on the never list). */
  readonly asksInEveryMode: AsksInEveryMode | undefined;
  /** The target could not be worked out (judged as its worst case). */
  readonly unresolved: boolean;
}

/** What no mode lets go ahead unasked: what guard cannot place, the raised bar, the worst case. */
function held(ask: AskFacts): boolean {
  return ask.concern === undefined || ask.asksInEveryMode !== undefined || ask.unresolved;
}

/**
 * The one decision function of each mode: whether an asked finding still asks, or goes ahead.
 * - `standard` (the default): every ask asks.
 * - `extended`: what is only about the outside of the project (a write there, a new site, the
 *   project's own packages) goes ahead; everything else asks.
 * - `full`: the whole ask list goes ahead, except the chat's raised bar (untrusted content, a key
 *   seen), what guard cannot read or resolve, and what guard cannot place.
 */
export const MODE_DECISIONS: Readonly<Record<Mode, (ask: AskFacts) => 'ask' | 'allow'>> = {
  standard: () => 'ask',
  extended: (ask) => (!held(ask) && ask.concern === 'outside' ? 'allow' : 'ask'),
  full: (ask) => (held(ask) ? 'ask' : 'allow'),
};

/** What each mode lets go ahead, in a few words (`guard status`, `guard mode`). */
export const MODE_SUMMARY: Readonly<Record<Mode, string>> = {
  standard: 'asks about everything on the ask list',
  extended: 'steps outside the project go ahead; the rest of the ask list asks',
  full: "the ask list goes ahead, except what the chat's raised bar asks",
};

/** Whether a text names a mode. */
export function isMode(value: unknown): value is Mode {
  return value === 'standard' || value === 'extended' || value === 'full';
}

/** What a mode reads of a finding (what its rule said of it where it was made). */
export function askFacts(finding: Finding): AskFacts {
  return {
    concern: finding.concern,
    asksInEveryMode: finding.asksInEveryMode,
    unresolved: finding.unresolved === true,
  };
}

/** An evaluation as a mode answers it. */
export interface ModeEvaluation {
  /** What is left to answer: the rules' evaluation itself when the mode let no ask go ahead. */
  readonly evaluation: Evaluation;
  /** Asked findings this mode let go ahead (always empty in `standard`). */
  readonly byMode: readonly Finding[];
}

/**
 * The rules' evaluation as `mode` answers it: blocks stay, each ask is put to the mode's decision
 * function, and the step's decision is the most severe of what is left. Pure. In `standard`, and
 * whenever no ask goes ahead, the evaluation comes back as it was (the same object).
 */
export function decideIn(mode: Mode, evaluation: Evaluation): ModeEvaluation {
  if (mode === 'standard' || evaluation.decision !== 'ask') return { evaluation, byMode: [] };
  const decide = MODE_DECISIONS[mode];
  const kept: Finding[] = [];
  const byMode: Finding[] = [];
  for (const finding of evaluation.findings) {
    if (finding.decision === 'ask' && decide(askFacts(finding)) === 'allow') byMode.push(finding);
    else kept.push(finding);
  }
  if (byMode.length === 0) return { evaluation, byMode };
  const decision: Decision = kept.some((finding) => finding.decision === 'block')
    ? 'block'
    : kept.length > 0
      ? 'ask'
      : 'allow';
  const message = describe(kept);
  return {
    evaluation: { ...evaluation, decision, findings: kept, agentMessage: message, userMessage: message },
    byMode,
  };
}
