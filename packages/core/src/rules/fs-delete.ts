import { gitCommand } from '../analysis/args.js';
import { copiesTemplate, overwritesNothing } from '../analysis/template-copy.js';
import type { Arg, FileEffect, SubArgv } from '../context/types.js';
import { isInside } from '../facts/paths.js';
import type { PathFacts } from '../facts/paths.js';
import { cmdletOf, cmdletWith, isA } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** Runners that feed their own input to the command they run: its targets are unknown. */
const FEEDERS = new Set(['xargs', 'parallel']);

/** Programs that write nothing, so `: > f` or `true > f` only empties `f`. */
const SILENT = new Set([':', 'true', '']);

/** A deleter whose loss cannot be undone (cmd's `rd` only with `/s`, judged by its effects). */
function destroys(name: string): boolean {
  return isA(name, 'deleter') && !isA(name, 'lossless-deleter') && name !== 'rd';
}
/** A word that names a file rather than a branch: `.`, `./x`, a glob, or a name with a file extension. */
const PATH_LIKE = /^\.{1,2}(?:\/|$)|[*?[]|\.[A-Za-z][A-Za-z0-9]{0,5}$/;

export const fsDelete = {
  meta: {
    id: 'fs.delete',
    decision: 'ask',
    remember: 'path',
    concern: 'destructive',
    title: 'deleting files or work',
    reason:
      'This deletes files or uncommitted work that may exist nowhere else, and there is no undo; commit or copy what matters first, or delete only what this chat created.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'rm -rf src',
        'rm README.md',
        'git reset --hard',
        'git checkout -- .',
        'git clean -fd',
        'git stash drop',
        'find . -type f -name "*.ts" -delete',
      ],
      noMatch: [
        'rm -rf node_modules dist .next coverage',
        'rm -rf /tmp/build-cache',
        'find . -name "__pycache__" -type d -exec rm -rf {} +',
        'for d in build dist; do rm -rf "$d"; done',
        {
          step: 'rm notes.txt',
          session: { createdFiles: ['/home/dev/project/notes.txt'] },
          note: 'created in this chat',
        },
        'git restore --staged src/app.ts',
        'git clean -n',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const effect of context.files) {
      const target = deletedBy(effect, context);
      if (target) hits.push(...pathHit(context, target, effect.span));
    }
    for (const inv of context.invocations) {
      if (
        inv.via.length > 0 &&
        destroys(inv.name) &&
        FEEDERS.has(viaRunner(inv)) &&
        context.argv(inv).operands.every((a) => a.value === '{}')
      ) {
        const fed = fedBy(context, inv);
        if (fed) {
          // `find . -name '*.pyc' | xargs rm`: what find picks
          for (const path of fed) hits.push(...pathHit(context, path, inv.span));
        } else {
          // `ls | xargs rm -rf`: whatever the input names; nothing to remember it by
          hits.push({ span: inv.span, detail: `files named by ${viaRunner(inv)}`, unresolved: true });
        }
      }
      if (
        inv.pipeline.index > 0 &&
        cmdletOf(inv.name) === 'remove-item' &&
        viaRunner(inv) === '' &&
        !context.filesOf(inv).some((f) => f.op === 'delete')
      ) {
        hits.push(...pipedHits(context, inv));
      }
      // `crontab -r`: the whole table goes, with no copy kept (`-i` asks first)
      if (
        inv.name === 'crontab' &&
        inv.args.some((a) => /^-[a-z]*r/.test(a)) &&
        !inv.args.some((a) => /^-[a-z]*i/.test(a))
      )
        hits.push({ span: inv.span, key: 'crontab -r', detail: 'the crontab' });
      const git = gitCommand(context, inv);
      if (git) hits.push(...gitHits(context, inv, git));
    }
    return hits;
  },
} as const satisfies Rule;

/**
 * What a deleter run by xargs gets when the stage before it is `find` alone: find's picks (find
 * prints each pick with its starting point, so the names are the paths), seen through subshells,
 * groups and prefixes (`(find …) | xargs rm`, `sudo find … | xargs sudo rm`). Undefined for any
 * other feeder (`ls dir` prints bare names, which xargs then finds in the cwd).
 */
