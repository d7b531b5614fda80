import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const systemPersistence = {
  meta: {
    id: 'system.persistence',
    decision: 'block',
    remember: 'never',
    title: 'making something start by itself',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
