/**
 * Code this chat wrote that a step runs later: the package.json scripts `npm test` runs, the
 * Makefile recipes `make` runs, the conftest.py and test files pytest loads, the `.pth` files every
 * Python start runs, the script a shell runs or sources, and what those run or name in turn, to a
 * bounded depth. The runners and the files they run are the program knowledge base's
 * (`ProjectCode`). Files are read through the probe, and only in a chat that wrote code in the
 * project: a step in any other chat reads nothing more than before. The code of a file the chat
 * wrote is judged as a step of its own, run by the outer one (../evaluate.ts); what of it cannot
 * be read (too big, not text, too deep, a runner guard does not read) is named, and asked about
 * (shell.opaque). Files the chat did not write are read only to follow what they run.
 */
import { NPM_INSTALL, NPM_PROJECT } from '../analysis/packages.js';
import { isInside } from '../facts/paths.js';
import { program } from '../programs/index.js';
import type { ProjectCodeKind, ScriptLanguage } from '../programs/index.js';
import type { Invocation, ReadResult } from '../shell/types.js';
import type { ShellStep, ToolStep } from '../types.js';
import { BY_EXTENSION, fileLanguage, readScript, SCRIPT_MAX_BYTES } from './scripts.js';
import type { ChatCode, RuleContext } from './types.js';

/** How far guard follows code the chat wrote. */
export const CHAT_CODE_LIMITS = {
  /** The most of one file that is read. */
  bytes: SCRIPT_MAX_BYTES,
  /** The most files read for one step. */
  files: 12,
  /** How many runs deep (a script a script runs is one deeper). */
  depth: 3,
} as const;

/** One file to read: what it is to its runner, and how deep it is. */
interface Node {
  readonly path: string;
  readonly as: 'file' | 'package' | 'makefile' | 'pth';
  readonly cwd: string;
  readonly depth: number;
  /** For a file the runner names: its language, when the runner says it (`language` of the knowledge base). */
  readonly language?: ScriptLanguage;
  /** The runner named this file (rather than guard finding its name in code): unknown code asks. */
  readonly named: boolean;
  /** Why guard cannot read it (a runner with no reader for it: `just`, `gradle`): a written one asks. */
  readonly cannot?: string;
  /** package.json: the scripts run; a Makefile: the targets named (none: the first). */
  readonly names?: readonly string[];
}

/** A piece of code one file holds. */
interface Piece {
  readonly text: string;
  readonly language: ScriptLanguage;
  readonly label: string;
}

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
const PYTHON_START = new Set(['sitecustomize.py', 'usercustomize.py']);
const TEST_FILE = /^(?:test_.*|.*_test)\.py$/;
const JS_TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

/** The code this chat wrote that the step runs (shell steps of a chat that wrote code; bounded). */
export function readChatCode(
  context: RuleContext,
  contextFor: (step: ToolStep, read: ReadResult) => RuleContext,
): ChatCode[] {
  const wrote = context.session.wroteFiles;
  const step = context.step;
  if (wrote === undefined || wrote.size === 0 || step.kind !== 'shell' || context.probe.readText === undefined)
    return [];
  const walk = new Walk(context, wrote, contextFor);
  for (let i = 0; i < context.invocations.length; i++) walk.from(context.invocations[i] as Invocation);
  return walk.out;
}

class Walk {
  readonly out: ChatCode[] = [];
  private reads = 0;
  /** The code files the chat wrote in the project, by the names code would call them (`util` for `lib/util.js`). */
  private readonly stems = new Map<string, string[]>();

  constructor(
    private readonly context: RuleContext,
    private readonly wrote: ReadonlySet<string>,
    private readonly contextFor: (step: ToolStep, read: ReadResult) => RuleContext,
  ) {
    const root = context.step.projectRoot;
    for (const path of wrote) {
      if (!isInside(path, root) || !isCode(baseName(path))) continue;
      for (const stem of stemsOf(path)) {
        const list = this.stems.get(stem);
        if (list === undefined) this.stems.set(stem, [path]);
        else list.push(path);
      }
    }
  }

