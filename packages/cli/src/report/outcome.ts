// What came of a logged step for the person, sorted once: `guard report`'s text and JSON list each
// kind per chat, and `guard report --html` counts the same steps in three buckets.
import type { LogEntry } from '../state/decision-log.js';

/** What came of a judged step, as the report lists it. */
export type StepOutcome = 'blocked' | 'asked' | 'allowedAfterYes' | 'allowedByMode' | 'leftUndone' | 'allowed';

/** A log line of a step judged in a chat. */
export type JudgedStep = LogEntry & {
  readonly agent: string;
  readonly chat: string;
  readonly decision: NonNullable<LogEntry['decision']>;
};

/** Whether a log line is a step judged in a chat: the steps every report counts (events and switches are not). */
export function isJudgedStep(entry: LogEntry): entry is JudgedStep {
  return Boolean(entry.chat) && Boolean(entry.agent) && entry.decision !== undefined;
}

/** What came of a judged step: an ask nobody could answer went back to the agent as a block. */
export function stepOutcome(entry: LogEntry): StepOutcome {
  if (entry.how === 'away-undone') return 'leftUndone';
  if (entry.how === 'memory' || entry.how === 'project') return 'allowedAfterYes';
  if (entry.how === 'mode') return 'allowedByMode';
  if (entry.decision === 'block' || entry.answer === 'block') return 'blocked';
  return entry.decision === 'ask' ? 'asked' : 'allowed';
}

/**
 * The page's three buckets: what went ahead, was asked, or did not happen. A step left undone went
 * back to the agent as a block, so the page's blocks are the text report's "blocked" and "left
 * undone" together.
 */
export function pageOutcome(entry: LogEntry): 'allow' | 'ask' | 'block' {
  const outcome = stepOutcome(entry);
  return outcome === 'blocked' || outcome === 'leftUndone' ? 'block' : outcome === 'asked' ? 'ask' : 'allow';
}
