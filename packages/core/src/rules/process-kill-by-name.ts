import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const processKillByName = {
  meta: {
    id: 'process.kill-by-name',
    decision: 'ask',
    remember: 'every-time',
    title: 'stopping programs picked by name or port',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
