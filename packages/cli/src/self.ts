import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This guard itself: its version and its hook entry script, both found relative to this file. That
// is why it sits at the top of src/: built, it is dist/self.js next to dist/hook-entry.cjs, and in
// the installable package every bundled module sits in dist/ too, so `./` and `../` mean the same
// in both. A module in a subfolder would find neither.

/** guard's version, from the package.json above dist/ (or src/). */
export function guardVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/**
 * The built hook entry script: dist/hook-entry.cjs next to this module (a CommonJS script, which
 * Node starts faster than the ES-module bin.js; `guard hook` through bin.js works the same). Run
 * from the TypeScript sources (tests), this module sits in src/, so the built script is in ../dist/.
 */
export function hookScriptPath(moduleUrl: string = import.meta.url): string {
  return fileURLToPath(new URL(moduleUrl.endsWith('.ts') ? '../dist/hook-entry.cjs' : './hook-entry.cjs', moduleUrl));
}

/** The CLI's own entry (`bin.js`), beside the hook's script. */
export function cliScriptPath(): string {
  return join(dirname(hookScriptPath()), 'bin.js');
}
