import type { Rule } from '../rule.js';

/**
 * A local server whose tools the scan could not read (SPEC §7, "silence means checked"): its tools
 * ask, and block under fail-closed, through the engine's `unchecked` findings.
 */
const unread = (server: string, why: string): string =>
  `guard could not read the tool descriptions of MCP server ${server} to check them for injection (${why}), so it asks rather than let its tools run unchecked; make the server start and list its tools quickly (guard tries again at its next call), or look at what this call does before saying yes.`;

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
        {
          step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } },
          session: { uncheckedServers: { weather: 'did not answer within the time limit' } },
          note: 'a local server whose tools guard could not read: asked (blocked under fail-closed) until it can',
        },
      ],
      noMatch: [
        {
          step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} },
          session: { poisonedServers: ['weather'] },
        },
        { step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } } },
        {
          step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} },
          session: { uncheckedServers: { weather: 'did not answer within the time limit' } },
          note: 'another server is the one guard could not read',
        },
      ],
    },
  },
  check(context) {
    const { step } = context;
    if (step.kind !== 'mcp') return [];
    const span = [0, context.text.length] as const;
    if (context.session.poisonedServers.has(step.server)) return [{ span, detail: step.server }];
    // one lookup, and none at all in a chat whose scan read every server
    const why = context.session.uncheckedServer?.(step.server);
    if (why === undefined) return [];
    return [{ span, unchecked: true, detail: `MCP server ${step.server}: ${why}`, reason: unread(step.server, why) }];
  },
} as const satisfies Rule;