  /** Follows what one of the step's own commands runs. */
  from(outer: Invocation): void {
    if (outer.remoteHost !== undefined) return;
    const seen = new Set<string>();
    const queue = this.seeds(outer, this.context, 0);
    while (queue.length > 0) {
      const node = queue.shift() as Node;
      const key = `${node.as}\u0000${node.path}\u0000${(node.names ?? []).join('\u0000')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.visit(outer, node, queue);
    }
  }

  private visit(outer: Invocation, node: Node, queue: Node[]): void {
    const wrote = this.wrote.has(node.path);
    const unread = (why: string): void => {
      if (wrote) this.out.push({ invocation: outer, path: node.path, label: this.labelOf(node.path), unread: why });
    };
    if (node.cannot !== undefined) return unread(node.cannot);
    // a file the chat did not write is read only to find the code the chat wrote that it runs
    if (!wrote && this.stems.size === 0) return;
    if (node.depth > CHAT_CODE_LIMITS.depth)
      return unread(`it runs deeper than guard follows (${CHAT_CODE_LIMITS.depth} runs)`);
    if (this.reads >= CHAT_CODE_LIMITS.files)
      return unread(`the step runs more files than guard reads (${CHAT_CODE_LIMITS.files})`);
    this.reads++;
    const probe = this.context.probe;
    const text = probe.readText?.(node.path, CHAT_CODE_LIMITS.bytes + 1);
    if (text === undefined) {
      // gone: nothing runs it; there but unreadable: guard cannot tell what runs
      if (probe.exists?.(node.path) !== false) unread('guard could not read it');
      return;
    }
    if (utf8Length(text) > CHAT_CODE_LIMITS.bytes)
      return unread(`it is larger than guard reads (${CHAT_CODE_LIMITS.bytes / 1024} KB)`);
    if (text.includes('\u0000')) return unread('it is not text');
    const pieces = this.piecesOf(node, text);
    if (pieces === undefined) return unread('guard cannot read its code');
    for (const piece of pieces) {
      const inner = this.contextOf(piece, node.cwd);
      if (wrote) this.out.push({ invocation: outer, path: node.path, label: piece.label, context: inner });
      // what the piece runs in turn: its commands' own runs, and the code the chat wrote it names
      if (piece.language === 'shell')
        for (const inv of inner.invocations) queue.push(...this.seeds(inv, inner, node.depth + 1));
    }
    // of package.json, only the scripts that run; of any other file, all of it (`include x.mk`, `import x`)
    const named = node.as === 'package' ? this.named(pieces.map((piece) => piece.text).join('\n')) : this.named(text);
    for (const path of named) {
      if (path === node.path) continue;
      const next = nodeFor(path, node.cwd, node.depth + 1, false);
      // a Makefile another includes is made for the same targets
      queue.push(next.as === 'makefile' && node.names !== undefined ? { ...next, names: node.names } : next);
    }
  }

  /** The code a file holds, in pieces its runner runs; undefined when guard cannot read it. */
  private piecesOf(node: Node, text: string): Piece[] | undefined {
    const label = this.labelOf(node.path);
    switch (node.as) {
      case 'package': {
        const scripts = packageScripts(text);
        if (scripts === undefined) return undefined;
        return scriptsRun(scripts, node.names ?? []).map((name) => ({
          text: scripts[name] as string,
          language: 'shell' as const,
          label: `${label} script "${name}"`,
        }));
      }
      case 'makefile':
        return makefilePieces(text, node.names).map((piece) => ({
          text: piece.text,
          language: 'shell' as const,
          label: `${label} ${piece.what}`,
        }));
      case 'pth': {
        // the lines that start with `import` are run; the others name folders
        const code = text
          .split('\n')
          .filter((line) => /^import[ \t]/.test(line))
          .join('\n');
        return code === '' ? [] : [{ text: code, language: 'python', label }];
      }
      case 'file': {
        const language = node.language ?? fileLanguage(node.path, text);
        if (language === undefined) return node.named ? undefined : [];
        return [{ text, language, label }];
      }
    }
  }

  private contextOf(piece: Piece, cwd: string): RuleContext {
    const outer = this.context.step;
    const step: ShellStep = {
      agent: outer.agent,
      chatId: outer.chatId,
      cwd,
      projectRoot: outer.projectRoot,
      toolName: outer.toolName,
      kind: 'shell',
      command: piece.text,
    };
    const { home, tmp } = this.context.pathContext;
    return this.contextFor(step, readScript(piece.language, piece.text, { cwd, home, tmp }));
  }

  /** The files one command runs that may hold code the chat wrote. */
  private seeds(inv: Invocation, context: RuleContext, depth: number): Node[] {
    const out: Node[] = [];
    if (inv.remoteHost !== undefined) return out;
    // the script it runs or sources (`bash x.sh`, `./x.sh`, `python x.py`, `. ./env.sh`)
    for (const effect of context.filesOf(inv))
      if (effect.op === 'exec' && effect.path.abs !== '') {
        const language = program(inv.name)?.script;
        out.push({
          ...nodeFor(effect.path.abs, inv.cwd, depth, true),
          ...(language === undefined ? {} : { language }),
        });
      }
    const found = program(inv.name);
    const code = found?.projectCode;
    const argv = context.argv(inv);
    const kinds = new Set<ProjectCodeKind>(code?.kinds ?? []);
    // `python -m pytest` is pytest
    if (
      found?.script === 'python' &&
      argv.values('-m').some((arg) => arg.value === 'pytest' || arg.value === 'py.test')
    )
      for (const kind of program('pytest')?.projectCode?.kinds ?? []) kinds.add(kind);
    if (code === undefined && kinds.size === 0) return out;
    // the reader has already moved the command into the folder `make -C dir` or `npm --prefix dir` names
    const dir = inv.cwd;
    for (const name of code?.files ?? []) {
      const path = `${dir}/${name}`;
      if (!this.wrote.has(path)) continue;
      out.push(
        code?.language === undefined
          ? { ...nodeFor(path, dir, depth, true), cannot: `${inv.name} runs it, and guard does not read its code` }
          : { ...nodeFor(path, dir, depth, true), language: code.language },
      );
    }
    for (const kind of kinds) out.push(...this.kindSeeds(kind, inv, context, dir, depth));
    // `cd "$DIR" && make`: guard cannot tell which of the chat's package.json or Makefiles runs
    if (!inv.cwdKnown)
      for (const node of out)
        if ((node.as === 'package' || node.as === 'makefile') && !this.wrote.has(node.path)) {
          const name = baseName(node.path);
          const like = this.written(
            (_path, written) => written === name || (node.as === 'makefile' && isMakefile(written)),
          );
          for (const path of like)
            out.push({
              ...node,
              path,
              cannot: `${inv.name} runs in a folder guard cannot tell, which may be this one's`,
            });
        }
    return out;
  }

  private kindSeeds(kind: ProjectCodeKind, inv: Invocation, context: RuleContext, dir: string, depth: number): Node[] {
    switch (kind) {
      case 'args':
        return this.named(inv.args.join(' ')).map((path) => nodeFor(path, inv.cwd, depth, true));
      case 'package-scripts': {
        const names = packageRun(inv, context);
        return names.length === 0
          ? []
          : [{ ...nodeFor(`${dir}/package.json`, dir, depth, true), as: 'package', names }];
      }
      case 'makefile': {
        const argv = context.argv(inv);
        const given = argv.values('-f', '--file', '--makefile').map((arg) => context.path(arg.value, dir).abs);
        const probe = this.context.probe;
        const files =
          given.length > 0
            ? given.filter((path) => path !== '')
            : [
                MAKEFILES.map((name) => `${dir}/${name}`).find(
                  (path) => this.wrote.has(path) || probe.exists?.(path) === true,
                ) ?? `${dir}/Makefile`,
              ];
        const names = argv.operands.map((arg) => arg.value).filter((word) => !word.includes('='));
        return files.map((path) => ({ ...nodeFor(path, dir, depth, true), as: 'makefile', names }));
      }
      case 'pytest':
        return this.written((path, name) => {
          const folder = dirName(path);
          if (name === 'conftest.py') return isInside(folder, dir) || isInside(dir, folder);
          return TEST_FILE.test(name) && isInside(path, dir);
        }).map((path) => ({ ...nodeFor(path, dir, depth, true), language: 'python' }));
      case 'python':
        return this.written((_path, name) => name.endsWith('.pth') || PYTHON_START.has(name)).map((path) =>
          path.endsWith('.pth') ? { ...nodeFor(path, dir, depth, true), as: 'pth' } : nodeFor(path, dir, depth, true),
        );
      case 'js-tests':
        return this.written((path, name) => JS_TEST_FILE.test(name) && isInside(path, dir)).map((path) => ({
          ...nodeFor(path, dir, depth, true),
          language: 'node',
        }));
    }
  }

  /** The files the chat wrote that pass the test (by path and name). */
  private written(test: (path: string, name: string) => boolean): string[] {
    const out: string[] = [];
    for (const path of this.wrote) if (test(path, baseName(path))) out.push(path);
    return out;
  }

  /** The code files the chat wrote whose names the text holds (`./util`, `util.js`, `import util`, `lib/util`). */
  private named(text: string): string[] {
    if (this.stems.size === 0) return [];
    const out: string[] = [];
    for (const word of new Set(text.split(/[^A-Za-z0-9_-]+/))) {
      const paths = this.stems.get(word);
      if (paths !== undefined) for (const path of paths) if (!out.includes(path)) out.push(path);
    }
    return out;
  }

  /** A path as the person knows it: from the project's top. */
  private labelOf(path: string): string {
    const root = this.context.step.projectRoot;
    return isInside(path, root) && path !== root ? path.slice(root.length).replace(/^\/+/, '') : path;
  }
}

