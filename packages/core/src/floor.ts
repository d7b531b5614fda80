import type { Evaluation } from './evaluate.js';
import type { Policy } from './policy.js';

/**
 * Rules an organisation's system settings lock (the cli's system settings floor): no project allow
 * list, no yes kept for a project and no mode lets one of them go ahead unasked. A person's yes in
 * the chat still answers an ask, as it always does. `*` locks every rule.
 */
export type LockedRules = readonly string[];

/** Whether the floor locks a rule. */
export function isLockedRule(locked: LockedRules, ruleId: string): boolean {
  return locked.length > 0 && (locked.includes('*') || locked.includes(ruleId));
}

/** Whether a memory key (`<rule id>:<what>`) is about a locked rule. */
export function isLockedKey(locked: LockedRules, memoryKey: string): boolean {
  const at = memoryKey.indexOf(':');
  return isLockedRule(locked, at === -1 ? memoryKey : memoryKey.slice(0, at));
}

/** The locked rules among memory keys' (`<rule id>:<what>`), each once, in order. */
export function lockedRulesOf(locked: LockedRules, memoryKeys: readonly string[]): string[] {
  const rules = memoryKeys.filter((key) => isLockedKey(locked, key)).map((key) => key.split(':', 1)[0] ?? key);
  return [...new Set(rules)];
}

/** A project's kept yeses without those of locked rules (the same function when none is locked). */
export function unlockedYes(locked: LockedRules, yes: (memoryKey: string) => boolean): (memoryKey: string) => boolean {
  return locked.length === 0 ? yes : (key) => !isLockedKey(locked, key) && yes(key);
}

/** The policy without its allows of locked rules (the same object when there are none). */
export function withoutLockedAllows(policy: Policy, locked: LockedRules): Policy {
  if (locked.length === 0 || !policy.allow.some((entry) => isLockedRule(locked, entry.rule))) return policy;
  return { ...policy, allow: policy.allow.filter((entry) => !isLockedRule(locked, entry.rule)) };
}

/**
 * The evaluation with each ask of a locked rule held in every mode (the same object when there is
 * none): no mode lets it go ahead unasked.
 */
export function holdLocked(evaluation: Evaluation, locked: LockedRules): Evaluation {
  if (
    !evaluation.findings.some(
      (f) => f.decision === 'ask' && f.asksInEveryMode === undefined && isLockedRule(locked, f.ruleId),
    )
  )
    return evaluation;
  return {
    ...evaluation,
    findings: evaluation.findings.map((finding) =>
      finding.decision === 'ask' && finding.asksInEveryMode === undefined && isLockedRule(locked, finding.ruleId)
        ? { ...finding, asksInEveryMode: 'organisation' as const }
        : finding,
    ),
  };
}
