import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const guardTamper = {
  meta: {
    id: 'guard.tamper',
    decision: 'block',
    remember: 'never',
    title: 'changing the guard',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
