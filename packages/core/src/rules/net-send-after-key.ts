import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const netSendAfterKey = {
  meta: {
    id: 'net.send-after-key',
    decision: 'ask',
    remember: 'every-time',
    title: 'sending data out after a key appeared in a result',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
