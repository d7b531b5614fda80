import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { GitScope, GitWanted, Probe } from '@guard/core';

/** A probe that can say whether it gave up on a look that took too long. */
export interface TimedProbe {
  /** git did not answer within its budget during this call (its answers were "cannot tell"). */
  gaveUp(): boolean;
}

export interface ProbeOptions {
  /** Most time any one `git` run may take, in milliseconds (default 500). */
  readonly timeoutMs?: number;
  /**
   * When the answer has to be out (ms since the epoch, Date.now's clock): a git run gets no more
   * than what is left before then, and none is started with less than 50 ms left. The hook passes
   * its own deadline less what answering takes, so a slow git costs a "could not check", never
   * a late answer.
   */
  readonly answerBy?: number;
  /** Most bytes read from any one file (default 64 KB); `readText` may ask for less. */
  readonly maxBytes?: number;
  /**
   * The environment git runs in (default: this process's): the hook passes its call's, which in
   * the resident checker is the calling hook's, not the checker's own.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const DEFAULT_TIMEOUT_MS = 500;
const MIN_GIT_MS = 50;
const DEFAULT_MAX_BYTES = 64 * 1024;
// real paths kept at most, so a long `guard explain --jsonl` stream holds bounded memory
const MAX_CACHED_PATHS = 10_000;
// package lists and lock files are read whole up to this size: a cut list would name too few
const LIST_MAX_BYTES = 1024 * 1024;
// git's own output (a status of a large tree) may be bigger than any file we read
const GIT_MAX_BUFFER = 8 * 1024 * 1024;
// a list of untracked files may name a whole unignored build folder
const LIST_MAX_BUFFER = 64 * 1024 * 1024;
// more tracked files than this to ask about: one status of the whole tree instead of pathspecs
const MAX_LITERAL_SPECS = 500;

/**
 * The real Probe: bounded file reads, package lists, and `git` run with a hard timeout. Every
 * member answers undefined when it cannot tell (missing file, no repository, git absent, too slow);
 * gitUnchecked says which of those it was for git. Each git question is put as narrowly as the
 * rule's scope allows (literal pathspecs for the files and folders a step names, no untracked
 * files unless asked for them), so its cost follows what the step names, not the size of the
 * repository. A question about the whole tree (`git add -A`, `git commit -a`, `git clean` at the
 * top) is put in parts that look at no tracked file's contents or times: the untracked files by
 * `git ls-files --others`, and, when the caller needs only some files (secrets files), the tracked
 * ones git's ignore machinery picks out by name, then a status of just those. Only a whole-tree
 * question that wants every changed file costs a status of the whole tree (docs/performance.md,
 * "git questions at scale", has the measurements). Answers are cached for the life of the process
 * (one hook call, or one `guard explain`).
 */
export function createProbe(options: ProbeOptions = {}): Probe & TimedProbe {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const statusCache = new Map<string, GitStatus | undefined>();
  const listCache = new Map<string, readonly string[] | undefined>();
  const ignoredCache = new Map<string, boolean>();
  const packagesCache = new Map<string, ReadonlySet<string> | undefined>();
  // real paths of the paths asked and the folders above them: a `guard explain --jsonl` run asks of
  // the same few folders again and again, most of them missing (each missing one a thrown error)
  const realCache = new Map<string, string | undefined>();
  // repositories where a git question went unanswered
  const unanswered = new Set<string>();
  const read = (path: string, limit = maxBytes): string | undefined => readBounded(path, Math.min(limit, maxBytes));
  // once git was too slow, later questions in this process are not worth another wait
  let gitGaveUp = false;

  const git = (
    root: string,
    args: readonly string[],
    input?: string,
    maxBuffer = GIT_MAX_BUFFER,
  ): GitRun | undefined => {
    const budget = options.answerBy === undefined ? timeoutMs : Math.min(timeoutMs, options.answerBy - Date.now());
    if (gitGaveUp || budget < MIN_GIT_MS) {
      unanswered.add(root);
      return undefined;
    }
    const run = runGit(root, args, budget, input, maxBuffer, options.env ?? process.env);
    if (run === 'timeout') gitGaveUp = true;
    if (typeof run === 'string') unanswered.add(root);
    return typeof run === 'string' ? undefined : run;
  };

  /** `git status` of the pathspecs for `scope`, with or without untracked files. */
  const status = (cwd: string, scope: GitScope | undefined, untracked: boolean): GitStatus | undefined => {
    const root = repositoryRoot(cwd);
    if (root === undefined) return undefined;
    const specs = pathspecs(root, scope);
    if (specs === undefined) return NOTHING;
    const key = (withUntracked: boolean): string => [root, withUntracked ? 'all' : 'no', ...specs].join('\u0000');
    const whole = [root, 'all'].join('\u0000');
    // an answer with untracked files answers the question without them too; the whole tree, any scope
    for (const known of untracked ? [key(true), whole] : [key(false), key(true), whole])
      if (statusCache.has(known)) return statusCache.get(known);
    const run = git(root, [
      'status',
      '--porcelain=v1',
      '-z',
      '--no-renames',
      `--untracked-files=${untracked ? 'all' : 'no'}`,
      '--',
      ...specs,
    ]);
    if (run !== undefined && run.code !== 0) unanswered.add(root);
    const answer = run?.code === 0 ? parseStatus(root, run.stdout) : undefined;
    statusCache.set(key(untracked), answer);
    return answer;
  };

  /** `git ls-files -z <args>` from the top: the files it names, as absolute paths. */
  const list = (root: string, args: readonly string[]): readonly string[] | undefined => {
    const key = [root, ...args].join('\u0000');
    if (listCache.has(key)) return listCache.get(key);
    const run = git(root, ['ls-files', '-z', ...args], undefined, LIST_MAX_BUFFER);
    if (run !== undefined && run.code !== 0) unanswered.add(root);
    const answer = run?.code === 0 ? parseList(root, run.stdout) : undefined;
    listCache.set(key, answer);
    return answer;
  };

  /**
   * Tracked files with changes in the whole tree, of those the caller wants: git's ignore machinery
   * picks out the tracked files the screen names (it reads the index, not the files), the caller's
   * test the ones it wants of those, and a status of just them says which changed.
   */
  const wantedModified = (
    root: string,
    wanted: GitWanted & { screen: readonly string[] },
  ): readonly string[] | undefined => {
    // a status of the whole tree already made answers it
    for (const known of [[root, 'no'].join('\u0000'), [root, 'all'].join('\u0000')])
      if (statusCache.has(known)) return statusCache.get(known)?.modified.filter(wanted.test);
    const screened = list(root, ['--cached', '--ignored', ...wanted.screen.map((pattern) => `--exclude=${pattern}`)]);
    if (screened === undefined) return undefined;
    const paths = [...new Set(screened)].filter(wanted.test);
    if (paths.length === 0) return [];
    if (paths.length > MAX_LITERAL_SPECS) return status(root, undefined, false)?.modified.filter(wanted.test);
    return status(root, { paths }, false)?.modified;
  };

  return {
    readText: (path, limit) => read(path, limit),

    exists(path) {
      try {
        // lstat: a dangling link is still something a delete would remove
        return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? false : undefined;
      }
    },

    realpath: (path) => realPath(path, realCache),

    gitUntracked(cwd, scope) {
      const root = repositoryRoot(cwd);
      if (root === undefined) return undefined;
      // the whole tree: listing the untracked files costs half a status, which also checks every tracked one
      return wholeTree(root, scope)
        ? list(root, ['--others', '--exclude-standard'])
        : status(cwd, scope, true)?.untracked;
    },
    gitModified(cwd, scope, wanted) {
      const root = repositoryRoot(cwd);
      if (root === undefined) return undefined;
      const screen = wanted?.screen;
      return wanted !== undefined && screen !== undefined && wholeTree(root, scope)
        ? wantedModified(root, { test: wanted.test, screen })
        : status(cwd, scope, false)?.modified;
    },
    gitUnchecked(cwd) {
      const root = repositoryRoot(cwd);
      return root !== undefined && unanswered.has(root);
    },

    gitIgnored(cwd, paths) {
      const root = repositoryRoot(cwd);
      if (root === undefined) return undefined;
      // git refuses the whole question when one path lies outside the repository
      const inside = paths.filter((path) => isAbsolute(path) && (path === root || path.startsWith(`${root}/`)));
      const unknown = inside.filter((path) => !ignoredCache.has(`${root}\u0000${path}`));
      if (unknown.length > 0) {
        const run = git(root, ['check-ignore', '-z', '--stdin'], `${unknown.join('\u0000')}\u0000`);
        // exit 1 means "none of them is ignored"; anything else is a failure
        if (run === undefined || (run.code !== 0 && run.code !== 1)) return undefined;
        const ignored = new Set(run.stdout.split('\u0000').filter(Boolean));
        for (const path of unknown) ignoredCache.set(`${root}\u0000${path}`, ignored.has(path));
      }
      return new Set(inside.filter((path) => ignoredCache.get(`${root}\u0000${path}`) === true));
    },

    gitBranch(cwd) {
      const gitDir = gitDirectory(cwd);
      if (gitDir === undefined) return undefined;
      const head = readBounded(join(gitDir, 'HEAD'), 1024)?.trim();
      const branch = head === undefined ? undefined : /^ref: refs\/heads\/(.+)$/.exec(head)?.[1];
      return branch; // a detached HEAD has no branch
    },

    projectPackages(root) {
      if (!packagesCache.has(root))
        packagesCache.set(
          root,
          projectPackages(root, (path) => readBounded(path, LIST_MAX_BYTES)),
        );
      return packagesCache.get(root);
    },

    gaveUp: () => gitGaveUp,
  };
}

// ---------------------------------------------------------------------------------------------
// Files

/** At most `limit` bytes of a regular file as UTF-8; undefined for anything else or on any error. */
function readBounded(path: string, limit: number): string | undefined {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer that never comes
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.max(0, Math.min(limit, stat.size)));
    let filled = 0;
    while (filled < buffer.length) {
      const count = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return buffer.toString('utf8', 0, filled);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// git

interface GitRun {
  readonly code: number;
  readonly stdout: string;
}

interface GitStatus {
  readonly untracked: readonly string[];
  readonly modified: readonly string[];
}

function runGit(
  root: string,
  args: readonly string[],
  timeoutMs: number,
  input: string | undefined,
  maxBuffer: number,
  env: Readonly<Record<string, string | undefined>>,
): GitRun | 'timeout' | 'failed' {
  // loaded on first use: most hook calls never run git, and child_process is costly to load
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const result = spawnSync('git', ['-c', 'core.fsmonitor=false', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer,
    stdio: ['pipe', 'pipe', 'ignore'],
    windowsHide: true,
    // a status must never take the index lock from under the agent's own git, nor ask for input
    env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
  });
  if (result.error) return (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? 'timeout' : 'failed';
  if (result.status === null) return 'failed';
  return { code: result.status, stdout: result.stdout };
}

const NOTHING: GitStatus = { untracked: [], modified: [] };

/**
 * git pathspecs (from the top of the repository at `root`) for a scope: the named paths taken
 * literally; none for the whole tree, and undefined when every named path lies outside the
 * repository (nothing there to ask about).
 */
function pathspecs(root: string, scope: GitScope | undefined): readonly string[] | undefined {
  if (scope === undefined) return [];
  const specs: string[] = [];
  for (const path of scope.paths) {
    if (!isAbsolute(path)) return [];
    // the top or a folder above it: the whole tree
    if (path === root || root.startsWith(path.endsWith('/') ? path : `${path}/`)) return [];
    if (path.startsWith(`${root}/`)) specs.push(`:(top,literal)${path.slice(root.length + 1)}`);
  }
  return specs.length === 0 ? undefined : specs;
}

/** Whether `scope` asks about the whole tree of the repository at `root`. */
function wholeTree(root: string, scope: GitScope | undefined): boolean {
  const specs = pathspecs(root, scope);
  return specs !== undefined && specs.length === 0;
}

/**
 * Entries of `git ls-files -z`: paths from the top (an untracked repository inside as `dir/`), as
 * absolute paths. git names each already normal, so they are joined as text (path.join costs more
 * over a whole tree).
 */
function parseList(root: string, out: string): string[] {
  const top = root.endsWith('/') ? root : `${root}/`;
  return out
    .split('\u0000')
    .filter((entry) => entry !== '')
    .map((entry) => top + entry);
}

/** Entries of `git status --porcelain=v1 -z --no-renames`: `XY path`, paths relative to the root. */
function parseStatus(root: string, out: string): GitStatus {
  const untracked: string[] = [];
  const modified: string[] = [];
  for (const entry of out.split('\u0000')) {
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const path = join(root, entry.slice(3));
    if (code === '??') untracked.push(path);
    else if (code !== '!!') modified.push(path);
  }
  return { untracked, modified };
}

/** The folder at or above `cwd` that holds `.git` (a folder, or a file in worktrees and submodules). */
function repositoryRoot(cwd: string): string | undefined {
  if (!isAbsolute(cwd)) return undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The repository's git folder, following a `gitdir:` file. */
function gitDirectory(cwd: string): string | undefined {
  const root = repositoryRoot(cwd);
  if (root === undefined) return undefined;
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return undefined;
  }
  const pointer = /^gitdir: (.+)$/m.exec(readBounded(dotGit, 4096) ?? '')?.[1]?.trim();
  return pointer === undefined ? undefined : resolve(root, pointer);
}

// ---------------------------------------------------------------------------------------------
// Package lists

type Read = (path: string) => string | undefined;

/**
 * Names the project lists, lower-cased; Python names in their PEP 503 form (`Foo_Bar.baz` →
 * `foo-bar-baz`), so a caller compares `pip install` names after the same step. Undefined when the
 * folder has no list guard reads.
 */
function projectPackages(root: string, read: Read): ReadonlySet<string> | undefined {
  const names = new Set<string>();
  let found = false;
  const add = (list: Iterable<string>, normalise: (name: string) => string = lower): void => {
    found = true;
    for (const name of list) if (name) names.add(normalise(name));
  };
  const text = (file: string): string | undefined => read(join(root, file));

  const packageJson = jsonObject(text('package.json'));
  if (packageJson) {
    add(keysOf(packageJson, NPM_FIELDS));
    // a workspace's own packages list theirs in their own package.json
    for (const dir of workspaceFolders(root, packageJson, text('pnpm-workspace.yaml')))
      add(keysOf(jsonObject(text(join(dir, 'package.json'))), NPM_FIELDS));
  }
  const composer = jsonObject(text('composer.json'));
  if (composer) add(keysOf(composer, ['require', 'require-dev']));

  const pyproject = text('pyproject.toml');
  if (pyproject !== undefined) add(pyprojectNames(parseToml(pyproject)), pep503);
  for (const file of requirementFiles(root)) {
    const body = text(file);
    if (body !== undefined) add(requirementNames(body), pep503);
  }
  const uvLock = text('uv.lock');
  // every locked package starts `[[package]]` then `name = "…"`; no TOML parse needed for that
  if (uvLock !== undefined)
    add(
      [...uvLock.matchAll(/^\[\[package\]\]\r?\nname = "([^"]+)"/gm)].map((m) => m[1] ?? ''),
      pep503,
    );

  const cargo = text('Cargo.toml');
  if (cargo !== undefined) add(cargoNames(parseToml(cargo)));
  const goMod = text('go.mod');
  if (goMod !== undefined) add(goModules(goMod));
  const gemfile = text('Gemfile');
  if (gemfile !== undefined) add([...gemfile.matchAll(/^\s*gem\s+["']([^"']+)["']/gm)].map((m) => m[1] ?? ''));

  return found ? names : undefined;
}

const NPM_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const MAX_WORKSPACES = 200;

/**
 * Folders named by `workspaces` in package.json (a list, or `{ packages: [...] }`) or by
 * pnpm-workspace.yaml, relative to the root. Only the usual forms are read: `dir` and `dir/*`.
 */
function workspaceFolders(root: string, packageJson: Table, pnpmWorkspace: string | undefined): string[] {
  const field = packageJson.workspaces;
  const patterns = [...stringsOf(isTable(field) ? field.packages : field)];
  // pnpm-workspace.yaml: the items of its `packages:` list, read without a YAML parser
  const block =
    /^packages:[ \t]*\r?\n((?:[ \t]+-.*\r?\n?|[ \t]*#.*\r?\n?|[ \t]*\r?\n)*)/m.exec(pnpmWorkspace ?? '')?.[1] ?? '';
  for (const match of block.matchAll(/^[ \t]+-[ \t]*(['"]?)([^'"#\s]+)\1/gm)) patterns.push(match[2] ?? '');
  const folders: string[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!') || pattern.includes('..')) continue;
    const star = /^(.*?)\/\*{1,2}$/.exec(pattern);
    if (!star) {
      if (!/[*?[{]/.test(pattern)) folders.push(pattern);
      continue;
    }
    try {
      const parent = star[1] ?? '';
      for (const entry of readdirSync(join(root, parent), { withFileTypes: true }))
        if (entry.isDirectory()) folders.push(join(parent, entry.name));
    } catch {
      // a pattern naming no folder lists nothing
    }
  }
  return folders.slice(0, MAX_WORKSPACES);
}

function lower(name: string): string {
  return name.trim().toLowerCase();
}

/** PEP 503: runs of `-`, `_`, `.` become one `-`, lower-cased. */
function pep503(name: string): string {
  return name
    .trim()
    .replace(/[-_.]+/g, '-')
    .toLowerCase();
}

type Table = Readonly<Record<string, unknown>>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonObject(text: string | undefined): Table | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isTable(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function keysOf(table: Table | undefined, fields: readonly string[]): string[] {
  if (!table) return [];
  return fields.flatMap((field) => {
    const value = table[field];
    return isTable(value) ? Object.keys(value) : [];
  });
}

function parseToml(text: string): Table | undefined {
  try {
    // loaded on first use only: most steps never ask for a package list
    const { parse } = process.getBuiltinModule('node:module').createRequire(import.meta.url)(
      'smol-toml',
    ) as typeof import('smol-toml');
    const value: unknown = parse(text);
    return isTable(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The name at the start of a PEP 508 requirement: `requests[socks]>=2; python_version>"3"` → `requests`. */
function requirementName(spec: string): string {
  return /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] ?? '';
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function pyprojectNames(doc: Table | undefined): string[] {
  if (!doc) return [];
  const names: string[] = [];
  const project = isTable(doc.project) ? doc.project : undefined;
  names.push(...stringsOf(project?.dependencies).map(requirementName));
  const optional = project?.['optional-dependencies'];
  if (isTable(optional))
    for (const group of Object.values(optional)) names.push(...stringsOf(group).map(requirementName));
  const groups = doc['dependency-groups'];
  if (isTable(groups)) for (const group of Object.values(groups)) names.push(...stringsOf(group).map(requirementName));
  const tool = isTable(doc.tool) ? doc.tool : undefined;
  const poetry = isTable(tool?.poetry) ? tool.poetry : undefined;
  if (poetry) {
    names.push(
      ...keysOf(poetry, ['dependencies', 'dev-dependencies']).filter((name) => name.toLowerCase() !== 'python'),
    );
    if (isTable(poetry.group))
      for (const group of Object.values(poetry.group))
        names.push(...keysOf(isTable(group) ? group : undefined, ['dependencies']));
  }
  return names;
}

/** `requirements.txt`, `requirements-dev.txt`, … in the root folder. */
function requirementFiles(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((name) => /^requirements.*\.txt$/i.test(name))
      .slice(0, 20);
  } catch {
    return [];
  }
}

function requirementNames(text: string): string[] {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
      // options (`-r other.txt`, `--index-url …`, `-e .`) and bare URLs or paths name no package here
      .filter((line) => line !== '' && !line.startsWith('-') && !/^[\w+.-]+:\/\//.test(line) && !/^[./]/.test(line))
      .map(requirementName)
  );
}

const CARGO_SECTIONS = ['dependencies', 'dev-dependencies', 'build-dependencies'];

function cargoNames(doc: Table | undefined): string[] {
  if (!doc) return [];
  const tables: Table[] = [doc];
  if (isTable(doc.workspace)) tables.push(doc.workspace);
  if (isTable(doc.target)) for (const target of Object.values(doc.target)) if (isTable(target)) tables.push(target);
  const names: string[] = [];
  for (const table of tables) {
    for (const section of CARGO_SECTIONS) {
      const deps = table[section];
      if (!isTable(deps)) continue;
      for (const [key, spec] of Object.entries(deps)) {
        // `alias = { package = "real-name" }`: both spellings name the same crate
        names.push(key);
        if (isTable(spec) && typeof spec.package === 'string') names.push(spec.package);
      }
    }
  }
  return names;
}

/** Module paths in `require` lines and blocks of a go.mod. */
function goModules(text: string): string[] {
  const names: string[] = [];
  let inBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock) {
      if (line === ')') inBlock = false;
      else if (line) names.push(line.split(/\s+/)[0] ?? '');
    } else if (/^require\s*\($/.test(line)) {
      inBlock = true;
    } else {
      const single = /^require\s+(\S+)/.exec(line);
      if (single?.[1]) names.push(single[1]);
    }
  }
  return names;
}

/**
 * `path` with its links resolved: the longest part that exists, made real, and the rest as
 * written (a file about to be made in a linked folder lands in the real folder). Undefined when
 * not even the root can be resolved.
 */
function realPath(path: string, cache: Map<string, string | undefined>): string | undefined {
  if (!isAbsolute(path)) return undefined;
  let head = resolve(path);
  const rest: string[] = [];
  for (let i = 0; i < 64; i++) {
    const real = realFolder(head, cache);
    if (real !== undefined) return rest.length === 0 ? real : join(real, ...rest.reverse());
    const parent = dirname(head);
    if (parent === head) return undefined;
    rest.push(head.slice(parent.length).replace(/^[\\/]+/, ''));
    head = parent;
  }
  return undefined;
}

/**
 * The real path of `path` itself, undefined when it cannot be resolved, remembered in `cache`. A
 * path whose folder (already asked) cannot be resolved cannot be either: it is not asked again.
 */
function realFolder(path: string, cache: Map<string, string | undefined>): string | undefined {
  if (cache.has(path)) return cache.get(path);
  const parent = dirname(path);
  let real: string | undefined;
  if (parent === path || !cache.has(parent) || cache.get(parent) !== undefined) {
    try {
      real = realpathSync.native(path);
    } catch {
      real = undefined;
    }
  }
  if (cache.size >= MAX_CACHED_PATHS) cache.clear();
  cache.set(path, real);
  return real;
}
