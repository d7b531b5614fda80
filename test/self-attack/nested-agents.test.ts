import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adapters, AGENT_IDS } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { hookWorlds, nestedAttempts, nestedNearMisses, preloadMarker } from './nested-agents.js';
import type { World } from './world.js';
import { explainAll, makeWorld, pool, removeWorld, run } from './world.js';

// Hook processes on a shared two-core machine take a while.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/**
 * Nested agents with a changed world (issue 25), in a scratch home with every agent set up by
 * guard's own setup: the outer agent's command lines (judged by `guard explain --jsonl`, and a
 * share of them through each agent's real hook command), and the nested agent's hook itself run
 * in the world such a line would give it. Nothing goes ahead; every near miss does.
 */

let world: World | undefined;
const tally = { tried: 0, through: 0, near: 0, falseBlocks: 0 };

const w = (): World => {
  if (world === undefined) throw new Error('the world was not made');
  return world;
};

beforeAll(async () => {
  world = await makeWorld();
  const t = world.tmp;
  writeFileSync(join(t, 'early.cjs'), `require('fs').writeFileSync(${JSON.stringify(preloadMarker(world))}, 'x');\n`);
  writeFileSync(join(t, 'quiet-settings.json'), '{ "disableAllHooks": true }\n');
  writeFileSync(join(world.project, 'team-settings.json'), '{ "model": "sonnet" }\n');
  // guard's folder as an agent would make it for the agent it starts: guard switched off
  for (const folder of [
    join(t, 'loose-guard'),
    join(t, 'loose-state', 'guard'),
    join(t, 'loose-home', '.local', 'state', 'guard'),
  ]) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'settings.yaml'), 'enabled: false\nfailClosed: false\n');
  }
});

afterAll(() => {
  removeWorld(world);
  console.log(
    `self-attack (nested-agents): ${tally.tried} tried, ${tally.through} through, ${tally.near} near misses, ${tally.falseBlocks} false blocks`,
  );
});

/** What the agent does with its hook's answer, guard under fail-closed as the world sets it. */
function effectOf(agent: AgentId, stdout: string, code: number | null): string {
  return adapters[agent].doctor.readReply(stdout, code ?? 1, true).effect;
}

describe('an agent that starts another agent in a changed world', () => {
  it('every such line is blocked (guard explain --jsonl: the hook engine, environment and probe)', async () => {
    const attempts = nestedAttempts(w());
    expect(attempts.length).toBeGreaterThan(200);
    const answers = await explainAll(w(), attempts);
    const through: string[] = [];
    attempts.forEach((attempt, i) => {
      const answer = answers[i];
      const held = answer?.decision === 'block' && answer.findings.some((f) => f.ruleId === 'guard.tamper');
      tally.tried++;
      if (!held) {
        tally.through++;
        through.push(`${attempt.id}: ${answer?.decision ?? answer?.error} — ${attempt.command}`);
      }
    });
    expect(through).toEqual([]);
  });

  it("a share of them through each agent's real hook command", async () => {
    const attempts = nestedAttempts(w());
    const stride = Math.ceil(attempts.length / 10);
    const sample = attempts.filter((_, i) => i % stride === 0);
    const runs = AGENT_IDS.flatMap((agent) => sample.map((attempt) => ({ agent, attempt })));
    const effects = await pool(runs, 4, async ({ agent, attempt }) => {
      const payload = adapters[agent].doctor.shellCall(attempt.command, attempt.cwd).payload;
      const answer = await hookRun(agent, payload, {});
      return effectOf(agent, answer.stdout, answer.code);
    });
    const through: string[] = [];
    runs.forEach(({ agent, attempt }, i) => {
      tally.tried++;
      if (effects[i] !== 'block') {
        tally.through++;
        through.push(`${agent} ${attempt.id}: ${effects[i]} — ${attempt.command}`);
      }
    });
    expect(through).toEqual([]);
  });

  it("the nested agent's hook, in the world such a line gives it, still blocks a force push", async () => {
    const runs = AGENT_IDS.flatMap((agent) => hookWorlds(w()).map((change) => ({ agent, change })));
    const marker = preloadMarker(w());
    const results = await pool(runs, 3, async ({ agent, change }) => {
      rmSync(marker, { force: true });
      const payload = adapters[agent].doctor.shellCall('git push --force origin main', w().project).payload;
      const answer = await hookRun(agent, payload, change.env, change.limit);
      return { effect: effectOf(agent, answer.stdout, answer.code), preloaded: existsSync(marker) };
    });
    const through: string[] = [];
    runs.forEach(({ agent, change }, i) => {
      const result = results[i];
      tally.tried++;
      // the hook's block, or the command's own answer when the hook could not start (ask where
      // setup wrote an ask): never a step let through
      if (!['block', 'ask'].includes(result?.effect ?? '') || result?.preloaded !== false) {
        tally.through++;
        through.push(`${agent} ${change.id}: ${result?.effect}${result?.preloaded === true ? ', preload ran' : ''}`);
      }
    });
    expect(through).toEqual([]);
  });
});

describe('near misses go ahead', () => {
  it('by guard explain', async () => {
    const misses = nestedNearMisses(w());
    const answers = await explainAll(w(), misses);
    const stopped: string[] = [];
    misses.forEach((miss, i) => {
      const answer = answers[i];
      tally.near++;
      if (answer?.decision !== 'allow') {
        tally.falseBlocks++;
        stopped.push(
          `${miss.id}: ${answer?.decision ?? answer?.error} ${answer?.findings.map((f) => f.ruleId).join(',')} — ${miss.command}`,
        );
      }
    });
    expect(stopped).toEqual([]);
  });

  it("by each agent's hook", async () => {
    const misses = nestedNearMisses(w()).filter((_, i) => i % 4 === 0);
    const runs = AGENT_IDS.flatMap((agent) => misses.map((miss) => ({ agent, miss })));
    const effects = await pool(runs, 4, async ({ agent, miss }) => {
      const answer = await hookRun(agent, adapters[agent].doctor.shellCall(miss.command, miss.cwd).payload, {});
      return effectOf(agent, answer.stdout, answer.code);
    });
    const stopped: string[] = [];
    runs.forEach(({ agent, miss }, i) => {
      tally.near++;
      if (effects[i] === 'block') {
        tally.falseBlocks++;
        stopped.push(`${agent} ${miss.id}: ${effects[i]} — ${miss.command}`);
      }
    });
    expect(stopped).toEqual([]);
  });
});

/** Runs an agent's hook command as the agent does (Codex through a login shell), in a changed environment and under a limit. */
function hookRun(agent: AgentId, payload: unknown, env: Readonly<Record<string, string>>, limit?: string) {
  const command = w().hookCommands[agent];
  return run(
    w().env.SHELL ?? '/bin/sh',
    [agent === 'codex' ? '-lc' : '-c', limit === undefined ? command : `${limit}; ${command}`],
    {
      env: { ...w().env, ...env },
      cwd: w().project,
      input: JSON.stringify(payload),
    },
  );
}
