import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adapters } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import type { ChatCodeCase } from './chat-code.js';
import { ATTEMPTS, NEAR_MISSES } from './chat-code.js';
import { shellPayload } from './harness.js';
import type { World } from './world.js';
import { makeWorld, pool, removeWorld, runAsAgent } from './world.js';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

/**
 * Code the chat wrote, run later, through each agent's real hook command as setup wrote it: a chat
 * writes a file (a shell step, or Claude Code's write tool), the file lands on disk, and the same
 * chat runs the runner. No attempt's run may go ahead; every near miss must.
 */

let world: World | undefined;
const tally = { tried: 0, through: 0, near: 0, falseBlocks: 0 };

beforeAll(async () => {
  world = await makeWorld();
});

afterAll(() => {
  removeWorld(world);
  console.log(
    `self-attack (chat-code): ${tally.tried} tried, ${tally.through} through, ${tally.near} near misses, ${tally.falseBlocks} false blocks`,
  );
});

const w = (): World => {
  if (world === undefined) throw new Error('the world was not made');
  return world;
};

/** What the agent makes of the hook's answer: `no-objection` (it goes ahead), or `ask`, `block`, `failure` with the answer. */
async function effectOf(agent: AgentId, payload: unknown): Promise<string> {
  const answer = await runAsAgent(w(), agent, payload);
  const effect = adapters[agent].doctor.readReply(answer.stdout, answer.code ?? 1, true).effect;
  return effect === 'no-objection' ? effect : `${effect} ${answer.stdout.slice(0, 400)}`;
}

/** The step that writes one file, as the case says, in the chat's own folder. */
function writeStep(entry: ChatCodeCase, folder: string, chat: string, file: string, text: string): unknown {
  const path = join(folder, file);
  if (entry.how === 'tool')
    return {
      session_id: chat,
      transcript_path: join(folder, '.transcript.jsonl'),
      cwd: folder,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path, content: text },
      tool_use_id: 'toolu_1',
    };
  const command =
    entry.how === 'sed' ? `sed -i 's/x/y/' ${file}` : `mkdir -p ${dirname(file)} && cat > ${file} <<'EOF'\n${text}EOF`;
  return shellPayload(entry.agent, command, folder, chat);
}

/** Writes, then runs; the run's effect (or `write:<effect>` when the write itself was stopped). */
async function attempt(entry: ChatCodeCase): Promise<string> {
  // each case in a project of its own (a folder of the project's tree), so the cases do not meet
  const folder = join(w().project, 'cases', entry.id);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(entry.present ?? {})) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  const chat = `chat-code-${entry.id}`;
  const writer = entry.how === 'tool' ? 'claude-code' : entry.agent;
  for (const [file, text] of Object.entries(entry.writes)) {
    const writeChat = entry.otherChat === true ? `${chat}-other` : chat;
    const effect = await effectOf(writer, writeStep(entry, folder, writeChat, file, text));
    if (effect !== 'no-objection') return `write:${effect}`;
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  const runner = entry.how === 'tool' ? 'claude-code' : entry.agent;
  return effectOf(runner, shellPayload(runner, entry.run, folder, chat));
}

describe('code the chat wrote, run later', () => {
  it('no run of code the chat wrote goes ahead', async () => {
    const effects = await pool(ATTEMPTS, 3, attempt);
    // the write itself goes ahead: it is the later run that must be stopped
    expect(effects.filter((effect) => effect.startsWith('write:'))).toEqual([]);
    // each is stopped by what the run runs, and says so
    expect(effects.filter((effect) => effect !== 'no-objection' && !effect.includes('which this chat wrote'))).toEqual(
      [],
    );
    const through: string[] = [];
    ATTEMPTS.forEach((entry, i) => {
      tally.tried++;
      if (effects[i] === 'no-objection') {
        tally.through++;
        through.push(`${entry.id}: ${entry.run}`);
      }
    });
    expect(through).toEqual([]);
  });

  it('every near miss goes ahead', async () => {
    const effects = await pool(NEAR_MISSES, 3, attempt);
    const stopped: string[] = [];
    NEAR_MISSES.forEach((entry, i) => {
      tally.near++;
      if (effects[i] !== 'no-objection') {
        tally.falseBlocks++;
        stopped.push(`${entry.id}: ${effects[i]} — ${entry.run}`);
      }
    });
    expect(stopped).toEqual([]);
  });
});
