#!/usr/bin/env node
// guard's cost inside the real agents (the pinned Codex, Copilot, Claude Code and Gemini CLI, offline, against the e2e fake
// models): the median wall time of one agent run that makes one harmless tool call, with guard's
// hook and with no-op hook commands in its place. A measurement to read, not a test to pass.
// Usage: npm run build && node scripts/agent-overhead.mjs [runs per variant, default 7]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 7);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node scripts/agent-overhead.mjs [runs per variant, a whole number above 0]');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'guard-overhead-'));
const out = join(dir, 'results.json');
const vitest = spawnSync('npx', ['vitest', 'run', 'test/e2e/overhead.test.ts'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, GUARD_OVERHEAD_RUNS: String(runs), GUARD_OVERHEAD_OUT: out },
});
if (vitest.status !== 0) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(vitest.status ?? 1);
}
const results = JSON.parse(readFileSync(out, 'utf8'));
rmSync(dir, { recursive: true, force: true });
console.log(`\nmedian wall time of one agent run (one tool call, ${runs} runs per variant, interleaved)`);
for (const { agent, medianMs, hookCallsPerRun, loggedMs } of results) {
  const guard = medianMs.guard;
  const node = medianMs['node -e 0'];
  const none = medianMs.true;
  const perCall = (ms) => (ms / hookCallsPerRun).toFixed(0);
  console.log(
    `${agent.padEnd(11)} guard ${guard} ms | node -e 0 ${node} ms | true ${none} ms | ` +
      `ratio guard/node-e-0 ${(guard / node).toFixed(2)}, guard/true ${(guard / none).toFixed(2)} | ` +
      `${hookCallsPerRun} hook calls per run: +${perCall(guard - node)} ms per call over node -e 0, +${perCall(guard - none)} ms over true`,
  );
  const logged = Object.entries(loggedMs)
    .map(([event, ms]) => `${event} ${ms} ms`)
    .join(', ');
  console.log(`${''.padEnd(11)} guard's own time per call as its log gives it (median, after Node started): ${logged}`);
}
