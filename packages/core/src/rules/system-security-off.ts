import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const systemSecurityOff = {
  meta: {
    id: 'system.security-off',
    decision: 'block',
    remember: 'never',
    title: 'switching off a security tool',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
