#!/usr/bin/env node
// `npm run e2e -- <agent>...`: one agent's (or several agents') tests against its real binary.
// Builds guard, installs each named agent at its pinned version if it is missing (scripts/agents.mjs),
// then runs test/e2e/<agent>.test.ts and test/e2e/<agent>-*.test.ts. Fails when a test failed, when
// no test ran, or when any was skipped: a real-binary test that did not run proves nothing.
// With no agent named, runs every pinned agent's tests.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS } from './agents.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ids = process.argv.slice(2);
for (const id of ids) {
  if (!(id in AGENTS)) {
    console.error(`no pinned agent "${id}"; choose from: ${Object.keys(AGENTS).join(', ')}`);
    process.exit(2);
  }
}
const chosen = ids.length > 0 ? ids : Object.keys(AGENTS);
const shell = process.platform === 'win32';
const npm = shell ? 'npm.cmd' : 'npm';
const run = (program, args) => spawnSync(program, args, { cwd: root, stdio: 'inherit', shell }).status ?? 1;

if (run(npm, ['run', 'build']) !== 0) process.exit(1);
if (run(process.execPath, [join(root, 'scripts/agents.mjs'), 'install', ...chosen]) !== 0) process.exit(1);
const files = readdirSync(join(root, 'test/e2e'))
  .filter((name) =>
    chosen.some((id) => name === `${id}.test.ts` || (name.startsWith(`${id}-`) && name.endsWith('.test.ts'))),
  )
  .map((name) => `test/e2e/${name}`);
if (files.length === 0) {
  console.error(`no end-to-end test file for ${chosen.join(', ')} in test/e2e`);
  process.exit(1);
}
const scratch = mkdtempSync(join(tmpdir(), 'guard-e2e-report-'));
try {
  const report = join(scratch, 'vitest.json');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const status = run(process.execPath, [
    vitest,
    'run',
    ...files,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${report}`,
  ]);
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = result.numPendingTests + result.numTodoTests;
  console.log(
    `e2e ${chosen.join(', ')}: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${skipped} skipped`,
  );
  if (status !== 0 || result.numTotalTests === 0 || skipped > 0) process.exit(1);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
