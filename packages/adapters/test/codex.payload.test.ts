import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/codex/payload.js';
import { askInChatMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('codex', name);
const J = JSON.stringify;

const cwd = '/home/dev/project/work';
const chatId = '01a2273f-cfcb-7371-b14a-9ad11511244c';
const turnId = '01a2273f-cfe3-76f2-915a-6ebc8cd5e514';
const patch = '*** Begin Patch\n*** Add File: patched.txt\n+hello from fake model\n*** End Patch\n';

// Codex rejects unknown keys anywhere in a reply (and then fails open): these are all it may get.
const context: KeyShape = { systemMessage: true, hookSpecificOutput: { hookEventName: true, additionalContext: true } };
const REPLY_KEYS: Record<string, KeyShape> = {
  PreToolUse: {
    systemMessage: true,
    hookSpecificOutput: { hookEventName: true, permissionDecision: true, permissionDecisionReason: true },
  },
  SessionStart: context,
  UserPromptSubmit: context,
  PostToolUse: context,
};

function expectCodexReply(reply: HookReply, event: string): void {
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
    // Codex has no native ask and rejects a bare allow: deny is the only decision it may see.
    expect(out.hookSpecificOutput['permissionDecision']).toBe('deny');
    expect(out.hookSpecificOutput['permissionDecisionReason']).toMatch(/^guard: \S/);
  }
}

