import { describe, expect, it } from 'vitest';
import { kilo } from '../src/kilo/agent.js';
import { opencode } from '../src/opencode/agent.js';
import { fixture } from './helpers.js';

const load = (name: string): unknown => fixture('kilo', name);
const cwd = '/home/dev/project';
const chatId = 'ses_db0db9a01ffeStWWgsuEjMof7y';
// the command lines the hook finds above it: `kilo run …` (nobody there), and OpenCode's
const RUN = ['/usr/local/bin/kilo', 'run', 'do the task'];
const OPENCODE_RUN = ['/usr/local/bin/opencode', 'run', 'do the task'];

// Kilo Code CLI sends what guard's OpenCode plugin sends (recorded from kilo 7.7.9, in a folder
// that is no repository: `worktree` is `/`); read as Kilo's, under Kilo's id.
describe('kilo.read: payloads of guard plugin, recorded from Kilo Code CLI 7.7.9', () => {
  it('a shell step', () => {
    expect(kilo.read(load('tool-execute-before-bash'), undefined, RUN)).toMatchObject({
      type: 'step',
      step: { agent: 'kilo', chatId, cwd, toolName: 'bash', callId: 'call_0', kind: 'shell', command: 'git status' },
    });
  });

  it("the person's message (quoted by kilo run, as by opencode run)", () => {
    expect(kilo.read(load('chat-message'), undefined, RUN)).toEqual({
      type: 'prompt',
      event: 'chat.message',
      chatId,
      prompt: '"do the task"',
      cwd,
    });
  });

  it.for<{ name: string; agent: typeof kilo; args: string[]; canAsk: boolean }>([
    { name: 'kilo run: nobody there', agent: kilo, args: RUN, canAsk: false },
    { name: 'the kilo TUI', agent: kilo, args: ['/usr/local/bin/kilo', '/home/dev/project'], canAsk: true },
    // near misses: another agent's program is not Kilo's, and Kilo's is not OpenCode's
    { name: 'opencode run above Kilo', agent: kilo, args: OPENCODE_RUN, canAsk: true },
    { name: 'kilo run above OpenCode', agent: opencode, args: RUN, canAsk: true },
    { name: 'a program named kilocode', agent: kilo, args: ['/usr/bin/kilocode', 'run', 'x'], canAsk: true },
  ])('$name: canAsk $canAsk', ({ agent, args, canAsk }) => {
    const input = agent.read(load('tool-execute-before-bash'), undefined, args);
    expect(input.type === 'step' && input.canAsk).toBe(canAsk);
  });
});