function fedBy(context: RuleContext, inv: Invocation): readonly PathFacts[] | undefined {
  const feeder = onlyProducer(context, inv);
  if (feeder?.name !== 'find' || feeder.cwd !== inv.cwd) return undefined;
  return context.listed(feeder);
}

/** The one command whose output `inv` reads, when the stage before it has one. */
function onlyProducer(context: RuleContext, inv: Invocation): Invocation | undefined {
  const producers = context.stageBefore(inv)?.producers;
  return producers?.length === 1 ? producers[0] : undefined;
}

/**
 * `Get-ChildItem .\dist | Remove-Item -Recurse`: a deleter with no target of its own deletes what
 * the pipeline hands it. Through filters back to a listing cmdlet, that is what the listing names
 * (its folders, or with `-Filter x` the `x` anywhere below them); from anything else, files unknown.
 */
function pipedHits(context: RuleContext, inv: Invocation): Hit[] {
  let feeder = onlyProducer(context, inv);
  // through filters (a subset lands where the whole did) to a listing cmdlet, by any alias (`gci`, `dir`, `gi`)
  while (feeder !== undefined && cmdletWith(feeder.name, 'filter')) feeder = onlyProducer(context, feeder);
  const listed = feeder !== undefined && cmdletWith(feeder.name, 'lister') ? context.listed(feeder) : undefined;
  if (listed === undefined) return [{ span: inv.span, detail: 'files named by the pipeline' }];
  return listed.flatMap((path) => pathHit(context, path, inv.span));
}

/** The path an effect deletes or empties, if it does. */
function deletedBy(effect: FileEffect, context: RuleContext): PathFacts | undefined {
  if (effect.op === 'delete') {
    if (isA(effect.by, 'lossless-deleter') || (effect.by === 'rd' && effect.how !== 'recursive')) return undefined;
    if (effect.how === 'move') return movedOut(effect, context) ? effect.path : undefined;
    return effect.path;
  }
  if (effect.op === 'write') {
    if (effect.how === 'move') return movedOut(effect, context) ? effect.path : undefined;
    if (effect.how !== 'append' && effect.how !== 'edit' && empties(effect, context)) return effect.path;
    // `cp .env.example .env` over an env file with values in it: they exist nowhere else
    const inv = effect.invocation;
    if (inv && copiesTemplate(context, effect, inv) && !overwritesNothing(context, effect, inv)) return effect.path;
  }
  return undefined;
}

/**
 * `mv src/a.ts ~/elsewhere`: a move whose destination is outside the project takes the file out of
 * it; `mv ~/notes /dev/null`, `mv ~/Documents /tmp/x`: a move anywhere into the temp folder or a
 * device is a delete of what it moves, wherever that was.
 */
function movedOut(effect: FileEffect, context: RuleContext): boolean {
  const dest = moveDestinations(effect, context);
  if (dest.length === 0) return false;
  // `mv -t /tmp ~/Documents`: into the temp folder itself, judged by the file the move makes there
  if (dest.some((d) => d.place === 'temp' || d.place === 'device')) return true;
  const to = dest[0] as PathFacts;
  return effect.path.place === 'project' && to.place !== 'project' && to.place !== 'regenerable';
}

/** Where a move puts what it moves: the destination, then the files it makes in it when it is a folder. */
function moveDestinations(effect: FileEffect, context: RuleContext): PathFacts[] {
  const step = context.step;
  if (step.kind === 'write') return step.toPath === undefined ? [] : [context.path(step.toPath)];
  const inv = effect.invocation;
  return inv === undefined
    ? []
    : context
        .filesOf(inv)
        .filter((f) => f.op === 'write' && f.how !== 'move')
        .map((f) => f.path);
}

