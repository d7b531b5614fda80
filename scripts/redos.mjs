#!/usr/bin/env node
// Worst time per rule on the adversarial inputs of test/corpus/adversarial.mjs (100 KB each, as
// shell, write, fetch and MCP steps), plus the time to read each step. The test
// packages/core/test/redos.test.ts bounds the work without a clock; this prints the clock.
// Runs on built code: `npx tsc --build && node scripts/redos.mjs`.
// "growth" is the time at 100 KB over the time at 50 KB for the same input: about 2 is linear,
// about 4 is quadratic (rule times are the best of three runs; still, look twice before believing one number).
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildContext, rules } = await import(join(root, 'packages/core/dist/index.js'));
const { adversarialInputs, ADVERSARIAL_SIZE } = await import(join(root, 'test/corpus/adversarial.mjs'));

const PROJECT = '/home/dev/project';
const ENV = { home: '/home/dev', tmp: '/tmp', guardHome: '/home/dev/.local/state/guard' };

function world(text) {
  return {
    probe: {
      gitUntracked: () => [`${PROJECT}/.env`],
      gitModified: () => [],
      gitIgnored: () => new Set(),
      gitBranch: () => 'main',
      readText: (_path, maxBytes) => text.slice(0, maxBytes),
      exists: () => true,
      projectPackages: () => new Set(['react']),
    },
    session: {
      createdFiles: new Set(),
      untrusted: true,
      injection: true,
      keySeen: true,
      poisonedServers: new Set(['db']),
      failuresInARow: () => 2,
    },
  };
}

function steps(text) {
  const base = { agent: 'codex', chatId: 'redos', cwd: PROJECT, projectRoot: PROJECT };
  return [
    ['shell', { ...base, kind: 'shell', toolName: 'Bash', command: text }],
    ['write', { ...base, kind: 'write', toolName: 'Write', path: 'src/a.ts', content: text, mode: 'overwrite' }],
    ['fetch', { ...base, kind: 'fetch', toolName: 'WebFetch', url: text }],
    ['mcp', { ...base, kind: 'mcp', toolName: 'mcp__db__query', server: 'db', tool: 'query', args: { sql: text } }],
  ];
}

/** Milliseconds per (rule or 'reading the step') for one input text and step kind. */
function timings(text, kind) {
  const step = steps(text).find(([k]) => k === kind)[1];
  const { probe, session } = world(text);
  const times = new Map();
  let start = performance.now();
  const context = buildContext(step, ENV, probe, session);
  times.set('(reading the step)', performance.now() - start);
  for (const rule of rules) {
    // the best of three: the first run of a rule on a new shape also pays for compiling it
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      start = performance.now();
      if (rule.after) rule.after([], context);
      else rule.check(context);
      best = Math.min(best, performance.now() - start);
    }
    times.set(rule.meta.id, best);
  }
  return times;
}

const worst = new Map(); // id -> { ms, input, kind }
for (const { name, text } of adversarialInputs()) {
  for (const [kind] of steps('')) {
    for (const [id, ms] of timings(text, kind)) {
      if (ms > (worst.get(id)?.ms ?? -1)) worst.set(id, { ms, input: name, kind });
    }
  }
}

const half = new Map(adversarialInputs(ADVERSARIAL_SIZE / 2).map(({ name, text }) => [name, text]));
const rows = [...worst].sort((a, b) => b[1].ms - a[1].ms);
console.log(
  `worst time per rule on ${adversarialInputs().length} adversarial inputs of ${ADVERSARIAL_SIZE / 1024} KB, 4 step kinds each\n`,
);
console.log(`${'rule'.padEnd(28)} ${'worst ms'.padStart(9)}  growth  input (step kind)`);
for (const [id, { ms, input, kind }] of rows) {
  const halfMs = timings(half.get(input), kind).get(id);
  const growth = halfMs > 0.5 ? (ms / halfMs).toFixed(1) : '-';
  console.log(`${id.padEnd(28)} ${ms.toFixed(1).padStart(9)}  ${growth.padStart(6)}  ${input} (${kind})`);
}
