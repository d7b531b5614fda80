/**
 * Facts about one path as the rules see it: where it lands (project, regenerable output, temp,
 * home, system folders, a device) and what it is (a stored secret, an agent's rules or settings,
 * one of guard's own files, a shell start-up file). Pure: the caller passes the folders in.
 */
import { GUARD_PACKAGE } from '../product.js';
import type { AgentKnowledge } from './agents.js';
import {
  AGENT_FOLDER,
  AGENT_HOOKS,
  AGENT_MCP,
  AGENT_MEMORY,
  AGENT_RULES,
  AGENT_SETTINGS,
  agentKinds,
  NO_AGENTS,
} from './agents.js';
import { globMatch, segmentMatch } from './glob.js';

export { globMatch } from './glob.js';

export interface PathContext {
  /** Absolute effective cwd that relative paths start from. */
  readonly cwd: string;
  readonly projectRoot: string;
  readonly home: string;
  /** The system temp folder (e.g. `/tmp`); `/tmp` and `/var/tmp` always count as temp too. */
  readonly tmp: string;
  /** guard's own folder (settings, state, log); defaults to `~/.local/state/guard`. */
  readonly guardHome?: string;
  /** The real folders holding guard's own program (see Environment.guardCode). */
  readonly guardCode?: readonly string[];
  /** The agents' files and the variables that move their folders (none when left out). */
  readonly agents?: AgentKnowledge;
  /**
   * Project policy globs naming more secret files. `~/…` is under home, `/…` is absolute, anything
   * else is under the project root; a glob without `/` matches a file or folder name at any depth.
   */
  readonly extraSecrets?: readonly string[];
}

export type Place = 'project' | 'regenerable' | 'temp' | 'home' | 'root' | 'outside' | 'device' | 'unresolved';

export type SecretKind =
  | 'env-file'
  | 'ssh'
  | 'private-key'
  | 'package-token'
  | 'cloud-login'
  | 'git-credentials'
  | 'terraform-state'
  | 'browser-data'
  | 'keychain'
  | 'policy';

export type AgentRulesKind = 'rules' | 'settings' | 'mcp' | 'git-hooks' | 'ci' | 'memory-note';
/**
 * `install`: the installed guard package (`…/node_modules/agent-step-guard/…`), whose files every
 * hook command runs.
 */
export type GuardFileKind = 'guard-home' | 'policy' | 'hook-config' | 'install';

