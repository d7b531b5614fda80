// CommonJS on purpose (this file and hook-entry.cts): Node starts a CommonJS script measurably
// faster than an ES module, and the hook starts on every tool call of every agent.
import fs = require('node:fs');
import path = require('node:path');
import type vm = require('node:vm');
// what the hook's CommonJS scripts share: the build's id, compiling a bundle, saving its cache
import base = require('./hook-base.cjs');
import type {
  runHook as RunHook,
  processHookIo as ProcessHookIo,
  ancestorArgs as AncestorArgs,
} from './hook/run.js' with { 'resolution-mode': 'import' };
import type { RawStdio } from './hook/stdio.js' with { 'resolution-mode': 'import' };

/**
 * The hook's start-up is most of its cost. `npm run build` bundles the hook runtime and the engine
 * into one script (`hook.bundle.cjs`) and saves V8's compiled code for it (`hook.bundle-<id>.cache`), so
 * a call skips finding, reading, linking and compiling some eighty modules. What only some calls
 * need (the second opinion, the chat-start scan, a project policy) sits in lazy chunks next to it
 * (`hook-lazy-<name>-<hash>.cjs`, each with its own `.cache`), loaded the same way when a call first
 * needs one. A cache from another Node version is rejected by V8 and the script is simply compiled;
 * with no bundle (a plain `tsc --build`) the caller loads the hook runtime as modules.
 */
const BUNDLE = path.join(__dirname, 'hook.bundle.cjs');
/** Node's own require, for what the bundle leaves to Node (its built-ins, the lazily loaded packages). */
const nodeRequire: NodeJS.Require = require;
/**
 * The code of a lazy chunk's load error: the hook's failure answer asks on it (`BROKEN_CODE` in
 * hook/failure.ts, the same text; this CommonJS file loads nothing of the runtime to share it).
 */
const BROKEN_CODE = 'GUARD_CODE_BROKEN';

/** One script of the bundle as loaded: its file, the compiled script, and whether V8 had a usable cache. */
interface LoadedScript {
  readonly file: string;
  readonly script: vm.Script;
  readonly cacheMissed: boolean;
}

/** What the hook runtime's entry (hook/run.ts) exports. */
interface HookExports {
  readonly runHook: typeof RunHook;
  readonly processHookIo: typeof ProcessHookIo;
  readonly ancestorArgs: typeof AncestorArgs;
}

interface LoadedHook {
  readonly runHook: typeof RunHook;
  /** Everything the bundle exports. */
  readonly exports: HookExports;
  /** The compiled script, for saving its code cache after a warm-up (the build does that). */
  readonly script: vm.Script;
  /** V8 had no code cache it could use for the bundle: none was saved, or one from another Node version. */
  readonly cacheMissed: boolean;
  /** Every script loaded so far: the bundle first, then each lazy chunk as a call first needed it. */
  readonly scripts: readonly LoadedScript[];
}

/**
 * The code cache of a script of the bundle: the same name, `.cache` for `.cjs`; the bundle's own
 * holds the build's id (`hook.bundle-<id>.cache`), and with no id there is none. A lazy chunk's
 * name already holds a hash of its text.
 */
function cacheOf(file: string, id: string | undefined = base.buildId()): string | undefined {
  if (path.basename(file) !== 'hook.bundle.cjs') return file.replace(/\.cjs$/, '.cache');
  return id === undefined ? undefined : path.join(path.dirname(file), `hook.bundle-${id}.cache`);
}

/** Compiles one script of the bundle, from its code cache when `useCache` and V8 accepts it. */
function compile(
  file: string,
  useCache: boolean,
  id: string | undefined = base.buildId(),
): { script: vm.Script; cacheMissed: boolean } {
  // the build writes the bundle in ASCII only (see scripts/bundle-hook.mjs): latin1 is the cheapest read
  const source = fs.readFileSync(file, 'latin1');
  let cachedData: Buffer | undefined;
  const cache = useCache ? cacheOf(file, id) : undefined;
  if (cache !== undefined) {
    try {
      cachedData = fs.readFileSync(cache);
    } catch {
      // no cache: V8 compiles the script
    }
  }
  return base.scriptOf(source, file, cachedData);
}

