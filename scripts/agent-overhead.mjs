#!/usr/bin/env node
// guard's cost inside the real agents (the pinned Codex, Copilot, Claude Code and Gemini CLI,
// offline, against the e2e fake models): the median wall time of one agent run that makes a few
// harmless tool calls, with guard's hook and with no-op hook commands in its place, in rotating
// rounds (test/e2e/overhead.test.ts does the runs). A measurement to read, not a test to pass.
// `npm run bench -- --parts agents` prints the same table.
// Usage: npm run build && node scripts/agent-overhead.mjs [runs per variant, default 7] [tool calls per run, default 3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The targets, from the issue "fast at any size": a hook call within 1.2x of `node -e 0` (the floor
 * for a Node hook), so guard may add at most 0.2x of a Node start per hook call over a hook that is
 * only `node -e 0`, and 1.2x of one over a hook that costs nothing (`true`). A tool call costs its
 * share of the run's hook calls (before and after the tool, and the chat's start and prompt spread
 * over the run's tool calls).
 */
export const HOOK_TARGET = 1.2;

/**
 * Runs the measurement for `agents` (all four by default) and returns one result per agent:
 * `{ agent, runs, toolCallsPerRun, nodeMs, medianMs: { guard, 'node -e 0', true }, hookCallsPerRun, loggedMs }`.
 */
export function agentOverhead({ runs = 7, tools = 3, agents, output = 'inherit' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'guard-overhead-'));
  const out = join(dir, 'results.json');
  try {
    // the pinned agents, installed from the package registry where missing
    const install = spawnSync(process.execPath, [join(ROOT, 'scripts/agents.mjs'), 'install', ...(agents ?? [])], {
      stdio: ['ignore', output, output],
    });
    if (install.status !== 0)
      throw new Error('the pinned agents could not be installed (node scripts/agents.mjs install)');
    const vitest = spawnSync('npx', ['vitest', 'run', 'test/e2e/overhead.test.ts'], {
      cwd: ROOT,
      stdio: ['ignore', output, output],
      env: {
        ...process.env,
        GUARD_OVERHEAD_RUNS: String(runs),
        GUARD_OVERHEAD_TOOLS: String(tools),
        GUARD_OVERHEAD_OUT: out,
        ...(agents === undefined ? {} : { GUARD_OVERHEAD_AGENTS: agents.join(',') }),
      },
    });
    // the agents measured before one failed still count; none measured is a failure
    let results = [];
    try {
      results = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      // nothing written
    }
    if (vitest.status !== 0 && results.length === 0)
      throw new Error(`the overhead measurement failed (vitest exited ${vitest.status})`);
    if (vitest.status !== 0) process.stderr.write(`agents: the measurement failed after ${results.length} agent(s)\n`);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What each agent's results say, per tool call and per hook call, with the targets beside them. */
export function overheadFigures(result) {
  const { medianMs, hookCallsPerRun, toolCallsPerRun, nodeMs } = result;
  const hooksPerTool = hookCallsPerRun / toolCallsPerRun;
  const overNoop = (medianMs.guard - medianMs.true) / toolCallsPerRun;
  const overNode = (medianMs.guard - medianMs['node -e 0']) / toolCallsPerRun;
  return {
    agent: result.agent,
    hooksPerTool,
    perTool: { overNoop, overNode },
    perHook: { overNode: overNode / hooksPerTool },
    target: {
      perToolOverNoop: hooksPerTool * HOOK_TARGET * nodeMs,
      perToolOverNode: hooksPerTool * (HOOK_TARGET - 1) * nodeMs,
      perHookOverNode: (HOOK_TARGET - 1) * nodeMs,
    },
  };
}

/** The table, as lines. */
export function renderOverhead(results) {
  if (results.length === 0) return [];
  const { runs, toolCallsPerRun } = results[0];
  const ms = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
  const rows = results.map((result) => {
    const f = overheadFigures(result);
    return [
      result.agent,
      `${result.medianMs.guard} / ${result.medianMs['node -e 0']} / ${result.medianMs.true}`,
      `${result.hookCallsPerRun} (${f.hooksPerTool.toFixed(1)})`,
      `${ms(f.perTool.overNoop)} (<= ${f.target.perToolOverNoop.toFixed(0)})`,
      `${ms(f.perTool.overNode)} (<= ${f.target.perToolOverNode.toFixed(0)})`,
      `${ms(f.perHook.overNode)} (<= ${f.target.perHookOverNode.toFixed(0)})`,
      Object.entries(result.loggedMs)
        .map(([event, value]) => `${event} ${value}`)
        .join(', '),
    ];
  });
  const head = [
    'agent',
    'run ms: guard / node -e 0 / true',
    'hook calls per run (per tool)',
    'ms per tool call over true (target)',
    'over node -e 0 (target)',
    'ms per hook call over node -e 0 (target)',
    "guard's logged ms per call",
  ];
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const nodeMs = results.map((result) => result.nodeMs.toFixed(0)).join(', ');
  return [
    `agents: guard's cost inside the real agents, offline against fake models (median of ${runs} runs per variant, ${toolCallsPerRun} harmless tool calls a run, rounds rotating; the same hook files with guard's command, node -e 0, or true)`,
    `targets: a hook call within ${HOOK_TARGET}x of node -e 0 (${nodeMs} ms in the same rounds): per tool call, its share of the run's hook calls`,
    line(head),
    ...rows.map(line),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 7);
  const tools = Number(process.argv[3] ?? 3);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(tools) || tools < 1) {
    console.error(
      'usage: node scripts/agent-overhead.mjs [runs per variant] [tool calls per run] (whole numbers above 0)',
    );
    process.exit(2);
  }
  const results = agentOverhead({ runs, tools });
  console.log(`\n${renderOverhead(results).join('\n')}`);
}
