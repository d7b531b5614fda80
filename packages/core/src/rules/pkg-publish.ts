import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const pkgPublish = {
  meta: {
    id: 'pkg.publish',
    decision: 'ask',
    remember: 'every-time',
    title: 'publishing a release',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
