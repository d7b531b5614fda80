import { argAt, gitCommand } from '../analysis/args.js';
import type { Arg, SubArgv } from '../context/types.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** Git subcommands that run hooks and accept `--no-verify` to skip them. */
const HOOKED = new Set(['commit', 'push', 'merge', 'pull', 'rebase', 'am']);

/** Of those, the ones where `-n` means `--no-verify` (elsewhere it is `--dry-run` or `--no-stat`). */
const SHORT_N = new Set(['commit', 'am']);

/**
 * Variables that tell a hook manager to stand down: husky (`HUSKY=0`, v4's `HUSKY_SKIP_HOOKS`),
 * pre-commit (`SKIP=hook-id,…`), lefthook, simple-git-hooks and overcommit.
 */
function skipsHooks(name: string, value: string): boolean {
  switch (name) {
    case 'HUSKY':
    case 'LEFTHOOK':
      return value === '0' || value.toLowerCase() === 'false';
    case 'SKIP':
      return value !== '';
    case 'HUSKY_SKIP_HOOKS':
    case 'SKIP_SIMPLE_GIT_HOOKS':
    case 'OVERCOMMIT_DISABLE':
      return value !== '' && value !== '0' && value.toLowerCase() !== 'false';
    default:
      return false;
  }
}

const HOOKS_PATH = /^core\.hookspath=/i;
/** A hooks folder that holds no hooks: the null device or nothing at all. */
const NO_HOOKS = /^(?:|\/dev\/null|nul)$/i;

export const gitSkipChecks = {
  meta: {
    id: 'git.skip-checks',
    decision: 'block',
    remember: 'never',
    title: 'switching off commit checks',
    reason:
      "This switches off the project's commit and push checks, so whatever they would have caught slips into history unseen; run the checks, fix what they report, and commit normally.",
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'git commit --no-verify -m "wip"',
        'git commit -nm "wip"',
        'SKIP=eslint git commit -m "fix"',
        'HUSKY=0 git push',
        'git -c core.hooksPath=/dev/null commit -m "x"',
        'git push --no-verify origin main',
      ],
      noMatch: [
        'git commit -m "fix: stop using --no-verify"',
        'git push -n origin main',
        'git merge -n feature',
        'HUSKY=0 npm ci',
        'git config core.hooksPath .husky',
      ],
    },
  },
  programs: new Set(['git']),
  check(context) {
    const hits: Hit[] = [];
    const exported = exportedSkips(context);
    for (const inv of context.invocations) {
      const git = gitCommand(context, inv);
      if (!git) continue;
      if (git.name === 'config') {
        const span = hooksPathOff(git.words);
        if (span) hits.push({ span });
        continue;
      }
      if (!HOOKED.has(git.name)) continue;
      const flag = noVerifyFlag(inv, git);
      if (flag) hits.push({ span: flag.span, detail: flag.value });
      const env = envSkip(inv, context.text);
      if (env) hits.push(env);
      const hooksPath = configOverride(inv, git.index);
      if (hooksPath) hits.push({ span: hooksPath.span, detail: hooksPath.value });
      const before = exported.find((e) => e.span[1] <= inv.span[0]);
      if (!env && before) hits.push({ span: [before.span[0], inv.span[1]], detail: before.detail });
    }
    return hits;
  },
} as const satisfies Rule;

/**
 * `--no-verify`, or `-n` on the subcommands where it means that (also bundled: `-nm msg`, `-an`;
 * not `-mn`, the message "n"): the word it is written in.
 */
function noVerifyFlag(inv: Invocation, git: SubArgv): Arg | undefined {
  for (const option of git.options) {
    if (option.name === '--no-verify' || (option.name === '-n' && SHORT_N.has(git.name)))
      return argAt(inv, option.index);
  }
  return undefined;
}

/** `HUSKY=0 git commit`, `SKIP=lint git push` (also after `sudo`/`env`). */
function envSkip(inv: Invocation, text: string): Hit | undefined {
  for (const [name, value] of Object.entries(inv.env)) {
    if (!skipsHooks(name, value)) continue;
    // the assignment sits before the program word; point at it when it can be found
    const at = text.lastIndexOf(`${name}=`, inv.span[0]);
    return { span: at >= 0 ? [at, inv.span[1]] : inv.span, detail: `${name}=${value}` };
  }
  return undefined;
}

/** `export HUSKY=0 && …`: every exported skip variable in the step, with the span of its `export`. */
function exportedSkips(context: RuleContext): { span: Span; detail: string }[] {
  const out: { span: Span; detail: string }[] = [];
  for (const inv of context.invocations) {
    if (inv.name !== 'export' && inv.name !== 'declare' && inv.name !== 'typeset') continue;
    for (const arg of inv.args) {
      const eq = arg.indexOf('=');
      if (eq > 0 && skipsHooks(arg.slice(0, eq), arg.slice(eq + 1))) out.push({ span: inv.span, detail: arg });
    }
  }
  return out;
}

/** `git -c core.hooksPath=… commit`: hooks taken from another folder (or none) for this one run. */
function configOverride(inv: Invocation, subIndex: number): Arg | undefined {
  for (let i = 0; i < subIndex; i++) {
    const value = inv.args[i] ?? '';
    const next = inv.args[i + 1] ?? '';
    if (value === '-c' && HOOKS_PATH.test(next))
      return { value: next, index: i + 1, span: inv.argSpans[i + 1] ?? inv.span };
    if (value.startsWith('-c') && HOOKS_PATH.test(value.slice(2)))
      return { value: value.slice(2), index: i, span: inv.argSpans[i] ?? inv.span };
  }
  return undefined;
}

/**
 * `git config [--global] core.hooksPath /dev/null` (or empty, or `--unset`, or the newer
 * `git config set|unset`): hooks switched off for every later commit. Pointing it at a real
 * folder (`.husky`, `.githooks`) is how hook managers install themselves and goes ahead.
 */
function hooksPathOff(args: readonly Arg[]): Span | undefined {
  const words = args.filter(
    (a) => !/^--(global|local|system|worktree|file|add|replace-all)$/.test(a.value) && a.value !== 'set',
  );
  const keyAt = words.findIndex((a) => /^core\.hookspath$/i.test(a.value));
  if (keyAt < 0) return undefined;
  const key = words[keyAt] as Arg;
  const unset = words.slice(0, keyAt).some((a) => /^(--unset|--unset-all|unset)$/.test(a.value));
  const value = words[keyAt + 1];
  if (unset || (value !== undefined && NO_HOOKS.test(value.value))) return [key.span[0], (value ?? key).span[1]];
  return undefined;
}
