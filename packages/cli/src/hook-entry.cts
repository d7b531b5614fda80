// The command agents run on every tool call: `node hook-entry.cjs hook <agent> [--event NAME]`
// (`guard hook …` through bin.js does the same, a little slower: it starts as an ES module).
import load = require('./hook-load.cjs');

void load.hookRuntime().then(async (runHook) => {
  // exit at once: an agent that left stdin open would otherwise keep the process (and the agent)
  // waiting on a read that cannot be cancelled, after the answer went out
  process.exit(await runHook(process.argv.slice(3)));
});
