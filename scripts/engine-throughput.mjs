// Engine throughput, measured one way for every script that reports it (bench.mjs, quality.mjs):
// `evaluate` over the shell-command corpus in one process, engine time only.
//
// The corpus lines (test/corpus/*.jsonl) are repeated into a batch of at least 3,000 steps, each
// with its own cwd and probe answers (the world the rule tests assume), so every script judges the
// same steps the same way. The batch first runs untimed until V8 has compiled the hot code (a cold
// process spends its first ten thousand or so steps warming up, which says more about the JIT than
// about the engine; that first pass is reported on its own), then in several timed rounds. The median round is what a shared machine gave
// the engine; the best round is what the engine can do.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const PROJECT = '/home/dev/project';
export const ENV = { home: '/home/dev', tmp: '/tmp', guardHome: '/home/dev/.local/state/guard' };
export const TARGET_STEPS_PER_SECOND = 20_000;

const BATCH_STEPS = 3000;
const WARM_UP_STEPS = 30_000;
const ROUNDS = 9;

/** The corpus lines (`{ command, cwd?, probe?, … }`) of every test/corpus/*.jsonl file under root, with the file names. */
export function corpusLines(root) {
  const dir = join(root, 'test/corpus');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
    : [];
  const lines = [];
  for (const name of files) {
    for (const text of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      try {
        const value = JSON.parse(text);
        if (typeof value?.command === 'string') lines.push(value);
      } catch {
        // not a corpus line: skip it
      }
    }
  }
  return Object.assign(lines, { files });
}

/** The shell step of a corpus line. */
export function stepOf(line) {
  return {
    kind: 'shell',
    agent: 'codex',
    toolName: 'Bash',
    chatId: 'corpus',
    cwd: line.cwd ?? PROJECT,
    projectRoot: PROJECT,
    command: line.command,
  };
}

/**
 * Steps per second of `evaluate` over the lines, repeated to a batch of at least 3,000 steps:
 * warmed up first, then timed round by round (wall time of the whole batch, garbage collection included).
 */
export function engineThroughput(
  { evaluate, tableProbe },
  lines,
  { rounds = ROUNDS, warmUpSteps = WARM_UP_STEPS } = {},
) {
  if (lines.length === 0) throw new Error('engine throughput needs at least one command');
  const batch = [];
  while (batch.length < BATCH_STEPS)
    for (const line of lines) batch.push({ step: stepOf(line), options: { ...ENV, probe: tableProbe(line.probe) } });
  // the first pass is timed too: in a process that has not run the engine yet, it is what
  // `guard explain --jsonl` over 3,000 commands gets (the hook, one step per process, is colder still)
  const firstStarted = performance.now();
  for (const { step, options } of batch) evaluate(step, options);
  const firstMs = performance.now() - firstStarted;
  let warmed = batch.length;
  while (warmed < warmUpSteps) {
    for (const { step, options } of batch) evaluate(step, options);
    warmed += batch.length;
  }
  const ms = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (const { step, options } of batch) evaluate(step, options);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const bestMs = ms[0];
  const medianMs = ms[Math.floor(ms.length / 2)];
  const rate = (took) => Math.round((batch.length * 1000) / took);
  return {
    commands: lines.length,
    steps: batch.length,
    rounds,
    warmUpSteps: warmed,
    bestMs,
    medianMs,
    best: rate(bestMs),
    median: rate(medianMs),
    firstPassMs: firstMs,
    firstPass: rate(firstMs),
  };
}

/** One line: the batch, the rounds, best and median steps per second, the target, and the first pass. */
export function describeThroughput(result) {
  const n = (value) => value.toLocaleString('en-US');
  return (
    `${n(result.steps)} shell steps (${n(result.commands)} commands repeated), ${result.rounds} rounds after ${n(result.warmUpSteps)} warm-up steps: ` +
    `best ${result.bestMs.toFixed(1)} ms = ${n(result.best)} steps/s, median ${result.medianMs.toFixed(1)} ms = ${n(result.median)} steps/s ` +
    `(target >= ${n(TARGET_STEPS_PER_SECOND)}); first pass while the JIT warms up: ${n(result.firstPass)} steps/s`
  );
}
