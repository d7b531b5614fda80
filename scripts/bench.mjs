#!/usr/bin/env node
// `npm run bench` (builds first): the hook's start-up cost and the engine's throughput, as ratios
// on this machine in this run (SPEC §10).
//
//   node scripts/bench.mjs [--runs N] [--json] [--hook PATH] [--parts LIST] [--sizes LIST] [--skip-largest]
//                          [--repo-runs N] [--commit-tries N] [--counts LIST] [--load-rounds N]
//                          [--explain-runs N] [--agent-runs N] [--agents LIST] [--cli-runs N]
//
// --parts picks what to measure, of start,cli,repos,load,engine,agents (default: all six).
// --sizes the repositories' sizes in files (default 1000,30000,100000); --skip-largest leaves out
// the biggest (making the 100,000-file one takes a minute or two on a busy machine).
// --commit-tries how many fresh chats try `git add -A && git commit` over an untracked .env in each
// repository (default 20; the timed rounds count among them).
// --counts how many hooks start at once in the load part (default 10,50,200).
//
// --hook PATH adds the same two payloads through another hook-entry.cjs (an installed package's,
// say: `<npm prefix>/lib/node_modules/agent-step-guard/dist/hook-entry.cjs`), in the same rounds.
//
// 1. Wall time and peak memory of the hook command `guard setup` writes, fed a typical shell payload of
//    Codex, Claude Code and Gemini CLI (a harmless `git status` and a blocked force push; the three
//    read their payloads alike, the others differ only in the payload's shape), against `node -e 0`,
//    spawned one after the other in
//    turn (interleaved, so a slow patch of the machine hits all three alike). Wall time is spawn to
//    exit as seen by this process. Peak memory is the child's maximum resident set size, read by
//    `/usr/bin/time -f %M` where it exists, else by a preloaded module that reports
//    `process.resourceUsage().maxRSS` on exit (the preload itself costs a little, for all alike).
//    Then the second opinion (SPEC §11): a command no rule knows (`node scripts/…`), with it off and
//    with it on against a stand-in judge on 127.0.0.1 that answers after 100 ms (a child process,
//    so it answers while this one waits on a spawn). Each call is a new command in a new turn, so
//    every one is really sent (nothing remembered, no budget spent). Then export (SPEC §10): the same
//    two Codex steps with `guard export on` against the same stand-in server as a collector (the
//    hook appends its log line and starts a sender when none runs; the sender ships off its path),
//    and the push with export in protobuf; then the sender's own cost, 500 records encoded in JSON
//    and in protobuf, each in a fresh process (scripts/export-encode.mjs).
// 2. Repositories (scripts/bench-scale.mjs): the hook on harmless, checkout, delete and commit steps
//    in generated git repositories of each size, against `node -e 0` in the same rounds; and how
//    often `git add -A && git commit` over an untracked `.env` was blocked (a fresh chat each time).
// 3. Load: N hooks of one chat at once against N `node -e 0` at once, p50 and p99, through the resident
//    checker and in-process; half the hooks get an asked push, half a force push, and the silent
//    answers among them (what Codex reads as "no objection") are counted: the target is 0.
// 5. Agents (scripts/agent-overhead.mjs): guard's cost inside the real Codex, Copilot, Claude Code and
//    Gemini CLI, offline against the e2e fake models: ms added per tool call and per hook call, with
//    guard's hook against the same hook files running `node -e 0` or `true`, rounds rotating, the
//    target beside each figure. --agent-runs runs per variant (default 5), --agents picks some.
// 4. Engine throughput in one process: `evaluate` over the shell-command corpus (test/corpus/*.jsonl
//    when present, else a built-in list), in steps per second after warm-up, best and median of
//    several rounds (scripts/engine-throughput.mjs, which quality.mjs reports too); and `guard explain
//    --jsonl` over 3,000 corpus lines in a fresh process against `node -e 0`, interleaved (--explain-runs
//    N times each, default 5): the engine's cold pass with the CLI's start-up and output.
// 6. The CLI's start-up: `guard --version`, `guard status --json` and `guard explain ls` (bin.js, as
//    the `guard` command runs) against `node -e 0`, interleaved, --cli-runs N times each (default 20),
//    median: what every `guard` call (a person's, a test's) pays before its command does anything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { agentOverhead, renderOverhead } from './agent-overhead.mjs';
import { describeExportEncode, exportEncodeBench } from './export-encode.mjs';
import { loadBench, machineLoad, repoBench } from './bench-scale.mjs';
import {
  corpusLines,
  describeExplain,
  describeThroughput,
  engineThroughput,
  explainBench,
} from './engine-throughput.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// the hook command `guard setup` writes into the agents' configs
const HOOK = join(ROOT, 'packages/cli/dist/hook-entry.cjs');
const CORE = join(ROOT, 'packages/core/dist/index.js');
const TARGET = { time: 1.2, memory: 1.15 };
/** How long the stand-in judge takes to answer. */
const JUDGE_MS = 100;

