import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/claude-code/payload.js';
import { askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('claude-code', name);
const J = JSON.stringify;

const cwd = '/home/dev/project';
const chatId = 'f27dd2a2-9ff7-4c40-afeb-15334d9590c1';
// the tool calls of one recorded run (Write, Read, Edit, WebFetch, WebSearch)
const toolsChat = '17202e47-86a9-44ac-a0b0-860822993278';

// What Claude Code validates a reply against (an unknown or mistyped field is a failed hook, which
// blocks under onFailure "block"): these are all guard may print.
const context: KeyShape = { hookSpecificOutput: { hookEventName: true, additionalContext: true } };
const REPLY_KEYS: Record<string, KeyShape> = {
  PreToolUse: { hookSpecificOutput: { hookEventName: true, permissionDecision: true, permissionDecisionReason: true } },
  SessionStart: context,
  UserPromptSubmit: context,
  PostToolUse: context,
};

function expectClaudeReply(reply: HookReply, event: string): void {
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
    // "allow" approves the step past Claude Code's own prompt: guard never says it
    expect(['deny', 'ask']).toContain(out.hookSpecificOutput['permissionDecision']);
    expect(out.hookSpecificOutput['permissionDecisionReason']).toMatch(/^guard: \S/);
  }
}

describe('claude-code.read: recorded payloads (Claude Code 2.1.328)', () => {
  it('a recorded Bash call becomes exactly this step', () => {
    expect(read(load('pre-tool-use-bash'), undefined, [])).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: true,
      step: {
        agent: 'claude-code',
        kind: 'shell',
        command: 'touch made.txt',
        chatId,
        callId: 'toolu_fake_0',
        cwd,
        projectRoot: cwd,
        toolName: 'Bash',
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
    {
      name: 'pre-tool-use-git-push-force',
      expected: { type: 'step', step: { kind: 'shell', command: 'git push --force origin main' } },
    },
    {
      name: 'pre-tool-use-bash-default-mode',
      expected: { type: 'step', step: { kind: 'shell', command: 'touch x.txt' } },
    },
    {
      name: 'pre-tool-use-write',
      expected: {
        type: 'step',
        step: {
          kind: 'write',
          mode: 'overwrite',
          path: `${cwd}/notes.txt`,
          content: 'hello\n',
          chatId: toolsChat,
          toolName: 'Write',
        },
      },
    },
    {
      name: 'pre-tool-use-edit',
      expected: { type: 'step', step: { kind: 'write', mode: 'edit', path: `${cwd}/notes.txt`, content: 'bye' } },
    },
    {
      name: 'pre-tool-use-notebook-edit',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'edit', path: `${cwd}/nb.ipynb`, content: 'print(1)', toolName: 'NotebookEdit' },
      },
    },
    { name: 'pre-tool-use-read', expected: { type: 'step', step: { kind: 'read', path: `${cwd}/notes.txt` } } },
    {
      name: 'pre-tool-use-web-fetch',
      expected: { type: 'step', step: { kind: 'fetch', url: 'http://127.0.0.1:9/page', toolName: 'WebFetch' } },
    },
    {
      name: 'pre-tool-use-web-search',
      expected: { type: 'step', step: { kind: 'other', toolName: 'WebSearch', args: { query: 'guard hooks' } } },
    },
    {
      name: 'pre-tool-use-mcp',
      expected: {
        type: 'step',
        step: {
          kind: 'mcp',
          server: 'tracker',
          tool: 'lookup_ticket',
          toolName: 'mcp__tracker__lookup_ticket',
          args: { ticket: 'T-12' },
        },
      },
    },
    {
      name: 'synth-pre-tool-use-mcp-server-with-underscores',
      expected: { type: 'step', step: { kind: 'mcp', server: 'team__tracker', tool: 'lookup_ticket' } },
    },
    {
      name: 'synth-pre-tool-use-mcp-no-server-field',
      expected: { type: 'step', step: { kind: 'mcp', server: 'tracker', tool: 'lookup_ticket' } },
    },
    {
      name: 'synth-pre-tool-use-grep',
      expected: { type: 'step', step: { kind: 'read', path: `${cwd}/src`, toolName: 'Grep' } },
    },
    {
      name: 'synth-pre-tool-use-glob',
      expected: { type: 'step', step: { kind: 'other', toolName: 'Glob', args: { pattern: '**/*.ts' } } },
    },
    {
      name: 'synth-pre-tool-use-powershell',
      // the PowerShell tool's step says its shell
      expected: {
        type: 'step',
        step: { kind: 'shell', command: 'Remove-Item -Recurse -Force build', shell: 'powershell' },
      },
    },
    { name: 'synth-pre-tool-use-agent', expected: { type: 'step', step: { kind: 'other', toolName: 'Agent' } } },
    {
      name: 'synth-pre-tool-use-todo-write',
      expected: { type: 'step', step: { kind: 'other', toolName: 'TodoWrite' } },
    },
    {
      name: 'post-tool-use-bash',
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: { agent: 'claude-code', chatId, output: '', step: { kind: 'shell', callId: 'toolu_fake_0' } },
      },
    },
    {
      name: 'post-tool-use-failure-bash',
      expected: {
        type: 'result',
        event: 'PostToolUseFailure',
        result: {
          output: "Exit code 2\nls: cannot access '/nonexistent-dir-x': No such file or directory",
          exitCode: 2,
          failed: true,
          step: { kind: 'shell', command: 'ls /nonexistent-dir-x' },
        },
      },
    },
    {
      name: 'post-tool-use-failure-web-fetch',
      expected: {
        type: 'result',
        result: { failed: true, step: { kind: 'fetch' }, output: expect.stringMatching(/^Unable/) },
      },
    },
    { name: 'post-tool-use-read', expected: { type: 'result', result: { output: 'hello\n', step: { kind: 'read' } } } },
    {
      name: 'post-tool-use-mcp',
      expected: { type: 'result', result: { output: 'T-12: fix the login page (open)', step: { kind: 'mcp' } } },
    },
    {
      name: 'post-tool-use-web-search',
      expected: { type: 'result', result: { output: expect.stringContaining('"query":"guard hooks"') } },
    },
    { name: 'post-tool-use-write', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'post-tool-use-edit', expected: { type: 'result', result: { step: { kind: 'write', mode: 'edit' } } } },
    { name: 'post-tool-use-notebook-edit', expected: { type: 'result', result: { step: { kind: 'write' } } } },
    { name: 'synth-post-tool-use-failure-interrupt', expected: { type: 'ignore', event: 'PostToolUseFailure' } },
    { name: 'permission-request', expected: { type: 'ignore', event: 'PermissionRequest' } },
    { name: 'stop', expected: { type: 'ignore', event: 'Stop' } },
    { name: 'session-end', expected: { type: 'ignore', event: 'SessionEnd' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toMatchObject(expected);
  });

  it('a successful result carries no exit code and is no failure (non-zero exits come as PostToolUseFailure)', () => {
    const input = read(load('post-tool-use-bash'), undefined, []);
    expect(input.type === 'result' && 'exitCode' in input.result).toBe(false);
    expect(input.type === 'result' && input.result.failed).toBeFalsy();
  });

  it('falls back to the --event argument when the payload names no event', () => {
    expect(read(load('malformed-no-event'), 'PreToolUse', [])).toMatchObject({ type: 'step', event: 'PreToolUse' });
  });

  it.for([
    // a prompt of no words is no message from the person (its agent went on by itself)
    { prompt: '', type: 'ignore' },
    { prompt: ' ', type: 'prompt' },
    { prompt: 'yes', type: 'prompt' },
  ])('a prompt of $prompt is read as $type', ({ prompt, type }) => {
    const payload = { ...(load('user-prompt-submit') as object), prompt };
    expect(read(payload, undefined, [])).toMatchObject({ type, event: 'UserPromptSubmit' });
  });
});

