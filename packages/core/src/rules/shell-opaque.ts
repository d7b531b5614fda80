import type { Rule } from '../rule.js';

/** SPEC 4.3: what the reader cannot read is not allowed silently. */
export const shellOpaque = {
  meta: {
    id: 'shell.opaque',
    decision: 'ask',
    remember: 'every-time',
    concern: 'destructive',
    asksInEveryMode: 'worst-case',
    title: 'a command guard cannot read',
    reason:
      'guard could not read this command (unbalanced quotes, too deep or too long), so it cannot tell what it would do; split it into plain commands.',
    owasp: [],
    examples: {
      match: ['echo "unterminated', 'ls && rm -rf "$(echo'],
      noMatch: ['echo "balanced"', "git commit -m 'it''s fine'"],
    },
  },
  check(context) {
    return context.opaque.map((part) => ({ span: part.span, detail: part.reason }));
  },
} as const satisfies Rule;