const args = process.argv.slice(2);
const json = args.includes('--json');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 30;
if (!Number.isInteger(runs) || runs < 1) fail('--runs needs a whole number above 0.');
const hookAt = args.indexOf('--hook');
const otherHook = hookAt >= 0 ? args[hookAt + 1] : undefined;
if (hookAt >= 0 && (otherHook === undefined || !existsSync(otherHook))) fail(`--hook needs an existing hook script.`);
if (!existsSync(HOOK) || !existsSync(CORE)) fail('the build is missing: run `npm run bench` (it builds first).');
const parts = new Set(listArg('--parts', 'start,cli,repos,load,engine,agents'));
const agentRuns = numberArg('--agent-runs', 5);
const agentsAt = args.indexOf('--agents');
const agents = agentsAt >= 0 ? listArg('--agents', '') : undefined;
const sizes = listArg('--sizes', '1000,30000,100000')
  .map(Number)
  .sort((a, b) => a - b);
if (args.includes('--skip-largest')) sizes.pop();
const counts = listArg('--counts', '10,50,200').map(Number);
const repoRuns = numberArg('--repo-runs', 10);
const commitTries = numberArg('--commit-tries', 20);
const loadRounds = numberArg('--load-rounds', 2);
const explainRuns = numberArg('--explain-runs', 5);
const cliRuns = numberArg('--cli-runs', 20);
if (![...sizes, ...counts].every((n) => Number.isInteger(n) && n > 0)) fail('--sizes and --counts take whole numbers.');

const work = mkdtempSync(join(tmpdir(), 'guard-bench-'));
try {
  const log = (line) => process.stderr.write(`${line}\n`);
  const env = { PATH: process.env.PATH ?? '', HOME: work, GUARD_HOME: join(work, 'guard') };
  // --hook's hook is measured beside this checkout's in the repositories and under load too
  const hooks = [
    { label: 'this', path: HOOK },
    ...(otherHook === undefined ? [] : [{ label: '--hook', path: otherHook }]),
  ];
  const report = { runs, machine: machine(), loadBefore: machineLoad() };
  if (parts.has('start')) {
    const judge = await startJudge();
    try {
      report.spawn = spawnBench(work, judge.url);
    } finally {
      judge.child.kill();
    }
    report.memoryBy = report.spawn.memoryBy;
    delete report.spawn.memoryBy;
    report.exportEncode = exportEncodeBench();
  }
  if (parts.has('cli')) report.cli = cliBench(env);
  if (parts.has('repos')) {
    const measure = (argv, input, caseEnv) => {
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, argv, { input, env: caseEnv, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0) fail(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
      return { ms, stdout: result.stdout };
    };
    report.repos = repoBench({ sizes, runs: repoRuns, commitTries, work, hooks, env, measure, log });
  }
  if (parts.has('load')) {
    // the same hook with the resident checker switched off: each call loads the runtime itself
    const both = [...hooks, { label: 'in-process', path: HOOK, env: { GUARD_RESIDENT: 'off' } }];
    report.load = await loadBench({ counts, rounds: loadRounds, work, hooks: both, env, log });
  }
  if (parts.has('engine')) report.engine = await engineBench();
  if (parts.has('agents')) {
    log('bench: the agents (a few minutes)…');
    report.agents = agentOverhead({ runs: agentRuns, agents, output: 'ignore' });
  }
  report.loadAfter = machineLoad();
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : render(report));
} finally {
  rmSync(work, { recursive: true, force: true });
}

