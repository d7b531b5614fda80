import type { Mapped } from './mapped.js';
import { resolvePath } from './paths.js';
import type { Token } from './tokens.js';

interface Entry {
  /** undefined: set to something the reader cannot know (`read X`, `unset X`). */
  readonly value: string | undefined;
  readonly exported: boolean;
  /** The value is text as written that holds an unknown part (`X=$(pwd)/a`). */
  readonly dynamic: boolean;
  /** A `for NAME in words` loop variable: each word it takes in turn (its value is then undefined). */
  readonly loop?: LoopValues;
  /** `$@` and `$*` inside a function call or `sh -c TEXT name args…`: each argument. */
  readonly list?: readonly string[];
  /** An alias: the text it stands for, as written. */
  readonly alias?: Mapped;
  /** A function defined in the line. */
  readonly fn?: FunctionDef;
}

/** A shell function defined earlier in the line (`f() { …; }`): its body, read where it is called. */
export interface FunctionDef {
  readonly name: string;
  readonly body: readonly Token[];
  /** Called somewhere in the line (a function never called is read where it is defined). */
  called: boolean;
}

/** What an alias or a function is stored under, apart from the variables. */
const ALIAS = '\u0000alias:';
const FUNCTION = '\u0000function:';

/** The words a loop variable takes, and how many more words its uses may still expand to. */
export interface LoopValues {
  readonly values: readonly string[];
  left: number;
}

/** A variable's value; `dynamic` when it holds an unresolved variable or a substitution. */
export interface VarValue {
  readonly text: string;
  readonly dynamic: boolean;
}

/**
 * One layer of variables. Layers chain to their parent (a subshell sees its parent's variables);
 * past a `boundary` (an inner shell) only exported ones are visible. Chains are at most as long
 * as the nesting bound, so nothing is ever copied.
 */
interface Layer {
  /** Created on the first assignment: most layers never get one. */
  vars: Map<string, Entry> | undefined;
  readonly parent: Layer | undefined;
  readonly boundary: boolean;
}

/** What commands earlier in the line changed: variables, the working directory, the pushd stack. */
export interface Scope {
  readonly layer: Layer;
  cwd: string;
  cwdKnown: boolean;
  oldCwd: string | undefined;
  dirs: string[];
  readonly home: string;
  readonly tmp: string | undefined;
  /** guard's own folder, for `$GUARD_HOME` (so `cd $GUARD_HOME && rm x` names a file there). */
  readonly guardHome: string | undefined;
  /**
   * What the line's substitutions print, when the reader knows it (`$(echo rm -rf x)`, `<(printf
   * …)`): shared by every scope of one read, filled in as the substitutions are read.
   */
  readonly printed: Map<object, Mapped>;
}

/** The scope a line starts in. */
export function rootScope(
  cwd: string,
  home: string,
  tmp: string | undefined,
  guardHome?: string,
  printed: Map<object, Mapped> = new Map(),
): Scope {
  // the layer and the list apart from the scope: a literal nested in a literal takes a runtime call
  const layer: Layer = { vars: undefined, parent: undefined, boundary: false };
  const dirs: string[] = [];
  return { layer, cwd, cwdKnown: true, oldCwd: undefined, dirs, home, tmp, guardHome, printed };
}

/**
 * A scope for a subshell (`boundary` false: sees everything) or an inner shell (`boundary` true:
 * sees exported variables only). Changes inside never reach the parent.
 */
export function childScope(scope: Scope, boundary: boolean, cwd = scope.cwd, cwdKnown = scope.cwdKnown): Scope {
  return scopeOf(scope, { vars: undefined, parent: scope.layer, boundary }, cwd, cwdKnown, [...scope.dirs]);
}

/** The same scope (same variables and pushd stack, shared) in another working directory. */
export function withCwd(scope: Scope, cwd: string, cwdKnown: boolean): Scope {
  return scopeOf(scope, scope.layer, cwd, cwdKnown, scope.dirs);
}

// Field by field (docs/performance.md, "Field by field, not by spread").
function scopeOf(scope: Scope, layer: Layer, cwd: string, cwdKnown: boolean, dirs: string[]): Scope {
  return {
    layer,
    cwd,
    cwdKnown,
    oldCwd: scope.oldCwd,
    dirs,
    home: scope.home,
    tmp: scope.tmp,
    guardHome: scope.guardHome,
    printed: scope.printed,
  };
}

/** A scope on another computer (`ssh host …`): its home and working directory are not known here. */
export function remoteScope(printed?: Map<object, Mapped>): Scope {
  const scope = rootScope('~', '~', undefined, undefined, printed);
  scope.cwdKnown = false;
  return scope;
}

/** Sets a variable for the rest of this scope (`undefined`: set to an unknown value). */
export function setVar(scope: Scope, name: string, value: string | undefined, exported = false, dynamic = false): void {
  const previous = lookupEntry(scope.layer, name);
  scope.layer.vars ??= new Map();
  scope.layer.vars.set(name, { value, exported: exported || (previous?.exported ?? false), dynamic });
}

/**
 * Sets a `for NAME in words` loop variable: unknown as one value, but a word that uses it stands
 * for one word per value (see expandWord). `budget` bounds how many words all its uses may become.
 */
export function setLoopVar(scope: Scope, name: string, values: readonly string[], budget: number): void {
  const previous = lookupEntry(scope.layer, name);
  scope.layer.vars ??= new Map();
  scope.layer.vars.set(name, {
    value: undefined,
    exported: previous?.exported ?? false,
    dynamic: false,
    loop: { values, left: budget },
  });
}

/** The words a loop variable takes, when `name` is one (looked up as lookupVar does). */
export function loopValues(scope: Scope, name: string, caseless: boolean): LoopValues | undefined {
  return findEntry(scope, name, caseless)?.loop;
}

