#!/usr/bin/env node
// Agents run the hook on every tool call, so that path skips commander and main.ts entirely and
// loads only the hook runtime (see hook-load.cts). Everything else goes through main().
if (process.argv[2] === 'hook') {
  const { default: load } = await import('./hook-load.cjs');
  const runHook = await load.hookRuntime();
  // (a pipe or socket stdin is read through a handle the runtime closes, so the process ends on its own)
  process.exitCode = await runHook(process.argv.slice(3));
} else {
  const { main } = await import('./main.js');
  process.exitCode = await main(process.argv);
}