function listArg(name, fallback) {
  const at = args.indexOf(name);
  return (at >= 0 ? (args[at + 1] ?? '') : fallback).split(',').filter(Boolean);
}

function numberArg(name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1) fail(`${name} needs a whole number above 0.`);
  return value;
}

function spawnBench(dir, judgeUrl) {
  const env = { PATH: process.env.PATH ?? '', HOME: dir, GUARD_HOME: join(dir, 'guard') };
  // guard's folder with the second opinion on, asking the stand-in judge
  const opinionHome = join(dir, 'guard-opinion');
  mkdirSync(opinionHome, { recursive: true });
  writeFileSync(
    join(opinionHome, 'settings.yaml'),
    `secondOpinion: true\nsecondOpinionUrl: ${judgeUrl}\nsecondOpinionModel: bench-judge\nsecondOpinionTimeoutMs: 1500\n`,
  );
  // guard's folder with export on (SPEC §10: the hook only appends its log line and, when no sender
  // runs, starts one), sending to the stand-in judge's server, which takes any POST
  const exportHome = join(dir, 'guard-export');
  mkdirSync(exportHome, { recursive: true });
  const endpoint = `${judgeUrl.replace(/\/v1$/, '')}/v1/logs`;
  writeFileSync(join(exportHome, 'export.json'), `${JSON.stringify({ endpoint, headers: {}, command: true })}\n`);
  // and in protobuf: the hook does the same; only its sender encodes otherwise
  const protobufHome = join(dir, 'guard-export-protobuf');
  mkdirSync(protobufHome, { recursive: true });
  writeFileSync(
    join(protobufHome, 'export.json'),
    `${JSON.stringify({ endpoint, headers: {}, command: true, encoding: 'protobuf' })}\n`,
  );
  let serial = 0;
  const fresh = () => `node scripts/step-${(serial += 1)}.js`;
  // payloads as each agent sends them (recorded: see packages/adapters/test/fixtures)
  const payloads = {
    codex: (command, turn = '01a2273f-cfe3-76f2-915a-6ebc8cd5e514') => ({
      session_id: '01a2273f-cfcb-7371-b14a-9ad11511244c',
      turn_id: turn,
      transcript_path: null,
      cwd: dir,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5.5',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'call_0',
    }),
    'claude-code': (command) => ({
      session_id: 'f27dd2a2-9ff7-4c40-afeb-15334d9590c1',
      transcript_path: join(dir, '.claude', 'projects', 'p', 'f27dd2a2-9ff7-4c40-afeb-15334d9590c1.jsonl'),
      cwd: dir,
      prompt_id: '6306d179-8091-4125-8118-49ec640cd0e4',
      permission_mode: 'default',
      effort: { level: 'medium' },
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'Run it' },
      tool_use_id: 'toolu_01',
    }),
    gemini: (command) => ({
      session_id: 'ea7c359f-6170-4daf-9dec-64d0aae6cb36',
      transcript_path: join(dir, '.gemini', 'tmp', 'p', 'chats', 'session-ea7c359f.jsonl'),
      cwd: dir,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-01T19:08:10.629Z',
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'Run it' },
    }),
  };
  const cases = [
    { name: 'node -e 0', argv: ['-e', '0'], input: '' },
    ...Object.entries(payloads).flatMap(([agent, payload]) =>
      ['git status', 'git push --force origin main'].map((command) => ({
        name: `hook ${agent}: ${command.replace(' origin main', '')}`,
        agent,
        argv: [HOOK, 'hook', agent],
        input: JSON.stringify(payload(command)),
      })),
    ),
    // the same hook with the resident checker switched off: the call loads the runtime itself
    ...['git status', 'git push --force origin main'].map((command) => ({
      name: `hook codex: ${command.replace(' origin main', '')} (in-process)`,
      agent: 'codex',
      argv: [HOOK, 'hook', 'codex'],
      input: JSON.stringify(payloads.codex(command)),
      env: { GUARD_RESIDENT: 'off' },
    })),
    // export on against off: the same step in the same rounds
    ...['git status', 'git push --force origin main'].map((command) => ({
      name: `hook codex: ${command.replace(' origin main', '')} (export on)`,
      agent: 'codex',
      argv: [HOOK, 'hook', 'codex'],
      input: JSON.stringify(payloads.codex(command)),
      env: { GUARD_HOME: exportHome },
    })),
    {
      name: 'hook codex: git push --force (export on, protobuf)',
      agent: 'codex',
      argv: [HOOK, 'hook', 'codex'],
      input: JSON.stringify(payloads.codex('git push --force origin main')),
      env: { GUARD_HOME: protobufHome },
    },
    {
      name: 'hook codex: node scripts/… (2nd opinion off)',
      argv: [HOOK, 'hook', 'codex'],
      input: () => JSON.stringify(payloads.codex(fresh())),
    },
    {
      name: `hook codex: node scripts/… (2nd opinion on, ${JUDGE_MS} ms judge)`,
      argv: [HOOK, 'hook', 'codex'],
      input: () => JSON.stringify(payloads.codex(fresh(), `turn-${serial}`)),
      env: { GUARD_HOME: opinionHome },
      expect: /"opinion":\{"outcome":"judged"/,
    },
    ...(otherHook === undefined
      ? []
      : ['git status', 'git push --force origin main'].map((command) => ({
          name: `--hook: ${command.replace(' origin main', '')}`,
          argv: [otherHook, 'hook', 'codex'],
          input: JSON.stringify(payloads.codex(command)),
        }))),
  ];
  const memory = memoryMeter(dir);
  // one untimed round first: the file system cache is then warm for every case alike
  for (const item of cases) measure(item, env, memory);
  const samples = cases.map(() => ({ ms: [], kb: [] }));
  for (let round = 0; round < runs; round += 1) {
    for (let k = 0; k < cases.length; k += 1) {
      const at = (round + k) % cases.length; // rotate the order every round
      const sample = measure(cases[at], env, memory);
      samples[at].ms.push(sample.ms);
      samples[at].kb.push(sample.kb);
    }
  }
  const base = summary(samples[0]);
  return {
    memoryBy: memory.by,
    residentKb: residentMemory(dir),
    cases: cases.map((item, i) => {
      const stats = summary(samples[i]);
      return {
        name: item.name,
        ...(item.agent === undefined ? {} : { agent: item.agent }),
        ...stats,
        timeRatio: round2(stats.medianMs / base.medianMs),
        memoryRatio: round2(stats.medianKb / base.medianKb),
      };
    }),
  };
}

