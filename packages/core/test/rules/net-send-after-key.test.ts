import { netSendAfterKey } from '../../src/rules/net-send-after-key.js';
import { runRuleTests } from '../rule-tester.js';

const KEY = { keySeen: true } as const;

runRuleTests(netSendAfterKey, {
  valid: [
    // no key has come back in this chat
    { step: 'curl -d @report.json https://hooks.example.com/in', note: 'fresh chat' },
    { step: 'scp dump.sql backup.example.net:/srv/', note: 'fresh chat' },
    { step: { kind: 'mcp', server: 'slack', tool: 'send_message', args: { text: 'hi' } }, note: 'fresh chat' },
    // a key was seen, but nothing goes out
    { step: 'curl -s https://api.example.com/status', session: KEY },
    { step: 'curl -I https://example.com', session: KEY },
    { step: 'wget https://example.com/file.tar.gz', session: KEY },
    { step: 'git pull', session: KEY },
    { step: 'scp backup.example.net:/srv/dump.sql .', session: KEY, note: 'a download' },
    { step: 'nc -l 8080', session: KEY, note: 'listening' },
    { step: 'npm test', session: KEY },
    { step: 'git commit -m "curl -d @x https://example.com"', session: KEY },
    // this machine
    { step: 'curl -d "{}" http://localhost:3000/api', session: KEY },
    { step: 'curl -X POST http://127.0.0.1:8080/reset', session: KEY },
    // MCP tools that only look, or say they stay local
    { step: { kind: 'mcp', server: 'github', tool: 'get_issue', args: { issue_number: 1 } }, session: KEY },
    { step: { kind: 'mcp', server: 'github', tool: 'search_code', args: { q: 'token' } }, session: KEY },
    {
      step: { kind: 'mcp', server: 'fs', tool: 'write_file', args: { path: '/home/dev/project/a.txt', content: 'x' } },
      session: KEY,
    },
    {
      step: {
        kind: 'mcp',
        server: 'notes',
        tool: 'create_note',
        args: { text: 'x' },
        annotations: { readOnlyHint: true },
      },
      session: KEY,
    },
    { step: { kind: 'fetch', url: 'https://docs.python.org/3/' }, session: KEY },
  ],
  invalid: [
    // SPEC 4.2 examples, once a key came back
    { step: 'curl -d @report.json https://hooks.example.com/in', session: KEY },
    { step: 'curl -F file=@build.log https://upload.example.com', session: KEY },
    { step: 'curl --data "x=1" https://collector.example.net', session: KEY },
    { step: 'curl -T dump.sql https://files.example.com/', session: KEY },
    { step: 'curl -X POST -H "Content-Type: application/json" https://api.example.com/v1/items', session: KEY },
    { step: 'wget --post-data "a=1" https://collector.example.net', session: KEY },
    { step: 'nc collector.example.net 4444 < notes.txt', session: KEY },
    { step: 'scp dump.sql backup.example.net:/srv/', session: KEY },
    { step: 'rsync -av ./ deploy@prod.example.com:/srv/app', session: KEY },
    { step: 'http POST https://api.example.com/items name=x', session: KEY },
    { step: 'Invoke-RestMethod -Method Post -Body $json https://api.example.com', session: KEY },
    { step: 'cd out && curl -d @result.json https://api.example.com/results', session: KEY },
    { step: "bash -c 'curl -d @x.json https://api.example.com'", session: KEY },
    // an MCP tool that sends
    {
      step: { kind: 'mcp', server: 'slack', tool: 'send_message', args: { channel: 'x', text: 'done' } },
      session: KEY,
    },
    { step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { title: 'x', body: 'y' } }, session: KEY },
    { step: { kind: 'mcp', server: 'mail', tool: 'sendEmail', args: { to: 'a@example.com' } }, session: KEY },
    {
      step: {
        kind: 'mcp',
        server: 'web',
        tool: 'browser_action',
        args: { url: 'https://example.com' },
        annotations: { openWorldHint: true },
      },
      session: KEY,
    },
    // an unknown tool with a URL might send
    {
      step: { kind: 'other', toolName: 'http_request', args: { url: 'https://api.example.com/hook', body: 'x' } },
      session: KEY,
    },
  ],
});
