// CommonJS, as hook-load.cts: bin.js loads it with one import and it loads the bundle as a script.
import fs = require('node:fs');
import path = require('node:path');
import type vm = require('node:vm');
// how a bundle's text is compiled and its code cache written (as the hook's loader does)
import base = require('./hook-base.cjs');
import type { main as Main } from './main.js' with { 'resolution-mode': 'import' };

/**
 * `guard explain` starts from one script. `npm run build` bundles the CLI's main() with explain,
 * the engine and the probe into `cli.bundle.cjs` (scripts/bundle-cli.mjs) and saves V8's compiled
 * code for it after a pass over the corpus, so a run skips finding, reading, linking and compiling
 * some hundred and thirty modules. The bundle's first line names its build (`//guard-cli <hash>`),
 * and its code cache is `cli.bundle-<hash>.cache`: V8 checks a cache against the length of the
 * source only, so a cache is never read for a bundle of another build.
 *
 * Unlike the hook's, a bundle that is missing or cannot be loaded is not an error: the caller runs
 * the CLI from its modules, with the same answers. A cache that V8 rejects (another Node) or that
 * is missing is made again, when the folder can be written.
 */
const BUNDLE = path.join(__dirname, 'cli.bundle.cjs');
/** The bundle's first line: the build's hash (hex), as scripts/bundle-cli.mjs writes it. */
const HEADER = /^\/\/guard-cli ([0-9a-f]{16,64})\n/;
/** Node's own require, for what the bundle leaves to Node (its built-ins, the lazily loaded packages). */
const nodeRequire: NodeJS.Require = require;

interface LoadedCli {
  readonly main: typeof Main;
  /** The compiled script, for saving its code cache (the build does that after a warm-up). */
  readonly script: vm.Script;
  /** Where this build's code cache is. */
  readonly cache: string;
  /** V8 had no code cache it could use: none was saved for this build, or one from another Node. */
  readonly cacheMissed: boolean;
}

/** The code cache of the bundle whose text is `source` (undefined when its first line names no build). */
function cacheFor(source: string, bundle: string = BUNDLE): string | undefined {
  const hash = HEADER.exec(source)?.[1];
  return hash === undefined ? undefined : bundle.replace(/\.cjs$/, `-${hash}.cache`);
}

/**
 * The bundled CLI, or undefined when there is none or it cannot be loaded (unreadable, torn, not
 * this build's format, or its top level throws): then the caller loads the modules.
 */
function loadBundledCli(useCache = true, bundle: string = BUNDLE): LoadedCli | undefined {
  try {
    // the build writes the bundle in ASCII only (as the hook's): latin1 is the cheapest read
    const source = fs.readFileSync(bundle, 'latin1');
    const cache = cacheFor(source, bundle);
    if (cache === undefined) return undefined;
    let cachedData: Buffer | undefined;
    if (useCache) {
      try {
        cachedData = fs.readFileSync(cache);
      } catch {
        // no cache for this build: V8 compiles the script
      }
    }
    const { script, cacheMissed } = base.scriptOf(source, bundle, cachedData);
    const module = { exports: {} as Record<string, unknown> };
    // a script made from V8's code cache cannot use import() itself on Node 20: the bundle's few
    // lazily loaded packages (a project policy's yaml, TOML) are imported through this function
    const lazyImport = (specifier: string): Promise<unknown> => import(specifier);
    (script.runInThisContext() as (...args: unknown[]) => void)(
      module.exports,
      nodeRequire,
      module,
      bundle,
      path.dirname(bundle),
      lazyImport,
    );
    const main = module.exports.main;
    if (typeof main !== 'function') return undefined;
    return {
      main: main as typeof Main,
      script,
      cache,
      cacheMissed,
    };
  } catch {
    return undefined;
  }
}

/**
 * The bundled CLI's main(), or undefined without a usable bundle. Where V8 had no cache it could
 * use, one is saved at once (best effort: a folder this user cannot write leaves things as they
 * were), before the run: `guard explain --jsonl` raises V8's interrupt budget,
 * and V8 rejects a cache made under other flags than those of the process that reads it, so a cache
 * saved after such a run would be made again by every run. (The build's cache, saved after a
 * warm-up, holds more of the compiled code.)
 */
function bundledMain(): typeof Main | undefined {
  const loaded = loadBundledCli();
  if (loaded === undefined) return undefined;
  if (loaded.cacheMissed) base.writeCache(loaded.script, loaded.cache);
  return loaded.main;
}

export = { BUNDLE, HEADER, cacheFor, loadBundledCli, bundledMain };
