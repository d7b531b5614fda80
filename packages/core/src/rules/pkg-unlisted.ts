import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const pkgUnlisted = {
  meta: {
    id: 'pkg.unlisted',
    decision: 'ask',
    remember: 'every-time',
    title: 'installing a package the project does not list',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
