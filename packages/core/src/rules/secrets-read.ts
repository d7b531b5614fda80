import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const secretsRead = {
  meta: {
    id: 'secrets.read',
    decision: 'block',
    remember: 'never',
    title: 'reading, copying or changing a stored secret',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
