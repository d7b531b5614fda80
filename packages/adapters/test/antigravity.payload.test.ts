import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/antigravity/payload.js';
import { askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('antigravity', name);
const J = JSON.stringify;
const ws = '/path/to/workspace';
const agy = ['/usr/local/bin/agy'];

// Antigravity drops a reply with extra or misplaced fields, and denies on {} or silence.
const REPLY_KEYS: Record<string, KeyShape> = {
  PreToolUse: { decision: true, reason: true },
  Stop: { decision: true, reason: true },
  PostToolUse: {},
  PreInvocation: {},
  PostInvocation: {},
};

function expectAntigravityReply(reply: HookReply, event: string): void {
  expect(reply.stdout).not.toBe('');
  expectWellFormed(reply, REPLY_KEYS[event] ?? {});
  const out = JSON.parse(reply.stdout) as Record<string, unknown>;
  if (event === 'PreToolUse') {
    // Never "allow" (auto-approval) and never a missing decision (denied).
    expect(['ask', 'force_ask', 'deny']).toContain(out['decision']);
    if (out['decision'] !== 'ask') expect(out['reason']).toMatch(/^guard: \S/);
  }
  if (event === 'Stop') expect(out['decision']).toBe('');
}

describe('antigravity.read: recorded payloads', () => {
  it('the recorded write_to_file call (no workspace, as under agy -p) becomes exactly this step', () => {
    expect(read(load('pre-tool-use-write-to-file'), 'PreToolUse', [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: false,
      step: {
        agent: 'antigravity',
        kind: 'write',
        mode: 'overwrite',
        path: '/abs/path/probe-scratch.txt',
        content: 'hello',
        chatId: '62166620-...',
        callId: '3',
        // No Cwd and no workspacePaths: the folder of the file is the best guess left.
        cwd: '/abs/path',
        projectRoot: '/abs/path',
        toolName: 'write_to_file',
        // the model's Description of the call, which only the second opinion reads
        intent: 'Create probe-scratch.txt containing the word hello',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; event?: string; expected: object }>([
    {
      name: 'pre-tool-use-run-command',
      expected: {
        type: 'step',
        step: {
          kind: 'shell',
          command: 'npm test',
          cwd: ws,
          projectRoot: ws,
          chatId: 'ec33ebf9-0cba-4100-8142-c61503f6c587',
          callId: '19',
        },
      },
    },
    { name: 'pre-tool-use-run-command', event: 'pretooluse', expected: { type: 'step', event: 'PreToolUse' } },
    {
      name: 'synth-pre-tool-use-run-command-cwd',
      expected: {
        type: 'step',
        step: { kind: 'shell', command: 'git push --force origin main', cwd: `${ws}/app`, projectRoot: ws },
      },
    },
    {
      name: 'synth-pre-tool-use-lowercase-keys',
      expected: { type: 'step', step: { kind: 'shell', command: 'ls -la', cwd: ws } },
    },
    {
      name: 'synth-pre-tool-use-view-file',
      expected: { type: 'step', step: { kind: 'read', path: `${ws}/.env`, toolName: 'view_file' } },
    },
    {
      name: 'synth-pre-tool-use-replace-file-content',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${ws}/GEMINI.md`, content: 'new' } },
    },
    {
      name: 'synth-pre-tool-use-read-url-content',
      expected: { type: 'step', step: { kind: 'fetch', url: 'https://example.com/install.sh' } },
    },
    {
      name: 'synth-pre-tool-use-call-mcp-tool',
      expected: { type: 'step', step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { title: 'bug' } } },
    },
    {
      name: 'synth-pre-tool-use-generate-image',
      expected: { type: 'step', step: { kind: 'other', toolName: 'generate_image', args: { Prompt: 'a lighthouse' } } },
    },
    { name: 'synth-post-tool-use', event: 'PostToolUse', expected: { type: 'ignore', event: 'PostToolUse' } },
    { name: 'synth-stop', event: 'stop', expected: { type: 'ignore', event: 'Stop' } },
  ])('$name (event $event)', ({ name, event = 'PreToolUse', expected }) => {
    expect(read(load(name), event, agy)).toMatchObject(expected);
  });

  it('write_to_file without Overwrite creates', () => {
    const payload = load('pre-tool-use-write-to-file') as { toolCall: { args: Record<string, unknown> } };
    const args = { ...payload.toolCall.args, Overwrite: false };
    expect(read({ ...payload, toolCall: { ...payload.toolCall, args } }, 'PreToolUse', agy)).toMatchObject({
      step: { mode: 'create' },
    });
  });
});

describe('antigravity.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; event?: string | null; message: RegExp }>([
    {
      name: 'no --event',
      payload: load('pre-tool-use-run-command'),
      event: null,
      message: /must pass --event PreToolUse/,
    },
    {
      name: 'an event Antigravity does not have',
      payload: load('pre-tool-use-run-command'),
      event: 'SessionStart',
      message: /unknown event "SessionStart"/,
    },
    {
      name: 'no toolCall',
      payload: load('malformed-no-tool-call'),
      message: /"toolCall" must be a JSON object, got nothing/,
    },
    {
      name: 'args not an object',
      payload: load('malformed-args-not-object'),
      message: /"toolCall.args" must be an object/,
    },
    { name: 'no working directory at all', payload: load('malformed-no-cwd'), message: /no working directory/ },
    {
      name: 'run_command without CommandLine',
      payload: load('malformed-command-missing'),
      message: /"CommandLine" must be a string or a list of words, got nothing/,
    },
    {
      name: 'workspacePaths not a list',
      payload: { ...(load('pre-tool-use-run-command') as object), workspacePaths: '/x' },
      message: /"workspacePaths" must be an array of strings/,
    },
    { name: 'an array', payload: [], message: /must be a JSON object, got an array/ },
  ])('$name', ({ payload, event = 'PreToolUse', message }) => {
    const run = (): unknown => read(payload, event ?? undefined, agy);
    expect(run).toThrow(PayloadError);
    expect(run).toThrow(message);
  });
});

describe('antigravity.read: canAsk (could force_ask be skipped or never shown?)', () => {
  const payload = load('pre-tool-use-run-command');
  it.for<{ name: string; args: string[]; canAsk: boolean }>([
    { name: 'interactive agy', args: ['agy'], canAsk: true },
    { name: 'agy with a workspace', args: ['/usr/local/bin/agy', '--add-dir', '/home/dev/project'], canAsk: true },
    {
      name: 'the IDE language server',
      args: ['/opt/Antigravity/resources/bin/language_server', '--workspace_id', 'w1'],
      canAsk: true,
    },
    { name: 'a prompt that mentions -p', args: ['agy', 'explain -p'], canAsk: true },
    { name: 'headless -p', args: ['agy', '-p', 'fix the build'], canAsk: false },
    { name: 'headless --print', args: ['agy', '--print'], canAsk: false },
    { name: '--prompt=…', args: ['agy', '--prompt=fix it'], canAsk: false },
    {
      name: '--dangerously-skip-permissions approves force_ask',
      args: ['agy', '--dangerously-skip-permissions'],
      canAsk: false,
    },
    { name: 'command line unknown: the skip flag cannot be ruled out', args: [], canAsk: false },
  ])('$name', ({ args, canAsk }) => {
    expect(read(payload, 'PreToolUse', args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('antigravity.toReply: exact bytes', () => {
  const ctx = (canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event: 'PreToolUse',
    canAsk,
    failClosed: false,
    ...extra,
  });
  it.for([
    {
      name: 'no objection is "ask" (defer to the person\'s settings)',
      reply: toReply(allowed, ctx(true)),
      stdout: '{"decision":"ask"}\n',
    },
    {
      name: 'no objection with nobody there is still "ask"',
      reply: toReply(allowed, ctx(false, { failClosed: true })),
      stdout: '{"decision":"ask"}\n',
    },
    {
      name: 'block',
      reply: toReply(blocked, ctx(true)),
      stdout: `{"decision":"deny","reason":${J(blockMessage(blocked))}}\n`,
    },
    {
      name: 'ask: force_ask',
      reply: toReply(asked, ctx(true)),
      stdout: `{"decision":"force_ask","reason":${J(askMessage(asked))}}\n`,
    },
    {
      name: 'ask with nobody there: deny',
      reply: toReply(asked, ctx(false)),
      stdout: `{"decision":"deny","reason":${J(awayMessage(asked))}}\n`,
    },
    {
      name: 'the first flagged step says guard is on',
      reply: toReply(asked, ctx(true, { notice: GUARD_ON_NOTICE })),
      stdout: `{"decision":"force_ask","reason":${J(askMessage(asked, GUARD_ON_NOTICE))}}\n`,
    },
  ])('$name', ({ reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectAntigravityReply(reply, 'PreToolUse');
  });
});

describe('antigravity.toEventReply: never silence, the shape each event accepts', () => {
  it.for([
    { event: 'PreToolUse', as: 'PreToolUse', stdout: '{"decision":"ask"}\n' },
    { event: 'pretooluse', as: 'PreToolUse', stdout: '{"decision":"ask"}\n' },
    { event: 'Stop', as: 'Stop', stdout: '{"decision":""}\n' },
    { event: 'PostToolUse', as: 'PostToolUse', stdout: '{}\n' },
    { event: 'PreInvocation', as: 'PreInvocation', stdout: '{}\n' },
  ])('$event', ({ event, as, stdout }) => {
    const reply = toEventReply(event, GUARD_ON_NOTICE);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectAntigravityReply(reply, as);
  });
});

describe('antigravity.capabilities', () => {
  it('registers PreToolUse only and sees no results, starts or messages', () => {
    expect(capabilities).toMatchObject({
      events: ['PreToolUse'],
      askEvents: ['PreToolUse'],
      ask: 'native',
      results: false,
      startEvent: false,
      userMessages: false,
    });
  });
  it('says failures block and a full restart is needed', () => {
    expect(capabilities.onHookFailure).toMatch(/blocks/);
    expect(capabilities.onHookTimeout).toMatch(/blocks/);
    expect(capabilities.afterSetup).toMatch(/start it again/);
  });
});
