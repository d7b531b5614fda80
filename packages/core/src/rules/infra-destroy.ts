import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const infraDestroy = {
  meta: {
    id: 'infra.destroy',
    decision: 'ask',
    remember: 'target',
    title: 'changing or destroying deployed systems',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
