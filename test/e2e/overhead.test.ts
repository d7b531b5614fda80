import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../../packages/adapters/src/index.js';
import { trustGuardHooks } from '../../packages/cli/src/agents/codex-app-server.js';
import { captureIo } from '../../packages/cli/test/capture-io.js';
import {
  claudePrompt,
  CODEX,
  codexExec,
  copilotPrompt,
  geminiPrompt,
  writeClaudeSettings,
  writeCodexConfig,
  writeGeminiSettings,
} from './harness/agents.js';
import { fakeChatModel, fakeGeminiModel, fakeMessagesModel, fakeResponsesModel } from './harness/fake-model.js';
import { pathWithAgents, requireInstalled, setupGuard } from './harness/scenario.js';
import type { E2eAgent } from './harness/scenario.js';
import { makeWorld, stepEntries } from './harness/world.js';
import type { World } from './harness/world.js';

// A measurement, not a test: guard's cost inside the real agents. Runs only when asked for, by
// `npm run bench -- --parts agents` or scripts/agent-overhead.mjs (or GUARD_OVERHEAD_RUNS=7 npx
// vitest run test/e2e/overhead.test.ts). Each agent, against its fake model, runs the same few
// harmless tool calls (GUARD_OVERHEAD_TOOLS, default 3) N times with guard's hook and N times with
// each baseline hook command, in rounds whose order rotates, so a busy machine slows every variant
// alike. The hook files are the ones `guard setup` writes, with only the command swapped, so the
// agent starts the same number of hook processes through the same shell in every variant. A bare
// `node -e 0` is timed in the same rounds: the floor the targets are set against.

const RUNS = Number(process.env.GUARD_OVERHEAD_RUNS ?? 0);
const TOOLS = Number(process.env.GUARD_OVERHEAD_TOOLS ?? 3);
const OUT = process.env.GUARD_OVERHEAD_OUT;

/** The baselines: `node -e 0` pays what any Node hook pays (the fair one); `true` is a hook that costs nothing. */
const BASELINES = { 'node -e 0': `"${process.execPath}" -e 0`, true: 'true' } as const;
type Variant = 'guard' | keyof typeof BASELINES;

interface Result {
  readonly agent: E2eAgent;
  readonly runs: number;
  /** Tool calls in one run. */
  readonly toolCallsPerRun: number;
  /** Median wall time of `node -e 0` spawned by this process in the same rounds. */
  readonly nodeMs: number;
  /** Median wall time of one agent run, per variant. */
  readonly medianMs: Record<Variant, number>;
  /** guard's hook calls in one run (start, prompt, before and after the tool). */
  readonly hookCallsPerRun: number;
  /** Median time guard's log gives per call, by event: the work after Node started and loaded guard. */
  readonly loggedMs: Record<string, number>;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Swaps guard's command for `command` everywhere in the hook file (JSON-escaped). */
function swapCommand(file: string, from: string, to: string): void {
  const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(escaped(from), escaped(to)));
}

/** The hook file guard's setup wrote for the agent in this world. */
function hookFile(agent: E2eAgent, world: World): string {
  if (agent === 'codex') return join(world.codexHome, 'hooks.json');
  if (agent === 'copilot') return join(world.copilotHome, 'hooks', 'guard.json');
  return join(world.home, agent === 'gemini' ? '.gemini' : '.claude', 'settings.json');
}