export interface PathFacts {
  /** As written. */
  readonly raw: string;
  /** Absolute and normalised (`/` separators, `.`/`..` collapsed, `~` expanded); '' when unresolved. */
  readonly abs: string;
  /**
   * Where it lands. `root` is `/` (or a drive root), any folder directly under it, and the folders
   * directly under `/usr`, `/var`, `/private`, `/System`, `/Library` and `C:\Windows`. The project
   * root, home and their contents are never `root`, even when they sit at that depth.
   */
  readonly place: Place;
  /** The home folder itself, or every entry in it (`~`, `~/`, `$HOME`, `~/*`). */
  readonly isHome: boolean;
  /** `/` itself, every entry in it (`/*`), or a Windows drive root (`C:\`). */
  readonly isRoot: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[`). */
  readonly glob: boolean;
  readonly secret?: SecretKind;
  readonly agentRules?: AgentRulesKind;
  readonly guardFile?: GuardFileKind;
  /** A file that makes something start by itself (shell start-up files, autostart, cron, services). */
  readonly persistence?: boolean;
}

/** True when `child` is `parent` itself or lies below it (both absolute and normalised). */
export function isInside(child: string, parent: string): boolean {
  if (child === '' || parent === '') return false;
  if (child === parent) return true;
  // no `${parent}/` string per call: this runs many times for every path
  return child.startsWith(parent) && (parent.endsWith('/') || child.charCodeAt(parent.length) === 47);
}

// ---------------------------------------------------------------------------------------------
// Reading the word: quotes, escapes, globs, Windows forms, well-known variables

interface Word {
  readonly text: string;
  readonly glob: boolean;
}

const WINDOWS_START = /^(?:[A-Za-z]:(?:[\\/]|$)|\\\\|\.{1,2}\\|%[A-Za-z_]+%|\$env:)/i;
// A word whose first separator is a backslash (`dist\*.map`, `/tmp\out` after `$env:TEMP`): what a
// PowerShell or cmd.exe line leaves, since a POSIX reading has already taken its escapes out.
const BACKSLASH_SEPARATED = /^[\w.~%$/-][^\\'"]*\\[^\\\s]/;

// Strips shell quotes, notes unquoted glob characters, and turns Windows separators into `/`.
function readWord(raw: string): Word {
  if (!/['"\\*?[]/.test(raw)) return { text: raw, glob: false };
  const windows = WINDOWS_START.test(raw) || BACKSLASH_SEPARATED.test(raw);
  let text = '';
  let glob = false;
  let quote = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (quote !== '') {
      if (c === quote) quote = '';
      else text += c === '\\' && windows ? '/' : c;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '\\') {
      if (windows) text += '/';
      else if (i + 1 < raw.length) text += raw[++i];
    } else {
      if (c === '*' || c === '?' || c === '[') glob = true;
      text += c;
    }
  }
  return { text, glob };
}

interface Folders {
  readonly cwd: string;
  readonly project: string;
  readonly projectDepth: number;
  readonly home: string;
  readonly homeDepth: number;
  readonly temps: readonly string[];
  readonly guardHome: string;
  readonly guardCode: readonly string[];
  /** The agents' files and folder variables. */
  readonly agents: AgentKnowledge;
  /** The project's `.guard.yaml`, built once. */
  readonly policyFile: string;
}

/** The folders a context names, made absolute and normalised. */
function foldersOf(ctx: PathContext): Folders {
  const home = normalise(readWord(ctx.home).text, '/');
  const sub = (value: string | undefined, fallback: string): string =>
    value === undefined ? `${home}/${fallback}` : normalise(readWord(value).text, '/');
  const project = normalise(readWord(ctx.projectRoot).text, '/');
  const agents = ctx.agents ?? NO_AGENTS;
  return {
    cwd: normalise(readWord(ctx.cwd).text, '/'),
    project,
    projectDepth: segmentsOf(project).length,
    home,
    homeDepth: segmentsOf(home).length,
    temps: [normalise(readWord(ctx.tmp).text, '/'), '/tmp', '/var/tmp'],
    guardHome: sub(ctx.guardHome, '.local/state/guard'),
    guardCode: (ctx.guardCode ?? []).map((folder) => normalise(readWord(folder).text, '/')),
    agents,
    policyFile: `${project === '/' ? '' : project}/.guard.yaml`,
  };
}

/**
 * Classifies the paths of one step (`ctx`), relative to its cwd or another one (`cd x && …`): the
 * folders are worked out when the first path is asked about, and once for each other cwd.
 */
export function pathClassifier(ctx: PathContext): (raw: string, cwd?: string) => PathFacts {
  let own: Folders | undefined;
  let others: Map<string, Folders> | undefined;
  return (raw, cwd = ctx.cwd) => {
    own ??= foldersOf(ctx);
    if (cwd === ctx.cwd) return classify(raw, ctx, own);
    others ??= new Map();
    let folders = others.get(cwd);
    if (folders === undefined) {
      folders = inFolder(own, normalise(readWord(cwd).text, '/'));
      others.set(cwd, folders);
    }
    return classify(raw, ctx, folders);
  };
}

// The same folders seen from another cwd, field by field in the order of the literal above
// (docs/performance.md, "Field by field, not by spread").
function inFolder(f: Folders, cwd: string): Folders {
  return {
    cwd,
    project: f.project,
    projectDepth: f.projectDepth,
    home: f.home,
    homeDepth: f.homeDepth,
    temps: f.temps,
    guardHome: f.guardHome,
    guardCode: f.guardCode,
    agents: f.agents,
    policyFile: f.policyFile,
  };
}

// Variables whose value guard may know, as a prefix of the path (`$HOME/x`, `%TEMP%\x`): its own
// and the system's, and those naming an agent's folder (Folders.agents)
const KNOWN_PREFIX =
  /^(?:\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?|%(USERPROFILE|TEMP|TMP)%|\$env:(USERPROFILE|TEMP|TMP|HOME))(?=\/|$)/i;
const UNRESOLVED = /\$[A-Za-z_{(0-9@*#?!$-]|`|%[A-Za-z_][A-Za-z0-9_]*%/;

interface Expanded {
  /** The path with known variables and `~` replaced; relative paths stay relative. */
  readonly text: string;
  readonly unresolved: boolean;
  /** For `~user/…`: the part after the other user's home folder. */
  readonly otherHomeRest?: string;
}

// `$(mktemp)`, `$(mktemp -d)`, `$(mktemp -d -t name.XXXXXX)`: a new name in the system temp folder
// (a template without -t, or -p DIR, puts it elsewhere and stays unresolved)
const MKTEMP = /^\$\(mktemp(?:\s+-[dqu]+)*(?:\s+(?:-t|--tmpdir(?:=|\s+))\s*[\w.-]+)?(?:\s+-[dqu]+)*\s*\)(?=\/|$)/;

function expand(text: string, f: Folders): Expanded {
  if (text === '~' || text.startsWith('~/')) return { text: f.home + text.slice(1), unresolved: false };
  if (text.startsWith('$(mktemp')) {
    const made = MKTEMP.exec(text);
    if (made) {
      const out = `${f.temps[0] as string}/tmp.mktemp${text.slice(made[0].length)}`;
      return { text: out, unresolved: UNRESOLVED.test(out) };
    }
  }
  const own = whereGuardIs(text, f);
  if (own !== undefined) return own;
  const other = /^~([A-Za-z0-9._-]+)(\/.*)?$/.exec(text);
  if (other) return { text, unresolved: true, otherHomeRest: (other[2] ?? '').slice(1) };
  const known = KNOWN_PREFIX.exec(text);
  let out = text;
  const value = known
    ? known[1] === undefined
      ? knownValue(known[2] ?? known[3] ?? '', f)
      : namedValue(known[1], f)
    : undefined;
  if (known && value !== undefined) out = value + text.slice(known[0].length);
  if (out !== '' && UNRESOLVED.test(out)) {
    // `/tmp/$(whoami)-cache`, `/tmp/run-$$`: whatever they print is one plain name, never a `/`
    const named = out.replace(ONE_NAME, 'name');
    return named === out ? { text: out, unresolved: true } : { text: named, unresolved: UNRESOLVED.test(named) };
  }
  return { text: out, unresolved: out === '' };
}

/** What `$NAME` stands for, when guard knows it: its own and the system's folders, an agent's folder. */
function namedValue(name: string, f: Folders): string | undefined {
  const upper = name.toUpperCase();
  if (KNOWN_NAMES.has(upper)) return knownValue(upper, f);
  return Object.hasOwn(f.agents.variables, upper) ? f.agents.variables[upper] : undefined;
}

const KNOWN_NAMES = new Set(['HOME', 'USERPROFILE', 'TMPDIR', 'TMP', 'TEMP', 'PWD', 'GUARD_HOME']);

/** The folder a variable guard knows stands for (`name` in capitals, or as `%…%` and `$env:` spell it). */
function knownValue(name: string, f: Folders): string {
  const upper = name.toUpperCase();
  return upper === 'HOME' || upper === 'USERPROFILE'
    ? f.home
    : upper === 'PWD'
      ? f.cwd
      : upper === 'GUARD_HOME'
        ? f.guardHome
        : (f.temps[0] as string);
}

/** Substitutions and shell values that stand for one name without a separator. */
/** `$(npm root -g)`: the folder the global packages are in. */
const GLOBAL_ROOT = /^(?:\$\(|`)\s*p?npm\s+root\s+(?:-g|--global)\s*(?:\)|`)(?=\/|$)/;
/** A substitution that asks the shell where guard's program is (`$(which guard)`, `$(command -v guard)`). */
const WHERE_IS_GUARD = new RegExp(
  String.raw`^(?:\$\(|\x60)[^/]*?(?:which|command\s+-v|type\s+-p|whereis)\s+["']?(?:guard|${GUARD_PACKAGE})\b`,
);

/**
 * Paths built from where guard is installed, which guard works out itself: `$(npm root -g)` is the
 * `node_modules` folder that holds its package (a node_modules folder when guard runs from
 * elsewhere), and a path built on `$(which guard)` (through `readlink`, `realpath`, `dirname`) is in
 * its package.
 */
function whereGuardIs(text: string, f: Folders): Expanded | undefined {
  const root = GLOBAL_ROOT.exec(text);
  if (root !== null) {
    const installed = f.guardCode.find((code) => parentOf(code).endsWith('/node_modules'));
    const rest = text.slice(root[0].length);
    return installed === undefined
      ? { text: `$(npm root -g)/node_modules${rest}`, unresolved: true }
      : { text: parentOf(installed) + rest, unresolved: UNRESOLVED.test(rest) };
  }
  if (!WHERE_IS_GUARD.test(text)) return undefined;
  const code = f.guardCode[0];
  return code === undefined
    ? { text: `$(which guard)/node_modules/${GUARD_PACKAGE}`, unresolved: true }
    : { text: code, unresolved: false };
}

const ONE_NAME =
  /\$\((?:whoami|id -[ug]n?|hostname|uuidgen|date \+[%A-Za-z0-9_.:-]*)\)|\$\$|\$\{?(?:RANDOM|PPID|BASHPID)\}?(?![A-Za-z0-9_])/g;

const DRIVE = /^([A-Za-z]):(?:\/|$)/;

// Absolute, `/`-separated, no `.`/`..`/empty segments; `/` or `C:/` for roots.
function normalise(path: string, cwd: string): string {
  // a drive needs `:` as the second character; most paths skip the regex
  const drive = path.charCodeAt(1) === 58 ? DRIVE.exec(path) : null;
  let base: string;
  let rest: string;
  if (drive) {
    base = `${(drive[1] as string).toUpperCase()}:/`;
    rest = path.slice(2);
  } else if (path.startsWith('/')) {
    base = '/';
    rest = path;
  } else {
    const cwdDrive = cwd.charCodeAt(1) === 58 ? DRIVE.exec(cwd) : null;
    base = cwdDrive ? `${(cwdDrive[1] as string).toUpperCase()}:/` : '/';
    rest = `${cwdDrive ? cwd.slice(2) : cwd}/${path}`;
  }
  // most paths are already clean (one `/` between segments, none `.` or `..`): no split and join
  if (rest.charCodeAt(0) === 47 && !UNCLEAN.test(rest)) return base + rest.slice(1);
  const out: string[] = [];
  for (const seg of rest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return base + out.join('/');
}

/** An empty, `.` or `..` segment in a `/`-led path. */
const UNCLEAN = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/** A normalised absolute path on a Windows drive (`C:/…`); the regex only when `:` is second. */
function onDrive(abs: string): boolean {
  return abs.charCodeAt(1) === 58 && DRIVE.test(abs);
}

// `abs` is normalised: one separator between segments, `/` or `C:/` in front.
function segmentsOf(abs: string): string[] {
  const rest = abs.charCodeAt(1) === 58 /* : */ ? abs.slice(3) : abs.slice(1);
  return rest === '' ? [] : rest.split('/');
}

// Collapses `.`/`..` in a relative path that could not be resolved, to name-match what is left.
function relativeSegments(text: string): string[] {
  const out: string[] = [];
  for (const seg of text.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The facts

const REGENERABLE = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  'coverage',
  '__pycache__',
  '.pytest_cache',
  '.turbo',
  '.cache',
  '.mypy_cache',
  '.ruff_cache',
  // virtual environments, tool caches and framework build folders, made again by one command
  '.venv',
  'venv',
  '.tox',
  '.nox',
  'htmlcov',
  '.nyc_output',
  '.gradle',
  '.parcel-cache',
  '.svelte-kit',
  '.nuxt',
  '.output',
  '.angular',
  '.dart_tool',
  '.docusaurus',
  'storybook-static',
  '_build',
  // .NET's and C's intermediate objects, and .NET's test results
  'obj',
  'TestResults',
]);

/** `bin/Debug`, `bin/Release`: .NET's build output (a `bin` folder alone may hold the project's scripts). */
function dotnetOutput(projRel: readonly string[]): boolean {
  for (let i = 1; i < projRel.length; i++) {
    if (projRel[i - 1] === 'bin' && (projRel[i] === 'Debug' || projRel[i] === 'Release')) return true;
  }
  return false;
}

/** Folders named after what made them (`mypkg.egg-info`). */
const REGENERABLE_END = /\.egg-info$/;

function regenerableFolder(seg: string): boolean {
  return REGENERABLE.has(seg) || REGENERABLE_END.test(seg);
}

/**
 * Files a build or a tool makes again by itself: compiled Python and objects, folder-view litter,
 * lint caches, and the logs a package manager leaves when a run fails.
 */
const REGENERABLE_FILES = new Set(['.DS_Store', 'Thumbs.db', '.eslintcache', '.stylelintcache']);
const REGENERABLE_FILE_END =
  /\.(?:py[co]|py\[co\]|o|tsbuildinfo)$|^(?:npm-debug|yarn-debug|yarn-error|pnpm-debug|lerna-debug)\.log/;

function regenerableFile(name: string | undefined): boolean {
  return name !== undefined && (REGENERABLE_FILES.has(name) || REGENERABLE_FILE_END.test(name));
}

const SYSTEM_PARENTS = new Set(['usr', 'var', 'private', 'System', 'Library']);

/** Everything the rules want to know about one path word (a step's many paths: see pathClassifier). */
export function pathFacts(raw: string, ctx: PathContext): PathFacts {
  return classify(raw, ctx, foldersOf(ctx));
}

function classify(raw: string, ctx: PathContext, f: Folders): PathFacts {
  const word = readWord(raw);
  const expanded = expand(word.text, f);

  if (expanded.unresolved) {
    const segs = relativeSegments(expanded.text);
    const homeRel = expanded.otherHomeRest === undefined ? undefined : relativeSegments(expanded.otherHomeRest);
    const names: Names = { segs, homeRel, projRel: undefined, abs: '', dotted: segs.some(isDotted) };
    return withKinds(
      { raw, abs: '', place: 'unresolved', isHome: false, isRoot: false, glob: word.glob },
      names,
      ctx,
      f,
    );
  }

  const abs = normalise(expanded.text, f.cwd);
  const segs = segmentsOf(abs);
  const isDriveRoot = onDrive(abs) && segs.length === 0;
  const allOf = word.glob && /^\*+$/.test(segs[segs.length - 1] ?? '');
  const container = allOf ? parentOf(abs) : abs;
  const isRoot =
    abs === '/' || isDriveRoot || container === '/' || (container.length === 3 && /^[A-Z]:\/$/.test(container));
  const isHome = container === f.home;
  // a project root at `/` (or a drive root) says nothing about where a path lands
  const inProject = f.projectDepth > 0 && isInside(abs, f.project);
  const names: Names = {
    segs,
    homeRel: homeRelative(abs, segs, f),
    projRel: inProject ? segs.slice(f.projectDepth) : undefined,
    abs,
    dotted: segs.some(isDotted),
  };
  return withKinds(
    { raw, abs, place: placeOf(abs, segs, names.projRel, f), isHome, isRoot, glob: word.glob },
    names,
    ctx,
    f,
  );
}

function parentOf(abs: string): string {
  const cut = abs.lastIndexOf('/');
  const parent = abs.slice(0, cut);
  return parent === '' ? '/' : parent.length === 2 && /^[A-Z]:$/.test(parent) ? `${parent}/` : parent;
}

function placeOf(abs: string, segs: readonly string[], projRel: readonly string[] | undefined, f: Folders): Place {
  if (abs === '/dev' || abs.startsWith('/dev/')) return 'device';
  if (segs.length === 0) return 'root';
  if (abs === f.home) return 'home';
  if (projRel !== undefined) {
    return projRel.some(regenerableFolder) || regenerableFile(projRel[projRel.length - 1]) || dotnetOutput(projRel)
      ? 'regenerable'
      : 'project';
  }
  const first = segs[0] as string;
  const windows = onDrive(abs);
  if (segs.length === 1 || (segs.length === 2 && (windows ? first === 'Windows' : SYSTEM_PARENTS.has(first)))) {
    return 'root';
  }
  // the deeper of the two decides: a home in the temp folder (a container's, a CI runner's) is
  // still a home, and a temp folder in the home (`TMPDIR=~/tmp`) still a temp folder
  const temp = f.temps.find((t) => isInside(abs, t));
  if (isInside(abs, f.home) && (temp === undefined || isInside(f.home, temp))) return 'home';
  return temp === undefined ? 'outside' : 'temp';
}

// The part of a path below a home folder: ours, or one that looks like another user's.
function homeRelative(abs: string, segs: readonly string[], f: Folders): string[] | undefined {
  if (isInside(abs, f.home)) return segs.slice(f.homeDepth);
  const [a, b] = segs;
  if (a === 'root') return segs.slice(1);
  if ((a === 'home' || a === 'Users') && b !== undefined) return segs.slice(2);
  return undefined;
}

interface Names {
  /** All segments (absolute when resolved, else what could be read). */
  readonly segs: readonly string[];
  /** Segments below a home folder, when the path is in one. */
  readonly homeRel: readonly string[] | undefined;
  /** Segments below the project root, when the path is in it. */
  readonly projRel: readonly string[] | undefined;
  readonly abs: string;
  /**
   * Some segment starts with `.` or `_`. Every tool and cloud folder the checks below look for
   * does (`.git`, `.husky`, `.aws` …), so a path without one skips those checks.
   */
  readonly dotted: boolean;
}

const isDotted = (seg: string): boolean => seg.charCodeAt(0) === 46 || seg.charCodeAt(0) === 95;

type BaseFacts = Omit<PathFacts, 'secret' | 'agentRules' | 'guardFile' | 'persistence'>;

function withKinds(base: BaseFacts, n: Names, ctx: PathContext, f: Folders): PathFacts {
  const secret = secretOf(n, ctx);
  const agent = agentKinds(n, f.agents);
  const agentRules = agentRulesOf(n, agent);
  const guardFile = guardFileOf(n, f, agent);
  const persistence = isPersistence(n);
  // most paths are none of these: the base facts are the answer as they are
  if (!secret && !agentRules && !guardFile && !persistence) return base;
  // field by field (docs/performance.md, "Field by field, not by spread")
  return {
    raw: base.raw,
    abs: base.abs,
    place: base.place,
    isHome: base.isHome,
    isRoot: base.isRoot,
    glob: base.glob,
    ...(secret && { secret }),
    ...(agentRules && { agentRules }),
    ...(guardFile && { guardFile }),
    ...(persistence && { persistence }),
  };
}

// ---------------------------------------------------------------------------------------------
// Name helpers

/** Index of `names` appearing as consecutive segments, or -1. */
function seq(segs: readonly string[], ...names: readonly string[]): number {
  outer: for (let i = 0; i + names.length <= segs.length; i++) {
    for (let j = 0; j < names.length; j++) if (segs[i + j] !== names[j]) continue outer;
    return i;
  }
  return -1;
}

/** True when `segs` starts with `names`. */
function startsWith(segs: readonly string[] | undefined, ...names: readonly string[]): boolean {
  if (segs === undefined) return false;
  for (let i = 0; i < names.length; i++) if (segs[i] !== names[i]) return false;
  return true;
}

/** True when `segs` ends with `names`. */
function endsWith(segs: readonly string[], ...names: readonly string[]): boolean {
  const off = segs.length - names.length;
  if (off < 0) return false;
  for (let i = 0; i < names.length; i++) if (segs[off + i] !== names[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Secrets

// Suffixes that mark a committed template rather than real values (`.env.example`, `sample.env`).
const ENV_TEMPLATES = new Set([
  'example',
  'examples',
  'sample',
  'samples',
  'template',
  'templates',
  'tmpl',
  'tpl',
  'dist',
  'defaults',
  'default',
  'schema',
]);

function isEnvFile(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === '.env' || lower === '.envrc') return true;
  if (/^\.env[.\-_*]/.test(lower)) {
    return !lower
      .slice(5)
      .split(/[.\-_]/)
      .some((part) => ENV_TEMPLATES.has(part));
  }
  if (lower.length > 4 && lower.endsWith('.env')) {
    return !lower
      .slice(0, -4)
      .split(/[.\-_]/)
      .some((part) => ENV_TEMPLATES.has(part));
  }
  return false;
}

function words(stem: string): string[] {
  return stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

const PUBLIC_WORDS = new Set(['pub', 'public', 'pubkey']);
const CERT_WORDS = new Set([
  'cert',
  'certs',
  'certificate',
  'crt',
  'ca',
  'cacert',
  'chain',
  'fullchain',
  'bundle',
  'cabundle',
  'csr',
  'dh',
  'dhparam',
  'dhparams',
]);
const PRIVATE_WORDS = new Set(['key', 'private', 'priv', 'privkey', 'secret']);

// `*.pem`/`*.key` count unless the name says public, or (for .pem) says certificate and not key.
function isPrivateKeyFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return false;
  const ext = name.slice(dot + 1).toLowerCase();
  if (ext === 'p12' || ext === 'pfx') return true;
  if (ext !== 'pem' && ext !== 'key') return false;
  const w = words(name.slice(0, dot));
  if (w.some((x) => PUBLIC_WORDS.has(x))) return false;
  if (ext === 'pem' && w.some((x) => CERT_WORDS.has(x)) && !w.some((x) => PRIVATE_WORDS.has(x))) return false;
  return true;
}

const BROWSER_FILES_LIST = [
  'Cookies',
  'Login Data',
  'Login Data For Account',
  'Web Data',
  'cookies.sqlite',
  'logins.json',
  'key4.db',
  'key3.db',
  'signons.sqlite',
];
const BROWSER_FILES = new Set(BROWSER_FILES_LIST);
const BROWSER_FOLDER =
  /^(?:google-chrome(?:-beta|-unstable)?|chrome|chromium|brave-browser|bravesoftware|microsoft[- ]edge|edge|\.mozilla|mozilla|firefox|vivaldi|opera(?: software)?)$/;

/**
 * Names of secret files a pattern is tried against (`.e?v`, `.en*`, `id_*`, `.np[m]rc`): a
 * pattern the shell would expand to one of them names that secret.
 */
const SECRET_NAMES = [
  '.env',
  '.env.local',
  '.env.production',
  'id_rsa',
  'id_ed25519',
  'id_ecdsa',
  '.npmrc',
  '.pypirc',
  '.netrc',
  '.git-credentials',
];

/** The secret name a pattern (the last part of a path) would match, as the shell expands it. */
function secretMatched(name: string): string | undefined {
  if (!/[*?[]/.test(name) || name.length > 64) return undefined;
  // a bare `*` or `*.*` picks everything, which is no spelling of a secret; a pattern names one
  if (name.replace(/[*?[\]!^-]/g, '').length < 2) return undefined;
  let source = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i] as string;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = name.indexOf(']', i + 2);
      if (close < 0) source += '\\[';
      else {
        source += `[${name
          .slice(i + 1, close)
          .replace(/^[!^]/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`);
  // the shell's patterns match a leading dot only when they spell it
  return SECRET_NAMES.find((secret) => re.test(secret) && (secret[0] !== '.' || name[0] === '.'));
}

/** ssh's own names for a private key, wherever the file is (`deploy/id_ed25519`). */
const SSH_KEY_NAME = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/;

/**
 * Patterns in git's ignore-file syntax that every file secretOf calls a secret matches, by its own
 * name or a folder's above it (policy globs aside): git screens a whole tree's files with them
 * (`git ls-files -i -x …`), and only the few that match are tested here. A screen, so wider than
 * secretOf (any case, any folder); it must never be narrower: a new secret there needs its mark here.
 */
export const SECRET_SCREEN: readonly string[] = [
  // .env files (any spelling of the name), keys and certificates, terraform state, keychains
  '*.[eE][nN][vV]*',
  '*.[pP][eE][mM]',
  '*.[kK][eE][yY]',
  '*.[pP]12',
  '*.[pP][fF][xX]',
  '*.[tT][fF][sS][tT][aA][tT][eE]*',
  '*.[kK][eE][yY][cC][hH][aA][iI][nN]*',
  'id_*',
  // names read as a shell pattern (a file called `.e?v`)
  '*[[*?]*',
  '.npmrc',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  'Cookies.binarycookies',
  ...BROWSER_FILES_LIST,
  // folders whose files are secrets (a pattern for a folder takes in every file below it)
  '.ssh',
  '.gnupg',
  '.aws',
  '.config',
  '.docker',
  '.kube',
  '.azure',
  'Keychains',
  'keyrings',
];

function secretOf(n: Names, ctx: PathContext): SecretKind | undefined {
  const { segs, homeRel } = n;
  const last = segs[segs.length - 1];
  if (last === undefined) return undefined;
  const matched = secretMatched(last);
  const name = matched ?? last;

  // Anything in ~/.ssh except public keys and known hosts; the folder itself too.
  const ssh = segs.lastIndexOf('.ssh');
  if (ssh >= 0) {
    if (ssh === segs.length - 1) return 'ssh';
    if (!name.endsWith('.pub') && !name.startsWith('known_hosts')) return 'ssh';
    return extraSecret(n, ctx);
  }
  if (isEnvFile(name)) return 'env-file';
  if (n.dotted && (seq(segs, '.gnupg', 'private-keys-v1.d') >= 0 || endsWith(segs, '.gnupg', 'secring.gpg'))) {
    return 'private-key';
  }
  if (isPrivateKeyFile(name) || SSH_KEY_NAME.test(name)) return 'private-key';
  if (name === '.npmrc' || name === '.pypirc') return 'package-token';
  if (name === '.netrc' || name === '_netrc' || name === '.git-credentials') return 'git-credentials';
  if (n.dotted && isCloudLogin(segs, homeRel)) return 'cloud-login';
  if (name.endsWith('.tfstate') || name.endsWith('.tfstate.backup')) return 'terraform-state';
  if (name === 'Cookies.binarycookies') return 'browser-data';
  if (BROWSER_FILES.has(name) && segs.some((s) => BROWSER_FOLDER.test(s.toLowerCase()))) return 'browser-data';
  if (
    startsWith(homeRel, 'Library', 'Keychains') ||
    startsWith(segs, 'Library', 'Keychains') ||
    startsWith(homeRel, '.local', 'share', 'keyrings') ||
    name.endsWith('.keychain') ||
    name.endsWith('.keychain-db')
  ) {
    return 'keychain';
  }
  return extraSecret(n, ctx);
}

function isCloudLogin(segs: readonly string[], homeRel: readonly string[] | undefined): boolean {
  const aws = segs.lastIndexOf('.aws');
  if (aws >= 0) {
    const rest = segs.slice(aws + 1);
    if (rest.length === 0 || (rest.length === 1 && rest[0] === 'credentials')) return true;
    if ((rest[0] === 'sso' || rest[0] === 'cli') && rest[1] === 'cache') return true;
  }
  return (
    endsWith(segs, '.config', 'gh', 'hosts.yml') ||
    endsWith(segs, '.docker', 'config.json') ||
    endsWith(segs, '.kube', 'config') ||
    seq(segs, '.config', 'gcloud') >= 0 ||
    // a project may have its own `.azure` folder (azd), so only the one in a home folder counts
    startsWith(homeRel, '.azure')
  );
}

function extraSecret(n: Names, ctx: PathContext): SecretKind | undefined {
  for (const glob of ctx.extraSecrets ?? []) {
    const g = glob.replace(/\/+$/, '');
    if (g.startsWith('~/')) {
      if (n.homeRel !== undefined && underGlob(g.slice(2), n.homeRel)) return 'policy';
    } else if (g.startsWith('/')) {
      if (n.abs !== '' && underGlob(g, n.abs.split('/'))) return 'policy';
    } else {
      const rel = g.replace(/^\.\//, '');
      if (!rel.includes('/')) {
        if ((n.projRel ?? n.segs).some((s) => segmentMatch(rel, s))) return 'policy';
      } else if (n.projRel !== undefined && underGlob(rel, n.projRel)) {
        return 'policy';
      }
    }
  }
  return undefined;
}

// The glob names the path itself or a folder above it.
function underGlob(glob: string, segs: readonly string[]): boolean {
  const path = segs.join('/');
  return globMatch(glob, path) || globMatch(`${glob}/**`, path);
}

// ---------------------------------------------------------------------------------------------
// Agent rules, settings and checks

const GIT_HOOK_FILES = new Set([
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  'lefthook-local.yaml',
]);
const CI_FILES = new Set([
  '.gitlab-ci.yml',
  'azure-pipelines.yml',
  'azure-pipelines.yaml',
  'Jenkinsfile',
  '.travis.yml',
  'bitbucket-pipelines.yml',
  '.drone.yml',
]);
/** What a path is to the agents' rules and checks: git's and CI's here, the agents' own by their patterns. */
function agentRulesOf(n: Names, agent: number): AgentRulesKind | undefined {
  const { segs } = n;
  const name = segs[segs.length - 1];
  if (name === undefined) return undefined;
  // git's and CI's own folders are dotted: without one, only their files' names can match
  if (!n.dotted) {
    if (GIT_HOOK_FILES.has(name)) return 'git-hooks';
    if (CI_FILES.has(name)) return 'ci';
  } else if (
    seq(segs, '.git', 'hooks') >= 0 ||
    endsWith(segs, '.git', 'config') ||
    segs.includes('.husky') ||
    GIT_HOOK_FILES.has(name)
  ) {
    return 'git-hooks';
  } else if (
    seq(segs, '.github', 'workflows') >= 0 ||
    seq(segs, '.github', 'actions') >= 0 ||
    segs.includes('.circleci') ||
    segs.includes('.buildkite') ||
    CI_FILES.has(name)
  ) {
    return 'ci';
  }
  if (agent === 0) return undefined;
  if ((agent & AGENT_MCP) !== 0) return 'mcp';
  if ((agent & AGENT_SETTINGS) !== 0) return 'settings';
  if ((agent & AGENT_MEMORY) !== 0) return 'memory-note';
  if ((agent & AGENT_RULES) !== 0) return 'rules';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// guard's own files and the agents' hook files

const POLICY_NAME = '.guard.yaml';

function guardFileOf(n: Names, f: Folders, agent: number): GuardFileKind | undefined {
  const { segs, abs } = n;
  const name = segs[segs.length - 1];
  if (abs !== '' && isInside(abs, f.guardHome)) return 'guard-home';
  // a folder above guard's own (`~/.local/state`), but not home, the project or a top-level folder
  if (
    abs !== '' &&
    isInside(f.guardHome, abs) &&
    abs !== f.home &&
    abs !== f.project &&
    segs.length >= 2 &&
    (n.homeRel === undefined || n.homeRel.length > 0)
  ) {
    return 'guard-home';
  }
  if (abs !== '' && abs === f.policyFile) return 'policy';
  if (name === undefined) return undefined;
  // a project policy anywhere (a nested repository's, a subfolder's): guard reads the nearest one
  if (name === POLICY_NAME) return 'policy';
  // guard's own program, wherever it is installed or checked out, and every folder holding it
  for (const code of f.guardCode) {
    if (isInside(abs, code) || (isInside(code, abs) && abs !== f.home && segs.length >= 2)) return 'install';
  }
  const pkg = segs.indexOf(GUARD_PACKAGE);
  if (pkg > 0 && segs[pkg - 1] === 'node_modules') return 'install';
  // the agents' hook files and folders, and the settings that switch their hooks off
  if ((agent & (AGENT_HOOKS | AGENT_FOLDER)) !== 0) return 'hook-config';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Persistence

const SHELL_STARTUP = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.bash_aliases',
]);

const POWERSHELL_PROFILE = /^\$\{?profile\}?(?:\.\w+)?$/i;

function isPersistence(n: Names): boolean {
  const { segs, homeRel, abs } = n;
  const name = segs[segs.length - 1] ?? '';
  const top = homeRel?.[0];
  // every folder below asked about starts with one of these three (most paths skip them all)
  if (
    homeRel !== undefined &&
    (homeRel.length === 1 || top === '.config' || top === 'Library' || top === 'Documents' || top === '.bashrc.d')
  ) {
    if (homeRel.length === 1 && SHELL_STARTUP.has(name)) return true;
    // the folder whose scripts ~/.bashrc sources on some systems (Fedora's)
    if (top === '.bashrc.d') return true;
    if (
      startsWith(homeRel, '.config', 'fish', 'config.fish') ||
      startsWith(homeRel, '.config', 'fish', 'conf.d') ||
      startsWith(homeRel, '.config', 'autostart') ||
      startsWith(homeRel, '.config', 'systemd', 'user') ||
      startsWith(homeRel, 'Library', 'LaunchAgents')
    ) {
      return true;
    }
    const powershell =
      startsWith(homeRel, 'Documents', 'PowerShell') ||
      startsWith(homeRel, 'Documents', 'WindowsPowerShell') ||
      startsWith(homeRel, '.config', 'powershell');
    if (powershell && homeRel.length === 3 && /profile\.ps1$/i.test(name)) return true;
  }
  // PowerShell's own variable for its profile script (`Add-Content $PROFILE …`)
  if (segs.length === 1 && POWERSHELL_PROFILE.test(name)) return true;
  // the length test first: no lower-cased copy of every segment
  const startup = segs.findIndex((s) => s.length === 7 && s.toLowerCase() === 'startup');
  if (startup >= 2 && /^start menu\/programs$/i.test(`${segs[startup - 2]}/${segs[startup - 1]}`)) return true;
  if (abs === '' || onDrive(abs)) return false;
  const [a, b] = segs;
  if (a === 'etc') {
    return (
      (b !== undefined && (b.startsWith('cron') || b === 'anacrontab')) ||
      b === 'rc.local' ||
      b === 'profile' ||
      b === 'profile.d' ||
      b === 'bash.bashrc' ||
      b === 'init.d' ||
      startsWith(segs, 'etc', 'systemd', 'system') ||
      startsWith(segs, 'etc', 'systemd', 'user') ||
      startsWith(segs, 'etc', 'xdg', 'autostart')
    );
  }
  return (
    startsWith(segs, 'var', 'spool', 'cron') ||
    startsWith(segs, 'Library', 'LaunchAgents') ||
    startsWith(segs, 'Library', 'LaunchDaemons')
  );
}
