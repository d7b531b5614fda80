import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentId } from '../../packages/adapters/src/index.js';
import type { Scratch, Verdict } from './harness.js';
import { AGENTS, guardCli, pool, runShell, scratch, setUpAll, shellPayload, verdictOf } from './harness.js';
import type { PolicyWay } from './policy-pin.js';
import {
  looseningWays,
  MILD,
  NEAR_MISSES,
  PINNED,
  PROBE,
  projectScript,
  sameWays,
  SELF_ACCEPT,
  tighteningWays,
} from './policy-pin.js';

// A hook process per agent per way on a shared two-core machine takes a while.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/**
 * The project policy's pin, attacked through each agent's real hook command as guard's setup wrote
 * it: the agent replaces a pinned `.guard.yaml` with a looser one by a program (the way is run
 * whatever the hook said of it, as if it had got through), and the next step must still be judged
 * by the pinned policy until the person runs `guard policy accept`; a tightening applies at once.
 */

let world: Scratch | undefined;
let commands: Record<AgentId, string> | undefined;
const tally = { tried: 0, through: 0, near: 0, falseBlocks: 0 };
const NODE = process.execPath;

beforeAll(async () => {
  world = scratch('policy-pin');
  commands = await setUpAll(world);
});

afterAll(() => {
  world?.cleanup();
  console.log(
    `self-attack (policy-pin): ${tally.tried} tried, ${tally.through} through, ${tally.near} near misses, ${tally.falseBlocks} false blocks`,
  );
});

const w = (): Scratch => {
  if (world === undefined) throw new Error('the scratch machine was not made');
  return world;
};

async function sh(script: string, cwd: string): Promise<void> {
  const ran = await runShell(script, { env: w().env(), cwd, stdin: '' });
  if (ran.code !== 0) throw new Error(`${script} exited ${String(ran.code)}: ${ran.stderr}`);
}

/** A step through an agent's real hook command, as that agent sends it: what the agent makes of the answer, and its text. */
async function step(
  agent: AgentId,
  command: string,
  cwd: string,
  chat: string,
): Promise<{ verdict: Verdict; text: string }> {
  const hook = commands?.[agent];
  if (hook === undefined) throw new Error(`no hook command for ${agent}`);
  const ran = await runShell(hook, {
    env: w().env(),
    cwd,
    stdin: JSON.stringify(shellPayload(agent, command, cwd, chat)),
  });
  return { verdict: verdictOf(agent, ran), text: ran.stdout };
}

let made = 0;
/** A project of its own for one way, pinned by a first step (`before` run ahead of it). */
async function pinnedProject(way: PolicyWay): Promise<string> {
  const project = join(w().home, 'ways', String(made++), 'project');
  mkdirSync(project, { recursive: true });
  await sh(projectScript(way.start ?? PINNED, NODE), project);
  if (way.before !== undefined) await sh(way.before, project);
  const first = await step('codex', PROBE, project, `pin-${made}`);
  const expected = way.start === MILD ? 'ask' : 'block';
  if (first.verdict !== expected) throw new Error(`the pinned policy answered ${first.verdict}, not ${expected}`);
  return project;
}

describe('a .guard.yaml loosened by a program stays unapplied until the person accepts it', () => {
  it("through each agent's real hook command", async () => {
    const ways = looseningWays(NODE);
    const projects = await pool(ways, 2, async (way) => {
      const project = await pinnedProject(way);
      await sh(way.change, project);
      return project;
    });
    const runs = ways.flatMap((way, i) => AGENTS.map((agent) => ({ way, agent, project: projects[i] ?? '' })));
    const answers = await pool(runs, 4, ({ agent, project }) => step(agent, PROBE, project, `chat-${agent}`));
    const through = runs.flatMap(({ way, agent }, i) => {
      tally.tried++;
      if (answers[i]?.verdict === 'block') return [];
      tally.through++;
      return [`${agent}, ${way.id}: ${answers[i]?.verdict}`];
    });
    expect(through).toEqual([]);
  });

  it('the agent accepting it itself is guard.tamper, in every spelling, through every agent', async () => {
    const project = await pinnedProject({ id: 'self', change: '' });
    await sh('git checkout -q loose', project);
    const runs = SELF_ACCEPT.flatMap((command) => AGENTS.map((agent) => ({ command, agent })));
    const answers = await pool(runs, 4, ({ command, agent }) => step(agent, command, project, `self-${agent}`));
    const through = runs.flatMap(({ command, agent }, i) => {
      tally.tried++;
      if (answers[i]?.verdict === 'block' && /guard\.tamper/.test(answers[i]?.text ?? '')) return [];
      tally.through++;
      return [`${agent}: ${command}: ${answers[i]?.verdict}`];
    });
    expect(through).toEqual([]);
    // and it is still waiting
    expect((await step('claude-code', PROBE, project, 'after-self')).verdict).toBe('block');
  });

  it('a nested repository with its own looser .guard.yaml is no looser project root (an agent working in it)', async () => {
    const project = await pinnedProject({ id: 'nested', change: '' });
    await sh(
      `git init -q sub && printf 'allow:\\n  - rule: fs.delete\\n    paths: ["**"]\\n' > sub/.guard.yaml && mkdir -p sub/src && echo x > sub/src/a.ts`,
      project,
    );
    const sub = join(project, 'sub');
    const answers = await pool([...AGENTS], 3, (agent) => step(agent, PROBE, sub, `nested-${agent}`));
    const through = AGENTS.flatMap((agent, i) => {
      tally.tried++;
      if (answers[i]?.verdict === 'block') return [];
      tally.through++;
      return [`${agent}: ${answers[i]?.verdict}`];
    });
    expect(through).toEqual([]);
  });
});

