import type { Arg } from '../analysis/args.js';
import { gitCommand, hasFlag, operands, optionValues, withArgs } from '../analysis/args.js';
import type { FileEffect } from '../analysis/effects.js';
import { stepEffects } from '../analysis/effects.js';
import { isInside } from '../facts/paths.js';
import type { PathFacts } from '../facts/paths.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** Deleting programs whose loss cannot be undone (`rmdir` takes only empty folders; `trash` keeps them). */
const DELETERS = new Set(['rm', 'unlink', 'shred', 'srm', 'remove-item', 'ri', 'del', 'erase']);
const HARMLESS_DELETERS = new Set(['rmdir', 'trash', 'trash-put']);
/** Runners that feed their own input to the command they run: its targets are unknown. */
const FEEDERS = new Set(['xargs', 'parallel']);

/** Programs that write nothing, so `: > f` or `true > f` only empties `f`. */
const SILENT = new Set([':', 'true', '']);

const CHECKOUT_WITH_VALUE = new Set(['-b', '-B', '--orphan', '-c', '-C', '--conflict', '--pathspec-from-file']);
const RESTORE_WITH_VALUE = new Set(['-s', '--source', '--conflict', '--pathspec-from-file']);
const CLEAN_WITH_VALUE = new Set(['-e', '--exclude']);
const PUSH_WITH_VALUE = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec']);
/** A word that names a file rather than a branch: `.`, `./x`, a glob, or a name with a file extension. */
const PATH_LIKE = /^\.{1,2}(?:\/|$)|[*?[]|\.[A-Za-z][A-Za-z0-9]{0,5}$/;

export const fsDelete = {
  meta: {
    id: 'fs.delete',
    decision: 'ask',
    remember: 'path',
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
      if (target) hits.push(...pathHit(context, target, effect));
    }
    for (const inv of context.invocations) {
      if (FEEDERS.has(viaRunner(inv)) && DELETERS.has(inv.name) && operands(inv).every((a) => a.value === '{}')) {
        const fed = fedBy(context, inv);
        if (fed) {
          // `find . -name '*.pyc' | xargs rm`: what find picks
          for (const effect of fed) hits.push(...pathHit(context, effect.path, { ...effect, span: inv.span }));
        } else {
          // `ls | xargs rm -rf`: whatever the input names; nothing to remember it by
          hits.push({ span: inv.span, detail: `files named by ${viaRunner(inv)}` });
        }
      }
      if (
        PIPED_DELETERS.has(inv.name) &&
        inv.pipeline.index > 0 &&
        viaRunner(inv) === '' &&
        !context.files.some((f) => f.invocation === inv && f.op === 'delete')
      ) {
        hits.push(...pipedHits(context, inv));
      }
      const git = gitCommand(inv);
      if (git) hits.push(...gitHits(context, inv, git.sub, git.args));
    }
    return hits;
  },
} as const satisfies Rule;

/**
 * What a deleter run by xargs gets when the stage before it is `find`: find's picks, as if it had
 * `-delete` (find prints each pick with its starting point, so the names are the paths). Undefined
 * for any other feeder (`ls dir` prints bare names, which xargs then finds in the cwd).
 */
function fedBy(context: RuleContext, inv: Invocation): FileEffect[] | undefined {
  if (inv.pipeline.index === 0) return undefined;
  const runner = inv.via.length - 1;
  const feeder = context.invocations.find(
    (f) =>
      f.pipeline.id === inv.pipeline.id &&
      f.pipeline.index === inv.pipeline.index - 1 &&
      f.via.length === runner &&
      f.cwd === inv.cwd,
  );
  if (feeder?.name !== 'find') return undefined;
  const listed = withArgs(feeder, [...feeder.args, '-delete'], [...feeder.argSpans, feeder.span]);
  const { files } = stepEffects(context.step, context.text, [listed], (raw, cwd) => context.path(raw, cwd));
  const deleted = files.filter((f) => f.op === 'delete');
  return deleted.length > 0 ? deleted : undefined;
}

/** PowerShell's Remove-Item and its aliases, which delete what the pipeline hands them. */
const PIPED_DELETERS = new Set(['remove-item', 'ri', 'rm', 'del', 'erase', 'rd', 'rmdir']);
/** Cmdlets that list items (and their aliases). */
const LISTERS = new Set(['get-childitem', 'gci', 'dir', 'ls', 'get-item', 'gi']);
/** Stages that pass on some of what they get (a subset lands where the whole did). */
const PASSERS = new Set(['where-object', 'where', '?', 'select-object', 'select', 'sort-object', 'sort']);
const LISTER_WITH_VALUE = new Set([
  '-Filter',
  '-filter',
  '-Include',
  '-include',
  '-Exclude',
  '-exclude',
  '-Depth',
  '-depth',
  '-ErrorAction',
  '-ea',
  '-Attributes',
]);

/**
 * `Get-ChildItem .\dist | Remove-Item -Recurse`: a deleter with no target of its own deletes what
 * the pipeline hands it. Through filters back to a listing cmdlet, that is what lies in the listed
 * folders (with `-Filter x`, the `x` anywhere below them); from anything else, files unknown.
 */
