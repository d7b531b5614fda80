import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const netNewSite = {
  meta: {
    id: 'net.new-site',
    decision: 'ask',
    remember: 'host',
    title: 'reaching a site for the first time',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
