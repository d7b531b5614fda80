// Engine throughput, measured one way for every script that reports it (bench.mjs, quality.mjs):
// `evaluate` over the shell-command corpus in one process, engine time only.
//
// The corpus lines (test/corpus/*.jsonl) are repeated into a batch of at least 3,000 steps, each
// with its own cwd and probe answers (the world the rule tests assume), so every script judges the
// same steps the same way. The batch first runs untimed until V8 has compiled the hot code (a cold
// process spends its first ten thousand or so steps warming up, which says more about the JIT than
// about the engine; that first pass is reported on its own), then in several timed rounds. The median round is what a shared machine gave
// the engine; the best round is what the engine can do.
//
// And `guard explain --jsonl` over 3,000 of those lines in a fresh process, against `node -e 0`: the
// engine's cold pass as a person or a script meets it, start-up and output included.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

// the agents as their adapters declare them, in a home with no variable moving their folders
const { AGENTS, agentKnowledge } = await import(new URL('../packages/adapters/dist/agents.js', import.meta.url).href);

export const PROJECT = '/home/dev/project';
export const ENV = {
  home: '/home/dev',
  tmp: '/tmp',
  guardHome: '/home/dev/.local/state/guard',
  agents: agentKnowledge(Object.values(AGENTS), { home: '/home/dev', env: {} }),
};
export const TARGET_STEPS_PER_SECOND = 20_000;
/** `guard explain --jsonl` over this many corpus lines, in one fresh process… */
export const EXPLAIN_LINES = 3000;
/** …within this many times the wall time of `node -e 0` (issue 15: the engine's cold pass). */
export const TARGET_EXPLAIN_RATIO = 8;

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
    // a row may say the shell its step runs in (an agent's PowerShell tool)
    ...(line.shell === undefined ? {} : { shell: line.shell, toolName: 'PowerShell' }),
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

/** The `guard explain --jsonl` input: the corpus lines' commands (and cwds) repeated to `count` lines. */
export function explainInput(lines, count = EXPLAIN_LINES) {
  const out = [];
  while (out.length < count)
    for (const line of lines.slice(0, count - out.length))
      out.push(JSON.stringify({ command: line.command, ...(line.cwd ? { cwd: line.cwd } : {}) }));
  return `${out.join('\n')}\n`;
}

/**
 * Wall time of `guard explain --jsonl` (the built CLI at `bin`) over EXPLAIN_LINES corpus lines in a
 * fresh process, spawn to exit, against `node -e 0`, the two interleaved `runs` times; medians. The
 * engine's first, cold pass is most of it, with the CLI's start-up and the output.
 */
export function explainBench(bin, lines, { runs = 5 } = {}) {
  const input = explainInput(lines);
  const env = { ...process.env, HOME: ENV.home };
  const timed = (argv, stdin) => {
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, argv, {
      input: stdin,
      encoding: 'utf8',
      env,
      maxBuffer: 256 * 1024 * 1024,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`${argv.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
    return { ms, stdout: run.stdout };
  };
  const nodeMs = [];
  const explainMs = [];
  let answers = 0;
  for (let round = 0; round < runs; round++) {
    // alternate which goes first, so a slow patch of the machine hits both alike
    const node = () => nodeMs.push(timed(['-e', '0'], '').ms);
    const explain = () => {
      const run = timed([bin, 'explain', '--jsonl', '--cwd', PROJECT], input);
      explainMs.push(run.ms);
      answers = run.stdout.split('\n').filter(Boolean).length;
    };
    if (round % 2 === 0) {
      node();
      explain();
    } else {
      explain();
      node();
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const result = { lines: EXPLAIN_LINES, answers, runs, explainMs: median(explainMs), nodeMs: median(nodeMs) };
  return { ...result, ratio: result.explainMs / result.nodeMs, target: TARGET_EXPLAIN_RATIO };
}

/** One line: lines, answers, wall times, the ratio and its target. */
export function describeExplain(result) {
  const n = (value) => value.toLocaleString('en-US');
  return (
    `guard explain --jsonl: ${n(result.answers)} answers for ${n(result.lines)} lines in ${result.explainMs.toFixed(0)} ms wall, ` +
    `node -e 0 ${result.nodeMs.toFixed(0)} ms (medians of ${result.runs} interleaved runs) = ${result.ratio.toFixed(1)}x node -e 0 ` +
    `(target <= ${result.target}x), ${n(Math.round((result.lines * 1000) / result.explainMs))} lines/s including start-up and output`
  );
}
