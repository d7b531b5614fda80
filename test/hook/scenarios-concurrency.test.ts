import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatState } from '../../packages/cli/src/state/chats.js';
import { requireBuild } from './bin.js';
import { codexChat, logOf, makeWorld, removeWorld } from './chats.js';

// every hook call is a Node process: on a busy 2-core machine a whole chat takes a while
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * SPEC §5: state writes stay whole and lose nothing when many hook processes of one chat run at
 * once. 50 tool calls of one `codex exec` run arrive together; nobody can answer there, so each
 * call records its own answer (the step was sent back once) in the chat's state.
 */

// 50 Node starts on a small machine take seconds: the deadline has its own tests, this one is
// about updates not being lost
const world = makeWorld('concurrent-chat', 60_000);
beforeAll(requireBuild);
afterAll(() => removeWorld(world));

describe('50 hook processes on one chat at once', () => {
  it('every answer is recorded, and the state file parses', async () => {
    const chat = codexChat(world, 'one-busy-chat', ['codex', 'exec', 'update every branch']);
    const commands = Array.from({ length: 50 }, (_, i) => `git push origin branch-${i}`);
    const answers = await Promise.all(commands.map((command) => chat.shell(command)));

    answers.forEach((answer, i) => {
      expect(answer.code, commands[i]).toBe(0);
      expect(answer.stderr, commands[i]).toBe('');
      expect(chat.seen(answer), commands[i]).toBe('block');
      expect(chat.text(answer), commands[i]).toMatch(/no one can approve this step here/);
      // each reply is about its own step (its own destination)
      expect(chat.text(answer), commands[i]).toContain(`origin/branch-${i})`);
    });

    const folder = join(world.guardHome, 'chats');
    const files = readdirSync(folder);
    // one state file, no lock or temp file left behind
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^codex-[0-9a-f]+\.json$/);
    const state = JSON.parse(readFileSync(join(folder, files[0] ?? ''), 'utf8')) as ChatState;
    expect(state.chat).toBe('one-busy-chat');
    expect(Object.values(state.away)).toEqual(Array.from({ length: 50 }, () => 1));
    expect(logOf(world).map((entry) => entry.how)).toEqual(Array.from({ length: 50 }, () => 'away'));

    // what was recorded is what the next call reads: the same step again is left undone
    const again = await chat.shell(commands[17] ?? '');
    expect(chat.text(again)).toMatch(/left undone/);
    const other = await chat.shell('git push origin branch-50');
    expect(chat.text(other)).not.toMatch(/left undone/);
  });
});
