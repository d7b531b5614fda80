import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const fsWipe = {
  meta: {
    id: 'fs.wipe',
    decision: 'block',
    remember: 'never',
    title: 'deleting the disk, the root or the home folder',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