describe('codex.read: recorded payloads', () => {
  it('a recorded Bash call becomes exactly this step', () => {
    expect(read(load('pre-tool-use-bash'), undefined, [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: false,
      step: {
        agent: 'codex',
        kind: 'shell',
        command: 'echo hello-from-fake-model',
        chatId,
        turnId,
        callId: 'call_0',
        cwd,
        projectRoot: cwd,
        toolName: 'Bash',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    { name: 'session-start', expected: { type: 'start', event: 'SessionStart', chatId, cwd, projectRoot: cwd } },
    {
      name: 'user-prompt-submit',
      expected: { type: 'prompt', event: 'UserPromptSubmit', chatId, cwd, prompt: 'run the command' },
    },
    {
      name: 'pre-tool-use-apply-patch',
      expected: { type: 'step', step: { kind: 'patch', patch, toolName: 'apply_patch', callId: 'call_1', turnId } },
    },
    {
      name: 'pre-tool-use-bash-touch',
      expected: { type: 'step', step: { kind: 'shell', command: 'touch /home/dev/project/SENTINEL' } },
    },
    {
      name: 'pre-tool-use-git-push-force',
      expected: {
        type: 'step',
        step: {
          kind: 'shell',
          command: 'git push --force origin main',
          cwd: '/home/dev/project/gitwork',
          chatId: '01a2273c-0bcb-7432-bc9e-2defe5936fa1',
        },
      },
    },
    {
      name: 'pre-tool-use-bash-windows',
      expected: {
        type: 'step',
        canAsk: false,
        step: {
          kind: 'shell',
          command: 'echo hello-from-probe',
          cwd: 'C:\\Users\\dev\\project',
          chatId: '01a0714f-…',
          callId: 'exec-e9e946dc-…',
        },
      },
    },
    { name: 'synth-pre-tool-use-interactive', expected: { type: 'step', canAsk: true, step: { kind: 'shell' } } },
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        type: 'step',
        step: {
          kind: 'mcp',
          server: 'memory',
          tool: 'create_entities',
          toolName: 'mcp__memory__create_entities',
          args: { entities: [{ name: 'guard' }] },
        },
      },
    },
    {
      name: 'synth-pre-tool-use-mcp-unparsed',
      expected: { type: 'step', step: { kind: 'mcp', server: 'memory', args: '{"entities": [' } },
    },
    {
      name: 'synth-pre-tool-use-spawn-agent',
      expected: {
        type: 'step',
        step: { kind: 'other', toolName: 'spawn_agent', args: { message: 'review the patch' } },
      },
    },
    {
      name: 'post-tool-use-bash',
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: {
          agent: 'codex',
          chatId,
          output: 'hello-from-fake-model\n',
          step: { kind: 'shell', callId: 'call_0' },
        },
      },
    },
    {
      name: 'post-tool-use-apply-patch',
      expected: {
        type: 'result',
        result: { output: expect.stringContaining('A patched.txt'), step: { kind: 'patch', patch } },
      },
    },
    { name: 'permission-request', expected: { type: 'ignore', event: 'PermissionRequest' } },
    { name: 'stop', expected: { type: 'ignore', event: 'Stop' } },
    { name: 'session-end', expected: { type: 'ignore', event: 'SessionEnd' } },
    { name: 'pre-model-request', expected: { type: 'ignore', event: 'PreModelRequest' } },
    { name: 'post-model-request', expected: { type: 'ignore', event: 'PostModelRequest' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it('a result carries no exit code (Codex sends only the output)', () => {
    const input = read(load('post-tool-use-bash'), undefined, []);
    expect(input.type === 'result' && 'exitCode' in input.result).toBe(false);
  });

  it('falls back to the --event argument when the payload names no event', () => {
    expect(read(load('malformed-no-event'), 'PreToolUse', [])).toMatchObject({ type: 'step', event: 'PreToolUse' });
  });
});

describe('codex.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; message: RegExp }>([
    { name: 'not an object', payload: load('malformed-array'), message: /must be a JSON object, got an array/ },
    { name: 'null', payload: null, message: /got null/ },
    { name: 'a string', payload: 'PreToolUse', message: /got a string/ },
    { name: 'no event anywhere', payload: load('malformed-no-event'), message: /"hook_event_name" is missing/ },
    { name: 'unknown event', payload: load('malformed-unknown-event'), message: /unknown event "BeforeEverything"/ },
    { name: 'no tool_input', payload: load('malformed-no-tool-input'), message: /"tool_input" must be an object/ },
    {
      name: 'command not a string',
      payload: load('malformed-command-not-string'),
      message: /"command" must be a string or a list of words, got an object/,
    },
    { name: 'relative cwd', payload: load('malformed-relative-cwd'), message: /absolute path, got "work"/ },
    {
      name: 'prompt not a string',
      payload: load('malformed-prompt-not-string'),
      message: /"prompt" must be a string, got a number/,
    },
  ])('$name', ({ payload, message }) => {
    expect(() => read(payload, undefined, [])).toThrow(PayloadError);
    expect(() => read(payload, undefined, [])).toThrow(message);
  });
});

describe('codex.read: canAsk (can a person answer in the chat?)', () => {
  const bypass = load('pre-tool-use-bash');
  const interactive = load('synth-pre-tool-use-interactive');
  it.for<{ name: string; payload: unknown; args: string[]; canAsk: boolean }>([
    {
      name: 'codex exec',
      payload: bypass,
      args: ['/usr/local/bin/codex', 'exec', '--json', 'run the tests'],
      canAsk: false,
    },
    {
      name: 'codex e (alias) through node',
      payload: bypass,
      args: ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js', 'e', 'hi'],
      canAsk: false,
    },
    {
      name: 'codex exec after -c options',
      payload: bypass,
      args: ['codex', '-c', 'model="gpt-5.5"', '--cd', '/tmp', 'exec'],
      canAsk: false,
    },
    {
      name: 'codex.exe exec on Windows',
      payload: interactive,
      args: ['C:\\Program Files\\codex\\codex.exe', 'exec'],
      canAsk: false,
    },
    {
      name: 'interactive, approvals bypassed: a person still reads the chat',
      payload: bypass,
      args: ['codex', '--dangerously-bypass-approvals-and-sandbox'],
      canAsk: true,
    },
    {
      name: 'interactive with a prompt that starts with "exec"',
      payload: bypass,
      args: ['codex', 'exec the plan'],
      canAsk: true,
    },
    {
      name: '"exec" as the value of -m is no subcommand',
      payload: bypass,
      args: ['codex', '-m', 'exec', 'fix it'],
      canAsk: true,
    },
    { name: 'codex resume', payload: bypass, args: ['codex', 'resume', '--last'], canAsk: true },
    { name: 'unknown command line, bypassPermissions', payload: bypass, args: [], canAsk: false },
    { name: 'unknown command line, default mode', payload: interactive, args: [], canAsk: true },
    {
      name: 'no codex in the command line falls back too',
      payload: bypass,
      args: ['codex-helper', 'exec'],
      canAsk: false,
    },
    {
      name: 'no codex in the command line, default mode',
      payload: interactive,
      args: ['bash', '-lc', 'exec guard'],
      canAsk: true,
    },
  ])('$name', ({ payload, args, canAsk }) => {
    expect(read(payload, undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('codex.toReply: exact bytes', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'PreToolUse',
    canAsk,
    failClosed: false,
    ...extra,
  });
  // Codex adds its own full stop after the reason
  const deny = (reason: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":${J(reason.replace(/\.$/, ''))}}}\n`;
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
    { name: 'ask with a person, no code', reply: toReply(asked, ctx(true)), stdout: deny(askInChatMessage(asked)) },
    {
      name: 'ask with nobody there: safer way or leave it out',
      reply: toReply(asked, ctx(false)),
      stdout: deny(awayMessage(asked)),
    },
    // codex exec: nobody answers now, but the person may resume the chat and approve by its code
    {
      name: 'ask with nobody there, a code for a resumed chat',
      reply: toReply(asked, ctx(false, { approvalCode: 'K7P2' })),
      stdout: deny(awayMessage(asked, undefined, 'K7P2')),
    },
  ])('$name', ({ reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCodexReply(reply, 'PreToolUse');
  });
});

describe('codex.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'UserPromptSubmit', notice: GUARD_ON_NOTICE, stdout: withContext('UserPromptSubmit') },
    { event: 'PostToolUse', notice: GUARD_ON_NOTICE, stdout: withContext('PostToolUse') },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'SessionStart', notice: '', stdout: '' },
    { event: 'PreToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'Stop', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'PermissionRequest', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCodexReply(reply, stdout === '' ? 'none' : event);
  });
});

describe('codex.capabilities', () => {
  it('asks by block-then-chat on PreToolUse and reads results, starts and messages', () => {
    expect(capabilities).toMatchObject({
      ask: 'block-then-chat',
      askEvents: ['PreToolUse'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
  });
  it('every registered event is one read() understands', () => {
    for (const event of capabilities.events) {
      expect(() => read({ hook_event_name: event }, undefined, [])).not.toThrow(/unknown event/);
    }
  });
  it('says what the person must do and what failures do', () => {
    expect(capabilities.afterSetup).toMatch(/\/hooks/);
    expect(capabilities.onHookTimeout).toMatch(/runs the step/);
  });
});
