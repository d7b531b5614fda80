import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const gitSkipChecks = {
  meta: {
    id: 'git.skip-checks',
    decision: 'block',
    remember: 'never',
    title: 'switching off commit checks',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
