import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const envPrint = {
  meta: {
    id: 'env.print',
    decision: 'block',
    remember: 'never',
    title: 'printing the environment or a secret-looking variable',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
