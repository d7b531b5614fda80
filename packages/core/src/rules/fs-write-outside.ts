import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const fsWriteOutside = {
  meta: {
    id: 'fs.write-outside',
    decision: 'ask',
    remember: 'path',
    title: 'writing outside the project',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
