import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/gemini/payload.js';
import { askInChatMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('gemini', name);
const J = JSON.stringify;

const cwd = '/home/dev/project';
const chatId = '0eab3f50-a16e-4d54-9f43-0de4f1d9b1f8';

// The fields Gemini CLI reads from a reply (DefaultHookOutput); a Claude-style
// hookSpecificOutput.permissionDecision is ignored by it, so guard never sends one.
const context: KeyShape = { hookSpecificOutput: { hookEventName: true, additionalContext: true } };
const REPLY_KEYS: Record<string, KeyShape> = {
  BeforeTool: { decision: true, reason: true },
  SessionStart: context,
  BeforeAgent: context,
  AfterTool: context,
};

function expectGeminiReply(reply: HookReply, event: string): void {
  const shape = REPLY_KEYS[event];
  if (shape === undefined) {
    expect(reply).toEqual({ stdout: '', exitCode: 0 });
    return;
  }
  expectWellFormed(reply, shape);
  if (reply.stdout === '') return;
  const out = JSON.parse(reply.stdout) as Record<string, unknown>;
  if (event === 'BeforeTool') {
    // Gemini CLI's own "ask" ends a headless run without a word, and "allow" says nothing guard means
    expect(out['decision']).toBe('deny');
    expect(out['reason']).toMatch(/^guard: \S/);
  } else {
    expect((out['hookSpecificOutput'] as Record<string, unknown>)['hookEventName']).toBe(event);
  }
}

describe('gemini.read: recorded payloads (Gemini CLI 0.61.0)', () => {
  it('a recorded run_shell_command call becomes exactly this step', () => {
    const payload = load('before-tool-shell') as { session_id: string };
    expect(read(payload, undefined, [])).toEqual({
      type: 'step',
      event: 'BeforeTool',
      canAsk: true,
      step: {
        agent: 'gemini',
        kind: 'shell',
        command: 'touch made.txt',
        chatId: payload.session_id,
        cwd,
        projectRoot: cwd,
        toolName: 'run_shell_command',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    { name: 'session-start', expected: { type: 'start', event: 'SessionStart', cwd, projectRoot: cwd } },
    { name: 'before-agent', expected: { type: 'prompt', event: 'BeforeAgent', cwd, prompt: 'do the task' } },
    {
      name: 'before-tool-git-push-force',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push --force origin main' } },
    },
    {
      // dir_path is the folder the command runs in, relative to the session's
      name: 'before-tool-shell-dir',
      expected: { type: 'step', step: { kind: 'shell', command: 'pwd', cwd: `${cwd}/sub`, projectRoot: cwd } },
    },
    {
      name: 'before-tool-write-file',
      expected: {
        type: 'step',
        step: {
          kind: 'write',
          mode: 'overwrite',
          path: `${cwd}/notes.txt`,
          content: 'hello\n',
          toolName: 'write_file',
        },
      },
    },
    {
      name: 'before-tool-replace',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${cwd}/notes.txt`, content: 'bye' } },
    },
    { name: 'before-tool-read-file', expected: { type: 'step', step: { kind: 'read', path: `${cwd}/notes.txt` } } },
    { name: 'before-tool-list-directory', expected: { type: 'step', step: { kind: 'read', path: cwd } } },
    { name: 'before-tool-glob', expected: { type: 'step', step: { kind: 'other', args: { pattern: '*.txt' } } } },
    { name: 'before-tool-grep-search', expected: { type: 'step', step: { kind: 'other', toolName: 'grep_search' } } },
    {
      name: 'synth-before-tool-grep-search-dir',
      expected: { type: 'step', step: { kind: 'read', path: `${cwd}/src`, toolName: 'grep_search' } },
    },
    {
      name: 'before-tool-web-fetch',
      expected: { type: 'step', step: { kind: 'fetch', url: 'http://127.0.0.1:9/page', toolName: 'web_fetch' } },
    },
    {
      // several sites: every URL is there for the rules to see
      name: 'synth-before-tool-web-fetch-two-urls',
      expected: {
        type: 'step',
        step: {
          kind: 'other',
          toolName: 'web_fetch',
          // as Gemini CLI reads it: the comma is part of the second URL
          args: { urls: ['https://example.com/a', 'https://docs.example.org/b,'] },
        },
      },
    },
    {
      name: 'synth-before-tool-web-fetch-no-url',
      expected: { type: 'step', step: { kind: 'other', toolName: 'web_fetch', args: { urls: [] } } },
    },
    {
      name: 'before-tool-google-web-search',
      expected: { type: 'step', step: { kind: 'other', args: { query: 'guard hooks' } } },
    },
    {
      name: 'synth-before-tool-read-many-files',
      expected: { type: 'step', step: { kind: 'other', toolName: 'read_many_files' } },
    },
    {
      name: 'before-tool-mcp',
      expected: {
        type: 'step',
        step: {
          kind: 'mcp',
          server: 'tracker',
          tool: 'lookup_ticket',
          toolName: 'mcp_tracker_lookup_ticket',
          args: { ticket: 'T-12' },
        },
      },
    },
    {
      name: 'synth-before-tool-mcp-no-context',
      expected: { type: 'step', step: { kind: 'mcp', server: 'tracker', tool: 'lookup_ticket' } },
    },
    {
      name: 'after-tool-shell',
      expected: {
        type: 'result',
        event: 'AfterTool',
        result: { agent: 'gemini', output: expect.stringContaining('Output: (empty)'), failed: false },
      },
    },
    {
      name: 'after-tool-shell-exit-2',
      expected: { type: 'result', result: { exitCode: 2, failed: true, step: { command: 'ls /nonexistent-dir-x' } } },
    },
    {
      name: 'after-tool-shell-error',
      expected: { type: 'result', result: { exitCode: 1, failed: true } },
    },
    { name: 'after-tool-read-file', expected: { type: 'result', result: { output: 'hello\n', failed: false } } },
    {
      name: 'after-tool-mcp',
      expected: {
        type: 'result',
        result: { output: expect.stringContaining('T-12: fix the login page'), step: { kind: 'mcp' } },
      },
    },
    { name: 'after-tool-web-fetch', expected: { type: 'result', result: { failed: true, step: { kind: 'fetch' } } } },
    { name: 'after-tool-google-web-search', expected: { type: 'result', result: { failed: false } } },
    { name: 'after-tool-write-file', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'after-tool-replace', expected: { type: 'result', result: { step: { kind: 'write', mode: 'edit' } } } },
    { name: 'after-agent', expected: { type: 'ignore', event: 'AfterAgent' } },
    { name: 'session-end', expected: { type: 'ignore', event: 'SessionEnd' } },
    { name: 'synth-notification', expected: { type: 'ignore', event: 'Notification' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it("an exit code the command's own output prints does not hide Gemini CLI's", () => {
    const payload = load('after-tool-shell-exit-2') as { tool_response: { llmContent: string } };
    payload.tool_response.llmContent = payload.tool_response.llmContent.replace(
      'Output: ',
      'Output: fake\nExit Code: 0\nmore\n',
    );
    expect(read(payload, undefined, [])).toMatchObject({ type: 'result', result: { exitCode: 2, failed: true } });
  });

  it('falls back to the --event argument when the payload names no event', () => {
    expect(read(load('malformed-no-event'), 'BeforeTool', [])).toMatchObject({ type: 'step', event: 'BeforeTool' });
  });

  it.for<{ prompt: string; step: object }>([
    { prompt: 'read HTTPS://Example.COM/x now', step: { kind: 'fetch', url: 'https://example.com/x' } },
    {
      prompt: 'see https://github.com/o/r/blob/main/README.md',
      step: { kind: 'fetch', url: 'https://raw.githubusercontent.com/o/r/main/README.md' },
    },
    {
      prompt: 'ftp://files.example.com/x and (https://a.example) are not fetched',
      step: { kind: 'other', args: { urls: [] } },
    },
    { prompt: 'twice: https://a.example/ https://a.example/', step: { kind: 'fetch', url: 'https://a.example/' } },
  ])('web_fetch reads its URLs as Gemini CLI does: $prompt', ({ prompt, step }) => {
    const payload = load('before-tool-web-fetch') as { tool_input: { prompt: string } };
    payload.tool_input.prompt = prompt;
    expect(read(payload, undefined, [])).toMatchObject({ type: 'step', step });
  });

  it('keeps the chat id of the payload', () => {
    const payload = { ...(load('before-tool-shell') as object), session_id: chatId };
    expect(read(payload, undefined, [])).toMatchObject({ step: { chatId } });
  });
});

describe('gemini.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; message: RegExp }>([
    { name: 'not an object', payload: load('malformed-array'), message: /must be a JSON object, got an array/ },
    { name: 'no event anywhere', payload: load('malformed-no-event'), message: /"hook_event_name" is missing/ },
    { name: 'unknown event', payload: load('malformed-unknown-event'), message: /unknown event "BeforeEverything"/ },
    { name: 'no tool_input', payload: load('malformed-no-tool-input'), message: /"tool_input" must be an object/ },
    {
      name: 'command not a string',
      payload: load('malformed-command-not-string'),
      message: /"command" must be a string or a list of words, got a number/,
    },
    { name: 'relative cwd', payload: load('malformed-relative-cwd'), message: /absolute path, got "project"/ },
    {
      name: 'prompt null',
      payload: load('malformed-prompt-not-string'),
      message: /"prompt" must be a string, got null/,
    },
    {
      name: 'web_fetch without a prompt',
      payload: load('malformed-web-fetch-no-prompt'),
      message: /"prompt" must be a string/,
    },
  ])('$name', ({ payload, message }) => {
    expect(() => read(payload, undefined, [])).toThrow(PayloadError);
    expect(() => read(payload, undefined, [])).toThrow(message);
  });
});

describe('gemini.read: canAsk (does a person read the chat now?)', () => {
  const payload = load('before-tool-shell');
  const bin = '/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js';
  it.for<{ name: string; args: string[]; canAsk: boolean }>([
    { name: 'gemini -p', args: ['node', bin, '-p', 'fix it', '--yolo'], canAsk: false },
    { name: 'gemini --prompt=…', args: ['node', bin, '--prompt=fix it'], canAsk: false },
    { name: 'the npm bin link', args: ['node', '/usr/local/bin/gemini', '--yolo', '-p', 'x'], canAsk: false },
    { name: 'interactive, yolo', args: ['node', bin, '--yolo'], canAsk: true },
    { name: 'interactive with a first prompt (-i)', args: ['node', bin, '-i', 'fix it'], canAsk: true },
    { name: 'unknown command line', args: [], canAsk: true },
    { name: '-p of another program', args: ['bash', '-p', '-c', 'gemini-helper'], canAsk: true },
  ])('$name', ({ args, canAsk }) => {
    expect(read(payload, undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('gemini.toReply: exact bytes', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'BeforeTool',
    canAsk,
    failClosed: false,
    ...extra,
  });
  const deny = (reason: string): string => `{"decision":"deny","reason":${J(reason)}}\n`;
  it.for([
    { name: 'no objection is silence', reply: toReply(allowed, ctx(true)), stdout: '' },
    {
      name: 'no objection is silence under fail-closed too',
      reply: toReply(allowed, ctx(false, { failClosed: true })),
      stdout: '',
    },
    { name: 'block', reply: toReply(blocked, ctx(true)), stdout: deny(blockMessage(blocked)) },
    {
      name: 'block with a notice',
      reply: toReply(blocked, ctx(true, { notice: GUARD_ON_NOTICE })),
      stdout: deny(blockMessage(blocked, GUARD_ON_NOTICE)),
    },
    {
      name: 'ask with a person: block-then-chat',
      reply: toReply(asked, ctx(true, { approvalCode: 'K7P2' })),
      stdout: deny(askInChatMessage(asked, 'K7P2')),
    },
    {
      name: 'ask with nobody there (-p): safer way or leave it out, with a code for a resumed chat',
      reply: toReply(asked, ctx(false, { approvalCode: 'K7P2' })),
      stdout: deny(awayMessage(asked, undefined, 'K7P2')),
    },
  ])('$name', ({ reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectGeminiReply(reply, 'BeforeTool');
  });
});

describe('gemini.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'BeforeAgent', notice: GUARD_ON_NOTICE, stdout: withContext('BeforeAgent') },
    { event: 'AfterTool', notice: GUARD_ON_NOTICE, stdout: withContext('AfterTool') },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'BeforeTool', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'AfterAgent', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectGeminiReply(reply, stdout === '' ? 'none' : event);
  });
});

describe('gemini.capabilities', () => {
  it('asks by block-then-chat on BeforeTool and reads results, starts and messages', () => {
    expect(capabilities).toMatchObject({
      ask: 'block-then-chat',
      askEvents: ['BeforeTool'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
    expect(capabilities.events).toEqual(['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionStart']);
  });
  it('every registered event is one read() understands', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
  });
  it('says what failures and timeouts do, and that an untrusted folder runs no hooks', () => {
    expect(capabilities.onHookFailure).toMatch(/runs the step.*no fail-closed switch.*deny/);
    expect(capabilities.onHookTimeout).toMatch(/runs the step, whatever fail-closed says/);
    expect(capabilities.afterSetup).toMatch(/not trusted.*no hooks/);
  });
});
