import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const scriptPrintsKey = {
  meta: {
    id: 'script.prints-key',
    decision: 'ask',
    remember: 'every-time',
    title: 'code about to print a key, token or password',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
