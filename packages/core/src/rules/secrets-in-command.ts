import { writtenSecrets } from '../analysis/secret-options.js';
import type { Hit, Rule } from '../rule.js';
import type { Span } from '../types.js';

/**
 * Values that only stand for a key (`sk-xxxxxxxx…`, `00000000…`). The documented
 * `AKIAIOSFODNN7EXAMPLE` still counts: it is written the way a real key is.
 */
const PLACEHOLDER = /(.)\1{7}/;

/**
 * SPEC 4.1: a key-shaped value written into a command, URL or MCP call. What a write tool or a
 * patch puts into a file is that file's content, judged by the path rules, not a command.
 */
function overlaps(a: Span, b: Span): boolean {
  return a[0] < b[1] && b[0] < a[1];
}

export const secretsInCommand = {
  meta: {
    id: 'secrets.in-command',
    decision: 'block',
    remember: 'never',
    title: 'a key-shaped value written into a command, URL or MCP call',
    reason:
      'A key, token or password written out in a command, URL or tool call ends up in logs, shell history and the chat, where it cannot be taken back; read it from an environment variable or a secret store instead (for example "Authorization: Bearer $GITHUB_TOKEN").',
    owasp: ['LLM02:2025', 'ASI03'],
    examples: {
      match: [
        'curl -H "Authorization: Bearer ghp_R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uI" https://api.github.com/user',
        'export AWS_ACCESS_KEY_ID=AKIAZ3MQ7RT4XN5LPQ2W',
        { step: { kind: 'fetch', url: 'https://maps.example.com/api?key=AIzaSyD4kL9mN2pQ7rS1tU6vW3xY8zA5bC0dE2f' } },
        {
          step: {
            kind: 'mcp',
            server: 'slack',
            tool: 'post_message',
            args: { token: 'xoxb-2048-4096-R2d2C3poL8kS9jT7' },
          },
        },
      ],
      noMatch: [
        'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
        'aws configure set region eu-west-1',
        {
          step: {
            kind: 'write',
            path: 'test/fixtures/token.txt',
            content: 'ghp_R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uI\n',
          },
          note: 'file content is judged by the path rules',
        },
      ],
    },
  },
  check(context) {
    const { kind, otherArgs } = context.step;
    // a file's content is judged by the path rules; the rest of an unknown tool's input is not content
    if ((kind === 'write' || kind === 'patch') && otherArgs === undefined) return [];
    const hits: Hit[] = [];
    for (const key of context.keys) {
      if (PLACEHOLDER.test(context.text.slice(key.span[0], key.span[1]))) continue;
      hits.push({ span: key.span, detail: key.kind });
    }
    // a password or key of any shape as an option's value or a secret setting (`mysql -pXk29…`, `--api-key …`)
    for (const inv of context.invocations) {
      for (const span of writtenSecrets(inv, () => context.argv(inv))) {
        if (!hits.some((hit) => overlaps(hit.span, span))) hits.push({ span, detail: 'a password or key written out' });
      }
    }
    return hits;
  },
} as const satisfies Rule;
