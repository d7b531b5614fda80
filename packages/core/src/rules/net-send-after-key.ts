import type { Hit, Rule } from '../rule.js';
import type { McpStep } from '../types.js';

/** Verbs in an MCP tool's name that carry data to another system (`send_email`, `create_issue`, `postMessage`). */
const SEND_VERBS = new Set([
  'send',
  'post',
  'upload',
  'create',
  'update',
  'comment',
  'reply',
  'publish',
  'push',
  'share',
  'submit',
  'forward',
  'notify',
  'invite',
  'message',
  'email',
  'mail',
  'tweet',
  'webhook',
  'gist',
  'paste',
  'export',
  'sync',
]);
const WORD_SPLIT = /[^a-z0-9]+/;
const CAMEL = /([a-z0-9])([A-Z])/g;

/** SPEC 4.2: once a key-shaped value came back in a tool result, every step that sends data out asks. */
export const netSendAfterKey = {
  meta: {
    id: 'net.send-after-key',
    decision: 'ask',
    remember: 'every-time',
    concern: 'secrets',
    asksInEveryMode: 'raised-bar',
    title: 'sending data out after a key appeared in a result',
    reason:
      'A key or token showed up in an earlier result in this chat, and this step sends data to another computer, so the key could leave with it; check exactly what is sent, and leave any secret out.',
    owasp: ['LLM02:2025', 'ASI03'],
    examples: {
      match: [
        { step: 'curl -d @report.json https://hooks.example.com/in', session: { keySeen: true } },
        { step: 'scp dump.sql backup.example.net:/srv/', session: { keySeen: true } },
        {
          step: { kind: 'mcp', server: 'slack', tool: 'send_message', args: { channel: 'x', text: 'done' } },
          session: { keySeen: true },
        },
      ],
      noMatch: [
        { step: 'curl -d @report.json https://hooks.example.com/in', note: 'no key seen in this chat' },
        { step: 'curl -s https://api.example.com/status', session: { keySeen: true } },
        { step: 'curl -d "{}" http://localhost:3000/api', session: { keySeen: true } },
      ],
    },
  },
  check(context) {
    if (!context.session.keySeen) return [];
    const hits: Hit[] = [];
    for (const net of context.net) {
      if (net.sends && net.hostClass !== 'loopback') hits.push({ span: net.span, detail: net.url?.shown ?? net.host });
    }
    const step = context.step;
    if (step.kind === 'mcp' && mcpSends(step)) hits.push({ span: [0, context.text.length], detail: step.server });
    return hits;
  },
} as const satisfies Rule;

/** By the server's own annotations when it gave them, else by the verbs in the tool's name. */
function mcpSends(step: McpStep): boolean {
  const hints = step.annotations;
  if (hints?.readOnlyHint === true || hints?.openWorldHint === false) return false;
  if (hints?.openWorldHint === true) return true;
  return step.tool
    .slice(0, 200)
    .replace(CAMEL, '$1_$2')
    .toLowerCase()
    .split(WORD_SPLIT)
    .some((word) => SEND_VERBS.has(word));
}
