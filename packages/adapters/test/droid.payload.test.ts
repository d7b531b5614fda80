import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, ReplyContext } from '../src/adapter.js';
import { canAskUnread, capabilities, read, toEventReply, toReply } from '../src/droid/payload.js';
import { askInChatMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';

const load = (name: string): unknown => fixture('droid', name);
const J = JSON.stringify;

const cwd = '/home/dev/project';
const chatId = 'ba4024c6-b5c9-4c13-abba-e9d814b9e484';

describe('droid.read: recorded payloads (Factory Droid 0.215.0)', () => {
  it('a recorded Execute call becomes exactly this step (Droid sends no tool_use_id)', () => {
    expect(read(load('pre-tool-use-shell'), undefined, [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: true,
      step: {
        agent: 'droid',
        kind: 'shell',
        command: 'touch made.txt',
        chatId,
        cwd,
        projectRoot: cwd,
        toolName: 'Execute',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    { name: 'session-start', expected: { type: 'start', event: 'SessionStart', chatId, cwd, projectRoot: cwd } },
    {
      name: 'synth-user-prompt-submit',
      expected: { type: 'prompt', event: 'UserPromptSubmit', chatId, cwd, prompt: 'do the task' },
    },
    {
      name: 'pre-tool-use-git-push-force',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push --force origin main' } },
    },
    {
      name: 'synth-pre-tool-use-git-push',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push origin main' } },
    },
    {
      name: 'pre-tool-use-shell-exit-3',
      expected: { type: 'step', step: { kind: 'shell', command: 'sh -c "exit 3"' } },
    },
    {
      name: 'pre-tool-use-create',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'overwrite', path: `${cwd}/x.txt`, content: 'hello', toolName: 'Create' },
      },
    },
    // Droid's Edit names its text new_str
    {
      name: 'pre-tool-use-edit',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'edit', path: `${cwd}/notes.txt`, content: 'hello world', toolName: 'Edit' },
      },
    },
    { name: 'pre-tool-use-read', expected: { type: 'step', step: { kind: 'read', path: `${cwd}/notes.txt` } } },
    // LS names its folder directory_path, Glob folder, Grep path
    { name: 'pre-tool-use-ls', expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'LS' } } },
    { name: 'pre-tool-use-glob', expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'Glob' } } },
    { name: 'pre-tool-use-grep', expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'Grep' } } },
    {
      name: 'synth-pre-tool-use-fetch-url',
      expected: { type: 'step', step: { kind: 'fetch', url: 'https://example.com/', toolName: 'FetchUrl' } },
    },
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        type: 'step',
        step: { kind: 'mcp', server: 'tracker', tool: 'create_issue', args: { title: 'x', body: 'y' } },
      },
    },
    // a subagent's prompt may quote a command: it is read as it is, never by shape
    { name: 'synth-pre-tool-use-task', expected: { type: 'step', step: { kind: 'other', toolName: 'Task' } } },
    {
      name: 'post-tool-use-shell',
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: { agent: 'droid', chatId, exitCode: 0, output: expect.stringMatching(/^Command completed/) },
      },
    },
    { name: 'post-tool-use-read', expected: { type: 'result', result: { output: 'hello\n', step: { kind: 'read' } } } },
    { name: 'post-tool-use-create', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'post-tool-use-edit', expected: { type: 'result', result: { step: { kind: 'write', mode: 'edit' } } } },
    { name: 'post-tool-use-ls', expected: { type: 'result', result: { step: { kind: 'read', path: cwd } } } },
    { name: 'post-tool-use-glob', expected: { type: 'result', result: { output: './notes.txt' } } },
    { name: 'post-tool-use-grep', expected: { type: 'result', result: { output: './notes.txt' } } },
    { name: 'stop', expected: { type: 'ignore', event: 'Stop' } },
    { name: 'session-end', expected: { type: 'ignore', event: 'SessionEnd' } },
    { name: 'synth-notification', expected: { type: 'ignore', event: 'Notification' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it.for<{ output: string; exitCode: number | undefined; failed: boolean }>([
    { output: 'Command completed successfully\n\n[Process exited with code 0]', exitCode: 0, failed: false },
    { output: 'Error: Command failed (exit code: 3)\n\n[Process exited with code 3]', exitCode: 3, failed: true },
    // the command's own output may say the same words: Droid's line is the last
    { output: '[Process exited with code 0]\nx\n\n[Process exited with code 1]', exitCode: 1, failed: true },
    { output: 'Process exited with code 0', exitCode: undefined, failed: false },
    { output: '[Process exited with code ]', exitCode: undefined, failed: false },
  ])('a shell result "$output" has exit code $exitCode', ({ output, exitCode, failed }) => {
    const input = read({ ...(load('post-tool-use-shell') as object), tool_response: output }, undefined, []);
    expect(input.type).toBe('result');
    if (input.type !== 'result') return;
    expect(input.result.exitCode).toBe(exitCode);
    expect(input.result.failed === true).toBe(failed);
  });

  it('a result that reads or writes a file carries no exit code (only a shell step has one)', () => {
    for (const name of ['post-tool-use-read', 'post-tool-use-create', 'post-tool-use-glob']) {
      const input = read(load(name), undefined, []);
      expect(input.type === 'result' && 'exitCode' in input.result, name).toBe(false);
    }
  });
});

