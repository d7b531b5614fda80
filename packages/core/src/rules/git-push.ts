import { gitCommand } from '../analysis/args.js';
import type { Arg, SubArgv } from '../context/types.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** The branch in a memory key when guard could not learn it. */
const UNKNOWN = '?';

/** How the detail names a push of many refs at once (`origin/*` would read as a branch named `*`). */
const WHOLESALE_SHOWN: Readonly<Record<string, string>> = { '*': 'every branch', tags: 'every tag' };

/** `origin/main`; a branch guard could not learn (no git answer) is named for what it is, not as `?`. */
function shown(remote: string, branch: string): string {
  if (branch === UNKNOWN) return `${remote}, the branch checked out`;
  const all = Object.hasOwn(WHOLESALE_SHOWN, branch) ? WHOLESALE_SHOWN[branch] : undefined;
  return all === undefined ? `${remote}/${branch}` : `${remote}, ${all}`;
}

/** Pushes everything of a kind rather than named branches. */
const WHOLESALE: Readonly<Record<string, string>> = {
  '--all': '*',
  '--branches': '*',
  '--mirror': '*',
  '--tags': 'tags',
};

/** A remote written as a URL or a path rather than a configured name. */
const LITERAL_REMOTE = /[/:\\]|^\.{1,2}$/;

export const gitPush = {
  meta: {
    id: 'git.push',
    decision: 'ask',
    remember: 'destination',
    concern: 'sending',
    title: 'a push',
    reason:
      'A push publishes commits to a shared repository where others see and build on them, and it cannot be quietly taken back; check the branch and the commits first, and prefer a new branch with a pull request.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'git push',
        'git push origin main',
        'git push -u origin feature/login',
        'git push https://github.com/acme/app.git main',
        { step: 'git push', probe: { branch: 'feature/x' }, note: 'remembered as origin/feature/x' },
      ],
      noMatch: [
        'git push --dry-run origin main',
        'git push -n',
        'git commit -m "then git push"',
        'git pull origin main',
        'git stash push -m wip',
      ],
    },
  },
  programs: new Set(['git']),
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const git = gitCommand(context, inv);
      if (git?.name !== 'push') continue;
      hits.push(...pushHits(context, inv, git));
    }
    return hits;
  },
} as const satisfies Rule;

function pushHits(context: RuleContext, inv: Invocation, push: SubArgv): Hit[] {
  if (push.has('--dry-run', '-n')) return [];
  let wholesale: string | undefined;
  for (const option of push.options) {
    const all = Object.hasOwn(WHOLESALE, option.name) ? WHOLESALE[option.name] : undefined;
    if (all !== undefined) wholesale = all;
  }
  let remote: Arg | undefined = push.values('--repo').pop();
  const operands = push.operands;
  const first = operands[0];
  if (first !== undefined && remote === undefined) remote = first;
  const refspecs = first !== undefined && first === remote ? operands.slice(1) : operands;
  // a push straight to a URL or path is asked every time: the next one may go somewhere else
  if (remote !== undefined && LITERAL_REMOTE.test(remote.value)) return [{ span: inv.span, detail: remote.value }];
  const name = remote?.value ?? 'origin';
  if (refspecs.length === 0) {
    const branch = wholesale ?? context.probe.gitBranch?.(inv.cwd) ?? UNKNOWN;
    return [{ span: inv.span, key: `${name}/${branch}`, detail: shown(name, branch) }];
  }
  return refspecs.map((spec) => {
    const branch = destinationOf(spec.value, context, inv);
    return { span: spec.span, key: `${name}/${branch}`, detail: shown(name, branch) };
  });
}

/** The branch a refspec updates: `src:dst` → dst, `HEAD` → the current branch, `refs/heads/x` → x. */
function destinationOf(spec: string, context: RuleContext, inv: Invocation): string {
  const plain = spec.replace(/^\+/, '');
  const colon = plain.lastIndexOf(':');
  let dst = colon >= 0 ? plain.slice(colon + 1) : plain;
  if (dst === '' && colon >= 0) dst = plain.slice(0, colon);
  if (dst === 'HEAD' || dst === '@') return context.probe.gitBranch?.(inv.cwd) ?? UNKNOWN;
  return dst.replace(/^refs\/(heads|tags)\//, '');
}
