import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { main } from '../../packages/cli/src/main.js';
import { SYSTEM_ROOT } from '../../packages/cli/src/world/system-root.js';
import { captureIo } from '../../packages/cli/test/capture-io.js';
import type { Ran, Scratch } from './harness.js';
import {
  AGENTS as ALL,
  guardCli,
  guardOk,
  runShell,
  scratch,
  setUpAll,
  shellPayload,
  stepCommand,
  verdictOf,
} from './harness.js';
import type { FileChange } from './hook-pins.js';
import { hookFile, NEAR_MISSES, TAMPERS } from './hook-pins.js';

// A few hundred guard processes on a shared two-core machine take a while.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

/**
 * The pins on the agents' hook files (issue 25): in a scratch home with guard set up by its own
 * setup, each agent's hook file is changed as something that got past guard would change it, and
 * the change must be reported four ways: `guard status --json`, `guard doctor`, a `drift` line in
 * guard's log, and the next answer of another agent that carries a notice (once, and never by
 * turning a step that goes ahead into an ask). The near misses change the same files, in a home
 * with every agent set up, and leave guard's entries as setup wrote them: nothing may be reported
 * for them.
 *
 * Each agent's tampers run in a home of their own with that agent and the agent that answers after
 * it set up: `guard doctor` runs every set-up agent's hook four times, and with all twelve set up
 * the doctor call of each tamper was two thirds of this file's time. A process for each `guard`
 * command was then most of what was left (some 500 CLI starts): `guard status` and `guard doctor`
 * run in this process (`inProcess`, the CLI's own `main()` over the scratch machine) for all but
 * each agent's first tamper, which asks the built CLI as a process, and so does the `guard setup`
 * that puts a file back after each change. The rows are about what the commands say, not how they
 * start; the hook is always called as the agents call it, a process, and each home is set up by
 * the built CLI.
 */

let world: Scratch | undefined;
/** The tampers that changed some agent's file. */
const applied = new Set<string>();
const tally = { tried: 0, reported: 0, missed: [] as string[], near: 0, falseReports: [] as string[] };

const w = (): Scratch => {
  if (world === undefined) throw new Error('the scratch machine was not made');
  return world;
};

beforeAll(async () => {
  world = scratch('hook-pins');
  await setUpAll(world);
});

afterAll(() => {
  world?.cleanup();
  console.log(
    `self-attack (hook-pins): ${tally.tried} tried, ${tally.tried - tally.reported} through (not reported), ` +
      `${tally.near} near misses, ${tally.falseReports.length} false reports`,
  );
});

interface Seen {
  readonly status: boolean;
  readonly doctor: boolean;
  readonly log: boolean;
  /** A step that goes ahead stayed silent and unasked. */
  readonly allowSilent: boolean;
  /** The next block carried it. */
  readonly told: boolean;
  /** The block after that did not again. */
  readonly toldOnce: boolean;
}

/**
 * `guard <args>` run in this process with the scratch machine's environment, home and project, and
 * the machine's system root and temp folder, as the built CLI would run there (the hook script
 * setup writes is the built one either way: `hookScriptPath()`).
 */
async function inProcess(on: Scratch, args: readonly string[]): Promise<Ran> {
  const captured = captureIo({ cwd: on.project, home: on.home, systemRoot: SYSTEM_ROOT });
  const code = await main(['node', 'guard', ...args], { ...captured.io, env: on.env(), tmp: tmpdir });
  return { code, stdout: captured.stdout(), stderr: captured.stderr(), timedOut: false, ms: 0 };
}

/** How `guard status` and `guard doctor` run: the built CLI as a process, or in this process. */
type Cli = (on: Scratch, args: readonly string[]) => Promise<Ran>;

/** The agent that answers after `agent`'s file changed: another one. */
const teller = (agent: AgentId): AgentId => (agent === 'claude-code' ? 'codex' : 'claude-code');

async function hookCall(on: Scratch, agent: AgentId, command: string): Promise<{ stdout: string; verdict: string }> {
  const ran = await runShell(stepCommand(on, agent), {
    env: on.env(),
    cwd: on.project,
    stdin: JSON.stringify(shellPayload(agent, command, on.project, `pins-${agent}`)),
    limitMs: 30_000,
  });
  return { stdout: ran.stdout, verdict: verdictOf(agent, ran) };
}

function logText(on: Scratch): string {
  const path = join(on.guardHome, 'log.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** Lets the hook look at once (it looks at most once a minute). */
function lookNow(on: Scratch): void {
  const path = join(on.guardHome, 'pins.json');
  if (!existsSync(path)) return;
  const state = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...state, checked: 0 }));
}

