import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const sessionThirdTry = {
  meta: {
    id: 'session.third-try',
    decision: 'ask',
    remember: 'every-time',
    title: 'a third try of a command that failed twice',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
