import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requireBuild } from './bin.js';
import { HOOK_ENTRY, noted, noting, startChecker } from './resident.js';
import { chatStateOf, codexChat, logOf, makeWorld, removeWorld } from './chats.js';
import { scaled } from '../machine.js';

// every hook call is a Node process: on a busy 2-core machine a whole chat takes a while
vi.setConfig({ testTimeout: scaled(60_000), hookTimeout: scaled(60_000) });

/**
 * SPEC §5: state writes stay whole and lose nothing when many hook processes of one chat run at
 * once (each records its change in a file of its own; the state file and the change files read
 * together are the chat). 50 tool calls of one `codex exec` run arrive together; nobody can answer there, so each
 * call records its own answer (the step was sent back once) in the chat's state.
 */

// 50 Node starts on a small machine take seconds: the deadline has its own tests, this one is
// about updates not being lost
const inProcess = makeWorld('concurrent-chat', 60_000);
// the same through the resident checker (hook-entry.cjs, as setup writes the hook command): 50
// calls at once inside one process; every one waits for the checker to accept it however busy
// the machine, and notes how it was answered
const resident = makeWorld('concurrent-chat-resident', 60_000, HOOK_ENTRY);
const notes = join(resident.root, 'notes');
beforeAll(requireBuild);
afterAll(() => {
  removeWorld(inProcess);
  removeWorld(resident);
});

describe.for([
  { name: 'in-process', world: inProcess },
  {
    name: 'through the resident checker',
    world: {
      ...resident,
      env: noting({ ...resident.env, GUARD_RESIDENT_ACCEPT_MS: '60000' }, notes),
    },
  },
])('50 hook processes on one chat at once ($name)', ({ name, world }) => {
  it('every answer is recorded, and the state file parses', async () => {
    if (name !== 'in-process') await startChecker(world.guardHome, world.env);
    const chat = codexChat(world, 'one-busy-chat', ['codex', 'exec', 'update every branch']);
    const commands = Array.from({ length: 50 }, (_, i) => `git push origin branch-${i}`);
    const answers = await Promise.all(commands.map((command) => chat.shell(command)));
    // each call went where this table says
    if (name !== 'in-process') expect(noted(notes)).toEqual(commands.map(() => 'resident'));

    answers.forEach((answer, i) => {
      expect(answer.code, commands[i]).toBe(0);
      expect(answer.stderr, commands[i]).toBe('');
      expect(chat.seen(answer), commands[i]).toBe('block');
      expect(chat.text(answer), commands[i]).toMatch(/no one can approve this step here/);
      // each reply is about its own step (its own destination)
      expect(chat.text(answer), commands[i]).toContain(`origin/branch-${i})`);
    });

    const folder = join(world.guardHome, 'chats');
    const files = readdirSync(folder).filter((name) => name !== '.swept');
    // the chat's state file (once changes were folded into it) and its change files, no lock or
    // temp file left behind
    const state = files.find((name) => name.endsWith('.json'));
    expect(
      files.every((name) => /^codex-[0-9a-f]+\.(json|changes)$/.test(name)),
      files.join(' '),
    ).toBe(true);
    const changes = files.find((name) => name.endsWith('.changes'));
    if (changes !== undefined)
      expect(readdirSync(join(folder, changes)).every((name) => /^[0-9a-f-]+\.json$/.test(name))).toBe(true);
    // with 50 changes recorded, some hook folded them into the state file
    expect(state).toBeDefined();
    expect(() => JSON.parse(readFileSync(join(folder, state ?? ''), 'utf8')) as unknown).not.toThrow();
    const chatState = chatStateOf(chat);
    expect(chatState.chat).toBe('one-busy-chat');
    expect(Object.values(chatState.away)).toEqual(Array.from({ length: 50 }, () => 1));
    expect(logOf(world).map((entry) => entry.how)).toEqual(Array.from({ length: 50 }, () => 'away'));

    // what was recorded is what the next call reads: the same step again is left undone
    const again = await chat.shell(commands[17] ?? '');
    expect(chat.text(again)).toMatch(/left undone/);
    const other = await chat.shell('git push origin branch-50');
    expect(chat.text(other)).not.toMatch(/left undone/);
  });
});