/** What status, doctor, the log and the next answers say after `change` to `agent`'s hook file. */
async function seenAfter(on: Scratch, agent: AgentId, change: FileChange, cli: Cli): Promise<Seen | undefined> {
  const path = hookFile(on, agent);
  const logBefore = logText(on).length;
  if (!change.apply(path, agent)) return undefined;
  const status = JSON.parse((await cli(on, ['status', '--json'])).stdout) as {
    agents: { agent: string; drift: { path: string }[] }[];
  };
  const inStatus = status.agents.find((entry) => entry.agent === agent)?.drift.some((d) => d.path === path) ?? false;
  const doctor = await cli(on, ['doctor', '--json']);
  const report = JSON.parse(doctor.stdout) as { agents: { agent: string; path: string; checks: { ok: boolean }[] }[] };
  const inDoctor =
    doctor.code !== 0 &&
    report.agents.some((entry) => entry.agent === agent && entry.path === path && entry.checks.some((c) => !c.ok));
  const other = teller(agent);
  const again = `guard setup ${agent}`;
  lookNow(on);
  await hookCall(on, other, 'ls'); // the hook looks after this answer
  const logged = logText(on)
    .slice(logBefore)
    .split('\n')
    .some((line) => line.includes('"how":"drift"') && line.includes(`"agent":"${agent}"`));
  const allow = await hookCall(on, other, 'ls');
  const first = await hookCall(on, other, 'git push --force origin main');
  const second = await hookCall(on, other, 'git push --force origin main');
  return {
    status: inStatus,
    doctor: inDoctor,
    log: logged,
    allowSilent: allow.verdict === 'allow' && !allow.stdout.includes(again),
    told: first.verdict === 'block' && first.stdout.includes(again),
    toldOnce: second.verdict === 'block' && !second.stdout.includes(again),
  };
}

/** Puts the agent's file back as setup writes it, and forgets what the hook found. */
async function restore(on: Scratch, agent: AgentId): Promise<void> {
  const path = hookFile(on, agent);
  rmSync(`${path}.bak`, { force: true });
  // a file that no longer parses cannot be set up again in place
  if (existsSync(path)) {
    try {
      JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      rmSync(path);
    }
  }
  // a file whose guard entry no longer runs guard is refused by setup: the person moves it aside
  if ((await inProcess(on, ['setup', agent])).code !== 0) rmSync(path, { force: true });
  const ran = await inProcess(on, ['setup', agent]);
  if (ran.code !== 0) throw new Error(`setup ${agent} again: ${ran.stdout}${ran.stderr}`);
  lookNow(on);
  await hookCall(on, teller(agent), 'ls');
}

// guard's Cline hook file is a shell script that runs guard's command (not a hook entry in a file of
// the agent's): its own changes are rows in packages/cli/test/agents/pins.test.ts
const AGENTS = ALL.filter((agent) => agent !== 'cline');

describe('a changed hook file is reported by status, doctor, the log and the next answer', () => {
  it.each(AGENTS)('%s', async (agent) => {
    const home = scratch(`hook-pins-${agent}`);
    try {
      for (const each of [agent, teller(agent)]) await guardOk(home, ['setup', each]);
      const missed: string[] = [];
      // the first tamper that applies asks the built CLI as a process, the rest this process
      let cli: Cli = guardCli;
      for (const change of TAMPERS) {
        const seen = await seenAfter(home, agent, change, cli);
        if (seen === undefined) continue;
        cli = inProcess;
        applied.add(change.id);
        tally.tried++;
        const all = Object.values(seen).every(Boolean);
        if (all) tally.reported++;
        else missed.push(`${agent}: ${change.id}: ${JSON.stringify(seen)}`);
        await restore(home, agent);
      }
      tally.missed.push(...missed);
      expect(missed).toEqual([]);
    } finally {
      home.cleanup();
    }
  });
  // a tamper that applies to no agent (setup no longer writes what it changes) would test nothing
  it('every tamper changed the file of at least one agent', () => {
    expect(TAMPERS.map((change) => change.id).filter((id) => !applied.has(id))).toEqual([]);
  });
});

describe('near misses: the same files changed, guard entries as setup wrote them, nothing reported', () => {
  it.each(AGENTS)('%s', async (agent) => {
    const reported: string[] = [];
    for (const change of NEAR_MISSES) {
      const path = hookFile(w(), agent);
      const logBefore = logText(w()).length;
      if (!change.apply(path, agent)) continue;
      tally.near++;
      // status as a process is the last row's (setup run again)
      const status = JSON.parse((await inProcess(w(), ['status', '--json'])).stdout) as {
        agents: { agent: string; drift: unknown[] }[];
      };
      const inStatus = status.agents.some((entry) => entry.agent === agent && entry.drift.length > 0);
      lookNow(w());
      await hookCall(w(), teller(agent), 'ls');
      const block = await hookCall(w(), teller(agent), 'git push --force origin main');
      const logged = logText(w()).slice(logBefore).includes('"how":"drift"');
      const told = block.stdout.includes('guard setup');
      if (inStatus || logged || told)
        reported.push(`${agent}: ${change.id}: status ${inStatus}, log ${logged}, answer ${told}`);
      await restore(w(), agent);
    }
    tally.falseReports.push(...reported);
    expect(reported).toEqual([]);
  });

  it('guard setup --dry-run and a setup run again change nothing and report nothing', async () => {
    for (const agent of AGENTS) {
      tally.near += 2;
      expect((await guardCli(w(), ['setup', agent, '--dry-run'])).code).toBe(0);
      expect((await guardCli(w(), ['setup', agent])).code).toBe(0);
    }
    const status = JSON.parse((await guardCli(w(), ['status', '--json'])).stdout) as {
      agents: { agent: string; drift: unknown[] }[];
    };
    const reported = status.agents.filter((entry) => entry.drift.length > 0).map((entry) => entry.agent);
    tally.falseReports.push(...reported);
    expect(reported).toEqual([]);
  });
});
