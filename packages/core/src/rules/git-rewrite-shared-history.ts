import { gitCommand } from '../analysis/args.js';
import type { Hit, Rule } from '../rule.js';

/** `git push` flags that overwrite what others already pulled. */
const FORCE_FLAGS = new Set(['--force', '-f', '--force-with-lease', '--force-if-includes', '--mirror']);

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
      const git = gitCommand(inv);
      if (!git) continue;
      if (git.sub === 'filter-branch' || git.sub === 'filter-repo') {
        hits.push({ span: inv.span });
      } else if (git.sub === 'push' && isForcePush(git.args.map((a) => a.value))) {
        hits.push({ span: inv.span });
      }
    }
    return hits;
  },
} as const satisfies Rule;

function isForcePush(args: readonly string[]): boolean {
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') continue;
    if (FORCE_FLAGS.has(arg) || arg.startsWith('--force-with-lease=')) return true;
    // bundled short flags: `-fu`, `-uf`
    if (/^-[a-zA-Z]+$/.test(arg) && arg.includes('f')) return true;
    if (arg === '-o' || arg === '--push-option' || arg === '--repo' || arg === '--receive-pack' || arg === '--exec') {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    operands++;
    // `git push origin +main`: the `+` refspec forces that ref
    if (operands >= 2 && arg.startsWith('+')) return true;
  }
  return false;
}
