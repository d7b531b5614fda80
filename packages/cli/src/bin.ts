#!/usr/bin/env node
// Agents run `guard hook <agent>` on every tool call, so that path skips commander and main.ts
// entirely and loads only the hook runtime. Everything else goes through main().
if (process.argv[2] === 'hook') {
  const { runHook } = await import('./hook.js');
  process.exitCode = await runHook(process.argv.slice(3));
} else {
  const { main } = await import('./main.js');
  process.exitCode = await main(process.argv);
}