/** The CLI's start-up (part 6): each command against `node -e 0` in the same rounds, order rotated. */
function cliBench(env) {
  const bin = join(ROOT, 'packages/cli/dist/bin.js');
  const cases = [
    { name: 'node -e 0', argv: ['-e', '0'] },
    { name: 'guard --version', argv: [bin, '--version'] },
    { name: 'guard status --json', argv: [bin, 'status', '--json'] },
    { name: 'guard explain ls', argv: [bin, 'explain', 'ls'] },
  ];
  const run = (item) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, item.argv, { env, encoding: 'utf8' });
    if (result.status !== 0) fail(`${item.name} exited ${result.status}: ${result.stderr}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (const item of cases) run(item);
  const ms = cases.map(() => []);
  for (let round = 0; round < cliRuns; round += 1)
    for (let k = 0; k < cases.length; k += 1) {
      const at = (round + k) % cases.length;
      ms[at].push(run(cases[at]));
    }
  const base = percentile(ms[0], 0.5);
  return cases.map((item, i) => {
    const medianMs = percentile(ms[i], 0.5);
    return {
      name: item.name,
      medianMs: round2(medianMs),
      p90Ms: round2(percentile(ms[i], 0.9)),
      ratio: round2(medianMs / base),
    };
  });
}

/**
 * The resident memory (RSS, KB) of each resident checker serving a guard folder under `dir`
 * (Linux: read from /proc), so the client's small peak is not read without the server's cost.
 */
function residentMemory(dir) {
  if (process.platform !== 'linux') return [];
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args.some((arg) => arg.endsWith('hook-server.cjs')) || !args.some((arg) => arg.startsWith(dir))) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (rss !== null) found.push(Number(rss[1]));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function measure(item, env, memory) {
  const input = typeof item.input === 'function' ? item.input() : item.input;
  const own = item.env === undefined ? env : { ...env, ...item.env };
  const started = process.hrtime.bigint();
  const result = spawnSync(memory.command, memory.args(item.argv), { input, env: own, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) fail(`${item.name} exited ${result.status}: ${result.stderr}`);
  if (item.expect !== undefined) {
    // the judgement really happened (not skipped, not timed out): the last log line says so
    const log = readFileSync(join(own.GUARD_HOME, 'log.jsonl'), 'utf8').trimEnd().split('\n').at(-1) ?? '';
    if (!item.expect.test(log)) fail(`${item.name}: the log does not show a judgement: ${log}`);
  }
  return { ms, kb: memory.read(result) };
}

/** The stand-in judge: an OpenAI-compatible server on 127.0.0.1 (port 0) in a child process. */
function startJudge() {
  const script = `
const { createServer } = require('node:http');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: '{"irreversible": 0.05}' } }] }));
  }, ${JUDGE_MS}));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data) => resolve({ child, url: `http://127.0.0.1:${String(data).trim()}/v1` }));
  });
}

