import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/qwen/payload.js';
import { askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('qwen', name);
const J = JSON.stringify;

const cwd = '/home/dev/project';
const chatId = 'f7830823-6ac9-4a36-b1d6-3b81e24ee865';

// What guard may print to Qwen Code (it reads hookSpecificOutput.permissionDecision first, then a
// top-level decision; guard prints only the first)
const context: KeyShape = { hookSpecificOutput: { hookEventName: true, additionalContext: true } };
const REPLY_KEYS: Record<string, KeyShape> = {
  PreToolUse: { hookSpecificOutput: { hookEventName: true, permissionDecision: true, permissionDecisionReason: true } },
  SessionStart: context,
  UserPromptSubmit: context,
  PostToolUse: context,
};

function expectQwenReply(reply: HookReply, event: string): void {
  const shape = REPLY_KEYS[event];
  if (shape === undefined) {
    expect(reply).toEqual({ stdout: '', exitCode: 0 });
    return;
  }
  expectWellFormed(reply, shape);
  if (reply.stdout === '') return;
  const out = JSON.parse(reply.stdout) as { hookSpecificOutput: Record<string, unknown> };
  expect(out.hookSpecificOutput['hookEventName']).toBe(event);
  if (event === 'PreToolUse') {
    // "allow" approves the step past Qwen Code's own confirmation: guard never says it
    expect(['deny', 'ask']).toContain(out.hookSpecificOutput['permissionDecision']);
    expect(out.hookSpecificOutput['permissionDecisionReason']).toMatch(/^guard: \S/);
  }
}

describe('qwen.read: recorded payloads (Qwen Code 0.24.4)', () => {
  it('a recorded run_shell_command call becomes exactly this step', () => {
    expect(read(load('pre-tool-use-shell'), undefined, [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: true,
      step: {
        agent: 'qwen',
        kind: 'shell',
        command: 'touch made.txt',
        chatId,
        callId: 'toolu_1796607836235_f967g9kmt',
        cwd,
        projectRoot: cwd,
        toolName: 'run_shell_command',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    { name: 'session-start', expected: { type: 'start', event: 'SessionStart', chatId, cwd, projectRoot: cwd } },
    { name: 'synth-session-start-resume', expected: { type: 'start', event: 'SessionStart', chatId } },
    {
      name: 'user-prompt-submit',
      expected: { type: 'prompt', event: 'UserPromptSubmit', chatId, cwd, prompt: 'do the task' },
    },
    // Qwen Code goes on after each tool result with a prompt of no words: not the person speaking
    { name: 'user-prompt-submit-continue', expected: { type: 'ignore', event: 'UserPromptSubmit' } },
    {
      name: 'pre-tool-use-git-push-force',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push --force origin main' } },
    },
    {
      name: 'pre-tool-use-git-push',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push origin main' } },
    },
    {
      // the folder it runs in (Qwen Code takes only an absolute one)
      name: 'pre-tool-use-shell-directory',
      expected: { type: 'step', step: { kind: 'shell', command: 'pwd', cwd: `${cwd}/sub`, projectRoot: cwd } },
    },
    {
      name: 'pre-tool-use-write-file',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'overwrite', path: `${cwd}/b.txt`, content: 'hi\n', toolName: 'write_file' },
      },
    },
    {
      name: 'pre-tool-use-edit',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${cwd}/b.txt`, content: 'ho' } },
    },
    { name: 'pre-tool-use-read-file', expected: { type: 'step', step: { kind: 'read', path: `${cwd}/b.txt` } } },
    {
      name: 'pre-tool-use-list-directory',
      expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'list_directory' } },
    },
    { name: 'pre-tool-use-glob', expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'glob' } } },
    {
      name: 'pre-tool-use-grep-search',
      expected: { type: 'step', step: { kind: 'read', path: cwd, toolName: 'grep_search' } },
    },
    {
      name: 'pre-tool-use-web-fetch',
      expected: { type: 'step', step: { kind: 'fetch', url: 'https://example.invalid/page', toolName: 'web_fetch' } },
    },
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        type: 'step',
        step: { kind: 'mcp', server: 'tracker', tool: 'create_issue', args: { title: 'x', body: 'y' } },
      },
    },
    {
      name: 'synth-pre-tool-use-notebook-edit',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${cwd}/nb.ipynb`, content: 'print(1)' } },
    },
    {
      name: 'synth-pre-tool-use-monitor',
      expected: { type: 'step', step: { kind: 'shell', command: 'tail -f log.txt', toolName: 'monitor' } },
    },
    // a subagent's prompt may quote a command: it is read as it is, never by shape
    { name: 'synth-pre-tool-use-agent', expected: { type: 'step', step: { kind: 'other', toolName: 'agent' } } },
    // a tool Qwen Code adds later is read by the shape of its input
    {
      name: 'synth-pre-tool-use-unknown-command',
      expected: { type: 'step', step: { kind: 'shell', command: 'rm -rf build', toolName: 'future_runner' } },
    },
    {
      name: 'post-tool-use-shell',
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: {
          agent: 'qwen',
          chatId,
          exitCode: 0,
          output: expect.stringMatching(/^Command: touch made\.txt\n/),
          step: { kind: 'shell', callId: 'toolu_1796607836235_f967g9kmt' },
        },
      },
    },
    {
      name: 'post-tool-use-failure-shell',
      expected: {
        type: 'result',
        event: 'PostToolUseFailure',
        result: {
          output: expect.stringContaining("ls: cannot access '/nonexistent-dir-x'"),
          exitCode: 2,
          failed: true,
          step: { kind: 'shell', command: 'ls /nonexistent-dir-x' },
        },
      },
    },
    {
      name: 'post-tool-use-failure-shell-exit-3',
      expected: { type: 'result', result: { exitCode: 3, failed: true, step: { command: 'exit 3' } } },
    },
    {
      name: 'post-tool-use-shell-directory',
      expected: { type: 'result', result: { exitCode: 0, step: { cwd: `${cwd}/sub` } } },
    },
    {
      name: 'post-tool-use-failure-web-fetch',
      expected: {
        type: 'result',
        result: { failed: true, step: { kind: 'fetch' }, output: expect.stringMatching(/^Error during fetch/) },
      },
    },
    {
      name: 'post-tool-use-read-file',
      expected: { type: 'result', result: { output: 'hi\n', step: { kind: 'read' } } },
    },
    {
      name: 'post-tool-use-glob',
      expected: { type: 'result', result: { output: expect.stringMatching(/^Found 3 file\(s\)/) } },
    },
    { name: 'post-tool-use-write-file', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'post-tool-use-edit', expected: { type: 'result', result: { step: { kind: 'write', mode: 'edit' } } } },
    { name: 'synth-post-tool-use-failure-interrupt', expected: { type: 'ignore', event: 'PostToolUseFailure' } },
    { name: 'instructions-loaded', expected: { type: 'ignore', event: 'InstructionsLoaded' } },
    { name: 'notification', expected: { type: 'ignore', event: 'Notification' } },
    { name: 'post-tool-batch', expected: { type: 'ignore', event: 'PostToolBatch' } },
    { name: 'stop', expected: { type: 'ignore', event: 'Stop' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it('a result that reads or writes a file carries no exit code (only a shell step has one)', () => {
    for (const name of ['post-tool-use-read-file', 'post-tool-use-write-file', 'post-tool-use-glob']) {
      const input = read(load(name), undefined, []);
      expect(input.type === 'result' && 'exitCode' in input.result, name).toBe(false);
      expect(input.type === 'result' && input.result.failed, name).toBeFalsy();
    }
  });

  it('falls back to the --event argument when the payload names no event', () => {
    expect(read(load('malformed-no-event'), 'PreToolUse', [])).toMatchObject({ type: 'step', event: 'PreToolUse' });
  });
});

describe('qwen.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; message: RegExp }>([
    { name: 'not an object', payload: load('malformed-array'), message: /must be a JSON object, got an array/ },
    { name: 'no event anywhere', payload: load('malformed-no-event'), message: /"hook_event_name" is missing/ },
    // Gemini CLI's name for the event, which Qwen Code does not send
    { name: 'unknown event', payload: load('malformed-unknown-event'), message: /unknown event "BeforeTool"/ },
    { name: 'no tool_input', payload: load('malformed-no-tool-input'), message: /"tool_input" must be an object/ },
    {
      name: 'command not a string',
      payload: load('malformed-command-not-string'),
      message: /"command" must be a string or a list of words, got an object/,
    },
    { name: 'relative cwd', payload: load('malformed-relative-cwd'), message: /absolute path, got "project"/ },
    {
      name: 'prompt not a string',
      payload: load('malformed-prompt-not-string'),
      message: /"prompt" must be a string, got a number/,
    },
  ])('$name', ({ payload, message }) => {
    expect(() => read(payload, undefined, [])).toThrow(PayloadError);
    expect(() => read(payload, undefined, [])).toThrow(message);
    expect(() => read(payload, undefined, [])).toThrow(/^Qwen Code /);
  });
});

describe('qwen.read: canAsk (can Qwen Code show its own confirmation?)', () => {
  const payload = load('pre-tool-use-shell');
  const entry = '/usr/lib/node_modules/@qwen-code/qwen-code/cli-entry.js';
  it.for<{ name: string; args: string[]; canAsk: boolean }>([
    { name: 'qwen -p', args: ['/usr/local/bin/qwen', '-p', 'fix it', '--yolo'], canAsk: false },
    { name: 'qwen --prompt=', args: ['qwen', '--prompt=fix it'], canAsk: false },
    { name: 'the npm bin run by node', args: ['node', entry, '-p', 'x'], canAsk: false },
    {
      name: 'the bundle it may start',
      args: ['node', entry.replace('cli-entry.js', 'cli.js'), '-p', 'x'],
      canAsk: false,
    },
    { name: 'interactive', args: ['qwen'], canAsk: true },
    { name: 'interactive, YOLO: Qwen Code still confirms an ask', args: ['qwen', '--yolo'], canAsk: true },
    { name: '-i runs the prompt, then stays', args: ['qwen', '-i', 'fix it'], canAsk: true },
    { name: 'unknown command line: Qwen Code decides (it confirms, or refuses)', args: [], canAsk: true },
    { name: '-p of another program before Qwen Code', args: ['bash', '-p', 'qwen'], canAsk: true },
    { name: 'a program merely named like it', args: ['qwen-helper', '-p'], canAsk: true },
    { name: 'some other cli.js', args: ['node', '/srv/tools/cli.js', '-p', 'x'], canAsk: true },
  ])('$name', ({ args, canAsk }) => {
    expect(read(payload, undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('qwen.toReply: exact bytes', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'PreToolUse',
    canAsk,
    failClosed: false,
    ...extra,
  });
  const decide = (decision: string, reason: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":${J(reason)}}}\n`;
  it.for([
    {
      name: 'no objection is silence (an allow would skip Qwen Code’s own confirmation)',
      reply: toReply(allowed, ctx(true)),
      stdout: '',
    },
    {
      name: 'no objection is silence under fail-closed too',
      reply: toReply(allowed, ctx(false, { failClosed: true })),
      stdout: '',
    },
    { name: 'block', reply: toReply(blocked, ctx(true)), stdout: decide('deny', blockMessage(blocked)) },
    {
      name: 'block with a notice',
      reply: toReply(blocked, ctx(true, { notice: GUARD_ON_NOTICE })),
      stdout: decide('deny', blockMessage(blocked, GUARD_ON_NOTICE)),
    },
    {
      name: 'ask: Qwen Code’s own confirmation',
      reply: toReply(asked, ctx(true)),
      stdout: decide('ask', askMessage(asked)),
    },
    {
      name: 'ask where nobody can answer (-p): safer way or leave it out',
      reply: toReply(asked, ctx(false)),
      stdout: decide('deny', awayMessage(asked)),
    },
  ])('$name', ({ reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectQwenReply(reply, 'PreToolUse');
  });
});

describe('qwen.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'UserPromptSubmit', notice: GUARD_ON_NOTICE, stdout: withContext('UserPromptSubmit') },
    { event: 'PostToolUse', notice: GUARD_ON_NOTICE, stdout: withContext('PostToolUse') },
    { event: 'PostToolUseFailure', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'SessionStart', notice: '', stdout: '' },
    { event: 'PreToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'Stop', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectQwenReply(reply, stdout === '' ? 'none' : event);
  });
});

describe('qwen.capabilities', () => {
  it("asks through Qwen Code's own confirmation on PreToolUse and reads results, failures, starts and messages", () => {
    expect(capabilities).toMatchObject({
      ask: 'native',
      askEvents: ['PreToolUse'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
    expect(capabilities.events).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'SessionStart',
      'UserPromptSubmit',
    ]);
  });
  it('every registered event is one read() understands', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
  });
  it('says failures and timeouts let the step run, and that it has no fail-closed switch', () => {
    expect(capabilities.onHookFailure).toMatch(/runs the step.*no fail-closed switch/);
    expect(capabilities.onHookTimeout).toMatch(/runs the step, whatever fail-closed says/);
  });
});