/** `> f`, `: > f`, `truncate -s 0 f`, `cp /dev/null f`, a write tool writing nothing: the file is emptied. */
function empties(effect: FileEffect, context: RuleContext): boolean {
  const inv = effect.invocation;
  if (!inv) return effect.content === '';
  // one answer per invocation: a command with thousands of targets is read once, not once per target
  return context.derive(inv, emptiesFiles);
}

function emptiesFiles(inv: Invocation): boolean {
  const by = inv.name;
  const args = inv.args;
  switch (inv.name) {
    case 'truncate':
      return args.some(
        (a, i) => a === '-s0' || a === '--size=0' || ((a === '-s' || a === '--size') && args[i + 1] === '0'),
      );
    case 'cp':
    case 'copy':
    case 'copy-item':
      return args.includes('/dev/null');
    case 'dd':
      return args.includes('if=/dev/null');
    case 'cat':
      return args.length === 1 && args[0] === '/dev/null' && by === 'cat';
    case 'echo':
      return (args.length === 0 || (args.length === 1 && args[0] === '-n')) && by === 'echo';
    case 'printf':
      return args.length === 1 && args[0] === '';
    default:
      return SILENT.has(inv.name) && args.length === 0;
  }
}

/** One hit for a deleted path, unless nothing would be lost. */
function pathHit(context: RuleContext, path: PathFacts, span: Hit['span']): Hit[] {
  if (path.place === 'temp' || path.place === 'regenerable' || path.place === 'device') return [];
  // judged as its worst case: no mode lets it through unasked
  if (path.place === 'unresolved') return [{ span, detail: path.raw, unresolved: true }];
  if (createdHere(context, path.abs)) return [];
  // a file that is not there loses nothing; unknown (no probe, or a glob) counts as there
  if (!path.glob && context.probe.exists?.(path.abs) === false) return [];
  return [{ span, key: path.abs, path: path.abs, detail: shown(context, path.abs) }];
}

function createdHere(context: RuleContext, abs: string): boolean {
  const created = context.session.createdFiles;
  if (created.has(abs)) return true;
  for (const file of created) if (isInside(abs, file)) return true;
  return false;
}

/** A path as the person reads it: relative inside the project, absolute elsewhere. */
function shown(context: RuleContext, abs: string): string {
  const root = context.pathContext.projectRoot;
  if (abs === root) return 'the whole project';
  return isInside(abs, root) ? abs.slice(root.length + 1) : abs;
}

/** The runner that runs the invocation (`xargs` for `xargs rm` and `xargs sudo rm`), or ''. */
function viaRunner(inv: Invocation): string {
  let at = inv.via.length - 1;
  while (at >= 0 && inv.via[at]?.kind === 'prefix') at--;
  const last = inv.via[at];
  return last?.kind === 'runner' ? last.name : '';
}

// ---------------------------------------------------------------------------------------------
// git: throwing away changes, stashes and branches

function gitHits(context: RuleContext, inv: Invocation, git: SubArgv): Hit[] {
  const repo = inv.cwd;
  const whole = (what: string): Hit[] => [
    { span: inv.span, key: `${repo}:git ${what}`, path: repo, detail: `git ${what}` },
  ];
  // throwing away changes in a clean work tree loses nothing (commits stay in the reflog)
  const discard = (what: string): Hit[] => (unchanged(context, repo, repo) ? [] : whole(what));
  switch (git.name) {
    case 'reset':
      return git.has('--hard') ? discard('reset --hard') : [];
    case 'checkout':
      return checkoutHits(context, inv, git, discard);
    case 'switch':
      return git.has('-f', '--force', '--discard-changes') ? discard('switch --discard-changes') : [];
    case 'restore': {
      const staged = git.has('-S', '--staged');
      const worktree = git.has('-W', '--worktree');
      if (staged && !worktree) return [];
      return pathspecHits(context, inv, git.operands);
    }
    case 'clean': {
      if (!git.has('-f', '--force') || git.has('-n', '--dry-run')) return [];
      if (git.has('-x', '-X')) return whole('clean -x');
      // without -x only untracked files go: nothing is lost when there are none
      // (git clean works on the current folder and below: that is all git is asked about)
      return context.probe.gitUntracked?.(repo, { paths: [repo] })?.length === 0 ? [] : whole('clean');
    }
    case 'stash': {
      const verb = git.operands[0]?.value;
      return verb === 'drop' || verb === 'clear' ? whole(`stash ${verb}`) : [];
    }
    case 'branch':
      return branchHits(inv, git);
    case 'rm':
      // without -f git refuses to remove a file with changes; --cached leaves the files alone
      return git.has('-f', '--force') && !git.has('--cached', '-n', '--dry-run')
        ? pathspecHits(context, inv, git.operands)
        : [];
    case 'read-tree':
      // `--reset -u` puts the tree's files over the work tree, changes or not
      return git.has('--reset') && git.has('-u') ? discard('read-tree --reset -u') : [];
    case 'push':
      return pushDeleteHits(git);
    default:
      return [];
  }
}

