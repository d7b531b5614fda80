/**
 * The second opinion (SPEC §11): after the rules, a small local model may raise a step they let
 * through to an ask, when the step looks both irreversible and outside what the person asked for in
 * this turn. It can never lower a verdict. These are its shapes and its fixed budgets; the decisions
 * are pure functions beside this file, the HTTP call lives in the CLI.
 */

/** How sure the model must be before a step is raised (probabilities in [0, 1]). */
export interface OpinionBars {
  /** "Is it irreversible?", when it is asked together with the request question. */
  readonly irreversible: number;
  /** "Is it outside the person's request for this turn?" */
  readonly outside: number;
  /** "Is it irreversible?" alone, where guard has no request to compare the step with. */
  readonly irreversibleAlone: number;
}

/** A "probably" is not enough to interrupt a person: the bars sit high. */
export const DEFAULT_BARS: OpinionBars = Object.freeze({ irreversible: 0.8, outside: 0.8, irreversibleAlone: 0.95 });

/** The seed's budgets: none of them is a setting. */
export const OPINION_LIMITS = Object.freeze({
  /** Judgements sent per turn; past it the rules decide alone until the next turn. */
  perTurn: 40,
  /** Failures in a row that pause the second opinion. */
  failuresBeforePause: 3,
  /** How long a pause lasts. */
  pauseMs: 10 * 60_000,
  /** Answers a chat remembers (the oldest go first). */
  remembered: 256,
  /**
   * With token log-probabilities: the share of the model's probability, at the digit that made an
   * answer clear its bar, that must sit on digits that clear it too. Below it the answer is unsure.
   */
  sure: 0.5,
  /** Where an agent names no turn and sends no request: a turn is this long a window. */
  windowMs: 10 * 60_000,
});

/** What the model said, after the log-probabilities had their say (an unsure answer counts as 0). */
export interface Judgement {
  readonly irreversible: number;
  /** Absent when only the irreversibility question was asked (no request to compare with). */
  readonly outside?: number;
}

/** An answer the chat remembers, by step and request (a hash, never the text). */
export interface Memo extends Judgement {
  readonly key: string;
}

/** What a chat keeps of its second opinions (in the chat's state file). */
export interface ChatOpinion {
  /** The turn `sent` counts in. */
  readonly turn: string;
  /** Judgements sent in that turn. */
  readonly sent: number;
  /** Answers by step and request, oldest first. */
  readonly memos: readonly Memo[];
}

/** The second opinion's health across chats: failures in a row, and a pause. */
export interface OpinionHealth {
  readonly failures: number;
  /** ms since epoch; absent when not paused. */
  readonly pausedUntil?: number;
  /** Why the pause began (the last failure), for `guard status`. */
  readonly why?: string;
}

export const HEALTHY: OpinionHealth = Object.freeze({ failures: 0 });

/** What the log records of a step the second opinion was involved in. */
export interface OpinionRecord {
  readonly outcome: 'judged' | 'raised' | 'unavailable';
  readonly irreversible?: number;
  readonly outside?: number;
  /** The answer came from the chat's memory: nothing was sent. */
  readonly remembered?: true;
  /** Why it could not judge (unavailable). */
  readonly why?: string;
  /** Time the round trip took. */
  readonly ms?: number;
}