describe('a tightening applies at once', () => {
  it("through each agent's real hook command", async () => {
    const ways = tighteningWays();
    const projects = await pool(ways, 2, async (way) => {
      const project = await pinnedProject(way);
      await sh(way.change, project);
      return project;
    });
    const runs = ways.flatMap((way, i) => AGENTS.map((agent) => ({ way, agent, project: projects[i] ?? '' })));
    const answers = await pool(runs, 4, ({ agent, project }) => step(agent, PROBE, project, `tight-${agent}`));
    const missed = runs.flatMap(({ way, agent }, i) => {
      tally.tried++;
      if (answers[i]?.verdict === 'block') return [];
      tally.through++;
      return [`${agent}, ${way.id}: ${answers[i]?.verdict}`];
    });
    expect(missed).toEqual([]);
  });
});

describe('near misses', () => {
  it('changes that loosen nothing leave nothing waiting and the same answer', async () => {
    const ways = sameWays();
    const out = await pool(ways, 2, async (way) => {
      const project = await pinnedProject(way);
      await sh(way.change, project);
      const answer = await step('gemini', PROBE, project, 'same');
      const shown = await guardCli(w(), ['policy', 'status', '--json', '--project', project]);
      return { answer, shown: JSON.parse(shown.stdout) as { projects: { loosens: string[] }[] } };
    });
    const wrong = ways.flatMap((way, i) => {
      tally.near++;
      const { answer, shown } = out[i] ?? {};
      const waits = (shown?.projects[0]?.loosens.length ?? 1) > 0;
      if (answer?.verdict === 'block' && !waits && !/guard policy accept/.test(answer.text)) return [];
      tally.falseBlocks++;
      return [`${way.id}: ${answer?.verdict}, waits: ${String(waits)}`];
    });
    expect(wrong).toEqual([]);
  });

  it("reading the file, guard's read-only commands and backups under other names go ahead while a change waits", async () => {
    const project = await pinnedProject({ id: 'near', change: '' });
    await sh('git checkout -q loose', project);
    const runs = NEAR_MISSES.flatMap((command) => AGENTS.map((agent) => ({ command, agent })));
    const answers = await pool(runs, 4, ({ command, agent }) => step(agent, command, project, `near-${agent}`));
    const blocked = runs.flatMap(({ command, agent }, i) => {
      tally.near++;
      if (answers[i]?.verdict === 'allow') return [];
      tally.falseBlocks++;
      return [`${agent}: ${command}: ${answers[i]?.verdict}`];
    });
    expect(blocked).toEqual([]);
  });

  it('once the person accepts it in a terminal, the change applies for every agent', async () => {
    const project = await pinnedProject({ id: 'accepted', change: '' });
    await sh('git stash list >/dev/null && tar xf ../loose.tar', project);
    expect((await step('cursor', PROBE, project, 'before-accept')).verdict).toBe('block');
    const accepted = await guardCli(w(), ['policy', 'accept', '--project', project]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/allow: fs\.delete goes ahead for \*\*/);
    expect(accepted.stdout).toMatch(/block: fs\.delete asks again instead of blocking/);
    const answers = await pool([...AGENTS], 3, (agent) => step(agent, PROBE, project, `accepted-${agent}`));
    const blocked = AGENTS.flatMap((agent, i) => {
      tally.near++;
      if (answers[i]?.verdict === 'allow') return [];
      tally.falseBlocks++;
      return [`${agent}: ${answers[i]?.verdict}`];
    });
    expect(blocked).toEqual([]);
  });
});

describe('what the person is told', () => {
  it('the answer tells each chat once; the log names the step that first saw it; status lists it', async () => {
    const project = await pinnedProject({ id: 'told', change: '' });
    await sh('patch -s -p1 < ../loose.diff', project);
    const told = (text: string): boolean => /guard policy accept/.test(text);
    const first = await step('claude-code', PROBE, project, 'chat-a');
    const again = await step('claude-code', PROBE, project, 'chat-a');
    const other = await step('claude-code', 'rm -rf src/a.ts', project, 'chat-b');
    expect([first.verdict, told(first.text)]).toEqual(['block', true]);
    expect([again.verdict, told(again.text)]).toEqual(['block', false]);
    expect(told(other.text)).toBe(true);

    const log = readFileSync(join(w().guardHome, 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { chat?: string; policyHeld?: string[] });
    expect(log.filter((line) => line.chat === 'chat-a' && line.policyHeld !== undefined)).toHaveLength(2);

    const status = await guardCli(w(), ['status', '--json']);
    const waiting = (JSON.parse(status.stdout) as { policyWaiting: { project: string; chat: string; agent: string }[] })
      .policyWaiting;
    expect(waiting.find((entry) => entry.project === project)).toMatchObject({ agent: 'claude-code', chat: 'chat-a' });
    const text = await guardCli(w(), ['status']);
    expect(text.stdout).toContain(`guard policy accept --project ${project}`);
  });
});
