import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const agentRules = {
  meta: {
    id: 'agent.rules',
    decision: 'ask',
    remember: 'every-time',
    title: "changing the agent's own rules and checks",
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