/** Marks a variable as exported (`export NAME`), keeping its value. */
export function exportVar(scope: Scope, name: string): void {
  const previous = lookupEntry(scope.layer, name);
  if (!previous) return;
  scope.layer.vars ??= new Map();
  scope.layer.vars.set(name, {
    value: previous.value,
    exported: true,
    dynamic: previous.dynamic,
    ...(previous.loop === undefined ? {} : { loop: previous.loop }),
  });
}

/** The value of a variable exported earlier in the line (what a program it runs finds in its environment). */
export function exportedValue(scope: Scope, name: string): string | undefined {
  const entry = lookupEntry(scope.layer, name);
  return entry?.exported === true ? entry.value : undefined;
}

/** A variable's entry, by its name as written, else (PowerShell, `caseless`) in either case. */
function findEntry(scope: Scope, name: string, caseless: boolean): Entry | undefined {
  return (
    lookupEntry(scope.layer, name) ??
    (caseless
      ? (lookupEntry(scope.layer, name.toUpperCase()) ?? lookupEntry(scope.layer, name.toLowerCase()))
      : undefined)
  );
}

function lookupEntry(start: Layer, name: string): Entry | undefined {
  let crossed = false;
  for (let layer: Layer | undefined = start; layer; layer = layer.parent) {
    const entry = layer.vars?.get(name);
    if (entry && (!crossed || entry.exported)) return entry;
    if (layer.boundary) crossed = true;
  }
  return undefined;
}

/**
 * The value of a variable: set earlier in the line, or one of the folders the reader knows
 * (home, temp, working directory). undefined when it cannot be known.
 */
export function lookupVar(scope: Scope, name: string, caseless: boolean): VarValue | undefined {
  const entry = findEntry(scope, name, caseless);
  if (entry) return entry.value === undefined ? undefined : { text: entry.value, dynamic: entry.dynamic };
  const text = knownFolder(scope, caseless ? name.toUpperCase() : name);
  return text === undefined ? undefined : { text, dynamic: false };
}

/**
 * Binds `$1`…`$9`, `$#`, `$@` and `$*` to a call's arguments (a function call, `sh -c TEXT name
 * args…`), in this scope's own layer.
 */
export function setPositional(scope: Scope, args: readonly string[]): void {
  const vars = (scope.layer.vars ??= new Map());
  const all = args.join(' ');
  for (let i = 1; i <= 9; i++) vars.set(String(i), { value: args[i - 1] ?? '', exported: false, dynamic: false });
  vars.set('#', { value: String(args.length), exported: false, dynamic: false });
  vars.set('@', { value: all, exported: false, dynamic: false, list: args });
  vars.set('*', { value: all, exported: false, dynamic: false, list: args });
}

/** The arguments `"$@"` stands for, when a call bound them (see setPositional). */
export function positionalList(scope: Scope): readonly string[] | undefined {
  return lookupEntry(scope.layer, '@')?.list;
}

/** `alias NAME=VALUE`: kept as the text VALUE is written in. */
export function setAlias(scope: Scope, name: string, value: Mapped | undefined): void {
  scope.layer.vars ??= new Map();
  const entry: Entry =
    value === undefined
      ? { value: undefined, exported: false, dynamic: false }
      : { value: value.text, exported: false, dynamic: false, alias: value };
  scope.layer.vars.set(ALIAS + name, entry);
}

/** The text an alias stands for, when one of that name was set earlier in the line. */
export function aliasOf(scope: Scope, name: string): Mapped | undefined {
  return lookupEntry(scope.layer, ALIAS + name)?.alias;
}

/** `name() { …; }`: the function, for the calls that follow. */
export function setFunction(scope: Scope, fn: FunctionDef): void {
  scope.layer.vars ??= new Map();
  scope.layer.vars.set(FUNCTION + fn.name, { value: undefined, exported: false, dynamic: false, fn });
}

/** The function of that name defined earlier in the line, if any. */
export function functionOf(scope: Scope, name: string): FunctionDef | undefined {
  return lookupEntry(scope.layer, FUNCTION + name)?.fn;
}

function knownFolder(scope: Scope, name: string): string | undefined {
  switch (name) {
    // unset, IFS splits words on blanks and new lines (`rm${IFS}-rf`)
    case 'IFS':
      return ' \t\n';
    case 'HOME':
    case 'USERPROFILE':
      return scope.home;
    case 'TMPDIR':
    case 'TMP':
    case 'TEMP':
      return scope.tmp;
    case 'PWD':
      return scope.cwdKnown ? scope.cwd : undefined;
    case 'GUARD_HOME':
      return scope.guardHome;
    case 'OLDPWD':
      return scope.oldCwd;
    default:
      return undefined;
  }
}

/** Changes directory the way `cd` does; `target` undefined means `cd` alone (home). */
export function changeDirectory(scope: Scope, target: { text: string; dynamic: boolean } | undefined): void {
  const before = scope.cwd;
  const beforeKnown = scope.cwdKnown;
  if (target === undefined) {
    scope.cwd = scope.home;
    scope.cwdKnown = scope.home !== '~';
  } else if (target.text === '-') {
    if (scope.oldCwd === undefined) scope.cwdKnown = false;
    else scope.cwd = scope.oldCwd;
  } else {
    scope.cwd = resolvePath(scope.cwd, target.text);
    scope.cwdKnown = !target.dynamic && (isAbsolute(target.text) || scope.cwdKnown);
  }
  scope.oldCwd = beforeKnown ? before : undefined;
}

/** True for `/x`, `C:\x`, `C:/x` and `\\server\share`. */
export function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}