function nodeFor(path: string, cwd: string, depth: number, named: boolean): Node {
  const name = baseName(path);
  const as =
    name === 'package.json' ? 'package' : isMakefile(name) ? 'makefile' : name.endsWith('.pth') ? 'pth' : 'file';
  return { path, as, cwd, depth, named };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function dirName(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/'))) || '/';
}

function isMakefile(name: string): boolean {
  return MAKEFILES.includes(name) || name.endsWith('.mk');
}

/** Files that hold code a runner may run: scripts, modules, Makefiles, `.pth` files. */
function isCode(name: string): boolean {
  if (isMakefile(name) || name.endsWith('.pth') || name === 'package.json') return true;
  const dot = name.lastIndexOf('.');
  return dot <= 0 || BY_EXTENSION[name.slice(dot + 1).toLowerCase()] !== undefined;
}

/** The names code calls a file by: its name up to the first dot, and a package's folder (`pkg` for `pkg/__init__.py`). */
function stemsOf(path: string): string[] {
  const name = baseName(path).replace(/^\.+/, '');
  const stem = name.split('.')[0] ?? '';
  const out = stem === '' ? [] : [stem];
  if (/^(?:__init__|__main__|index|main|mod)$/.test(stem)) {
    const folder = baseName(dirName(path));
    if (folder !== '') out.push(folder);
  }
  return out;
}

/** UTF-8 length of a text (the probe's limit is in bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit < 0xdc00 ? 2 : 3;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// package.json

/** package.json's scripts (name → command line); undefined when the file is not a JSON object. */
function packageScripts(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const scripts = (value as { scripts?: unknown }).scripts;
  if (scripts === undefined) return {};
  if (typeof scripts !== 'object' || scripts === null) return undefined;
  const out: Record<string, string> = {};
  for (const [name, line] of Object.entries(scripts)) if (typeof line === 'string') out[name] = line;
  return out;
}

/** The scripts an install, a pack or a publish runs. */
const LIFECYCLE = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepack',
  'postpack',
  'prepublishOnly',
  'publish',
  'postpublish',
];
const RUN = new Set(['run', 'run-script', 'rum', 'urn']);
const NAMED: Readonly<Record<string, string>> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop' };
/** The commands that install, pack or publish (npm's spellings of an install are the analysis's). */
const INSTALLS: ReadonlySet<string> = new Set([
  ...NPM_INSTALL,
  ...NPM_PROJECT,
  'rebuild',
  'rb',
  'pack',
  'publish',
  'link',
  'ln',
]);
/** What pnpm, yarn and bun take as their own commands rather than a script's name (`yarn build` runs the script). */
const OWN_COMMANDS = new Set([
  'exec',
  'dlx',
  'x',
  'create',
  'remove',
  'rm',
  'uninstall',
  'un',
  'update',
  'up',
  'upgrade',
  'outdated',
  'list',
  'ls',
  'why',
  'info',
  'view',
  'config',
  'cache',
  'init',
  'help',
  'version',
  'login',
  'logout',
  'whoami',
  'audit',
  'dedupe',
  'prune',
  'store',
  'bin',
  'root',
  'global',
  'workspace',
  'workspaces',
  'set',
  'plugin',
  'node',
  'patch',
  'import',
  'licenses',
  'owner',
  'tag',
  'search',
  'env',
  'setup',
  'server',
  'fetch',
]);

