import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const pkgInstall = {
  meta: {
    id: 'pkg.install',
    decision: 'ask',
    remember: 'package',
    title: "installing the project's own packages",
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
