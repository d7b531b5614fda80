import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { ReplyContext } from '../src/adapter.js';
import { opencode } from '../src/opencode/agent.js';
import { askInChatMessage, awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';

const load = (name: string): unknown => fixture('opencode', name);
const { read, toReply, toEventReply, canAskUnread } = opencode;

const cwd = '/home/dev/project';
const chatId = 'ses_db1bf9dceffe9I7LlhyCwSoLFW';
const base = (callId: string, toolName: string) => ({
  agent: 'opencode',
  chatId,
  cwd,
  projectRoot: cwd,
  toolName,
  callId,
});
const STEP = 'tool.execute.before';
// the command lines the hook finds above it: `opencode run …` (nobody there) and the TUI
const RUN = ['/usr/local/bin/opencode', 'run', '--model', 'fake/m', 'do the task'];
const TUI = ['/usr/local/bin/opencode', '/home/dev/project'];

describe('opencode.read: payloads of guard plugin, recorded from opencode-ai 1.18.33', () => {
  it.for<{ name: string; step: Record<string, unknown> }>([
    {
      name: 'tool-execute-before-bash',
      step: { ...base('call_1', 'bash'), kind: 'shell', command: 'git status', intent: 'scripted' },
    },
    {
      // workdir is relative to the session's folder
      name: 'tool-execute-before-bash-workdir',
      step: {
        ...base('call_9', 'bash'),
        kind: 'shell',
        command: 'ls',
        cwd: `${cwd}/sub`,
        intent: 'list the sub folder',
      },
    },
    {
      name: 'tool-execute-before-write',
      step: { ...base('call_2', 'write'), kind: 'write', mode: 'overwrite', path: 'notes.txt', content: 'hello\n' },
    },
    {
      name: 'tool-execute-before-edit',
      step: { ...base('call_3', 'edit'), kind: 'write', mode: 'edit', path: 'README.md', content: 'b' },
    },
    { name: 'tool-execute-before-read', step: { ...base('call_4', 'read'), kind: 'read', path: 'README.md' } },
    { name: 'tool-execute-before-glob', step: { ...base('call_5', 'glob'), kind: 'read', path: 'src' } },
    // a search without a path searches the session's folder: nothing named to read
    { name: 'tool-execute-before-grep', step: { ...base('call_6', 'grep'), kind: 'other', args: { pattern: 'TODO' } } },
    {
      name: 'tool-execute-before-webfetch',
      step: { ...base('call_7', 'webfetch'), kind: 'fetch', url: 'https://example.com/x' },
    },
    {
      // a subagent's prompt is no command (its own steps come through the hook)
      name: 'tool-execute-before-task',
      step: {
        ...base('call_8', 'task'),
        kind: 'other',
        args: { description: 'look', prompt: 'run git push --force', subagent_type: 'general' },
      },
    },
    {
      name: 'synth-tool-execute-before-apply-patch',
      step: {
        ...base('call_1', 'apply_patch'),
        kind: 'patch',
        patch: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch',
      },
    },
    {
      // outside the folder of a repository, OpenCode's worktree is `/`: the folder is the project
      name: 'synth-tool-execute-before-no-repository',
      step: { ...base('call_1', 'bash'), kind: 'shell', command: 'git status', intent: 'scripted' },
    },
  ])('$name', ({ name, step }) => {
    expect(read(load(name), undefined, RUN)).toEqual({ type: 'step', event: STEP, canAsk: false, step });
  });

  it.for<{ tool: string; want: Record<string, unknown> }>([
    { tool: 'github_create_issue', want: { kind: 'mcp', server: 'github', tool: 'create_issue' } },
    { tool: 'my-server_x', want: { kind: 'mcp', server: 'my-server', tool: 'x' } },
    // near misses: no server part, or a tool of its own that is no MCP tool, read by its shape
    { tool: '_create_issue', want: { kind: 'other' } },
    { tool: 'createissue', want: { kind: 'other' } },
  ])('an MCP tool is `<server>_<tool>`: $tool', ({ tool, want }) => {
    const payload = { ...(load('synth-tool-execute-before-mcp') as Record<string, unknown>), tool };
    const input = read(payload, undefined, RUN);
    expect(input.type === 'step' && input.step).toMatchObject(want);
  });

  it('the message the person sent', () => {
    expect(read(load('chat-message'), undefined, RUN)).toEqual({
      type: 'prompt',
      event: 'chat.message',
      chatId,
      prompt: '"do the task"',
      cwd,
    });
  });

  it.for([
    'malformed-no-event',
    'malformed-no-args',
    'malformed-relative-directory',
    'malformed-command-not-string',
    'malformed-args-not-object',
    'malformed-unknown-event',
    'malformed-array',
  ])('%s is refused', (name) => {
    expect(() => read(load(name), undefined, RUN)).toThrow(PayloadError);
  });
});

describe('who can be asked: `opencode run` answers one message with nobody there', () => {
  it.for<{ args: string[]; canAsk: boolean; unread: boolean }>([
    { args: RUN, canAsk: false, unread: false },
    { args: ['/usr/local/bin/opencode', '--log-level', 'DEBUG', 'run', 'x'], canAsk: false, unread: false },
    // near misses: --interactive keeps a person there; the TUI, `serve` and `attach` have one
    { args: ['/usr/local/bin/opencode', 'run', '-i', 'x'], canAsk: true, unread: true },
    { args: TUI, canAsk: true, unread: true },
    { args: ['/usr/local/bin/opencode', 'serve'], canAsk: true, unread: true },
    // `run` as an option's value is no subcommand
    { args: ['/usr/local/bin/opencode', '--prompt', 'run', '.'], canAsk: true, unread: true },
    // another program named run
    { args: ['/usr/bin/opencoder', 'run'], canAsk: true, unread: false },
    // not known: asked in the chat, which blocks all the same
    { args: [], canAsk: true, unread: false },
  ])('$args → canAsk $canAsk', ({ args, canAsk, unread }) => {
    const input = read(load('tool-execute-before-bash'), undefined, args);
    expect(input.type === 'step' && input.canAsk).toBe(canAsk);
    expect(canAskUnread?.(args)).toBe(unread);
  });
});

describe('opencode replies: silence runs the step; a block with a reason is thrown to the model', () => {
  const context: ReplyContext = { event: STEP, canAsk: true, failClosed: false, approvalCode: 'K7QX' };
  const shape = { decision: true, reason: true } as const;
  const reasonOf = (stdout: string): string => (JSON.parse(stdout) as { reason: string }).reason;

  it('allow is silence', () => {
    expect(toReply(allowed, context)).toEqual({ stdout: '', exitCode: 0 });
  });

  it.for<{ name: string; canAsk: boolean; verdict: typeof blocked; want: string }>([
    { name: 'block', canAsk: true, verdict: blocked, want: blockMessage(blocked) },
    { name: 'ask, a person there', canAsk: true, verdict: asked, want: askInChatMessage(asked, 'K7QX') },
    { name: 'ask, nobody there', canAsk: false, verdict: asked, want: awayMessage(asked, undefined, 'K7QX') },
  ])('$name', ({ canAsk, verdict, want }) => {
    const reply = toReply(verdict, { ...context, canAsk });
    expectWellFormed(reply, shape);
    expect(JSON.parse(reply.stdout)).toEqual({ decision: 'block', reason: want });
    expect(reasonOf(reply.stdout)).toMatch(/^guard: /);
  });

  it('fail-closed changes nothing: every answer but silence already stops the step', () => {
    expect(toReply(asked, { ...context, failClosed: true })).toEqual(toReply(asked, context));
  });

  it('a message gets no answer the plugin reads', () => {
    expect(toEventReply('chat.message', 'guard is on')).toEqual({ stdout: '', exitCode: 0 });
  });
});
