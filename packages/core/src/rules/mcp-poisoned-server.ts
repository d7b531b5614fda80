import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const mcpPoisonedServer = {
  meta: {
    id: 'mcp.poisoned-server',
    decision: 'block',
    remember: 'never',
    title: 'a tool of an MCP server whose descriptions showed injection signs',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