describe('claude-code.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; message: RegExp }>([
    { name: 'not an object', payload: load('malformed-array'), message: /must be a JSON object, got an array/ },
    { name: 'null', payload: null, message: /got null/ },
    { name: 'no event anywhere', payload: load('malformed-no-event'), message: /"hook_event_name" is missing/ },
    { name: 'unknown event', payload: load('malformed-unknown-event'), message: /unknown event "BeforeEverything"/ },
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
  });
});

describe('claude-code.read: canAsk (can Claude Code show its own prompt?)', () => {
  const payload = load('pre-tool-use-bash');
  const native = '/home/dev/.local/share/claude/versions/2.1.328';
  it.for<{ name: string; args: string[]; canAsk: boolean }>([
    { name: 'claude -p', args: ['/usr/local/bin/claude', '-p', 'fix it', '--output-format', 'json'], canAsk: false },
    { name: 'claude --print', args: ['claude', '--print', 'fix it'], canAsk: false },
    {
      name: '-p after other flags, skipping permissions',
      args: ['claude', '--dangerously-skip-permissions', '-p', 'x'],
      canAsk: false,
    },
    {
      name: 'the npm launcher',
      args: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs', '-p', 'x'],
      canAsk: false,
    },
    { name: 'interactive', args: ['claude'], canAsk: true },
    {
      name: 'interactive, skipping permissions: Claude Code still prompts for an ask',
      args: ['claude', '--dangerously-skip-permissions'],
      canAsk: true,
    },
    { name: "the native installer's versioned binary", args: [native, '-p', 'x'], canAsk: false },
    {
      name: 'an older npm install (cli.js)',
      args: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', '-p'],
      canAsk: false,
    },
    { name: 'some other cli.js', args: ['node', '/srv/tools/cli.js', '-p', 'x'], canAsk: true },
    { name: 'unknown command line: Claude Code decides (it prompts, or refuses)', args: [], canAsk: true },
    { name: '-p of another program before Claude Code', args: ['bash', '-p', 'claude'], canAsk: true },
    { name: 'a program merely named like it', args: ['claude-helper', '-p'], canAsk: true },
  ])('$name', ({ args, canAsk }) => {
    expect(read(payload, undefined, args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('claude-code.toReply: exact bytes', () => {
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
      name: 'no objection is silence (an allow would skip Claude Code’s own prompt)',
      reply: toReply(allowed, ctx(true)),
      stdout: '',
    },
    {
      name: 'no objection is silence under fail-closed too (silence is no failure)',
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
      name: 'ask: Claude Code’s own prompt',
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
    expectClaudeReply(reply, 'PreToolUse');
  });
});

describe('claude-code.toEventReply', () => {
  const withContext = (event: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`;
  it.for([
    { event: 'SessionStart', notice: GUARD_ON_NOTICE, stdout: withContext('SessionStart') },
    { event: 'UserPromptSubmit', notice: GUARD_ON_NOTICE, stdout: withContext('UserPromptSubmit') },
    { event: 'PostToolUse', notice: GUARD_ON_NOTICE, stdout: withContext('PostToolUse') },
    // not seen delivered: nothing, rather than a reply Claude Code might reject
    { event: 'PostToolUseFailure', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'SessionStart', notice: undefined, stdout: '' },
    { event: 'SessionStart', notice: '', stdout: '' },
    { event: 'PreToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'Stop', notice: GUARD_ON_NOTICE, stdout: '' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectClaudeReply(reply, stdout === '' ? 'none' : event);
  });
});

describe('claude-code.capabilities', () => {
  it("asks through Claude Code's own prompt on PreToolUse and reads results, failures, starts and messages", () => {
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
  it('says what failures and timeouts do, with and without fail-closed', () => {
    expect(capabilities.onHookFailure).toMatch(/runs the step.*onFailure "block"/);
    expect(capabilities.onHookTimeout).toMatch(/runs the step.*blocks/);
  });
});