function pipedHits(context: RuleContext, inv: Invocation): Hit[] {
  let index = inv.pipeline.index - 1;
  let feeder: Invocation | undefined;
  for (; index >= 0; index--) {
    feeder = context.invocations.find(
      (f) => f.pipeline.id === inv.pipeline.id && f.pipeline.index === index && f.via.length === inv.via.length,
    );
    if (!feeder || !PASSERS.has(feeder.name)) break;
  }
  if (!feeder || !LISTERS.has(feeder.name)) return [{ span: inv.span, detail: 'files named by the pipeline' }];
  const named = optionValues(feeder, [], ['-Path', '-path', '-LiteralPath', '-literalpath']);
  const folders =
    named.length > 0 ? named.map((a) => a.value) : operands(feeder, LISTER_WITH_VALUE).map((a) => a.value);
  const filter = optionValues(feeder, [], ['-Filter', '-filter', '-Include', '-include'])[0]?.value;
  const hits: Hit[] = [];
  for (const folder of folders.length > 0 ? folders : ['.']) {
    const target = filter === undefined ? folder : `${folder.replace(/[\\/]+$/, '')}/**/${filter}`;
    const path = context.path(target, feeder.cwd);
    hits.push(...pathHit(context, path, { op: 'delete', path, span: inv.span, by: inv.name, invocation: inv }));
  }
  return hits;
}

/** The path an effect deletes or empties, if it does. */
function deletedBy(effect: FileEffect, context: RuleContext): PathFacts | undefined {
  if (effect.op === 'delete') {
    if (HARMLESS_DELETERS.has(effect.by) || (effect.by === 'rd' && effect.how !== 'recursive')) return undefined;
    if (effect.how === 'move') return movedOut(effect, context) ? effect.path : undefined;
    return effect.path;
  }
  if (effect.op === 'write') {
    if (effect.how === 'move') return movedOut(effect, context) ? effect.path : undefined;
    if (effect.how !== 'append' && effect.how !== 'edit' && empties(effect)) return effect.path;
  }
  return undefined;
}

/** `mv src/a.ts ~/elsewhere`: a move whose destination is outside the project takes the file out of it. */
function movedOut(effect: FileEffect, context: RuleContext): boolean {
  if (effect.path.place !== 'project') return false;
  const step = context.step;
  const dest =
    step.kind === 'write'
      ? step.toPath === undefined
        ? undefined
        : context.path(step.toPath)
      : moveDestinations(context).get(effect.invocation ?? effect.span)?.path;
  return dest !== undefined && dest.place !== 'project' && dest.place !== 'regenerable';
}

const DESTINATIONS = new WeakMap<RuleContext, Map<unknown, FileEffect>>();

/** Where each move writes to, by invocation (or span for tools), found in one pass over the step. */
function moveDestinations(context: RuleContext): Map<unknown, FileEffect> {
  let found = DESTINATIONS.get(context);
  if (!found) {
    found = new Map();
    for (const f of context.files) {
      const owner = f.invocation ?? f.span;
      if (f.op === 'write' && f.how !== 'move' && !found.has(owner)) found.set(owner, f);
    }
    DESTINATIONS.set(context, found);
  }
  return found;
}

/** `> f`, `: > f`, `truncate -s 0 f`, `cp /dev/null f`, a write tool writing nothing: the file is emptied. */
function empties(effect: FileEffect): boolean {
  const inv = effect.invocation;
  if (!inv) return effect.content === '';
  let known = EMPTIES.get(inv);
  if (known === undefined) {
    known = emptiesFiles(inv, effect.by);
    EMPTIES.set(inv, known);
  }
  return known;
}

// one answer per invocation: a command with thousands of targets is read once, not once per target
const EMPTIES = new WeakMap<Invocation, boolean>();

