// What the hook's CommonJS scripts share, in the one module each of them requires and which requires
// none of them (so their require graph is a tree): the build's id; the line protocol between the
// client (hook-entry.cts) and the resident checker (hook-server.cts; the lines' types are in
// hook-wire.cts), and the folder its socket may be in; and how the loaders (hook-load.cts,
// cli-load.cts) compile a bundle's text from V8's code cache and save that cache. The client loads
// it on every hook call, so it loads nothing more at its top (node:vm only when a bundle is compiled).
import fs = require('node:fs');
import path = require('node:path');
import type vm = require('node:vm');

/** The protocol between the client and the checker; a checker of another version answers "stale". */
const PROTOCOL = 2;

/**
 * What the checker keeps back of a call's deadline (up to half of it): it answers this much before
 * the call is due, so a client whose checker did not answer by then runs the call itself in what is
 * left, and the whole call still answers within the one deadline.
 */
const RESERVE_MS = 1_000;

/**
 * The build's id (`hook.bundle.id`, written by the build: a hash of the hook's scripts), or
 * undefined when it is missing or not an id. It names the socket of the checker (which answers
 * only clients of the same id) and the bundle's code cache (hook-load.cts): V8 checks a cache only
 * against the script's length and its own version, so a cache saved for another build of the same
 * length would run that build's code.
 */
function buildId(): string | undefined {
  try {
    const id = fs.readFileSync(path.join(__dirname, 'hook.bundle.id'), 'latin1').trim();
    return /^[0-9a-f]{16,64}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** One line of the protocol (a header or a frame) as a JSON object; undefined when it is not one. */
function objectOf(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a folder may hold the checker's socket: a real folder (not a link) of this user that
 * nobody else may enter (mode 0700). Anything else and the call runs in-process.
 */
function trustedFolder(dir: string): boolean {
  try {
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o777) === 0o700;
  } catch {
    return false;
  }
}

/** The socket of the checker of build `id`: named by the id, so builds in use side by side never meet. */
function socketPath(run: string, id: string): string {
  return path.join(run, `hook-${id.slice(0, 16)}.sock`);
}

/**
 * A bundle's text (the hook's, a lazy chunk, or the CLI's: cli-load.cts) as a script whose function
 * takes CommonJS's arguments and `__import`, compiled from `cachedData` when V8 accepts it.
 */
function scriptOf(
  source: string,
  filename: string,
  cachedData: Buffer | undefined,
): { script: vm.Script; cacheMissed: boolean } {
  const { Script } = process.getBuiltinModule('node:vm');
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`, {
    filename,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  return { script, cacheMissed: cachedData === undefined || script.cachedDataRejected === true };
}

/**
 * Writes a script's code cache to `cache` (write aside, rename in). Best effort: a folder this user
 * cannot write (a root-owned install) or any error leaves things as they were.
 */
function writeCache(script: vm.Script, cache: string): void {
  const temp = `${cache}.${process.pid}.tmp`;
  try {
    fs.accessSync(path.dirname(cache), fs.constants.W_OK);
    fs.writeFileSync(temp, script.createCachedData());
    fs.renameSync(temp, cache);
  } catch {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do: the next run tries again
    }
  }
}

export = { PROTOCOL, RESERVE_MS, buildId, objectOf, trustedFolder, socketPath, scriptOf, writeCache };
