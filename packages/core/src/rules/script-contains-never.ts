import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const scriptContainsNever = {
  meta: {
    id: 'script.contains-never',
    decision: 'ask',
    remember: 'file-hash',
    title: 'running a script whose text holds a never-list step',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
