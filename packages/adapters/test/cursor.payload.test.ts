import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/cursor/payload.js';
import { askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('cursor', name);
const J = JSON.stringify;
const root = '/home/user/project';

// The fields Cursor reads per event (cursor.md §3.1): one flat object, snake_case.
const gate: KeyShape = { permission: true, user_message: true, agent_message: true };
const REPLY_KEYS: Record<string, KeyShape> = {
  preToolUse: { ...gate, updated_input: true },
  beforeShellExecution: gate,
  beforeMCPExecution: gate,
  beforeReadFile: { permission: true, user_message: true },
  sessionStart: { env: true, additional_context: true },
  beforeSubmitPrompt: { continue: true, user_message: true },
  postToolUse: { additional_context: true },
  postToolUseFailure: {},
  stop: { followup_message: true },
};
const ASK_EVENTS = ['beforeShellExecution', 'beforeMCPExecution'];

function expectCursorReply(reply: HookReply, event: string): void {
  const shape = REPLY_KEYS[event];
  expect(shape, `a known event: ${event}`).toBeDefined();
  // Never silence: a failClosed entry blocks on empty output.
  expect(reply.stdout).not.toBe('');
  expectWellFormed(reply, shape ?? {});
  const out = JSON.parse(reply.stdout) as Record<string, unknown>;
  if (out['permission'] === 'ask') expect(ASK_EVENTS).toContain(event);
  if (out['permission'] === 'deny') expect(out['user_message']).toMatch(/^guard: \S/);
}

describe('cursor.read: recorded payloads', () => {
  it('a recorded Write becomes exactly this step', () => {
    expect(read(load('pre-tool-use-write'), undefined, [])).toEqual({
      type: 'step',
      event: 'preToolUse',
      canAsk: false,
      sameCall: 'preToolUse:tool_00000000-0000-4000-8000-000000000016',
      step: {
        agent: 'cursor',
        kind: 'write',
        mode: 'overwrite',
        path: `${root}/notes.txt`,
        content: 'probe-edit-1\nprobe-edit-2\n',
        chatId: '00000000-0000-4000-8000-000000000011',
        turnId: '00000000-0000-4000-8000-000000000012',
        callId: 'tool_00000000-0000-4000-8000-000000000016',
        cwd: root,
        projectRoot: root,
        toolName: 'Write',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    {
      name: 'pre-tool-use-delete',
      expected: {
        type: 'step',
        canAsk: false,
        step: {
          kind: 'write',
          mode: 'delete',
          path: `${root}/delete-probe.txt`,
          chatId: '',
          callId: expect.stringContaining('\nfc_'),
        },
      },
    },
    {
      name: 'before-shell-execution',
      expected: {
        type: 'step',
        event: 'beforeShellExecution',
        canAsk: true,
        step: {
          kind: 'shell',
          command: 'echo ask-probe',
          cwd: root,
          toolName: 'Shell',
          chatId: '00000000-0000-4000-8000-000000000001',
        },
      },
    },
    {
      name: 'synth-before-shell-execution-old-ide',
      expected: { type: 'step', canAsk: false, step: { kind: 'shell' } },
    },
    {
      name: 'before-mcp-execution',
      expected: {
        type: 'step',
        event: 'beforeMCPExecution',
        canAsk: false,
        step: { kind: 'mcp', server: 'echo-server', tool: 'echo', args: { text: 'hello' }, toolName: 'echo' },
      },
    },
    {
      name: 'pre-tool-use-shell-cli',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: false,
        deferAsk: true,
        step: {
          kind: 'shell',
          command: 'touch x',
          cwd: '/home/dev/project',
          chatId: '8194a1ff-…',
          callId: '506e8f2f-…',
        },
      },
    },
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        type: 'step',
        deferAsk: true,
        step: { kind: 'mcp', server: '', tool: 'echo', args: { text: 'hello' } },
      },
    },
    {
      name: 'synth-pre-tool-use-read',
      expected: { type: 'step', canAsk: false, step: { kind: 'read', path: `${root}/.env` } },
    },
    {
      name: 'synth-pre-tool-use-grep',
      expected: { type: 'step', step: { kind: 'read', path: `${root}/.env.local`, toolName: 'Grep' } },
    },
    {
      name: 'synth-pre-tool-use-edit',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${root}/AGENTS.md`, content: 'b' } },
    },
    {
      name: 'synth-pre-tool-use-task',
      expected: { type: 'step', step: { kind: 'other', toolName: 'Task', args: { subagent_type: 'explore' } } },
    },
    {
      name: 'synth-before-read-file',
      expected: {
        type: 'step',
        event: 'beforeReadFile',
        canAsk: false,
        step: { kind: 'read', path: `${root}/.env`, toolName: 'Read' },
      },
    },
    {
      name: 'post-tool-use-failure-shell',
      expected: {
        type: 'result',
        result: {
          failed: true,
          output: expect.stringContaining('undefined: greet'),
          step: { kind: 'shell', command: 'go build ./...', cwd: '/private/work' },
        },
      },
    },
    {
      name: 'synth-post-tool-use-shell',
      expected: {
        type: 'result',
        event: 'postToolUse',
        result: { output: '1 failing\n', exitCode: 1, failed: true, step: { kind: 'shell', command: 'npm test' } },
      },
    },
    { name: 'post-tool-use-failure-denied', expected: { type: 'ignore', event: 'postToolUseFailure' } },
    {
      name: 'session-start',
      expected: {
        type: 'start',
        event: 'sessionStart',
        chatId: 'fc749b53-5672-41fa-87c7-c579c337199d',
        cwd: '/private/work',
        projectRoot: '/private/work',
      },
    },
    {
      name: 'synth-before-submit-prompt',
      expected: { type: 'prompt', event: 'beforeSubmitPrompt', prompt: 'yes, push it', cwd: root },
    },
    { name: 'synth-stop', expected: { type: 'ignore', event: 'stop' } },
    { name: 'synth-after-shell-execution', expected: { type: 'ignore', event: 'afterShellExecution' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it('only Shell and MCP calls on preToolUse defer their ask', () => {
    for (const name of [
      'pre-tool-use-write',
      'pre-tool-use-delete',
      'synth-pre-tool-use-read',
      'synth-pre-tool-use-task',
    ]) {
      expect(read(load(name), undefined, [])).not.toHaveProperty('deferAsk');
    }
  });
});

describe('cursor.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; message: RegExp }>([
    {
      name: 'the recorded MCP excerpt has no working directory',
      payload: load('before-mcp-execution-excerpt'),
      message: /no working directory/,
    },
    {
      name: 'the recorded CLI Shell excerpt has no working directory',
      payload: load('pre-tool-use-shell-cli-excerpt'),
      message: /no working directory/,
    },
    { name: 'not a real event', payload: load('malformed-unknown-event'), message: /unknown event "notification"/ },
    { name: 'Write without a path', payload: load('malformed-write-no-path'), message: /"file_path" must be a string/ },
    {
      name: 'workspace_roots not a list',
      payload: load('malformed-workspace-roots'),
      message: /"workspace_roots" must be an array of strings/,
    },
    {
      name: 'shell without a command',
      payload: load('malformed-shell-no-command'),
      message: /"command" must be a string or a list of words, got nothing/,
    },
    { name: 'a number', payload: 42, message: /must be a JSON object, got a number/ },
    { name: 'no event', payload: {}, message: /"hook_event_name" is missing/ },
  ])('$name', ({ payload, message }) => {
    expect(() => read(payload, undefined, [])).toThrow(PayloadError);
    expect(() => read(payload, undefined, [])).toThrow(message);
  });
});

describe('cursor.read: canAsk on beforeShellExecution (does an ask show a card?)', () => {
  const shell = load('before-shell-execution') as Record<string, unknown>;
  const version = (cursor_version: string | undefined): unknown => ({ ...shell, cursor_version });
  it.for<{ name: string; payload: unknown; args: string[]; canAsk: boolean }>([
    { name: 'IDE 3.20.21 (card seen)', payload: shell, args: [], canAsk: true },
    { name: 'IDE 3.21.0', payload: version('3.21.0'), args: [], canAsk: true },
    { name: 'IDE 4.0.1', payload: version('4.0.1'), args: [], canAsk: true },
    { name: 'IDE 3.19.9 (ask was a silent deny)', payload: version('3.19.9'), args: [], canAsk: false },
    { name: 'IDE 3.2.16 (ask was a silent allow)', payload: version('3.2.16'), args: [], canAsk: false },
    { name: 'IDE 2.4.21', payload: version('2.4.21'), args: [], canAsk: false },
    { name: 'CLI build', payload: version('2026.10.01-e373342'), args: ['cursor-agent'], canAsk: true },
    {
      name: 'CLI in print mode',
      payload: version('2026.10.01-e373342'),
      args: ['cursor-agent', '-p', 'fix it'],
      canAsk: false,
    },
    { name: 'CLI with --print', payload: version('2026.10.01-e373342'), args: ['agent', '--print'], canAsk: false },
    { name: 'no version', payload: version(undefined), args: [], canAsk: true },
    { name: 'a prompt mentioning -p is no flag', payload: shell, args: ['cursor-agent', 'use -p'], canAsk: true },
  ])('$name', ({ payload, args, canAsk }) => {
    expect(read(payload, undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('cursor.toReply: exact bytes', () => {
  const ctx = (event: string, canAsk: boolean, failClosed = false): ReplyContext => ({ event, canAsk, failClosed });
  const both = (permission: string, text: string): string =>
    `{"permission":"${permission}","user_message":${J(text)},"agent_message":${J(text)}}\n`;
  it.for([
    {
      name: 'no objection: {}',
      event: 'beforeShellExecution',
      reply: toReply(allowed, ctx('beforeShellExecution', true)),
      stdout: '{}\n',
    },
    {
      name: 'no objection on a read: {}',
      event: 'beforeReadFile',
      reply: toReply(allowed, ctx('beforeReadFile', false)),
      stdout: '{}\n',
    },
    {
      name: 'no objection, fail-closed entry: explicit allow',
      event: 'beforeShellExecution',
      reply: toReply(allowed, ctx('beforeShellExecution', true, true)),
      stdout: '{"permission":"allow"}\n',
    },
    {
      name: 'no objection, fail-closed preToolUse',
      event: 'preToolUse',
      reply: toReply(allowed, ctx('preToolUse', false, true)),
      stdout: '{"permission":"allow"}\n',
    },
    {
      name: 'block on a shell',
      event: 'beforeShellExecution',
      reply: toReply(blocked, ctx('beforeShellExecution', true)),
      stdout: both('deny', blockMessage(blocked)),
    },
    {
      name: 'block on a write',
      event: 'preToolUse',
      reply: toReply(blocked, ctx('preToolUse', false)),
      stdout: both('deny', blockMessage(blocked)),
    },
    {
      name: 'block on a read: no agent_message',
      event: 'beforeReadFile',
      reply: toReply(blocked, ctx('beforeReadFile', false)),
      stdout: `{"permission":"deny","user_message":${J(blockMessage(blocked))}}\n`,
    },
    {
      name: 'ask on a shell: a card',
      event: 'beforeShellExecution',
      reply: toReply(asked, ctx('beforeShellExecution', true)),
      stdout: both('ask', askMessage(asked)),
    },
    {
      name: 'ask on MCP: a card',
      event: 'beforeMCPExecution',
      reply: toReply(asked, ctx('beforeMCPExecution', true)),
      stdout: both('ask', askMessage(asked)),
    },
    {
      name: 'ask on a shell with nobody there',
      event: 'beforeShellExecution',
      reply: toReply(asked, ctx('beforeShellExecution', false)),
      stdout: both('deny', awayMessage(asked)),
    },
    {
      name: 'ask on preToolUse is not enforced: deny',
      event: 'preToolUse',
      reply: toReply(asked, ctx('preToolUse', true)),
      stdout: both('deny', awayMessage(asked)),
    },
    {
      name: 'ask on a read: deny',
      event: 'beforeReadFile',
      reply: toReply(asked, ctx('beforeReadFile', true)),
      stdout: `{"permission":"deny","user_message":${J(awayMessage(asked))}}\n`,
    },
    {
      name: 'block with a notice',
      event: 'preToolUse',
      reply: toReply(blocked, { ...ctx('preToolUse', false), notice: GUARD_ON_NOTICE }),
      stdout: both('deny', blockMessage(blocked, GUARD_ON_NOTICE)),
    },
  ])('$name', ({ event, reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCursorReply(reply, event);
  });
});

describe('cursor.toEventReply', () => {
  it.for([
    { event: 'sessionStart', notice: GUARD_ON_NOTICE, stdout: `{"additional_context":${J(GUARD_ON_NOTICE)}}\n` },
    { event: 'sessionStart', notice: undefined, stdout: '{}\n' },
    { event: 'postToolUse', notice: GUARD_ON_NOTICE, stdout: `{"additional_context":${J(GUARD_ON_NOTICE)}}\n` },
    { event: 'postToolUse', notice: '', stdout: '{}\n' },
    { event: 'beforeSubmitPrompt', notice: undefined, stdout: '{"continue":true}\n' },
    { event: 'beforeSubmitPrompt', notice: GUARD_ON_NOTICE, stdout: '{"continue":true}\n' },
    { event: 'postToolUseFailure', notice: GUARD_ON_NOTICE, stdout: '{}\n' },
    { event: 'preToolUse', notice: GUARD_ON_NOTICE, stdout: '{}\n' },
    { event: 'stop', notice: undefined, stdout: '{}\n' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCursorReply(reply, event);
  });
});

describe('cursor.capabilities', () => {
  it('asks natively only on the shell and MCP events', () => {
    expect(capabilities).toMatchObject({
      ask: 'native',
      askEvents: ['beforeShellExecution', 'beforeMCPExecution'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
  });
  it('registers only events read() understands, never the duplicate result events', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
    expect(capabilities.events).not.toContain('afterShellExecution');
    expect(capabilities.events).not.toContain('afterMCPExecution');
  });
  it('tells the person to open a new chat', () => {
    expect(capabilities.afterSetup).toMatch(/new chat/);
  });
});
