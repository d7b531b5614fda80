import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const sessionAfterUntrusted = {
  meta: {
    id: 'session.after-untrusted',
    decision: 'ask',
    remember: 'until-next-message',
    title: 'a push, send or rule change after untrusted content',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
