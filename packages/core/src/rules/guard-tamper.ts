import { codeLanguage, foldedCode, guardFolders, protectedAnchors, LITERAL } from '../analysis/code-paths.js';
import type { Anchors } from '../analysis/code-paths.js';
import { changesFile, changesHanded } from '../analysis/effects.js';
import { argvWith } from '../context/argv.js';
import type { FileEffect } from '../context/types.js';
import type { AgentProgram } from '../facts/agents.js';
import { GUARD_KNOBS, SWITCH_OFF } from '../facts/agents.js';
import type { PathFacts } from '../facts/paths.js';
import { globMatch, isInside } from '../facts/paths.js';
import { isA, program, sourceOf } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import { GUARD_PACKAGE } from '../product.js';
import { ARG_SEPARATORS } from '../shell/index.js';
import type { Invocation } from '../shell/types.js';

/**
 * The guard's own entry script, run by path: in a checkout (`node …/packages/cli/dist/bin.js off`)
 * or in the installed package (`node …/node_modules/agent-step-guard/dist/bin.js off`).
 */
const GUARD_SCRIPT = new RegExp(
  String.raw`(?:^|[\\/])(?:@guard[\\/]cli|packages[\\/]cli|${GUARD_PACKAGE})[\\/](?:dist|src)[\\/][\w.-]+\.[cm]?[jt]s$`,
);
const nodePackageManager = (name: string): boolean => program(name)?.ecosystem === 'npm';
const REMOVE_VERBS = new Set(['uninstall', 'un', 'remove', 'rm', 'r', 'unlink']);
/** `npm link PKG` puts another folder in the package's place. */
const LINK_VERBS = new Set(['link', 'ln']);
/** The guard package as npm names it (`agent-step-guard`, `agent-step-guard@0.1.0`, the workspace's `@guard/cli`). */
const GUARD_PACKAGE_ARG = new RegExp(String.raw`^(?:guard|@guard/[\w.-]+|${GUARD_PACKAGE})(?:@[\w.^~<>=*-]*)?$`);
/** npx and friends run a package by its name (`npx agent-step-guard off`). */
const GUARD_PROGRAM = new RegExp(String.raw`^(?:@guard/cli|${GUARD_PACKAGE})(?:@|$)`);
const READ_ONLY_TOOL =
  /^(?:read|get|list|search|find|view|show|describe|query|fetch|stat|cat|head|tail|glob|grep|ls)(?:$|[_\-A-Z])/;

