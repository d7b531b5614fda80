import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adapters, AGENT_IDS } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShellAttempt, ToolAttempt } from './attacks.js';
import { nearMisses, policyAttempts, shellAttempts, toolAttempts, toolNearMisses } from './attacks.js';
import type { World } from './world.js';
import { explainAll, makeWorld, pool, removeWorld, runAsAgent } from './world.js';
import { fixture } from '../../packages/cli/test/hook-cases.js';
import { scaled } from '../machine.js';

// Hundreds of hook processes on a shared two-core machine take a while.
vi.setConfig({ testTimeout: scaled(300_000), hookTimeout: scaled(120_000) });

/**
 * guard attacked as a hostile agent would attack it, in a scratch home with every agent set up by
 * guard's own setup. The shell attempts are judged in bulk by `guard explain --jsonl` (the same
 * engine, environment, probe and project policy as the hook), and a share of them, spread over the
 * table, again through each agent's real hook command as setup wrote it, run the way the agent
 * runs it; every agent's own write tools go through the real hook commands only. Nothing may go
 * ahead, and every near miss must.
 */

let world: World | undefined;
const counts: Record<string, { tried: number; through: number }> = {};

function count(group: string, through: boolean): void {
  const entry = (counts[group] ??= { tried: 0, through: 0 });
  entry.tried++;
  if (through) entry.through++;
}

beforeAll(async () => {
  world = await makeWorld();
  writeFileSync(join(world.tmp, 'evil.json'), '{}\n');
  writeFileSync(
    join(world.tmp, 'payload.json'),
    JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo hi' } }),
  );
});

afterAll(() => {
  removeWorld(world);
  const rows = Object.entries(counts).map(
    ([group, { tried, through }]) => `  ${group}: ${tried} tried, ${through} got through`,
  );
  const tried = Object.values(counts).reduce((sum, entry) => sum + entry.tried, 0);
  const through = Object.values(counts).reduce((sum, entry) => sum + entry.through, 0);
  // the numbers the closing note of the issue asks for
  console.log(`self-attack (tamper): ${tried} attempts, ${through} got through\n${rows.join('\n')}`);
});

const w = (): World => {
  if (world === undefined) throw new Error('the world was not made');
  return world;
};

/** What the agent does with the hook's answer (its own reading of the reply, as doctor uses it). */
async function effectThroughHook(agent: AgentId, payload: unknown): Promise<string> {
  const answer = await runAsAgent(w(), agent, payload);
  return adapters[agent].doctor.readReply(answer.stdout, answer.code ?? 1, true).effect;
}

describe('tamper attempts by shell', () => {
  it('none goes ahead (guard explain --jsonl: the hook engine, environment, probe and policy)', async () => {
    const attempts = shellAttempts(w());
    expect(attempts.length).toBeGreaterThan(1000);
    const answers = await explainAll(w(), attempts);
    const through: string[] = [];
    attempts.forEach((attempt, i) => {
      const answer = answers[i];
      const blocked = answer?.decision === 'block';
      count(`shell: ${attempt.group}`, !blocked);
      if (!blocked) through.push(`${attempt.id}: ${answer?.decision ?? answer?.error} — ${attempt.command}`);
    });
    expect(through).toEqual([]);
  });

  it("a share of them, through each agent's real hook command", async () => {
    const attempts = shellAttempts(w());
    // a spread over the table (targets, spellings, writers, ways to run guard): a hook process
    // each is slow on a small machine, and the engine behind it is the one explain ran above
    const stride = Math.ceil(attempts.length / 12);
    const sample = attempts.filter((_, i) => i % stride === 0);
    const runs = AGENT_IDS.flatMap((agent) => sample.map((attempt) => ({ agent, attempt })));
    const effects = await pool(runs, 4, ({ agent, attempt }) =>
      effectThroughHook(agent, adapters[agent].doctor.shellCall(attempt.command, attempt.cwd).payload),
    );
    const through: string[] = [];
    runs.forEach(({ agent, attempt }, i) => {
      const blocked = effects[i] === 'block';
      count(`hook ${agent}: shell`, !blocked);
      if (!blocked) through.push(`${agent} ${attempt.id}: ${effects[i]} — ${attempt.command}`);
    });
    expect(through).toEqual([]);
  });
});

