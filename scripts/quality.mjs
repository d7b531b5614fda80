#!/usr/bin/env node
// How well the rule catalogue does on the corpus in test/corpus, and how fast the engine is.
// Runs on built code: `npx tsc --build && node scripts/quality.mjs [--check] [--no-bench]`.
//   --check     exit 1 when a target is missed (risky caught >= 97%, harmless flagged <= 2%)
//   --no-bench  skip the throughput and `guard explain --jsonl` timings
// Every miss is listed, grouped by rule id, so the rule's owner can act on it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  corpusLines,
  describeExplain,
  describeThroughput,
  engineThroughput,
  ENV,
  explainBench,
  stepOf,
} from './engine-throughput.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = await import(join(root, 'packages/core/dist/index.js'));
const { evaluate, tableProbe } = core;

const TARGET_CAUGHT = 0.97;
const TARGET_HARMLESS = 0.02;

const args = new Set(process.argv.slice(2));
// measured before anything else runs the engine, so that its first pass is a cold one (as in `npm run bench`)
const throughput = args.has('--no-bench') ? undefined : engineThroughput(core, corpusLines(root));
const harmless = readLines('harmless.jsonl');
const risky = readLines('risky.jsonl');

function readLines(name) {
  return readFileSync(join(root, 'test/corpus', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

function judge(line) {
  return evaluate(stepOf(line), { ...ENV, probe: tableProbe(line.probe) });
}

const RANK = { allow: 0, ask: 1, block: 2 };
const show = (text) => JSON.stringify(text).slice(1, -1);
const pct = (n, d) => `${n}/${d} = ${((100 * n) / d).toFixed(1)}%`;
const got = (evaluation) =>
  evaluation.findings.length === 0
    ? 'allow'
    : evaluation.findings
        .map((f) => `${f.decision} ${f.ruleId} on "${show(evaluation.text.slice(f.span[0], f.span[1]))}"`)
        .join('; ');

// ---------------------------------------------------------------------------------------------
// Risky lines: caught with at least the expected decision, and with every expected rule id

let caught = 0;
let named = 0;
const misses = new Map(); // rule id -> lines
for (const line of risky) {
  const evaluation = judge(line);
  const ids = new Set(evaluation.findings.map((f) => f.ruleId));
  const decisionOk = RANK[evaluation.decision] >= RANK[line.expect];
  const missing = line.rules.filter((id) => !ids.has(id));
  if (decisionOk) caught++;
  if (missing.length === 0) named++;
  for (const id of missing) {
    if (!misses.has(id)) misses.set(id, []);
    misses.get(id).push({ line, evaluation, decisionOk });
  }
}

// ---------------------------------------------------------------------------------------------
// Harmless lines: flagged at all

const flagged = new Map(); // rule id -> lines
let flaggedLines = 0;
for (const line of harmless) {
  const evaluation = judge(line);
  if (evaluation.findings.length === 0) continue;
  flaggedLines++;
  for (const id of new Set(evaluation.findings.map((f) => f.ruleId))) {
    if (!flagged.has(id)) flagged.set(id, []);
    flagged.get(id).push({ line, evaluation });
  }
}

const caughtShare = caught / risky.length;
const harmlessShare = flaggedLines / harmless.length;
const out = [];
out.push(`guard quality on test/corpus: ${risky.length} risky lines, ${harmless.length} harmless lines`, '');
out.push(
  `risky lines flagged at least as expected:  ${pct(caught, risky.length)}  (target >= ${TARGET_CAUGHT * 100}%)`,
);
out.push(`risky lines with every expected rule id:   ${pct(named, risky.length)}`);
out.push(
  `harmless lines flagged:                    ${pct(flaggedLines, harmless.length)}  (target <= ${TARGET_HARMLESS * 100}%)`,
);

if (misses.size > 0) {
  out.push('', 'Risky lines a rule missed (rule: expected decision, line, what guard found instead):');
  for (const [id, rows] of [...misses].sort()) {
    out.push(`  ${id} (${rows.length})`);
    for (const { line, evaluation, decisionOk } of rows) {
      out.push(
        `    ${decisionOk ? '  ' : '! '}${line.expect.padEnd(5)} ${show(line.command)}${line.cwd ? `   [cwd ${line.cwd}]` : ''}${line.probe ? '   [with probe answers]' : ''}`,
      );
      out.push(`            got: ${got(evaluation)}`);
    }
  }
  out.push('  (! = the line was not caught at all at the expected decision)');
}
if (flagged.size > 0) {
  out.push('', 'Harmless lines flagged (rule, line, finding):');
  for (const [id, rows] of [...flagged].sort()) {
    out.push(`  ${id} (${rows.length})`);
    for (const { line, evaluation } of rows)
      out.push(`    ${show(line.command)}`, `            got: ${got(evaluation)}`);
  }
}
console.log(out.join('\n'));

// ---------------------------------------------------------------------------------------------
// Throughput: engine time only, one process, the whole corpus repeated to >= 3,000 commands, and
// `guard explain --jsonl` over 3,000 corpus lines

if (!args.has('--no-bench')) {
  // the same measurements as `npm run bench` (scripts/engine-throughput.mjs)
  console.log(`\nengine throughput: ${describeThroughput(throughput)}`);
  console.log(describeExplain(explainBench(join(root, 'packages/cli/dist/bin.js'), corpusLines(root), { runs: 3 })));
}

if (args.has('--check') && (caughtShare < TARGET_CAUGHT || harmlessShare > TARGET_HARMLESS)) process.exitCode = 1;