/** True when git says no tracked file under `abs` has changes, so discarding changes loses nothing. */
function unchanged(context: RuleContext, repo: string, abs: string): boolean {
  if (abs === '') return false;
  // only what is under `abs` matters, so git is asked about nothing else
  const modified = context.probe.gitModified?.(repo, { paths: [abs] });
  return modified !== undefined && !modified.some((file) => isInside(file, abs));
}

function pathspecHits(context: RuleContext, inv: Invocation, specs: readonly Arg[]): Hit[] {
  return specs.flatMap((spec) => {
    const abs = context.path(spec.value, inv.cwd).abs;
    if (unchanged(context, inv.cwd, abs)) return [];
    const key = abs === '' ? undefined : `${abs}:changes`;
    return [
      {
        span: spec.span,
        ...(key ? { key, path: abs } : {}),
        detail: `uncommitted changes in ${abs ? shown(context, abs) : spec.value}`,
      },
    ];
  });
}

/**
 * `git checkout -- <paths>` / `git checkout <commit> -- <paths>` throw away changes; without `--`,
 * the words that name files (they exist, or look like files) do. Switching branches does not:
 * git refuses when that would lose changes, unless forced.
 */
function checkoutHits(context: RuleContext, inv: Invocation, git: SubArgv, whole: (what: string) => Hit[]): Hit[] {
  if (git.has('-f', '--force')) return whole('checkout --force');
  const dashes = git.words.findIndex((a) => a.value === '--');
  if (dashes >= 0) return pathspecHits(context, inv, git.words.slice(dashes + 1));
  if (git.has('-b', '-B', '--orphan', '-c', '-C', '-p', '--patch')) return [];
  const [first, ...rest] = git.operands;
  if (!first) return [];
  // `git checkout src/a.ts` restores files; `git checkout main src/a.ts` restores them from main
  const isFile = PATH_LIKE.test(first.value) || context.probe.exists?.(context.path(first.value, inv.cwd).abs) === true;
  return pathspecHits(context, inv, isFile ? [first, ...rest] : rest);
}

/** `git branch -D x`, `git branch --delete --force x`: a branch whose commits may be on no other branch. */
function branchHits(inv: Invocation, git: SubArgv): Hit[] {
  const forced = git.has('-D') || (git.has('-d', '--delete') && git.has('-f', '--force'));
  if (!forced) return [];
  return git.operands.map((name) => ({
    span: name.span,
    key: `${inv.cwd}:branch ${name.value}`,
    detail: `branch ${name.value}`,
  }));
}

/** `git push --delete origin x`, `git push origin :x`: the branch goes from the shared repository. */
function pushDeleteHits(git: SubArgv): Hit[] {
  if (git.has('--dry-run', '-n')) return [];
  const deleting = git.has('--delete', '-d');
  const [remote, ...refs] = git.operands;
  if (!remote) return [];
  const gone = deleting ? refs : refs.filter((r) => r.value.startsWith(':') && r.value.length > 1);
  return gone.map((ref) => {
    const branch = ref.value.replace(/^:/, '').replace(/^refs\/heads\//, '');
    return { span: ref.span, key: `${remote.value}/${branch}:remote branch`, detail: `${remote.value}/${branch}` };
  });
}
