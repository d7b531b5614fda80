import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// The scripts guard is started by: the hook entry agents run, the resident checker it hands calls
// to (hook-server.cjs, in the same dist/), and the CLI's bin.
const ENTRY = /^(?:hook-entry\.cjs|hook-server\.cjs|bin\.js)$/;
// In a checkout the CLI loads the other workspace packages through these links.
const WORKSPACE = ['@guard/core', '@guard/adapters'];

/**
 * The real folders holding the guard that is running (for guard.tamper): the package folder above
 * the `dist/` of the script Node started (`hook-entry.cjs`, `hook-server.cjs` or `bin.js`), and in a checkout the
 * workspace packages it loads. Empty when this process was not started through one of them (a
 * test runner): the rule then knows guard's program by its package name only.
 */
export function guardCodeFolders(entry: string | undefined = process.argv[1]): string[] {
  if (entry === undefined || !ENTRY.test(basename(entry))) return [];
  let dist: string;
  try {
    dist = realpathSync(dirname(entry));
  } catch {
    return [];
  }
  const own = dirname(dist);
  const out = [own];
  for (const name of WORKSPACE) {
    try {
      out.push(realpathSync(join(own, 'node_modules', name)));
    } catch {
      // installed from the package: everything is in the bundle
    }
  }
  return out;
}
