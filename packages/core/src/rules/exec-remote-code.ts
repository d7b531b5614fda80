import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const execRemoteCode = {
  meta: {
    id: 'exec.remote-code',
    decision: 'block',
    remember: 'never',
    title: 'running code from the internet unread',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
