import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const gitPush = {
  meta: {
    id: 'git.push',
    decision: 'ask',
    remember: 'destination',
    title: 'a push',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
