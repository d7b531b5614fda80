// The command agents run on every tool call: `node hook-entry.cjs hook <agent> [--event NAME]`
// (`guard hook …` through bin.js does the same, a little slower: it starts as an ES module).
import load = require('./hook-load.cjs');

void load.hookRuntime().then(async (runHook) => {
  process.exitCode = await runHook(process.argv.slice(3));
});
