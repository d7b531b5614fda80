import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const sessionAfterInjection = {
  meta: {
    id: 'session.after-injection',
    decision: 'block',
    remember: 'never',
    title: 'a step that would ask, right after a result with injection signs',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
