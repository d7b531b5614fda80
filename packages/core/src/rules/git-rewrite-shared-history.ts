import { gitCommand } from '../analysis/args.js';
import type { SubArgv } from '../context/types.js';
import type { Hit, Rule } from '../rule.js';

/** `git push` flags that overwrite what others already pulled. */
const FORCE_FLAGS = ['--force', '-f', '--force-with-lease', '--force-if-includes', '--mirror'];

export const gitRewriteSharedHistory = {
  meta: {
    id: 'git.rewrite-shared-history',
    decision: 'block',
    remember: 'never',
    title: 'rewriting history others pull',
    reason:
      'This rewrites history that others may already have pulled, and their work on top of it can be lost; push to a new branch and open a pull request instead.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'git push --force',
        'git push -f origin main',
        'git push --force-with-lease',
        'git push origin +main',
        'git filter-branch --tree-filter x HEAD',
        'git push --mirror backup',
      ],
      noMatch: ['git push', 'git commit -m "git push --force"', 'git push origin feature/x', 'echo git push -f'],
    },
  },
  programs: new Set(['git', 'git-filter-repo']),
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (inv.name === 'git-filter-repo') {
        hits.push({ span: inv.span });
        continue;
      }
      const git = gitCommand(context, inv);
      if (!git) continue;
      if (git.name === 'filter-branch' || git.name === 'filter-repo') {
        hits.push({ span: inv.span });
      } else if (git.name === 'push' && isForcePush(git)) {
        hits.push({ span: inv.span });
      }
    }
    return hits;
  },
} as const satisfies Rule;

/** `git push --force`, `-fu` (bundled), `--force-with-lease[=…]`, `--mirror`, or a `+` refspec (`origin +main`). */
function isForcePush(push: SubArgv): boolean {
  if (push.has(...FORCE_FLAGS)) return true;
  return push.operands.slice(1).some((arg) => arg.value.startsWith('+'));
}
