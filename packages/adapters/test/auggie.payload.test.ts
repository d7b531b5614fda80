import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, ReplyContext } from '../src/adapter.js';
import { canAskUnread, capabilities, read, toEventReply, toReply } from '../src/auggie/payload.js';
import { askInChatMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';

const load = (name: string): unknown => fixture('auggie', name);
const J = JSON.stringify;

const cwd = '/home/dev/project';
const chatId = '4579bea7-9634-46a2-b6cc-20adee969691';

describe('auggie.read: recorded payloads (Augment Auggie 0.36.0)', () => {
  it('a recorded launch-process call becomes exactly this step (its cwd "." is the workspace root)', () => {
    expect(read(load('pre-tool-use-shell'), undefined, [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: true,
      step: {
        agent: 'auggie',
        kind: 'shell',
        command: 'touch made.txt',
        chatId,
        cwd,
        projectRoot: cwd,
        toolName: 'launch-process',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    { name: 'session-start', expected: { type: 'start', event: 'SessionStart', chatId, cwd, projectRoot: cwd } },
    { name: 'prompt-submit', expected: { type: 'prompt', event: 'PromptSubmit', chatId, cwd, prompt: 'do the steps' } },
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
    // launch-process's folder is relative to the workspace root
    { name: 'synth-pre-tool-use-shell-cwd', expected: { type: 'step', step: { kind: 'shell', cwd: `${cwd}/sub` } } },
    // text typed into a running process is read as the command line it may be
    {
      name: 'pre-tool-use-write-process',
      expected: { type: 'step', step: { kind: 'shell', command: 'echo typed\n', toolName: 'write-process' } },
    },
    {
      name: 'pre-tool-use-save-file',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'overwrite', path: 'notes.txt', content: 'one\n', toolName: 'save-file' },
      },
    },
    // str-replace-editor's new text is in its entries
    {
      name: 'pre-tool-use-str-replace-editor',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'edit', path: 'notes.txt', content: 'two', toolName: 'str-replace-editor' },
      },
    },
    // remove-files is what rm of its paths is
    {
      name: 'pre-tool-use-remove-files',
      expected: { type: 'step', step: { kind: 'shell', command: 'rm -f -- notes.txt', toolName: 'remove-files' } },
    },
    {
      name: 'pre-tool-use-apply-patch',
      expected: { type: 'step', step: { kind: 'patch', patch: expect.stringMatching(/^\*\*\* Begin Patch\n/) } },
    },
    { name: 'pre-tool-use-view', expected: { type: 'step', step: { kind: 'read', path: 'notes.txt' } } },
    { name: 'pre-tool-use-view-folder', expected: { type: 'step', step: { kind: 'read', path: '.' } } },
    {
      name: 'pre-tool-use-web-fetch',
      expected: { type: 'step', step: { kind: 'fetch', url: 'http://127.0.0.1:8080/page', toolName: 'web-fetch' } },
    },
    // Augment's code search runs on its service: no step on the machine, whatever its words say
    {
      name: 'synth-pre-tool-use-codebase-retrieval',
      expected: { type: 'step', step: { kind: 'other', toolName: 'codebase-retrieval' } },
    },
    // an MCP server's tool is read by the shape of its input, never by a table of Auggie's own tools
    {
      name: 'synth-pre-tool-use-mcp',
      expected: { type: 'step', step: { kind: 'other', toolName: 'create_issue', unknown: true } },
    },
    {
      name: 'post-tool-use-shell',
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: { agent: 'auggie', chatId, exitCode: 0, output: expect.stringMatching(/^Here are the results/) },
      },
    },
    { name: 'post-tool-use-shell-exit-3', expected: { type: 'result', result: { exitCode: 3, failed: true } } },
    {
      name: 'post-tool-use-write-process-fails',
      expected: { type: 'result', result: { failed: true, output: 'Terminal 1 not found or write failed' } },
    },
    { name: 'post-tool-use-view', expected: { type: 'result', result: { step: { kind: 'read' } } } },
    { name: 'post-tool-use-save-file', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'post-tool-use-str-replace-editor', expected: { type: 'result', result: { step: { mode: 'edit' } } } },
    { name: 'post-tool-use-apply-patch', expected: { type: 'result', result: { step: { kind: 'patch' } } } },
    { name: 'post-tool-use-web-fetch', expected: { type: 'result', result: { output: '{}' } } },
    { name: 'post-tool-use-remove-files', expected: { type: 'result', result: { step: { kind: 'shell' } } } },
    { name: 'stop', expected: { type: 'ignore', event: 'Stop' } },
    { name: 'session-end', expected: { type: 'ignore', event: 'SessionEnd' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it.for<{ output: string; exitCode: number | undefined; failed: boolean }>([
    {
      output: 'Here are the results.\n<return-code>\n0\n</return-code>\n<output>\n</output>',
      exitCode: 0,
      failed: false,
    },
    { output: '<return-code>\n3\n</return-code>', exitCode: 3, failed: true },
    // the command's own output may say the same words: Auggie's block is the last
    { output: '<return-code>0</return-code>\n<return-code>\n1\n</return-code>', exitCode: 1, failed: true },
    { output: 'return-code 0', exitCode: undefined, failed: false },
    { output: '<return-code>\n\n</return-code>', exitCode: undefined, failed: false },
  ])('a shell result "$output" has exit code $exitCode', ({ output, exitCode, failed }) => {
    const input = read({ ...(load('post-tool-use-shell') as object), tool_output: output }, undefined, []);
    expect(input.type).toBe('result');
    if (input.type !== 'result') return;
    expect(input.result.exitCode).toBe(exitCode);
    expect(input.result.failed === true).toBe(failed);
  });

  it('a result that reads or writes a file carries no exit code (only a shell step has one)', () => {
    for (const name of ['post-tool-use-view', 'post-tool-use-save-file', 'post-tool-use-apply-patch']) {
      const input = read(load(name), undefined, []);
      expect(input.type === 'result' && 'exitCode' in input.result, name).toBe(false);
    }
  });

  it('paths with spaces and quotes stay one word each in remove-files', () => {
    const payload = { ...(load('pre-tool-use-remove-files') as object), tool_input: { file_paths: ['a b', "it's"] } };
    expect(read(payload, undefined, [])).toMatchObject({ step: { command: `rm -f -- 'a b' 'it'\\''s'` } });
  });
});

describe('auggie.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; message: RegExp }>([
    { name: 'malformed-array', message: /must be a JSON object, got an array/ },
    { name: 'malformed-no-event', message: /"hook_event_name" is missing/ },
    { name: 'malformed-unknown-event', message: /unknown event "PreToolCall"/ },
    { name: 'malformed-no-tool-input', message: /"tool_input" must be an object/ },
    { name: 'malformed-command-not-string', message: /"command" must be a string or a list of words, got an object/ },
    { name: 'malformed-relative-root', message: /absolute path, got "project"/ },
    { name: 'malformed-no-roots', message: /"workspace_roots" must be a list of folders, got nothing/ },
    { name: 'malformed-remove-files-not-list', message: /"file_paths" must be a list of paths, got a string/ },
    { name: 'malformed-prompt-not-string', message: /"user_prompt" must be a string, got a number/ },
  ])('$name', ({ name, message }) => {
    expect(() => read(load(name), undefined, [])).toThrow(PayloadError);
    expect(() => read(load(name), undefined, [])).toThrow(message);
    expect(() => read(load(name), undefined, [])).toThrow(/^Augment Auggie /);
  });
});

describe('auggie: is a person reading the chat?', () => {
  const script = '/usr/lib/node_modules/@augmentcode/auggie/augment.mjs';
  it.for<{ name: string; args: string[]; canAsk: boolean; unread: boolean }>([
    { name: 'auggie --print', args: ['node', script, '--print', 'fix it'], canAsk: false, unread: false },
    { name: 'auggie -p by its bin', args: ['/usr/bin/auggie', '-p', 'fix it'], canAsk: false, unread: false },
    { name: 'auggie as an MCP server', args: ['auggie', '--mcp'], canAsk: false, unread: false },
    { name: 'interactive', args: ['node', script], canAsk: true, unread: true },
    { name: 'interactive with an instruction', args: ['auggie', 'fix it'], canAsk: true, unread: true },
    // unknown: a block either way; only the message differs
    { name: 'unknown command line', args: [], canAsk: true, unread: false },
    { name: 'a program merely named like it', args: ['auggie-helper', 'x'], canAsk: true, unread: false },
    {
      name: '--print given to another program before Auggie',
      args: ['bash', '--print', 'auggie'],
      canAsk: true,
      unread: true,
    },
  ])('$name', ({ args, canAsk, unread }) => {
    expect(canAskUnread(args)).toBe(unread);
    expect(read(load('pre-tool-use-shell'), undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('auggie.toReply: exact bytes (an ask is a deny: Auggie runs an asked step without a question)', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'PreToolUse',
    canAsk,
    failClosed: false,
    ...extra,
  });
  // Auggie reads the decision only with hookEventName beside it
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
      name: 'ask under --print: safer way or leave it out',
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

describe('auggie.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'PostToolUse', notice: GUARD_ON_NOTICE, stdout: withContext('PostToolUse') },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'PromptSubmit', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'PreToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'Stop', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    expect(toEventReply(event, notice)).toEqual({ stdout, exitCode: 0 });
  });
});

describe('auggie.capabilities', () => {
  it('asks by block-then-chat and reads results, starts and messages', () => {
    expect(capabilities).toMatchObject({
      ask: 'block-then-chat',
      askEvents: ['PreToolUse'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
    expect(capabilities.events).toEqual(['PreToolUse', 'PostToolUse', 'SessionStart', 'PromptSubmit']);
  });
  it('every registered event is one read() understands', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
  });
});
