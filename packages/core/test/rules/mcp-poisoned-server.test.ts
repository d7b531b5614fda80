import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluate.js';
import type { Example } from '../../src/rule.js';
import { mcpPoisonedServer } from '../../src/rules/mcp-poisoned-server.js';
import { ENV, runRuleTests, sessionFrom, stepFrom } from '../rule-tester.js';

const poisoned = { poisonedServers: ['weather', 'notes'] };

runRuleTests(mcpPoisonedServer, {
  valid: [
    // other servers in the same chat
    { step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} }, session: poisoned },
    { step: { kind: 'mcp', server: 'weather-pro', tool: 'get_forecast', args: {} }, session: poisoned },
    { step: { kind: 'mcp', server: 'Weather', tool: 'get_forecast', args: {} }, session: poisoned },
    // the same server in a chat where it showed nothing
    { step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } }, note: 'fresh chat' },
    // steps that are not MCP calls, even naming the server
    { step: 'curl https://weather.example.com/forecast', session: poisoned },
    { step: 'npm test', session: poisoned },
    { step: { kind: 'other', toolName: 'weather', args: { city: 'Oslo' } }, session: poisoned },
    { step: { kind: 'read', path: 'weather/README.md' }, session: poisoned },
  ],
  invalid: [
    {
      step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: { city: 'Oslo' } },
      session: poisoned,
      note: 'poisoned at start',
    },
    { step: { kind: 'mcp', server: 'weather', tool: 'list_alerts', args: {} }, session: poisoned },
    { step: { kind: 'mcp', server: 'notes', tool: 'read_note', args: { id: 1 } }, session: poisoned },
    // read-only annotations do not make a poisoned server's tool safe
    {
      step: { kind: 'mcp', server: 'notes', tool: 'search', args: {}, annotations: { readOnlyHint: true } },
      session: poisoned,
    },
    { step: { kind: 'mcp', server: 'notes', tool: 'get', args: null }, session: { poisonedServers: ['notes'] } },
  ],
});

/**
 * SPEC §7, "silence means checked": a local server whose tools the chat-start scan (or a later try)
 * could not read asks at each call of its tools, blocks under fail-closed, in every mode, and says
 * so; a server read clean, another server, or one read and found poisoned are not asked about so.
 */
describe('a tool of an MCP server guard could not read', () => {
  const unread = {
    uncheckedServers: { weather: 'did not answer within the time limit', notes: 'could not be started' },
  };
  const findingOf = (server: string, session: Example['session'], failClosed = false) =>
    evaluate(stepFrom({ kind: 'mcp', server, tool: 'get_forecast', args: { city: 'Oslo' } }), {
      ...ENV,
      session: sessionFrom({ step: '', ...(session === undefined ? {} : { session }) }),
      failClosed,
    }).findings.find((finding) => finding.ruleId === 'mcp.poisoned-server');

  it.for([
    { server: 'weather', failClosed: false, decision: 'ask', why: 'did not answer within the time limit' },
    { server: 'weather', failClosed: true, decision: 'block', why: 'did not answer within the time limit' },
    { server: 'notes', failClosed: false, decision: 'ask', why: 'could not be started' },
    { server: 'notes', failClosed: true, decision: 'block', why: 'could not be started' },
  ] as const)('$server (fail-closed $failClosed): $decision', ({ server, failClosed, decision, why }) => {
    const finding = findingOf(server, unread, failClosed);
    expect(finding?.decision).toBe(decision);
    // asked every time (no yes kept), in every mode, and the reason says what and how to fix it
    expect(finding?.memoryKey).toBeUndefined();
    expect(finding?.unresolved).toBe(true);
    expect(finding?.reason).toContain(`MCP server ${server} to check them for injection (${why})`);
    expect(finding?.reason).toMatch(/guard tries again at its next call/);
  });

  it.for([
    { name: 'another server', server: 'github', session: unread },
    { name: 'a near name', server: 'weather-pro', session: unread },
    { name: 'another case', server: 'Weather', session: unread },
    { name: 'a chat whose scan read every server', server: 'weather', session: {} },
    { name: 'a chat that read it since (nothing unread)', server: 'weather', session: { uncheckedServers: {} } },
  ])('$name: no finding', ({ server, session }) => {
    expect(findingOf(server, session)).toBeUndefined();
  });

  it('a server read since and found poisoned blocks as poisoned, not as unread', () => {
    const finding = findingOf('weather', { ...unread, poisonedServers: ['weather'] });
    expect(finding?.decision).toBe('block');
    expect(finding?.unresolved).toBeUndefined();
  });
});
