import { mcpPoisonedServer } from '../../src/rules/mcp-poisoned-server.js';
import { runRuleTests } from '../rule-tester.js';

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
