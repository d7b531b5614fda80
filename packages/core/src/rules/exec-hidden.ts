import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const execHidden = {
  meta: {
    id: 'exec.hidden',
    decision: 'block',
    remember: 'never',
    title: 'running a command hidden from the reader',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
