import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const fsDelete = {
  meta: {
    id: 'fs.delete',
    decision: 'ask',
    remember: 'path',
    title: 'deleting files or work',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