async function measure(agent: E2eAgent, cache: string): Promise<Result> {
  const worlds = {} as Record<Variant, World>;
  const variants: Variant[] = ['guard', 'node -e 0', 'true'];
  for (const variant of variants) {
    const world = makeWorld({ cacheHome: cache });
    worlds[variant] = world;
    if (agent === 'codex') writeCodexConfig(world);
    if (agent === 'claude-code') writeClaudeSettings(world);
    if (agent === 'gemini') writeGeminiSettings(world);
    await setupGuard(world, agent, true);
    if (variant === 'guard') continue;
    const file = hookFile(agent, world);
    // every event's command (each carries its own answer for when guard's files are gone)
    for (const current of adapters[agent].installedCommands(readFileSync(file, 'utf8')))
      swapCommand(file, current, BASELINES[variant]);
    if (agent === 'codex') {
      const { io } = captureIo({ cwd: world.project, home: world.home });
      const trust = await trustGuardHooks(CODEX, file, [BASELINES[variant]], {
        ...io,
        env: world.env({ PATH: pathWithAgents(world) }),
      });
      expect(trust.trusted).toBe(trust.total);
    }
  }
  const times: Record<Variant, number[]> = { guard: [], 'node -e 0': [], true: [] };
  // the same harmless tool calls in every run, one model turn each
  const script = Array.from({ length: TOOLS }, (_, i) => ({ shell: `touch measured-${i}.txt` }));
  const prompt = 'touch the files';
  const once = async (variant: Variant): Promise<number> => {
    const world = worlds[variant];
    const model =
      agent === 'codex'
        ? await fakeResponsesModel({ script })
        : agent === 'gemini'
          ? await fakeGeminiModel({ script })
          : agent === 'claude-code'
            ? await fakeMessagesModel({ script })
            : await fakeChatModel({ script });
    const run =
      agent === 'codex'
        ? await codexExec(world, model, prompt)
        : agent === 'gemini'
          ? await geminiPrompt(world, model, prompt)
          : agent === 'claude-code'
            ? await claudePrompt(world, model, prompt)
            : await copilotPrompt(world, model, prompt);
    await model.close();
    expect(run.code, run.stderr).toBe(0);
    return run.ms;
  };
  const node: number[] = [];
  const nodeOnce = (): void => {
    const started = performance.now();
    const run = spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    expect(run.status).toBe(0);
    node.push(performance.now() - started);
  };
  // one unmeasured run each: Copilot unpacks itself, all warm their caches
  for (const variant of variants) await once(variant);
  const before = stepEntries(worlds.guard).length;
  const logLines = (): number =>
    readFileSync(join(worlds.guard.guardHome, 'log.jsonl'), 'utf8').split('\n').filter(Boolean).length;
  const linesBefore = logLines();
  for (let i = 0; i < RUNS; i += 1) {
    // the order rotates, so no variant always follows the same one
    for (let k = 0; k < variants.length; k += 1) {
      const variant = variants[(i + k) % variants.length] as Variant;
      times[variant].push(await once(variant));
      nodeOnce();
    }
  }
  expect(stepEntries(worlds.guard).length - before).toBe(RUNS * TOOLS);
  const hookCallsPerRun = (logLines() - linesBefore) / RUNS;
  const logged = readFileSync(join(worlds.guard.guardHome, 'log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(linesBefore)
    .map((line) => JSON.parse(line) as { event?: string; ms: number });
  const events = [...new Set(logged.map((entry) => entry.event ?? '?'))];
  const loggedMs = Object.fromEntries(
    events.map((event) => [
      event,
      median(logged.filter((entry) => (entry.event ?? '?') === event).map((entry) => entry.ms)),
    ]),
  );
  for (const world of Object.values(worlds)) world.cleanup();
  return {
    agent,
    runs: RUNS,
    toolCallsPerRun: TOOLS,
    nodeMs: median(node),
    medianMs: { guard: median(times.guard), 'node -e 0': median(times['node -e 0']), true: median(times.true) },
    hookCallsPerRun,
    loggedMs,
  };
}

describe.runIf(RUNS > 0)('guard overhead inside the real agents', () => {
  // GUARD_OVERHEAD_AGENTS picks some: codex,copilot,claude-code,gemini
  const agents = (process.env.GUARD_OVERHEAD_AGENTS ?? 'codex,copilot,claude-code,gemini').split(',') as E2eAgent[];
  const results: Result[] = [];
  let cache = '';
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'guard-overhead-cache-'));
  });
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  // one agent at a time, each with its own time limit; what was measured is written after each
  it.for(agents)('measures %s', { timeout: 1_800_000 }, async (agent) => {
    requireInstalled(agent);
    results.push(await measure(agent, cache));
    if (OUT !== undefined) writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  });
});
