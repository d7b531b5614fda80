import type { Rule } from '../rule.js';

export const mcpPoisonedServer = {
  meta: {
    id: 'mcp.poisoned-server',
    decision: 'block',
    remember: 'never',
    title: 'a tool of an MCP server whose descriptions showed injection signs',
    reason:
      'When this chat started, the tool descriptions of this MCP server held text that tries to steer the agent, so none of its tools are trusted; remove or fix the server in the agent settings and start a new chat.',
    owasp: ['LLM01:2025', 'ASI04'],
    examples: {
      match: [
        {
          step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } },
          session: { poisonedServers: ['weather'] },
        },
      ],
      noMatch: [
        {
          step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} },
          session: { poisonedServers: ['weather'] },
        },
        { step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } } },
      ],
    },
  },
  check(context) {
    const { step } = context;
    if (step.kind !== 'mcp' || !context.session.poisonedServers.has(step.server)) return [];
    return [{ span: [0, context.text.length], detail: step.server }];
  },
} as const satisfies Rule;