/** How peak memory is read: `/usr/bin/time -f %M` (KB), else a preloaded reporter. */
function memoryMeter(dir) {
  if (existsSync('/usr/bin/time')) {
    return {
      by: '/usr/bin/time -f %M (peak resident set size of the node process)',
      command: '/usr/bin/time',
      args: (argv) => ['-f', 'guard-bench-rss:%M', process.execPath, ...argv],
      read: (result) => Number(/guard-bench-rss:(\d+)\s*$/.exec(result.stderr)?.[1] ?? NaN),
    };
  }
  const reporter = join(dir, 'rss.cjs');
  writeFileSync(
    reporter,
    "process.on('exit', () => process.stderr.write(`\\nguard-bench-rss:${process.resourceUsage().maxRSS}\\n`));\n",
  );
  return {
    by: 'process.resourceUsage().maxRSS from a preloaded reporter (no /usr/bin/time here)',
    command: process.execPath,
    args: (argv) => ['--require', reporter, ...argv],
    read: (result) => Number(/guard-bench-rss:(\d+)\s*$/.exec(result.stderr)?.[1] ?? NaN),
  };
}

async function engineBench() {
  const core = await import(pathToFileURL(CORE).href);
  const lines = corpusLines(ROOT);
  const source = lines.length > 0 ? `test/corpus (${lines.files.join(', ')})` : 'built-in list';
  const commands = lines.length > 0 ? lines : BUILT_IN.map((command) => ({ command }));
  const result = engineThroughput(core, commands);
  const explain = explainBench(join(ROOT, 'packages/cli/dist/bin.js'), commands, { runs: explainRuns });
  return { corpus: source, ...result, explain };
}