export const guardTamper = {
  meta: {
    id: 'guard.tamper',
    decision: 'block',
    remember: 'never',
    title: 'changing the guard',
    reason:
      'This would change, switch off or remove the guard that checks the agent (its settings, state, log, project policy or the hook entries that call it), after which nothing stops the next risky step; only the person changes the guard, by running it themselves.',
    owasp: ['LLM06:2025', 'ASI10'],
    examples: {
      match: [
        'guard off',
        'guard fail-closed off',
        'guard mode full',
        'guard second-opinion off',
        'guard policy accept',
        'rm -rf ~/.local/state/guard',
        'npm rm -g agent-step-guard',
        { step: { kind: 'write', path: '.github/hooks/guard.json', content: '{}' } },
      ],
      noMatch: [
        'guard status',
        'guard mode',
        'guard explain -- rm -rf dist',
        'guard second-opinion status',
        'guard policy show',
        'guard setup "$AGENT" --dry-run',
        'cat ~/.local/state/guard/log.jsonl',
        { step: { kind: 'read', path: '.guard.yaml' } },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    const anchors = protectedAnchors(context);
    const off = context.pathContext.agents?.hooksOff ?? '';
    const hooksOff = off === '' ? undefined : new RegExp(off);
    for (const effect of context.files) {
      const changes =
        effect.op === 'write' || effect.op === 'create' || effect.op === 'delete' || mcpWrites(context, effect);
      const guardPath = changes
        ? (protectedPath(effect.path, context, anchors) ??
          intoReaches(effect, context, anchors) ??
          folderAbove(effect, context, anchors))
        : undefined;
      if (guardPath !== undefined) {
        hits.push({ span: effect.span, ...(guardPath === '' ? {} : { path: guardPath }), detail: effect.path.raw });
      } else if (
        effect.content !== undefined &&
        changesFile(effect) &&
        isJson(effect) &&
        hooksOff?.test(effect.content) === true
      ) {
        hits.push({ span: effect.span, path: effect.path.abs, detail: 'hooks off' });
      }
    }
    const switched = switchedOff(context);
    if (switched !== undefined) hits.push(switched);
    const writes = context.files.some(changesFile);
    const listing = listingReaches(context, anchors);
    for (const inv of context.invocations) {
      if (listing !== undefined && changesListed(inv, context)) {
        hits.push({ span: inv.span, detail: `what ${listing} lists` });
        continue;
      }
      const what = tampers(inv, context, writes, hooksOff) ?? reachesThrough(inv, context, anchors);
      if (what !== undefined) hits.push({ span: inv.span, detail: what });
    }
    return hits;
  },
} as const satisfies Rule;

/** guard's commands that only look (anything else the agent runs changes guard, or forges its answers). */
const LOOKS_ONLY = new Set(['status', 'explain', 'log', 'report', 'doctor', 'rules', 'allowed', 'help']);
/** `guard policy` subcommands that only look. */
const POLICY_LOOKS = new Set(['show', 'status']);
/** Options that print and stop, in place of a command. */
const PRINTS_ONLY = new Set(['--help', '-h', '--version', '-V']);
/** The scripts that are guard's hook itself: whatever words follow, running one answers as the hook. */
const HOOK_SCRIPT = /(?:^|[\\/])(?:hook-entry\.cjs|hook-load\.cjs|hook\.bundle\.cjs)$/;
/** A program word that asks the shell where guard is (`"$(command -v guard)" off`). */
const WHERE_IS_GUARD = /^(?:\$\(|`)\s*(?:command\s+-v|which|type\s+-p)\s+(?:guard|agent-step-guard)\s*(?:\)|`)$/;
/** guard's entry scripts, whose copies are guard too (by content). */
const ENTRY_FILES = ['dist/bin.js', 'dist/hook-entry.cjs', 'dist/hook-load.cjs', 'dist/main.js'];
const MAX_SCRIPT_BYTES = 64 * 1024;

/** What an invocation does to the guard, or undefined. */
function tampers(
  inv: Invocation,
  context: RuleContext,
  stepWrites: boolean,
  hooksOff: RegExp | undefined,
): string | undefined {
  const started = guardArgs(inv, context);
  if (started !== undefined) {
    if (started.hook) return 'guard hook';
    const words = started.args.filter((arg) => arg !== '--');
    const sub = words.find((arg) => !arg.startsWith('-'));
    if (sub === undefined) return words.every((arg) => PRINTS_ONLY.has(arg)) ? undefined : 'guard';
    if (LOOKS_ONLY.has(sub)) return undefined;
    // `guard setup <agent> --dry-run` prints the diff and writes nothing (an option after `--` is a word)
    if (sub === 'setup' && optionsOf(started.args).includes('--dry-run')) return undefined;
    // `guard mode` alone only shows the mode
    const value = words.slice(words.indexOf(sub) + 1).find((arg) => !arg.startsWith('-'));
    if (sub === 'mode') return value === undefined ? undefined : `guard mode ${value}`;
    // switching the second opinion off or pointing it at another model is the person's (SPEC §11)
    if (sub === 'second-opinion')
      return value === undefined || value === 'status' ? undefined : `guard second-opinion ${value}`;
    // accepting a project policy that loosens is the person's; showing it is not
    if (sub === 'policy')
      return (value === undefined || POLICY_LOOKS.has(value)) && !words.includes('accept')
        ? undefined
        : `guard policy ${value ?? ''}`.trim();
    return `guard ${sub}`;
  }
  if (nodePackageManager(inv.name)) {
    const ops = context.argv(inv).operands;
    const verb = ops[0]?.value === 'global' ? 1 : 0;
    if (
      (REMOVE_VERBS.has(ops[verb]?.value ?? '') || LINK_VERBS.has(ops[verb]?.value ?? '')) &&
      ops.slice(verb + 1).some((arg) => GUARD_PACKAGE_ARG.test(arg.value))
    )
      return 'the guard package';
    return undefined;
  }
  // an agent started with its hooks off, trusting hooks nobody reviewed, or in a world changed for guard's hook
  const agent = agentOf(inv.program, inv.name, context);
  if (agent !== undefined) {
    const off = startsHooksOff(inv, agent, hooksOff, context) ?? changedWorld(inv, context);
    if (off !== undefined) return off;
  }
  // `prlimit --as=… tool exec …`, `systemd-run -p MemoryMax=… tool`: the agent, and guard's hook in it,
  // under limits that make the hook crash, or as another user (whose hooks are not the person's)
  if (isA(inv.name, 'limiter') || isA(inv.name, 'other-user')) {
    const started = inv.args.find((arg) => agentOf(arg, arg.replace(/^.*[\\/]/, '').toLowerCase(), context));
    if (started !== undefined) return `${inv.name} ${started}`;
  }
  // `echo '{"disableAllHooks": true}' > settings.json`, `jq '.disableAllHooks = true' …`
  if (stepWrites && hooksOff !== undefined && inv.name !== 'git' && inv.args.some((arg) => hooksOff.test(arg)))
    return 'hooks off';
  return undefined;
}

/** The words before a `--`, where options end. */
function optionsOf(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end < 0 ? args : args.slice(0, end);
}

interface Started {
  readonly args: readonly string[];
  /** guard's hook script itself was run. */
  readonly hook: boolean;
}

/** The arguments given to the guard CLI, however it is started; undefined when this is not it. */
function guardArgs(inv: Invocation, context: RuleContext): Started | undefined {
  if (inv.name === 'guard' || GUARD_PROGRAM.test(inv.program) || WHERE_IS_GUARD.test(inv.program))
    return { args: inv.args, hook: false };
  // the script run by its own path (`./dist/bin.js off`, a link to it)
  if (/[\\/]/.test(inv.program) && isGuardScript(inv.program, inv, context))
    return { args: inv.args, hook: HOOK_SCRIPT.test(inv.program) };
  if (isA(inv.name, 'script-runner') && inv.code === undefined) {
    const source = sourceOf(inv.name, inv.args);
    if (source.kind !== 'script') return undefined;
    const script = inv.args[source.index];
    if (script === undefined || !isGuardScript(script, inv, context)) return undefined;
    return { args: inv.args.slice(source.index + 1), hook: HOOK_SCRIPT.test(script) };
  }
  if (nodePackageManager(inv.name)) {
    // a package script named guard: `pnpm guard off`, `npm run guard -- off`
    const at = inv.args[0] === 'guard' ? 1 : inv.args[0] === 'run' && inv.args[1] === 'guard' ? 2 : -1;
    return at < 0 ? undefined : { args: inv.args.slice(at).filter((arg) => arg !== '--'), hook: false };
  }
  return undefined;
}

/**
 * Whether a script file is guard's own program: by where it is (the installed package, the
 * checkout that runs, after resolving links), or by what it holds (a copy of one of its entry
 * scripts). Its name alone is not enough, and not needed.
 */
function isGuardScript(raw: string, inv: Invocation, context: RuleContext): boolean {
  if (GUARD_SCRIPT.test(raw)) return true;
  const facts = context.path(raw, inv.cwd);
  if (facts.guardFile === 'install' || GUARD_SCRIPT.test(facts.abs)) return true;
  if (facts.abs === '' || facts.glob) return false;
  // a copy of guard's package the same step made (`cp -r <package> /tmp/g && node /tmp/g/dist/bin.js off`)
  if (guardCopies(context).some((copy) => isInside(facts.abs, copy))) return true;
  const real = context.probe.realpath?.(facts.abs);
  if (real !== undefined && real !== facts.abs && context.path(real).guardFile === 'install') return true;
  const code = context.pathContext.guardCode?.[0];
  const probe = context.probe;
  if (code === undefined || probe.readText === undefined) return false;
  const text = probe.readText(facts.abs, MAX_SCRIPT_BYTES);
  if (text === undefined || text.length === 0) return false;
  return ENTRY_FILES.some((name) => probe.readText?.(`${code}/${name}`, MAX_SCRIPT_BYTES) === text);
}

/** Where the step copies guard's package (or a folder of it) to: the destinations of those copies. */
function guardCopies(context: RuleContext): string[] {
  const out: string[] = [];
  for (const effect of context.files) {
    if (effect.how !== 'copy' || effect.path.guardFile !== 'install' || effect.invocation === undefined) continue;
    for (const other of context.filesOf(effect.invocation))
      if (other.op === 'write' && other.how === undefined && other.path.abs !== '') out.push(other.path.abs);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The protected set, and paths that reach it however they are spelled

/** Names guard keeps in its state folder and its code folders (state, log, chats, entry scripts). */
const GUARD_NAMES = [
  'settings.yaml',
  'settings.last-good.json',
  'log.jsonl',
  'chats',
  'allowed.json',
  'installs.json',
  'second-opinion.json',
  'mcp-servers.json',
  'dist',
  'bin.js',
  'main.js',
  'hook-entry.cjs',
  'hook-load.cjs',
  // what the hook's scripts share: without it no hook call starts
  'hook-base.cjs',
  'hook.bundle.cjs',
  'package.json',
];

/**
 * The protected path a written or deleted path reaches (its absolute path, or '' when that is
 * unknown), or undefined: by how it is named, through links on disk (the probe resolves them),
 * and as a glob that the shell would expand to one of guard's files or a folder holding one.
 */
function protectedPath(facts: PathFacts, context: RuleContext, anchors: Anchors): string | undefined {
  if (facts.guardFile !== undefined) return facts.abs;
  if (facts.abs === '') return undefined;
  if (facts.glob) {
    // any policy file, and a glob through a link (`<link to guard's folder>/*`) as the shell expands it
    const last = facts.abs.slice(facts.abs.lastIndexOf('/') + 1);
    if (last.startsWith('.') && globMatch(last, POLICY_NAME)) return facts.abs;
    const globs = [facts.abs];
    const real = realGlob(facts.abs, context);
    if (real !== undefined) globs.push(real);
    return globs.find((glob) =>
      anchors.paths.some(
        (anchor) =>
          globReaches(glob, anchor, anchors.files, context) && (!anchors.others.has(anchor) || into(glob, anchor)),
      ),
    );
  }
  const real = context.probe.realpath?.(facts.abs);
  if (real !== undefined && real !== facts.abs && context.path(real).guardFile !== undefined) return real;
  return undefined;
}

/**
 * Whether a glob that reaches a place of others' hooks names what is in it (`~/hooks/*`), not the
 * place or a folder above it (`~/*`), which only takes it away. A listing (`**`) names what is in it.
 */
function into(glob: string, anchor: string): boolean {
  return glob.includes('**') || glob.split('/').length > anchor.split('/').length;
}

const POLICY_NAME = '.guard.yaml';
/**
 * What an agent's hook folder (`.github/hooks`) loads: its `*.json` files.
 * Setup writes `guard.json`, but a person may have put guard's entry in any of them; the folder's
 * other content (`.DS_Store`, `node_modules`) is not guard's, and find's clean-ups of such names
 * do not reach guard through it.
 */
const HOOK_FILE = /\.json$/i;
/** Names a pattern is tried against to see whether it can name a hook file. */
const HOOK_FILE_SAMPLES = ['guard.json', 'hooks.json', 'a.json', 'hooks-guard.json'];

/** A glob with the links in its fixed part resolved (`/tmp/link/*` → `/real/folder/*`), if any. */
function realGlob(glob: string, context: RuleContext): string | undefined {
  const at = glob.search(/[*?[]/);
  const cut = glob.lastIndexOf('/', at);
  if (cut <= 0) return undefined;
  const real = context.probe.realpath?.(glob.slice(0, cut));
  return real === undefined || real === glob.slice(0, cut) ? undefined : real + glob.slice(cut);
}

/**
 * Whether a shell glob (absolute) would name `anchor`, a folder above it, or something inside it.
 * Star and `?` stay within one name and, as in the shell, do not match a leading dot; `**` (find's
 * listings) reaches any depth.
 */
function globReaches(glob: string, anchor: string, files: ReadonlySet<string>, context: RuleContext): boolean {
  if (glob.includes('**')) {
    // a listing: the anchor, a folder above it, or a file of that name in an anchor that is a
    // folder, when it is there (`find ~ -name settings.yaml -delete`; not `-name .DS_Store`); in
    // an agent's hook folder, only a name that can be a hook file (`find . -name hooks.json`)
    const last = glob.slice(glob.lastIndexOf('/') + 1);
    if (globMatch(glob, anchor)) return true;
    const inside = `${anchor}/${last}`;
    const wholly = guardFolders(context).includes(anchor);
    if (
      !/[*?[]/.test(last) &&
      !files.has(anchor) &&
      (wholly || HOOK_FILE.test(last)) &&
      globMatch(glob, inside) &&
      context.probe.exists?.(inside) !== false
    )
      return true;
    // a pattern that can name a hook file (`find . -name '*.json' -delete`) in an agent's hook
    // folder that is there (guard cannot list it to see which files it holds)
    if (
      /[*?[]/.test(last) &&
      !wholly &&
      !files.has(anchor) &&
      HOOK_FILE_SAMPLES.some((name) => globMatch(last, name)) &&
      globMatch(`${glob.slice(0, -last.length)}x`, `${anchor}/x`) &&
      context.probe.exists?.(anchor) !== false
    )
      return true;
    // a pattern for the name (`find ~/.local -name 'settings.*' -delete`) that fits one of the
    // names guard keeps in its own folders (guard cannot list them to see what else is there)
    if (
      /[*?[]/.test(last) &&
      GUARD_NAMES.some((name) => globMatch(last, name)) &&
      wholly &&
      globMatch(`${glob.slice(0, -last.length)}x`, `${anchor}/x`)
    )
      return true;
    for (let at = anchor.lastIndexOf('/'); at > 0; at = anchor.lastIndexOf('/', at - 1))
      if (globMatch(glob, anchor.slice(0, at)) && at > anchor.indexOf('/', 1)) return true;
    return false;
  }
  const g = glob.split('/');
  const a = anchor.split('/');
  // nothing is inside a file (`rm -r */__pycache__` does not reach a settings file at the project's root)
  if (g.length > a.length && files.has(anchor)) return false;
  for (let i = 0; i < Math.min(g.length, a.length); i++) {
    const pattern = g[i] as string;
    const name = a[i] as string;
    if (name.startsWith('.') && !pattern.startsWith('.')) return false;
    if (!globMatch(pattern, name)) return false;
  }
  return true;
}

/**
 * A write of files whose names its input decides (`tar -x`, `git checkout`, `patch -d`) into a
 * folder that holds guard's files or an agent's hook files (`cd ~ && tar xf x.tar`,
 * `git -C ~/.tool init && git -C ~/.tool checkout -- hooks.json`): the protected path it may
 * reach. The project's own folders are left to the rules that judge the project.
 */
function intoReaches(effect: FileEffect, context: RuleContext, anchors: Anchors): string | undefined {
  const folder = effect.path.abs;
  if (effect.how !== 'into' || folder === '' || effect.path.glob) return undefined;
  const project = context.pathContext.projectRoot;
  if (project !== '/' && isInside(folder, project)) return undefined;
  return anchors.paths.find((anchor) => isInside(anchor, folder));
}

/**
 * A folder that holds one of guard's files or an agent's hook files, taken away whole
 * (`rm -rf ~/.config` with an agent's plugin folder in it, `mv "$XDG_CONFIG_HOME" /tmp/x`), or
 * closed to its owner (`chmod 000 ~/.config`, `chown -R root ~/.config`), after which the agent
 * loads no hook from it: the protected path it takes. One in the project only when that is there
 * (or guard cannot tell): a repository's `.github` holds hook files only where setup put them.
 * Any other change to the folder (`mkdir -p ~/.config`, `chmod 700 ~/.config`, a copy into it)
 * leaves the hook files as they are, and so does taking away a folder above only others' hooks
 * (an agent's `otherHooks`: a person's hooks folder, where guard's are not). The home folder, the
 * project and the folders at the root are the wipe rules' (a glob is protectedPath's).
 */
function folderAbove(effect: FileEffect, context: RuleContext, anchors: Anchors): string | undefined {
  const { abs, glob, place, isHome } = effect.path;
  if (abs === '' || glob || place === 'root' || isHome) return undefined;
  if (effect.op !== 'delete' && !locksOut(effect, context)) return undefined;
  const project = context.pathContext.projectRoot;
  // the project is the wipe rules', unless a variable makes it an agent's folder (`XDG_CONFIG_HOME=$PWD`)
  if (abs === project && !Object.values(context.pathContext.agents?.variables ?? {}).includes(abs)) return undefined;
  return anchors.paths.find(
    (anchor) =>
      anchor !== abs &&
      !anchors.others.has(anchor) &&
      isInside(anchor, abs) &&
      (project === '/' || !isInside(anchor, project) || context.probe.exists?.(anchor) !== false),
  );
}

/**
 * A mode or owner change that can take its owner's reading of what is in the folder away: `chown`,
 * an ACL, or a `chmod` that leaves the owner without read or search (`000`, `u-r`, `a=w`, a mode
 * guard cannot read). A group's or a flag's change cannot.
 */
function locksOut(effect: FileEffect, context: RuleContext): boolean {
  const inv = effect.invocation;
  if (inv === undefined || !isA(inv.name, 'attribute-changer')) return false;
  if (inv.name === 'chgrp' || inv.name === 'chattr') return false;
  if (inv.name !== 'chmod') return true;
  const mode = context.argv(inv).operands[0]?.value ?? '';
  if (/^[0-7]{1,4}$/.test(mode)) return (Number(mode.padStart(3, '0').at(-3)) & 5) !== 5;
  for (const clause of mode.split(',')) {
    const parts = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!parts) return true;
    const [, who = '', op, perms = ''] = parts;
    if (who !== '' && !who.includes('u') && !who.includes('a')) continue;
    if (op === '-' && /[rxX]/.test(perms)) return true;
    if (op === '=' && !(perms.includes('r') && /[xX]/.test(perms))) return true;
  }
  return false;
}

/**
 * A listing of guard's folders or an agent's hook folder (or a folder above them) outside the
 * project (`ls ~/.tool`, `find ~ -name hooks.json`, `fd . ~/.tool`): what it lists, or undefined.
 * A listing the step then hands to a command that changes each name is as good as naming guard's
 * files; the project's own listings are the project rules' (fs.delete).
 */
function listingReaches(context: RuleContext, anchors: Anchors): string | undefined {
  const project = context.pathContext.projectRoot;
  for (const inv of context.invocations) {
    const spec = program(inv.name);
    if (spec?.lists === undefined && !isA(inv.name, 'lister')) continue;
    const listed = spec?.lists === undefined ? context.listed(inv) : listerGlobs(inv, spec.lists, context);
    for (const path of listed ?? []) {
      if (path.guardFile !== undefined) return path.raw;
      if (path.abs === '' || (project !== '/' && isInside(path.abs, project))) continue;
      const real = realGlob(path.abs, context);
      for (const glob of real === undefined ? [path.abs] : [path.abs, real])
        if (anchors.paths.some((anchor) => globReaches(glob, anchor, anchors.files, context))) return path.raw;
    }
  }
  return undefined;
}

/** What `ls DIR` or `fd PATTERN DIR` names: DIR's entries (with `-a`, its hidden ones too), or all below it. */
function listerGlobs(inv: Invocation, lists: { readonly pattern?: boolean }, context: RuleContext): PathFacts[] {
  const argv = context.argv(inv);
  const operands = argv.operands.slice(lists.pattern === true ? 1 : 0).map((arg) => arg.value);
  const folders = operands.length > 0 ? operands : ['.'];
  const out: PathFacts[] = [];
  for (const folder of folders.slice(0, 16)) {
    const facts = context.path(folder, inv.cwd);
    if (facts.glob || facts.abs === '' || argv.has('-d', '--directory')) {
      out.push(facts);
      continue;
    }
    const base = facts.abs.replace(/\/+$/, '');
    if (lists.pattern === true) out.push(context.path(`${base}/**`));
    else {
      out.push(context.path(`${base}/*`));
      if (argv.has('-a', '-A', '--all', '--almost-all')) out.push(context.path(`${base}/.*`));
    }
  }
  return out;
}

/**
 * A command that changes names it did not spell out: what a runner hands it (`xargs rm`,
 * `parallel rm`, `fd -x rm`), or a path built from a variable (`while read f; do rm "$f"`).
 */
function changesListed(inv: Invocation, context: RuleContext): boolean {
  // what a runner, or a lister that runs a command on each name (`fd -x CMD`), hands it
  if (inv.via.some((via) => via.kind === 'runner' || isA(via.name, 'lister')) && changesHanded(inv, context))
    return true;
  return context
    .filesOf(inv)
    .some((effect) => (effect.op === 'write' || effect.op === 'delete') && effect.path.place === 'unresolved');
}

/**
 * Ways to reach guard's files that are no file effect of their own: `find … -delete` and
 * `-exec rm`, `echo <path> | xargs rm`, a link made to guard's files (`ln -s $GUARD_HOME /tmp/x`,
 * `cp -rs`) to write through, and code handed to an interpreter that writes them or runs guard.
 */
function reachesThrough(inv: Invocation, context: RuleContext, anchors: Anchors): string | undefined {
  if (inv.name === 'find' && findChanges(inv, context)) {
    for (const listed of context.listed(inv) ?? []) {
      if (listed.guardFile !== undefined) return listed.raw;
      if (listed.abs === '') continue;
      const real = realGlob(listed.abs, context);
      for (const glob of real === undefined ? [listed.abs] : [listed.abs, real])
        if (anchors.paths.some((anchor) => globReaches(glob, anchor, anchors.files, context))) return listed.raw;
    }
  }
  // `parallel rm ::: ~/.tool/*` (or `:::+`, `::::`): the words after the separator are what the command is handed
  if (inv.via.some((via) => via.kind === 'runner') && changesHanded(inv, context)) {
    const runner = context.invocations.find(
      (other) =>
        other !== inv &&
        other.name === inv.via[0]?.name &&
        other.span[0] <= inv.span[0] &&
        other.span[1] >= inv.span[1],
    );
    const args = runner?.args ?? [];
    const handed = args.findIndex((arg) => ARG_SEPARATORS.has(arg));
    for (const word of handed < 0 ? [] : args.slice(handed + 1))
      if (!ARG_SEPARATORS.has(word) && protectedPath(context.path(word, inv.cwd), context, anchors) !== undefined)
        return word;
  }
  if (inv.via.some((via) => via.kind === 'runner' && via.name === 'xargs') && changesHanded(inv, context)) {
    for (const producer of context.stageBefore(inv)?.producers ?? []) {
      if (producer.name !== 'echo' && producer.name !== 'printf') continue;
      for (const word of producer.args.flatMap((arg) => arg.split(/\s+/)))
        if (
          word !== '' &&
          !word.startsWith('-') &&
          protectedPath(context.path(word, inv.cwd), context, anchors) !== undefined
        )
          return word;
    }
  }
  if (inv.name === 'ln' || (inv.name === 'cp' && context.argv(inv).has('-s', '--symbolic-link'))) {
    for (const arg of context.argv(inv).operands)
      if (protectedPath(context.path(arg.value, inv.cwd), context, anchors) !== undefined)
        return `a link to ${arg.value}`;
  }
  const code = inv.code?.text ?? pipedCode(inv, context);
  return code === undefined ? undefined : codeTampers(code, inv, context);
}

/** `find … -delete`, or a command find runs (`-exec`, `-ok`) that changes what find hands it, or a shell. */
function findChanges(inv: Invocation, context: RuleContext): boolean {
  if (inv.args.includes('-delete')) return true;
  return context.invocations.some(
    (run) =>
      run !== inv &&
      run.span[0] >= inv.span[0] &&
      run.span[1] <= inv.span[1] &&
      run.via.some((via) => via.kind === 'runner' && via.name === 'find') &&
      (isA(run.name, 'shell') || changesHanded(run, context)),
  );
}

/** Code fed to an interpreter on a pipe (`echo "import os; os.remove(…)" | python3`). */
function pipedCode(inv: Invocation, context: RuleContext): string | undefined {
  if (!isA(inv.name, 'script-runner') || sourceOf(inv.name, inv.args).kind === 'script') return undefined;
  const texts = (context.stageBefore(inv)?.producers ?? [])
    .filter((producer) => producer.name === 'echo' || producer.name === 'printf')
    .map((producer) => producer.args.join(' '));
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** Calls and statements that write, delete, move or copy files, in the languages guard reads. */
const WRITES_FILES = new RegExp(
  [
    String.raw`\bopen\s*\([^)]{0,300}?,\s*(?:mode\s*=\s*)?['"][^'"]{0,4}[wax+]`,
    String.raw`\bopen\s*\(\s*(?:my\s+)?\$?\w+\s*,\s*['"]\+?[>|]`,
    String.raw`\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|write_text|write_bytes|unlink|unlinkSync|remove|removedirs|rmtree|rmSync|rmdir|rmdirSync|rm_rf|rm_r|rm_f|rename|renameSync|truncate|truncateSync|copyfile|copy2?|copytree|copyFile|copyFileSync|cpSync|cp_r|move|symlink|symlinkSync|chmod|chmodSync|file_put_contents|fwrite|mkdir|mkdirSync|touch)\b`,
    String.raw`\b(?:File|IO)\.(?:write|delete|open|binwrite)\b`,
    String.raw`\bFileUtils\.\w+`,
    String.raw`\bos\.replace\b`,
  ].join('|'),
);
/** Loading or running a file named right after (`import('…/main.js')`, `require('…/hook-load.cjs')`). */
const LOADS =
  /(?:require|import|from|load|spawn|spawnSync|fork|exec|execSync|execFile|execFileSync|run|call|Popen|system)\s*\(?\s*\[?\s*$/;
/** Names in code that stand for guard's own files (its folder's variable, a policy, its package). */
const NAMES_GUARD = String.raw`\bGUARD_HOME\b|\.guard\.yaml\b|agent-step-guard`;

/**
 * Whether interpreter code writes guard's files or runs its program: a literal, or a string the
 * code builds from constants (`'.co' + 'dex'`, base64, `os.path.join(home, …)`), that names one of
 * guard's files (after `~`, known variables and links) in code that writes files, a name that
 * stands for them (`os.environ['GUARD_HOME']`, an agent's folder as `Path.home() / '.tool'`)
 * likewise, or guard's program loaded or run by path.
 */
function codeTampers(code: string, inv: Invocation, context: RuleContext): string | undefined {
  const folded = foldedCode(codeLanguage(inv), code);
  const writes = WRITES_FILES.test(code) || (folded?.fileCalls.length ?? 0) > 0;
  const built = (folded?.strings ?? []).map((s) => ({ literal: s.value, index: s.span[0] }));
  const written = [...code.matchAll(LITERAL)].map((m) => ({ literal: m[2] as string, index: m.index }));
  for (const { literal, index } of [...written, ...built]) {
    if (literal.length < 2 || /\s/.test(literal)) continue;
    const facts = context.path(literal, inv.cwd);
    const real = facts.abs !== '' && !facts.glob ? context.probe.realpath?.(facts.abs) : undefined;
    const kind =
      facts.guardFile ?? (real === undefined || real === facts.abs ? undefined : context.path(real).guardFile);
    if (kind === undefined) continue;
    if (writes) return literal;
    if (kind === 'install' && LOADS.test(code.slice(Math.max(0, index - 40), index))) return literal;
  }
  if (writes) {
    const agents = context.pathContext.agents?.codeNames ?? '';
    const names = new RegExp(agents === '' ? NAMES_GUARD : `${NAMES_GUARD}|${agents}`);
    const name = names.exec(code) ?? names.exec(built.map((s) => s.literal).join('\n'));
    if (name) return name[0];
  }
  return undefined;
}

/** The agent program a program word names: by its name, or as the npm package that runs it (`npx @scope/tool@1`). */
function agentOf(program: string, name: string, context: RuleContext): AgentProgram | undefined {
  const pkg = program.replace(/(?<=.)@[^/@]*$/, '');
  return context.pathContext.agents?.programs.find(
    (agent) => agent.names.includes(name) || agent.packages?.includes(pkg) === true,
  );
}

/** Commands that set variables for the programs after them. */
const EXPORTS = new Set(['export', 'declare', 'typeset', 'readonly', 'set', 'setenv']);
/** Whether a variable changes how guard's hook runs (GUARD_KNOBS, or an agent's home variable). */
function isKnob(name: string, context: RuleContext): boolean {
  const upper = name.toUpperCase();
  return GUARD_KNOBS.test(upper) || Object.hasOwn(context.pathContext.agents?.variables ?? {}, upper);
}

/** A knob set to what it already is (`HOME=$HOME`, an agent's home variable at its folder) changes nothing. */
function unchanged(name: string, value: string, context: RuleContext): boolean {
  const { home, guardHome, agents } = context.pathContext;
  const upper = name.toUpperCase();
  const now = upper === 'HOME' ? home : upper === 'GUARD_HOME' ? guardHome : agents?.variables[upper];
  return now !== undefined && value.replace(/[\\/]+$/, '') === now.replace(/[\\/]+$/, '');
}

/**
 * How an agent program is started in a world changed for guard's hook in it, or undefined: a knob
 * set for it (`GUARD_HOME=… tool`, `NODE_OPTIONS=--require … tool`), its environment emptied or
 * a knob taken out (`env -i`, `env -u HOME`), or earlier in the step a knob exported, set or unset,
 * or a limit set (`ulimit -v`), which every program after it inherits.
 */
function changedWorld(inv: Invocation, context: RuleContext): string | undefined {
  const user = inv.via.find(
    (via) =>
      (via.kind === 'prefix' || via.kind === 'shell-c') && (isA(via.name, 'other-user') || isA(via.name, 'limiter')),
  );
  if (user !== undefined) return `${user.name} ${inv.name}`;
  for (const other of context.invocations) {
    // its own assignments and prefixes, and those of what runs it (`env -i npx …`, `env -u X sh -c '…'`)
    if (other === inv || (other.span[0] <= inv.span[0] && other.span[1] >= inv.span[1])) {
      for (const [name, value] of Object.entries(other.env))
        if (isKnob(name, context) && !unchanged(name, value, context)) return `${name}=${value}`;
      for (const prefix of other.prefixes) {
        const emptied = prefix.name === 'env' ? envChanges(prefix.args, context) : undefined;
        if (emptied !== undefined) return emptied;
        // `exec -c` starts it with an empty environment
        if (prefix.name === 'exec' && prefix.args.some((arg) => /^-[a-z]*c/.test(arg))) return 'exec -c';
      }
      continue;
    }
    if (other.span[0] >= inv.span[0]) continue;
    if (other.name === 'ulimit' && other.args.some((arg) => !arg.startsWith('-')))
      return `ulimit ${other.args.join(' ')}`;
    if (other.name === 'unset' && other.args.some((arg) => isKnob(arg, context)))
      return `unset ${other.args.join(' ')}`;
    if (EXPORTS.has(other.name))
      for (const arg of other.args) {
        const eq = arg.indexOf('=');
        if (eq > 0 && isKnob(arg.slice(0, eq), context) && !unchanged(arg.slice(0, eq), arg.slice(eq + 1), context))
          return `${other.name} ${arg}`;
      }
  }
  // a knob assigned on its own before the agent: an inherited variable such as HOME stays
  // exported with its new value
  for (const set of context.assigned)
    if (set.span[0] < inv.span[0] && isKnob(set.name, context) && !unchanged(set.name, set.value, context))
      return `${set.name}=${set.value}`;
  return undefined;
}

/** What `env`'s options take from the program's environment (`-i`, `-`, `-u NAME`, `--unset=NAME`), or undefined. */
function envChanges(args: readonly string[], context: RuleContext): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-' || arg === '--ignore-environment') return 'env -i';
    let unset: string | undefined;
    if (arg.startsWith('--unset')) unset = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
    else if (/^-[^-]/.test(arg)) {
      const flags = arg.slice(1);
      const u = flags.indexOf('u');
      const at = flags.indexOf('i');
      if (at >= 0 && (u < 0 || at < u)) return 'env -i';
      if (u >= 0) unset = u + 1 < flags.length ? flags.slice(u + 1) : args[++i];
    }
    if (unset !== undefined && isKnob(unset, context)) return `env -u ${unset}`;
  }
  return undefined;
}

/**
 * A variable that turns an agent's hooks off (declared as its program's switch: `TOOL_PURE`)
 * set anywhere on the line, for whatever runs after it: `X=1 cmd`, `env X=1 cmd`, `export X=1`,
 * `X=1; cmd`, `setenv X 1`, PowerShell's `$env:X = 1`. A value guard cannot read counts as on.
 */
function switchedOff(context: RuleContext): Hit | undefined {
  const names = new Set<string>();
  for (const agent of context.pathContext.agents?.programs ?? [])
    for (const off of agent.hooksOff) if ('variable' in off) names.add(off.variable.toUpperCase());
  if (names.size === 0) return undefined;
  const on = (name: string, value: string): boolean =>
    names.has(name.toUpperCase()) &&
    !SWITCH_OFF.test(value.replace(/^(['"])(.*)\1$/, '$2').trim()) &&
    !unchanged(name, value, context);
  for (const inv of context.invocations) {
    for (const [name, value] of Object.entries(inv.env))
      if (on(name, value)) return { span: inv.span, detail: `${name}=${value}` };
    if (!EXPORTS.has(inv.name)) continue;
    if (inv.name === 'setenv' && on(inv.args[0] ?? '', inv.args[1] ?? ''))
      return { span: inv.span, detail: `setenv ${inv.args.join(' ')}` };
    for (const arg of inv.args) {
      const eq = arg.indexOf('=');
      if (eq > 0 && on(arg.slice(0, eq), arg.slice(eq + 1))) return { span: inv.span, detail: `${inv.name} ${arg}` };
    }
  }
  // one assigned on its own (`X=1; cmd`, a line of its own): a variable the environment may already export
  for (const set of context.assigned)
    if (on(set.name, set.value)) return { span: set.span, detail: `${set.name}=${set.value}` };
  return undefined;
}

/** How an agent's program is started with its hooks off (as said in its declaration), or undefined. */
function startsHooksOff(
  inv: Invocation,
  agent: AgentProgram,
  hooksOff: RegExp | undefined,
  context: RuleContext,
): string | undefined {
  const argv = argvWith(inv, agent.argv ?? {});
  for (const off of agent.hooksOff) {
    if ('flag' in off) {
      if (inv.args.includes(off.flag)) return `${inv.name} ${off.flag}`;
    } else if ('option' in off) {
      const test = 'value' in off ? new RegExp(off.value) : hooksOff;
      // the settings text itself, or the file it names (`--settings quiet.json`)
      const text = (value: string): string =>
        'value' in off || /^\s*\{/.test(value)
          ? value
          : (context.probe.readText?.(context.path(value, inv.cwd).abs, MAX_SCRIPT_BYTES) ?? value);
      // the option's name, not its value (which may hold anything, a key too)
      if (test && argv.values(...off.option).some((arg) => test.test(text(arg.value))))
        return `${inv.name} ${off.option[0]}`;
    } else if ('operands' in off) {
      const ops = argv.operands.map((arg) => arg.value);
      if (off.operands.every((words, i) => words.includes(ops[i] ?? '')))
        return `${inv.name} ${ops.slice(0, off.operands.length).join(' ')}`;
    }
  }
  return undefined;
}

function isJson(effect: FileEffect): boolean {
  return /\.jsonc?$/i.test(effect.path.abs || effect.path.raw) || effect.path.agentRules === 'settings';
}

/** An MCP tool given a guard file that does not say (by annotation or name) that it only reads. */
function mcpWrites(context: RuleContext, effect: FileEffect): boolean {
  const step = context.step;
  if (step.kind !== 'mcp' || effect.op !== 'read') return false;
  return step.annotations?.readOnlyHint !== true && !READ_ONLY_TOOL.test(step.tool);
}