function emptiesFiles(inv: Invocation, by: string): boolean {
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
function pathHit(context: RuleContext, path: PathFacts, effect: FileEffect): Hit[] {
  if (path.place === 'temp' || path.place === 'regenerable' || path.place === 'device') return [];
  if (path.place === 'unresolved') return [{ span: effect.span, detail: path.raw }];
  if (createdHere(context, path.abs)) return [];
  // a file that is not there loses nothing; unknown (no probe, or a glob) counts as there
  if (!path.glob && context.probe.exists?.(path.abs) === false) return [];
  return [{ span: effect.span, key: path.abs, path: path.abs, detail: shown(context, path.abs) }];
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

function viaRunner(inv: Invocation): string {
  const last = inv.via[inv.via.length - 1];
  return last?.kind === 'runner' ? last.name : '';
}

// ---------------------------------------------------------------------------------------------
// git: throwing away changes, stashes and branches

function gitHits(context: RuleContext, inv: Invocation, sub: string, args: readonly Arg[]): Hit[] {
  const repo = inv.cwd;
  const whole = (what: string): Hit[] => [
    { span: inv.span, key: `${repo}:git ${what}`, path: repo, detail: `git ${what}` },
  ];
  // throwing away changes in a clean work tree loses nothing (commits stay in the reflog)
  const discard = (what: string): Hit[] => (unchanged(context, repo, repo) ? [] : whole(what));
  const flag = (short: string, long: readonly string[] = []): boolean =>
    hasFlag(
      withArgs(
        inv,
        args.map((a) => a.value),
        inv.argSpans,
      ),
      short,
      long,
    );
  switch (sub) {
    case 'reset':
      return args.some((a) => a.value === '--hard') ? discard('reset --hard') : [];
    case 'checkout':
      return checkoutHits(context, inv, args, discard);
    case 'switch':
      return flag('f', ['--force', '--discard-changes']) ? discard('switch --discard-changes') : [];
    case 'restore': {
      const staged = flag('S', ['--staged']);
      const worktree = flag('W', ['--worktree']);
      if (staged && !worktree) return [];
      return pathspecHits(context, inv, afterOptions(args, RESTORE_WITH_VALUE));
    }
    case 'clean': {
      if (!flag('f', ['--force']) || flag('n', ['--dry-run'])) return [];
      if (flag('x') || flag('X')) return whole('clean -x');
      // without -x only untracked files go: nothing is lost when there are none
      return context.probe.gitUntracked?.(repo)?.length === 0 ? [] : whole('clean');
    }
    case 'stash': {
      const verb = afterOptions(args, new Set())[0]?.value;
      return verb === 'drop' || verb === 'clear' ? whole(`stash ${verb}`) : [];
    }
    case 'branch':
      return branchHits(inv, args);
    case 'push':
      return pushDeleteHits(args);
    default:
      return [];
  }
}

/** Operands of a git subcommand: words that are not options or option values; all words after `--`. */
function afterOptions(args: readonly Arg[], withValue: ReadonlySet<string>): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as Arg).value;
    if (value === '--') return [...out, ...args.slice(i + 1)];
    if (value.startsWith('-') && value.length > 1) {
      if (withValue.has(value)) i++;
      continue;
    }
    out.push(args[i] as Arg);
  }
  return out;
}

/** True when git says no tracked file under `abs` has changes, so discarding changes loses nothing. */
function unchanged(context: RuleContext, repo: string, abs: string): boolean {
  const modified = context.probe.gitModified?.(repo);
  return modified !== undefined && abs !== '' && !modified.some((file) => isInside(file, abs));
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
function checkoutHits(
  context: RuleContext,
  inv: Invocation,
  args: readonly Arg[],
  whole: (what: string) => Hit[],
): Hit[] {
  const values = args.map((a) => a.value);
  if (values.some((v) => v === '-f' || v === '--force')) return whole('checkout --force');
  const dashes = values.indexOf('--');
  if (dashes >= 0) return pathspecHits(context, inv, args.slice(dashes + 1));
  if (values.some((v) => /^-(?:b|B|-orphan|c|C)$/.test(v) || v === '-p' || v === '--patch')) return [];
  const [first, ...rest] = afterOptions(args, CHECKOUT_WITH_VALUE);
  if (!first) return [];
  // `git checkout src/a.ts` restores files; `git checkout main src/a.ts` restores them from main
  const isFile = PATH_LIKE.test(first.value) || context.probe.exists?.(context.path(first.value, inv.cwd).abs) === true;
  return pathspecHits(context, inv, isFile ? [first, ...rest] : rest);
}

/** `git branch -D x`, `git branch --delete --force x`: a branch whose commits may be on no other branch. */
function branchHits(inv: Invocation, args: readonly Arg[]): Hit[] {
  const values = args.map((a) => a.value);
  const shorts = values.filter((v) => /^-[A-Za-z]+$/.test(v)).join('');
  const forced =
    shorts.includes('D') ||
    ((shorts.includes('d') || values.includes('--delete')) && (shorts.includes('f') || values.includes('--force')));
  if (!forced) return [];
  return afterOptions(
    args,
    new Set([
      '-u',
      '--set-upstream-to',
      '--contains',
      '--no-contains',
      '--merged',
      '--no-merged',
      '--points-at',
      '--sort',
      '--format',
    ]),
  ).map((name) => ({
    span: name.span,
    key: `${inv.cwd}:branch ${name.value}`,
    detail: `branch ${name.value}`,
  }));
}

/** `git push --delete origin x`, `git push origin :x`: the branch goes from the shared repository. */
function pushDeleteHits(args: readonly Arg[]): Hit[] {
  const values = args.map((a) => a.value);
  if (values.some((v) => v === '--dry-run' || (/^-[A-Za-z]+$/.test(v) && v.includes('n')))) return [];
  const deleting = values.some((v) => v === '--delete' || (/^-[A-Za-z]+$/.test(v) && v.includes('d')));
  const [remote, ...refs] = afterOptions(args, PUSH_WITH_VALUE);
  if (!remote) return [];
  const gone = deleting ? refs : refs.filter((r) => r.value.startsWith(':') && r.value.length > 1);
  return gone.map((ref) => {
    const branch = ref.value.replace(/^:/, '').replace(/^refs\/heads\//, '');
    return { span: ref.span, key: `${remote.value}/${branch}:remote branch`, detail: `${remote.value}/${branch}` };
  });
}
