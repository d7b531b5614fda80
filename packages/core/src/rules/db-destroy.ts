import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const dbDestroy = {
  meta: {
    id: 'db.destroy',
    decision: 'ask',
    remember: 'target',
    title: 'destroying database data',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