function summary({ ms, kb }) {
  return {
    medianMs: round2(percentile(ms, 0.5)),
    p90Ms: round2(percentile(ms, 0.9)),
    medianKb: Math.round(percentile(kb, 0.5)),
    p90Kb: Math.round(percentile(kb, 0.9)),
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

function machine() {
  return { node: process.version, platform: `${process.platform}-${process.arch}` };
}

function table(head, rows) {
  const widths = head.map((_, i) => Math.max(head[i].length, ...rows.map((row) => row[i].length)));
  const format = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [format(head), ...rows.map(format)];
}

function render(report) {
  const load = (l) => `load average ${l.loadAverage.join(' / ')} on ${l.cores} cores`;
  const out = [
    `guard bench (${report.machine.node}, ${report.machine.platform}); before: ${load(report.loadBefore)}; after: ${load(report.loadAfter)}`,
    '',
  ];
  if (report.spawn) {
    const rows = report.spawn.cases.map((item) => [
      item.name,
      `${item.medianMs.toFixed(1)}`,
      `${item.p90Ms.toFixed(1)}`,
      `${item.timeRatio.toFixed(2)}x`,
      `${(item.medianKb / 1024).toFixed(1)}`,
      `${(item.p90Kb / 1024).toFixed(1)}`,
      `${item.memoryRatio.toFixed(2)}x`,
    ]);
    const hooks = report.spawn.cases.filter((item) => item.agent !== undefined);
    out.push(
      `hook start: ${report.runs} runs each, interleaved`,
      ...table(['', 'median ms', 'p90 ms', 'time', 'median MB', 'p90 MB', 'memory'], rows),
      ...(otherHook === undefined ? [] : [`--hook is ${otherHook}`]),
      ...[...new Set(hooks.map((item) => item.agent))].map((agent) => {
        // the harmless step: what nearly every call is
        const hook = hooks.find((item) => item.agent === agent);
        return `hook ${agent} vs node -e 0: ${hook.timeRatio.toFixed(2)}x time (target <= ${TARGET.time}x), ${hook.memoryRatio.toFixed(2)}x memory (target <= ${TARGET.memory}x)`;
      }),
      `memory measured by ${report.memoryBy}`,
      ...(report.spawn.residentKb.length === 0
        ? ['no resident checker was running at the end']
        : [
            `resident checkers at the end: ${report.spawn.residentKb.map((kb) => `${(kb / 1024).toFixed(1)} MB`).join(', ')} resident memory (RSS), shared by every call of their guard folder`,
          ]),
      ...(report.exportEncode === undefined ? [] : describeExportEncode(report.exportEncode)),
      '',
    );
  }
  if (report.cli)
    out.push(
      `CLI start-up: ${cliRuns} runs each, interleaved (median against node -e 0)`,
      ...table(
        ['', 'median ms', 'p90 ms', 'time'],
        report.cli.map((item) => [
          item.name,
          item.medianMs.toFixed(1),
          item.p90Ms.toFixed(1),
          `${item.ratio.toFixed(2)}x`,
        ]),
      ),
      '',
    );
  if (report.repos) {
    const steps = report.repos[0]?.steps.map((step) => step.name) ?? [];
    const rows = steps.map((name) => [
      name,
      ...report.repos.map((repo) => {
        const step = repo.steps.find((item) => item.name === name);
        const wrong = Object.entries(step.answers)
          .filter(([answer]) => answer !== step.expect)
          .map(([answer, n]) => `${n} ${answer}`);
        return `${step.ratio.toFixed(2)}x${wrong.length > 0 ? ` (${wrong.join(', ')}!)` : ''}`;
      }),
    ]);
    rows.push(['node -e 0 (ms)', ...report.repos.map((repo) => repo.nodeMs.toFixed(0))]);
    const commit = report.repos.flatMap((repo) =>
      repo.steps
        .filter((item) => item.expect === 'block')
        .map((step) => {
          const total = Object.values(step.answers).reduce((a, b) => a + b, 0);
          const others = Object.entries(step.answers).filter(([answer]) => answer !== 'block');
          const rest = others.map(([answer, n]) => `, ${n} ${answer}`).join('');
          const load = `load ${repo.commitLoad.loadBefore[0]} → ${repo.commitLoad.loadAfter[0]}`;
          return `${step.name.replace(/: .*/, '')} at ${repo.files.toLocaleString('en')}: ${step.answers.block ?? 0} of ${total}${rest} (${load})`;
        }),
    );
    out.push(
      `repositories: median hook time as a ratio to node -e 0 in the same rounds (${report.repos[0]?.steps.length ? repoRuns : 0} runs each; target: harmless steps flat, the rest one narrow git query)`,
      ...table(['', ...report.repos.map((repo) => `${repo.files.toLocaleString('en')} files`)], rows),
      `git add -A && git commit over an untracked .env blocked, fresh chats: ${commit.join('; ')}`,
      `making the repositories took ${report.repos.map((repo) => `${repo.makeSeconds} s`).join(', ')}`,
      '',
    );
  }
  if (report.load) {
    const rows = report.load.flatMap((item) =>
      item.hooks.map((hook) => [
        `${item.count} at once${item.hooks.length > 1 ? `, ${hook.label}` : ''}`,
        `${item.nodeMs.p50.toFixed(0)} / ${item.nodeMs.p99.toFixed(0)}`,
        `${hook.hookMs.p50.toFixed(0)} / ${hook.hookMs.p99.toFixed(0)}`,
        `${hook.ratio.p50.toFixed(2)}x / ${hook.ratio.p99.toFixed(2)}x`,
        `${hook.silent} of ${hook.calls}`,
      ]),
    );
    out.push(
      `load: hooks of one chat (an asked push or a force push each, saved) started at once, against as many node -e 0 (${loadRounds} rounds; target p99 <= 1.5x, and no silent answer: every one of these steps is denied)`,
      ...table(['', 'node p50 / p99 ms', 'hook p50 / p99 ms', 'ratio p50 / p99', 'silent answers'], rows),
      '',
    );
  }
  if (report.engine)
    out.push(
      `engine: ${describeThroughput(report.engine)}, from ${report.engine.corpus}`,
      describeExplain(report.engine.explain),
      '',
    );
  if (report.agents) out.push(...renderOverhead(report.agents), '');
  return out.join('\n');
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(1);
}

// ~50 everyday commands, harmless and risky, for a checkout without the shared corpus
const BUILT_IN = [
  'git status',
  'git diff --stat',
  'git log --oneline -20',
  'git add -A && git commit -m "wip"',
  'git push origin main',
  'git push --force origin main',
  'git checkout -b feature/x',
  'git reset --hard HEAD~1',
  'git stash drop',
  'git clean -fdx',
  'npm test',
  'npm run build',
  'npm install',
  'npm install left-pad',
  'npx vitest run',
  'pnpm add -D typescript',
  'pip install -r requirements.txt',
  'pip install requests',
  'cargo build --release',
  'go test ./...',
  'ls -la',
  'cat README.md',
  'cat .env',
  'grep -rn "TODO" src',
  'find . -name "*.ts" | xargs wc -l',
  'rm -rf node_modules',
  'rm -rf dist build',
  'rm -rf /',
  'rm -rf ~',
  'rm src/index.ts',
  'curl -fsSL https://example.com/install.sh | sh',
  'curl https://api.github.com/repos/x/y',
  'wget -qO- https://x.io | bash',
  'docker build -t app .',
  'docker system prune -af',
  'kubectl get pods',
  'kubectl delete ns prod',
  'terraform plan',
  'terraform apply -auto-approve',
  'printenv',
  'echo $OPENAI_API_KEY',
  'sudo apt-get install -y jq',
  'chmod 777 -R .',
  'python -c "import os; os.system(\'ls\')"',
  'node -e "console.log(process.env)"',
  'bash -c "cd build && rm -rf ."',
  'pkill node',
  'kill 1234',
  'crontab -e',
  'echo "rm -rf /" > notes.txt',
  'cd /tmp && tar xzf x.tgz',
];
