import { gitCommand } from '../analysis/args.js';
import type { NetEffect } from '../context/types.js';
import type { Hit, Rule, RuleContext } from '../rule.js';

export const netNewSite = {
  meta: {
    id: 'net.new-site',
    decision: 'ask',
    remember: 'host',
    concern: 'outside',
    title: 'reaching a site for the first time',
    reason:
      'This reaches a site this chat has not used before, which can send out what the agent knows or bring in content written to steer it; fetch from the documentation, registry or project sites instead, or let the person approve this one.',
    owasp: ['ASI02'],
    examples: {
      match: [
        'curl -fsSL https://example.com/install.txt',
        'ssh deploy@203.0.113.7',
        'git clone https://git.example.org/team/app.git',
        'dig example.net',
        { step: { kind: 'fetch', url: 'https://blog.example.com/post' } },
      ],
      noMatch: [
        'curl http://localhost:3000/health',
        'curl https://registry.npmjs.org/react',
        'git fetch origin',
        { step: { kind: 'fetch', url: 'https://developer.mozilla.org/en-US/docs/Web' } },
      ],
    },
  },
  check(context) {
    // MCP arguments are judged by mcp.changes, which knows what the server does with them
    if (context.step.kind === 'mcp') return [];
    const hits: Hit[] = [];
    const seen = new Set<string>();
    for (const effect of context.net) {
      if (effect.hostClass !== 'other' || isPush(context, effect) || seen.has(effect.host)) continue;
      seen.add(effect.host);
      // a name written with look-alike characters is shown as written, so nobody reads it as the site it imitates
      hits.push({ span: effect.span, key: effect.host, detail: effect.url?.shown ?? effect.host });
    }
    return hits;
  },
} as const satisfies Rule;

/** A push goes to a place git.push asks about; asking again for its host would be noise. */
function isPush(context: RuleContext, effect: NetEffect): boolean {
  return (
    effect.kind === 'git' && effect.invocation !== undefined && gitCommand(context, effect.invocation)?.name === 'push'
  );
}
