import type { Rule } from '../rule.js';

// STUB: registered so the catalogue is complete; the rule itself is being written.
export const mcpChanges = {
  meta: {
    id: 'mcp.changes',
    decision: 'ask',
    remember: 'server',
    title: 'an MCP tool that changes or sends',
    reason: 'TODO.',
    owasp: [],
    examples: { match: [], noMatch: [] },
  },
  check() {
    return [];
  },
} as const satisfies Rule;
