#!/usr/bin/env node
// Agents run the hook on every tool call, so that path skips commander and main.ts entirely and
// loads only the hook runtime (see hook-load.cts). `guard explain` runs from the CLI bundle where the
// build made one (see cli-load.cts); everything else, or explain without a usable bundle, goes
// through main() from the modules.
if (process.argv[2] === 'hook') {
  const { default: load } = await import('./hook-load.cjs');
  const runHook = await load.hookRuntime();
  // (a pipe or socket stdin is read through a handle the runtime closes, so the process ends on its own)
  process.exitCode = await runHook(process.argv.slice(3));
} else {
  const bundled = process.argv[2] === 'explain' ? (await import('./cli-load.cjs')).default.bundledMain() : undefined;
  const { main } = bundled === undefined ? await import('./main.js') : { main: bundled };
  process.exitCode = await main(process.argv);
}
