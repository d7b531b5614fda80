import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const systemElevate = {
  meta: {
    id: 'system.elevate',
    decision: 'ask',
    remember: 'every-time',
    title: 'raising rights or changing the computer',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
