import { resolvePath } from './paths.js';

interface Entry {
  /** undefined: set to something the reader cannot know (`read X`, `unset X`). */
  readonly value: string | undefined;
  readonly exported: boolean;
  /** The value is text as written that holds an unknown part (`X=$(pwd)/a`). */
  readonly dynamic: boolean;
  /** A `for NAME in words` loop variable: each word it takes in turn (its value is then undefined). */
  readonly loop?: LoopValues;
}

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
}

/** The scope a line starts in. */
export function rootScope(cwd: string, home: string, tmp: string | undefined, guardHome?: string): Scope {
  // the layer and the list apart from the scope: a literal nested in a literal takes a runtime call
  const layer: Layer = { vars: undefined, parent: undefined, boundary: false };
  const dirs: string[] = [];
  return { layer, cwd, cwdKnown: true, oldCwd: undefined, dirs, home, tmp, guardHome };
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
  };
}

/** A scope on another computer (`ssh host …`): its home and working directory are not known here. */
export function remoteScope(): Scope {
  const scope = rootScope('~', '~', undefined);
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

function knownFolder(scope: Scope, name: string): string | undefined {
  switch (name) {
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