describe('droid.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; message: RegExp }>([
    { name: 'malformed-array', message: /must be a JSON object, got an array/ },
    { name: 'malformed-no-event', message: /"hook_event_name" is missing/ },
    { name: 'malformed-unknown-event', message: /unknown event "PreToolCall"/ },
    { name: 'malformed-no-tool-input', message: /"tool_input" must be an object/ },
    { name: 'malformed-command-not-string', message: /"command" must be a string or a list of words, got an object/ },
    { name: 'malformed-relative-cwd', message: /absolute path, got "project"/ },
  ])('$name', ({ name, message }) => {
    expect(() => read(load(name), undefined, [])).toThrow(PayloadError);
    expect(() => read(load(name), undefined, [])).toThrow(message);
    expect(() => read(load(name), undefined, [])).toThrow(/^Factory Droid /);
  });
});

describe('droid: is a person reading the chat?', () => {
  const binary = '/usr/lib/node_modules/droid/node_modules/@factory/cli-linux-x64/bin/droid';
  it.for<{ name: string; args: string[]; canAsk: boolean; unread: boolean }>([
    { name: 'droid exec', args: [binary, 'exec', '--auto', 'high', 'fix it'], canAsk: false, unread: false },
    { name: 'the npm bin run by node', args: ['node', '/usr/bin/droid', 'exec', 'x'], canAsk: false, unread: false },
    { name: 'interactive', args: [binary], canAsk: true, unread: true },
    { name: 'interactive with a prompt', args: ['droid', '--auto', 'high', 'fix it'], canAsk: true, unread: true },
    // unknown: a block either way; only the message differs
    { name: 'unknown command line', args: [], canAsk: true, unread: false },
    { name: 'exec of another program before Droid', args: ['bash', 'exec', 'droid'], canAsk: true, unread: true },
    { name: 'a program merely named like it', args: ['droid-helper', 'exec'], canAsk: true, unread: false },
  ])('$name', ({ args, canAsk, unread }) => {
    expect(read(load('pre-tool-use-shell'), undefined, args)).toMatchObject({ type: 'step', canAsk });
    expect(canAskUnread(args)).toBe(unread);
  });
});

describe('droid.toReply: exact bytes (an ask is a deny: Droid settles its own ask by autonomy)', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'PreToolUse',
    canAsk,
    failClosed: false,
    ...extra,
  });
  const deny = (reason: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":${J(reason)}}}\n`;
  it.for([
    { name: 'no objection is silence', reply: toReply(allowed, ctx(true)), stdout: '' },
    { name: 'no objection under fail-closed', reply: toReply(allowed, ctx(false, { failClosed: true })), stdout: '' },
    { name: 'block', reply: toReply(blocked, ctx(true)), stdout: deny(blockMessage(blocked)) },
    {
      name: 'block with a notice',
      reply: toReply(blocked, ctx(true, { notice: GUARD_ON_NOTICE })),
      stdout: deny(blockMessage(blocked, GUARD_ON_NOTICE)),
    },
    {
      name: 'ask: blocked, and the agent asks in the chat with the code',
      reply: toReply(asked, ctx(true, { approvalCode: 'k7q2' })),
      stdout: deny(askInChatMessage(asked, 'k7q2')),
    },
    {
      name: 'ask under droid exec: safer way or leave it out',
      reply: toReply(asked, ctx(false, { approvalCode: 'k7q2' })),
      stdout: deny(awayMessage(asked, undefined, 'k7q2')),
    },
  ])('$name', ({ reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    if (stdout === '') return;
    expectWellFormed(reply, {
      hookSpecificOutput: { hookEventName: true, permissionDecision: true, permissionDecisionReason: true },
    });
    expect(stdout).not.toMatch(/"permissionDecision":"(?:ask|allow)"/);
  });
});

describe('droid.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'UserPromptSubmit', notice: GUARD_ON_NOTICE, stdout: withContext('UserPromptSubmit') },
    { event: 'PostToolUse', notice: GUARD_ON_NOTICE, stdout: withContext('PostToolUse') },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'PreToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'Stop', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    expect(toEventReply(event, notice)).toEqual({ stdout, exitCode: 0 });
  });
});

describe('droid.capabilities', () => {
  it('asks by block-then-chat and reads results, starts and messages', () => {
    expect(capabilities).toMatchObject({
      ask: 'block-then-chat',
      askEvents: ['PreToolUse'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
    expect(capabilities.events).toEqual(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit']);
  });
  it('every registered event is one read() understands', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
  });
});
