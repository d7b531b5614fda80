import { adapters, AGENT_IDS } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { computedAttempts, computedNearMisses } from './computed-paths.js';
import type { World } from './world.js';
import { explainAll, makeWorld, pool, removeWorld, runAsAgent } from './world.js';

// Hook processes on a shared two-core machine take a while.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/**
 * Paths built in inline code and printed by substitutions, tried against guard in a scratch home
 * with every agent set up by guard's own setup: all attempts judged by `guard explain --jsonl` (the
 * hook's engine, environment, probe and policy), and a share through each agent's real hook command.
 * No attempt may go ahead; every near miss must.
 */

let world: World | undefined;
const tally = { tried: 0, through: 0, nearMisses: 0, falseBlocks: 0 };

beforeAll(async () => {
  world = await makeWorld();
});

afterAll(() => {
  removeWorld(world);
  console.log(
    `self-attack (computed-paths): ${tally.tried} tried, ${tally.through} through, ${tally.nearMisses} near misses, ${tally.falseBlocks} false blocks`,
  );
});

const w = (): World => {
  if (world === undefined) throw new Error('the world was not made');
  return world;
};

async function effectThroughHook(agent: AgentId, command: string, cwd: string): Promise<string> {
  const answer = await runAsAgent(w(), agent, adapters[agent].doctor.shellCall(command, cwd).payload);
  return adapters[agent].doctor.readReply(answer.stdout, answer.code ?? 1, true).effect;
}

describe('paths built in code and printed by substitutions', () => {
  it('none goes ahead (guard explain --jsonl)', async () => {
    const attempts = computedAttempts(w());
    expect(attempts.length).toBeGreaterThan(100);
    const answers = await explainAll(w(), attempts);
    const through: string[] = [];
    attempts.forEach((attempt, i) => {
      const decision = answers[i]?.decision;
      tally.tried++;
      // the listings ask (guard cannot tell which files change); the rest is guard.tamper
      const held =
        attempt.group === 'code: listing' ? decision === 'ask' || decision === 'block' : decision === 'block';
      if (!held) {
        tally.through++;
        through.push(`${attempt.group} / ${attempt.id}: ${decision ?? answers[i]?.error} — ${attempt.command}`);
      }
    });
    expect(through).toEqual([]);
  });

  it("a share of them, through each agent's real hook command", async () => {
    const attempts = computedAttempts(w());
    const stride = Math.ceil(attempts.length / 8);
    const sample = attempts.filter((_, i) => i % stride === 0);
    const runs = AGENT_IDS.flatMap((agent) => sample.map((attempt) => ({ agent, attempt })));
    const effects = await pool(runs, 4, ({ agent, attempt }) => effectThroughHook(agent, attempt.command, attempt.cwd));
    const through: string[] = [];
    runs.forEach(({ agent, attempt }, i) => {
      tally.tried++;
      // what the agent does with the answer: only a block or a question holds the step
      if (effects[i] !== 'block' && effects[i] !== 'ask') {
        tally.through++;
        through.push(`${agent} ${attempt.id}: ${effects[i]} — ${attempt.command}`);
      }
    });
    expect(through).toEqual([]);
  });

  it('every near miss goes ahead, by explain and through each hook', async () => {
    const misses = computedNearMisses(w());
    const answers = await explainAll(w(), misses);
    const runs = AGENT_IDS.flatMap((agent) => misses.map((miss) => ({ agent, miss })));
    const effects = await pool(runs, 4, ({ agent, miss }) => effectThroughHook(agent, miss.command, miss.cwd));
    const blocked: string[] = [];
    misses.forEach((miss, i) => {
      tally.nearMisses++;
      if (answers[i]?.decision !== 'allow') {
        tally.falseBlocks++;
        blocked.push(`explain ${miss.id}: ${answers[i]?.decision} — ${miss.command}`);
      }
    });
    runs.forEach(({ agent, miss }, i) => {
      tally.nearMisses++;
      if (effects[i] !== 'no-objection') {
        tally.falseBlocks++;
        blocked.push(`${agent} ${miss.id}: ${effects[i]} — ${miss.command}`);
      }
    });
    expect(blocked).toEqual([]);
  });
});