describe("tamper attempts by each agent's write tools", () => {
  it('none goes ahead', async () => {
    const attempts: ToolAttempt[] = toolAttempts(w());
    const effects = await pool(attempts, 4, (attempt) => effectThroughHook(attempt.agent, attempt.payload));
    const through: string[] = [];
    attempts.forEach((attempt, i) => {
      const blocked = effects[i] === 'block';
      count(`hook: ${attempt.group}`, !blocked);
      if (!blocked) through.push(`${attempt.id}: ${effects[i]}`);
    });
    expect(through).toEqual([]);
  });
});

describe('a .guard.yaml only tightens', () => {
  it('an allow never reaches outside its folder, and a nested file does not replace the outer one', async () => {
    const attempts: ShellAttempt[] = policyAttempts(w());
    const answers = await explainAll(w(), attempts);
    const through: string[] = [];
    attempts.forEach((attempt, i) => {
      const answer = answers[i];
      const held = answer?.decision !== 'allow';
      count(`shell: ${attempt.group}`, !held);
      if (!held) through.push(`${attempt.id}: ${answer?.decision ?? answer?.error}`);
    });
    expect(through).toEqual([]);
  });
});

describe('near misses go ahead', () => {
  it('by shell', async () => {
    const misses = nearMisses(w());
    const answers = await explainAll(w(), misses);
    const stopped = misses
      .map((miss, i) => ({ miss, answer: answers[i] }))
      .filter(({ answer }) => answer?.decision !== 'allow')
      .map(
        ({ miss, answer }) =>
          `${miss.id}: ${answer?.decision ?? answer?.error} ${answer?.findings.map((f) => f.ruleId).join(',')}`,
      );
    expect(stopped).toEqual([]);
  });

  it("by each agent's hook", async () => {
    const shell = nearMisses(w()).filter((_, i) => i % 6 === 0);
    const runs = [
      ...AGENT_IDS.flatMap((agent) =>
        shell.map((miss) => ({
          id: `${agent} ${miss.id}`,
          agent,
          payload: adapters[agent].doctor.shellCall(miss.command, miss.cwd).payload,
        })),
      ),
      ...toolNearMisses(w()),
    ];
    const effects = await pool(runs, 4, (entry) => effectThroughHook(entry.agent, entry.payload));
    const stopped = runs.map((entry, i) => `${entry.id}: ${effects[i]}`).filter((_, i) => effects[i] === 'block');
    expect(stopped).toEqual([]);
  });
});

describe("nothing secret in guard's folder", () => {
  // made-up values with the shape of real ones
  const secrets = ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8dE3xAmp', 'S3cretPassw0rd', 'Tr0ub4dor-and-3'];

  it('after steps that carry secrets, no file there holds one', async () => {
    const codex = fixture('codex/pre-tool-use-apply-patch');
    const steps: { agent: AgentId; payload: unknown }[] = [
      ...AGENT_IDS.map((agent) => ({
        agent,
        payload: adapters[agent].doctor.shellCall(`echo "${secrets[0]}" | base64`, w().project).payload,
      })),
      {
        agent: 'codex',
        payload: adapters.codex.doctor.shellCall(`mysql -u root -p${secrets[1]} shop`, w().project).payload,
      },
      {
        agent: 'codex',
        payload: {
          ...codex,
          cwd: w().project,
          tool_input: { command: `*** Begin Patch\n*** Add File: db.yml\n+password: ${secrets[2]}\n*** End Patch\n` },
        },
      },
    ];
    await pool(steps, 2, (step) => runAsAgent(w(), step.agent, step.payload));
    const found: string[] = [];
    const visit = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        // (a resident checker's socket holds no bytes, and its start lock may be gone by now)
        const stat = statSync(path, { throwIfNoEntry: false });
        if (stat?.isDirectory() === true) visit(path);
        else if (stat?.isFile() === true) {
          const text = readFileSync(path, 'latin1');
          for (const secret of secrets)
            if (text.includes(secret)) found.push(`${path.slice(w().guardHome.length)}: ${secret}`);
        }
      }
    };
    visit(w().guardHome);
    count("secrets in guard's folder", found.length > 0);
    expect(found).toEqual([]);
    // and the steps were logged at all (a log with nothing in it would pass the line above)
    expect(readFileSync(join(w().guardHome, 'log.jsonl'), 'utf8')).toContain('[redacted:');
  });
});
