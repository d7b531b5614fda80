// CommonJS on purpose (this file and hook-entry.cts): Node starts a CommonJS script measurably
// faster than an ES module, and the hook starts on every tool call of every agent.
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');
import type { runHook as RunHook } from './hook/run.js' with { 'resolution-mode': 'import' };

/**
 * The hook's start-up is most of its cost. `npm run build` bundles the hook runtime and the engine
 * into one script (`hook.bundle.cjs`) and saves V8's compiled code for it (`hook.bundle.cache`), so
 * a call skips finding, reading, linking and compiling some eighty modules. A cache from another
 * Node version is rejected by V8 and the script is simply compiled; with no bundle (a plain
 * `tsc --build`) the caller loads the hook runtime as modules.
 */
const BUNDLE = path.join(__dirname, 'hook.bundle.cjs');
const CACHE = path.join(__dirname, 'hook.bundle.cache');

interface LoadedHook {
  readonly runHook: typeof RunHook;
  /** The compiled script, for saving its code cache after a warm-up (the build does that). */
  readonly script: vm.Script;
  /** V8 had no code cache it could use: none was saved, or one from another Node version. */
  readonly cacheMissed: boolean;
}

/** The bundled hook runtime, or undefined when there is no bundle. */
function loadBundledHook(useCache = true): LoadedHook | undefined {
  let source: string;
  try {
    // the build writes the bundle in ASCII only (see scripts/bundle-hook.mjs): latin1 is the cheapest read
    source = fs.readFileSync(BUNDLE, 'latin1');
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      cachedData = fs.readFileSync(CACHE);
    } catch {
      // no cache: V8 compiles the script
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`, {
    filename: BUNDLE,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const loaded = { exports: {} as { runHook?: typeof RunHook } };
  // A script made from V8's code cache cannot use import() itself on Node 20, so the bundle's few
  // rarely needed modules (the yaml parser, the chat-start scan) are imported through this one.
  const lazyImport = (specifier: string): Promise<unknown> => import(specifier);
  (script.runInThisContext() as (...args: unknown[]) => void)(
    loaded.exports,
    require,
    loaded,
    BUNDLE,
    __dirname,
    lazyImport,
  );
  const runHook = loaded.exports.runHook;
  if (runHook === undefined) return undefined;
  return { runHook, script, cacheMissed: cachedData === undefined || script.cachedDataRejected === true };
}

/**
 * Saves V8's compiled code for the bundle as this Node made it, so the next calls start from it.
 * Only for a call that found no usable cache: Node was upgraded since the build or the install (V8
 * rejects another version's cache), or the cache is gone. After the answer, best effort: a folder
 * this user cannot write (a root-owned install) or any error leaves things as they were.
 */
function saveCache(script: vm.Script): void {
  const temp = `${CACHE}.${process.pid}.tmp`;
  try {
    fs.accessSync(__dirname, fs.constants.W_OK);
    fs.writeFileSync(temp, script.createCachedData());
    fs.renameSync(temp, CACHE);
  } catch {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do: the answer is out, and the next call tries again
    }
  }
}

/** The hook runtime: bundled when the build made a bundle, else the modules. */
async function hookRuntime(): Promise<typeof RunHook> {
  const loaded = loadBundledHook();
  if (loaded === undefined) return (await import('./hook/run.js')).runHook;
  if (!loaded.cacheMissed) return loaded.runHook;
  return async (...args) => {
    const code = await loaded.runHook(...args);
    saveCache(loaded.script);
    return code;
  };
}

export = { BUNDLE, CACHE, loadBundledHook, hookRuntime };