/** The scripts a package manager's command runs, by name (without their `pre`/`post` scripts). */
function packageRun(inv: Invocation, context: RuleContext): readonly string[] {
  const sub = context.argv(inv).sub;
  // a bare `yarn` installs
  if (sub === undefined) return inv.name === 'yarn' ? LIFECYCLE : [];
  const word = sub.name;
  if (RUN.has(word)) {
    const script = sub.operands[0]?.value;
    return script === undefined ? [] : [script];
  }
  // `bun test` is bun's own test runner
  if (inv.name === 'bun' && word === 'test') return [];
  if (word === 'restart') return ['stop', 'start', 'restart'];
  const named = NAMED[word];
  if (named !== undefined) return [named];
  if (INSTALLS.has(word)) return LIFECYCLE;
  return inv.name === 'npm' || OWN_COMMANDS.has(word) ? [] : [word];
}

/** The scripts that run: the ones named, their `pre` and `post` scripts, and the ones they run by name, as found. */
function scriptsRun(scripts: Readonly<Record<string, string>>, names: readonly string[]): string[] {
  const out: string[] = [];
  const add = (name: string): void => {
    for (const each of [`pre${name}`, name, `post${name}`])
      if (scripts[each] !== undefined && !out.includes(each)) out.push(each);
  };
  for (const name of names) add(name);
  // `npm run lint && vitest`: a script that names another runs it (a name in the text is enough)
  for (let i = 0; i < out.length; i++) {
    const text = scripts[out[i] as string] as string;
    for (const other of Object.keys(scripts)) if (!out.includes(other) && mentions(text, other)) add(other);
  }
  return out;
}

