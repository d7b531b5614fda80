import { gitCommand } from '../analysis/args.js';
import type { Arg, GitScope, GitWanted, SubArgv } from '../context/types.js';
import { globMatch, isInside, SECRET_SCREEN } from '../facts/paths.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

const GLOB = /[*?[]/;
const DOT_SLASH = /^\.\//;

/**
 * SPEC 4.1: a commit that would take a secrets file into history. `git add <secret>` (and `git add
 * -A`/`.`/a folder that holds one, when the probe knows what is untracked or changed) is judged
 * where it stages the file, since the commit that follows may be a step of its own; `git commit -a`
 * and `git commit <paths>` where they commit it. Ignored files never count unless forced (`-f`).
 */
export const secretsCommit = {
  meta: {
    id: 'secrets.commit',
    decision: 'block',
    remember: 'never',
    title: 'a commit that takes a secrets file into history',
    reason:
      'This would put a secrets file into git history, where every clone and fork keeps it even after it is deleted; add the file to .gitignore, unstage it with `git rm --cached`, and commit only the files you mean to.',
    owasp: [],
    examples: {
      match: [
        {
          step: 'git add . && git commit -m x',
          probe: { untracked: ['/home/dev/project/.env', '/home/dev/project/src/app.ts'] },
        },
        'git add .env',
        { step: 'git commit -am "wip"', probe: { modified: ['/home/dev/project/config/.env.production'] } },
      ],
      noMatch: [
        { step: 'git add . && git commit -m x', probe: { untracked: ['/home/dev/project/src/app.ts'] } },
        {
          step: 'git add .env',
          probe: { ignored: ['/home/dev/project/.env'] },
          note: 'ignored: git refuses to add it',
        },
        'git add .env.example',
        'git add -A',
      ],
    },
  },
  programs: new Set(['git']),
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const git = gitCommand(context, inv);
      if (!git) continue;
      if (git.name === 'add' || git.name === 'stage') hits.push(...checkAdd(context, inv, git));
      else if (git.name === 'commit') hits.push(...checkCommit(context, inv, git));
    }
    return hits;
  },
} as const satisfies Rule;

function checkAdd(context: RuleContext, inv: Invocation, git: SubArgv): Hit[] {
  if (git.has('-n', '--dry-run')) return [];
  const forced = git.has('-f', '--force');
  const specs = git.operands;
  const hits: Hit[] = [];
  const explicit = new Set<string>();
  // a secret named on the line: judged even when the probe knows nothing else
  const named = specs.filter(
    (spec) => !GLOB.test(spec.value) && context.path(spec.value, inv.cwd).secret !== undefined,
  );
  const ignored =
    forced || named.length === 0
      ? new Set<string>()
      : (context.probe.gitIgnored?.(
          inv.cwd,
          named.map((s) => context.path(s.value, inv.cwd).abs),
        ) ?? new Set<string>());
  for (const spec of named) {
    const abs = context.path(spec.value, inv.cwd).abs;
    explicit.add(abs);
    if (!ignored.has(abs)) hits.push(hit(context, spec.span, abs));
  }
  // what a pathspec (`.`, `-A`, a folder, a glob) would take along
  const all = git.has('-A', '--all');
  const tracked = git.has('-u', '--update');
  if (!all && !tracked && specs.length === 0) return hits;
  // the narrowest question that answers this: the paths named, or the whole tree
  const scope = addScope(context, inv, specs);
  const staged = (files: readonly string[]): void => {
    for (const file of files) {
      if (explicit.has(file) || context.path(file).secret === undefined) continue;
      if (specs.length > 0 && !specs.some((spec) => covers(context, inv.cwd, spec.value, file))) continue;
      explicit.add(file);
      hits.push(hit(context, inv.span, file));
    }
  };
  const untracked = tracked ? [] : context.probe.gitUntracked?.(inv.cwd, scope);
  staged(untracked ?? []);
  // one secrets file staged settles it: the tracked ones are then not worth another git question;
  // else only secrets files count, so git need not look at every tracked file to tell which changed
  const modified = hits.length > 0 ? [] : context.probe.gitModified?.(inv.cwd, scope, secretShaped(context));
  staged(modified ?? []);
  if ((untracked === undefined || modified === undefined) && context.probe.gitUnchecked?.(inv.cwd) === true)
    hits.push(unchecked(inv, 'what it stages'));
  return hits;
}

function checkCommit(context: RuleContext, inv: Invocation, git: SubArgv): Hit[] {
  if (git.has('--dry-run')) return [];
  const hits: Hit[] = [];
  const seen = new Set<string>();
  for (const spec of git.operands) {
    const facts = context.path(spec.value, inv.cwd);
    if (facts.secret !== undefined && !seen.has(facts.abs)) {
      seen.add(facts.abs);
      hits.push(hit(context, spec.span, facts.abs));
    }
  }
  if (git.has('-a', '--all')) {
    const modified = context.probe.gitModified?.(inv.cwd, undefined, secretShaped(context));
    if (modified === undefined && context.probe.gitUnchecked?.(inv.cwd) === true)
      hits.push(unchecked(inv, 'what -a takes along'));
    for (const file of modified ?? []) {
      if (!seen.has(file) && context.path(file).secret !== undefined) {
        seen.add(file);
        hits.push(hit(context, inv.span, file));
      }
    }
  }
  return hits;
}

/**
 * What git is asked about: the folders and files a pathspec names when they lie below the
 * project's top (git then looks at those alone), else the whole tree, which is what the command
 * stages (`-A`, `.` at the top, a glob).
 */
function addScope(context: RuleContext, inv: Invocation, specs: readonly Arg[]): GitScope | undefined {
  if (specs.length === 0 || specs.some((spec) => GLOB.test(spec.value))) return undefined;
  const root = context.pathContext.projectRoot;
  const paths = specs.map((spec) => context.path(spec.value, inv.cwd).abs);
  return paths.every((abs) => abs !== '' && abs !== root && isInside(abs, root)) ? { paths } : undefined;
}

/** Secrets files: all that counts of what a step stages or commits (the probe may ask git about these alone). */
function secretShaped(context: RuleContext): GitWanted {
  const test = (path: string): boolean => context.path(path).secret !== undefined;
  // the project's own secret globs are not in the screen: then every tracked file is tested
  return (context.pathContext.extraSecrets?.length ?? 0) > 0 ? { test } : { test, screen: SECRET_SCREEN };
}

/** The step is asked: git did not say in time what it would take along. */
function unchecked(inv: Invocation, what: string): Hit {
  return { span: inv.span, unchecked: true, detail: `git did not say in time ${what}` };
}

/** Whether the pathspec (a file, a folder, `.`, a glob) takes `file` along. */
function covers(context: RuleContext, cwd: string, spec: string, file: string): boolean {
  if (GLOB.test(spec)) {
    const base = context.path('.', cwd).abs;
    return isInside(file, base) && globMatch(spec.replace(DOT_SLASH, ''), file.slice(base.length + 1));
  }
  const target = context.path(spec, cwd).abs;
  return target !== '' && isInside(file, target);
}

function hit(context: RuleContext, span: Hit['span'], abs: string): Hit {
  const root = context.pathContext.projectRoot;
  const shown = isInside(abs, root) && abs !== root ? abs.slice(root.length).replace(/^\/+/, '') : abs;
  return { span, detail: shown, path: abs };
}