/** The bundled hook runtime, or undefined when there is no bundle. */
function loadBundledHook(useCache = true): LoadedHook | undefined {
  const id = base.buildId();
  const modules = new Map<string, { exports: Record<string, unknown> }>();
  const scripts: LoadedScript[] = [];
  // A script made from V8's code cache cannot use import() itself on Node 20, so the bundle's few
  // rarely needed modules (the yaml parser, the MCP servers' start) are imported through this one.
  const lazyImport = (specifier: string): Promise<unknown> => import(specifier);
  /**
   * Runs one script of the bundle (once) and returns its exports. Its require() of another of them
   * (`./hook.bundle.cjs` from a chunk, `./hook-lazy-….cjs` from the bundle) is served here; a
   * missing or unreadable chunk throws, and the call fails as any failure does (never looser).
   */
  const load = (file: string): Record<string, unknown> => {
    const known = modules.get(file);
    if (known !== undefined) return known.exports;
    const { script, cacheMissed } = compile(file, useCache, id);
    const module = { exports: {} as Record<string, unknown> };
    modules.set(file, module);
    scripts.push({ file, script, cacheMissed });
    const requireHere = (specifier: string): unknown =>
      specifier.startsWith('./') ? loadChunk(path.join(__dirname, specifier.slice(2))) : nodeRequire(specifier);
    try {
      (script.runInThisContext() as (...args: unknown[]) => void)(
        module.exports,
        requireHere,
        module,
        file,
        __dirname,
        lazyImport,
      );
    } catch (error) {
      modules.delete(file);
      throw error;
    }
    return module.exports;
  };
  /** A lazy chunk (or the bundle, from a chunk); what goes wrong is said to be guard's own code broken. */
  const loadChunk = (file: string): Record<string, unknown> => {
    try {
      return load(file);
    } catch (error) {
      const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw Object.assign(new Error(`guard's own file ${path.basename(file)} could not be loaded (${cause})`), {
        code: BROKEN_CODE,
      });
    }
  };
  let exports: HookExports | undefined;
  try {
    exports = load(BUNDLE) as unknown as HookExports;
  } catch (error) {
    if (!fs.existsSync(BUNDLE)) return undefined;
    throw error;
  }
  const first = scripts[0];
  const runHook = exports.runHook as typeof RunHook | undefined;
  if (runHook === undefined || first === undefined) return undefined;
  return { runHook, exports, script: first.script, cacheMissed: first.cacheMissed, scripts };
}

/**
 * Saves V8's compiled code for a script of the bundle as this Node made it, so the next calls
 * start from it. Only for a script that found no usable cache: Node was upgraded since the build or
 * the install (V8 rejects another version's cache), or the cache is gone. After the answer, best
 * effort: a folder this user cannot write (a root-owned install) or any error leaves things as they
 * were.
 */
function saveCache(loaded: LoadedScript): void {
  const cache = cacheOf(loaded.file);
  if (cache !== undefined) base.writeCache(loaded.script, cache);
}

/** The hook runtime: bundled when the build made a bundle, else the modules. */
async function hookRuntime(): Promise<typeof RunHook> {
  const loaded = loadBundledHook();
  if (loaded === undefined) return (await import('./hook/run.js')).runHook;
  return async (...args) => {
    const code = await loaded.runHook(...args);
    // the bundle, and any lazy chunk this call loaded, that had no usable cache
    for (const script of loaded.scripts) if (script.cacheMissed) saveCache(script);
    return code;
  };
}

/**
 * A hook call in this process over `stdio`: the process's stdin read by someone else first (the
 * hook client, which hands what it read so far and the rest to the runtime when the resident
 * checker did not answer).
 */
async function hookRuntimeOver(stdio: RawStdio): Promise<(argv: readonly string[]) => Promise<number>> {
  const loaded = loadBundledHook();
  const exports: HookExports = loaded?.exports ?? (await import('./hook/run.js'));
  return async (argv) => {
    const code = await exports.runHook(argv, exports.processHookIo(stdio));
    for (const script of loaded?.scripts ?? []) if (script.cacheMissed) saveCache(script);
    return code;
  };
}

export = { BUNDLE, cacheOf, compile, loadBundledHook, hookRuntime, hookRuntimeOver, saveCache };