function mentions(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !/[\w:-]/.test(before)) && (after === undefined || !/[\w:-]/.test(after))) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Makefiles

interface MakeRule {
  readonly prereqs: string[];
  readonly recipe: string[];
}

const ASSIGNMENT = /^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(:{1,3}=|\?=|\+=|!=|=)\s*(.*)$/;
/** How many times a value is expanded (a variable whose value names another). */
const EXPANSIONS = 5;

/**
 * A Makefile's recipes for the targets named (none: its first target, or `.DEFAULT_GOAL`) and the
 * targets they need, one piece per target, with its variables expanded; and what `$(shell …)` and
 * `!=` run whenever make reads the file. A target with no rule of its own takes the pattern rules.
 */
function makefilePieces(text: string, names: readonly string[] | undefined): { text: string; what: string }[] {
  const vars = new Map<string, string>();
  const rules = new Map<string, MakeRule>();
  const shells: string[] = [];
  let first: string | undefined;
  let current: string[] = [];
  for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    if (line.startsWith('\t')) {
      for (const target of current) rules.get(target)?.recipe.push(line.slice(1));
      continue;
    }
    const s = line.replace(/(^|[^\\])#.*$/, '$1');
    if (s.trim() === '') continue;
    const assignment = ASSIGNMENT.exec(s);
    if (assignment !== null) {
      const [, name = '', op, value = ''] = assignment;
      if (op === '!=') shells.push(value);
      else if (op === '+=') vars.set(name, `${vars.get(name) ?? ''} ${value}`);
      else if (op !== '?=' || !vars.has(name)) vars.set(name, value);
      current = [];
      continue;
    }
    const colon = s.search(/:(?!=)/);
    if (colon <= 0) {
      current = [];
      continue;
    }
    const targets = expand(s.slice(0, colon), vars).split(/\s+/).filter(Boolean);
    let rest = s.slice(colon + 1).replace(/^:/, '');
    const semicolon = rest.indexOf(';');
    const inline = semicolon >= 0 ? rest.slice(semicolon + 1) : undefined;
    if (semicolon >= 0) rest = rest.slice(0, semicolon);
    const prereqs = expand(rest, vars)
      .split(/\s+/)
      .filter((word) => word !== '' && word !== '|');
    for (const target of targets) {
      let rule = rules.get(target);
      if (rule === undefined) rules.set(target, (rule = { prereqs: [], recipe: [] }));
      rule.prereqs.push(...prereqs);
      if (inline !== undefined && inline.trim() !== '') rule.recipe.push(inline);
    }
    first ??= targets.find((target) => !target.startsWith('.') && !target.includes('%'));
    current = targets;
  }
  for (const match of text.matchAll(/\$[({]shell[ \t]+([^)}]*)[)}]/g)) shells.push(match[1] ?? '');
  const goal = vars.get('.DEFAULT_GOAL')?.trim() || first;
  const wanted = names !== undefined && names.length > 0 ? [...names] : goal === undefined ? [] : [goal];
  const run: string[] = [];
  for (let i = 0; i < wanted.length && run.length < 200; i++) {
    const target = wanted[i] as string;
    if (run.includes(target)) continue;
    const rule = rules.get(target);
    if (rule === undefined || rule.recipe.length === 0) {
      // made by a pattern rule, if by any
      for (const [pattern, patternRule] of rules)
        if (pattern.includes('%') && patternRule.recipe.length > 0 && !run.includes(pattern)) run.push(pattern);
    }
    run.push(target);
    if (rule !== undefined) wanted.push(...rule.prereqs);
  }
  const out: { text: string; what: string }[] = [];
  for (const target of run) {
    const recipe = rules.get(target)?.recipe ?? [];
    if (recipe.length === 0) continue;
    const lines = recipe.map((line) => expand(line.replace(/^[\s@+-]+/, ''), vars, target));
    out.push({ text: lines.join('\n'), what: `target "${target}"` });
  }
  for (const shell of shells) out.push({ text: expand(shell, vars), what: '$(shell …)' });
  return out;
}

/**
 * make's variables in a line: a known one by its value, `$@`/`$<`/`$^`/`$*` by the target, any
 * other as a shell variable of its name (guard cannot tell its value), a function call as a word.
 */
function expand(line: string, vars: ReadonlyMap<string, string>, target = ''): string {
  let out = line.replace(/\$\$/g, '\u0000');
  for (let round = 0; round < EXPANSIONS && /\$[({@<^*?]/.test(out); round++) {
    out = out
      .replace(
        /\$[({]([A-Za-z_][\w.-]*)[)}]/g,
        (_all, name: string) => vars.get(name) ?? `$${name.replace(/\W/g, '_')}`,
      )
      .replace(/\$[@<^*?]/g, target)
      .replace(/\$[({][A-Za-z_-]+[ \t,][^(){}$]*[)}]/g, 'MAKE_FUNCTION');
  }
  return out.replace(/\u0000/g, '$');
}
