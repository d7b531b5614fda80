import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const secretsInCommand = {
  meta: {
    id: 'secrets.in-command',
    decision: 'block',
    remember: 'never',
    title: 'a key-shaped value written into a command, URL or MCP call',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
