import type { Rule } from '../rule.js';

/**
 * "The same command" is the shell step's command text exactly as the agent sent it; the session
 * counts its failed results in a row and starts again at zero once any step changes a file (a write
 * tool, a patch, or a shell command with file effects) or the command succeeds. Steps of other kinds
 * and agents that report no results are never judged.
 */
const TRIES_BEFORE_ASKING = 2;

export const sessionThirdTry = {
  meta: {
    id: 'session.third-try',
    decision: 'ask',
    remember: 'every-time',
    concern: 'destructive',
    title: 'a third try of a command that failed twice',
    reason:
      'This exact command already failed twice in a row and no file changed since, so a third run will most likely fail the same way; read the error and change something first, or ask the person how to go on.',
    owasp: [],
    examples: {
      match: [
        { step: 'npm test', session: { failuresInARow: 2 } },
        { step: 'pnpm build', session: { failuresInARow: 5 } },
      ],
      noMatch: [
        { step: 'npm test', session: { failuresInARow: 1 } },
        'npm test',
        { step: { kind: 'write', path: 'src/a.ts', content: 'x' }, session: { failuresInARow: 3 } },
      ],
    },
  },
  check(context) {
    const { step } = context;
    if (step.kind !== 'shell' || context.session.failuresInARow(step.command) < TRIES_BEFORE_ASKING) return [];
    return [{ span: [0, context.text.length] }];
  },
} as const satisfies Rule;
