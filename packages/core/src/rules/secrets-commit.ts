import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const secretsCommit = {
  meta: {
    id: 'secrets.commit',
    decision: 'block',
    remember: 'never',
    title: 'a commit that takes a secrets file into history',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
