import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, HookReply, ReplyContext } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/copilot/payload.js';
import { askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';
import type { KeyShape } from './helpers.js';

const load = (name: string): unknown => fixture('copilot', name);
const J = JSON.stringify;
const ws = '/home/dev/project/ws';

// The flat fields the CLI reads; the PascalCase (Claude-style / VS Code Local) replies add the
// nested form. Everything else on stdout is ignored or breaks the parse.
const flat: KeyShape = {
  permissionDecision: true,
  permissionDecisionReason: true,
  modifiedArgs: true,
  additionalContext: true,
};
const REPLY_KEYS: Record<string, KeyShape> = {
  preToolUse: flat,
  PreToolUse: {
    ...flat,
    hookSpecificOutput: {
      hookEventName: true,
      permissionDecision: true,
      permissionDecisionReason: true,
      updatedInput: true,
      additionalContext: true,
    },
  },
  sessionStart: { additionalContext: true },
  SessionStart: { hookSpecificOutput: { hookEventName: true, additionalContext: true } },
};

function expectCopilotReply(reply: HookReply, event: string): void {
  expectWellFormed(reply, REPLY_KEYS[event] ?? {});
  if (reply.stdout === '') return;
  const out = JSON.parse(reply.stdout) as Record<string, unknown>;
  // "allow" skips Copilot's own approval (and beats --deny-tool): never sent.
  expect(out['permissionDecision']).not.toBe('allow');
  if (out['permissionDecision'] !== undefined) expect(out['permissionDecisionReason']).toMatch(/^guard: \S/);
  if (event === 'PreToolUse' && out['permissionDecision'] !== undefined) {
    expect(out['hookSpecificOutput']).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: out['permissionDecision'],
      permissionDecisionReason: out['permissionDecisionReason'],
    });
  }
}

describe('copilot.read: recorded payloads', () => {
  it('a recorded bash call (toolArgs an object, CLI 1.0.102) becomes exactly this step', () => {
    expect(read(load('pre-tool-use-bash'), 'preToolUse', [])).toEqual({
      type: 'step',
      event: 'preToolUse',
      canAsk: true,
      // the call's time: the same in the payload of a repository's Claude Code hook for this call
      sameCall: 't:1795954817733',
      step: {
        agent: 'copilot',
        kind: 'shell',
        command: `touch ${ws}/ran-marker.txt && echo marker-made`,
        chatId: '9cf9519f-…',
        cwd: ws,
        projectRoot: ws,
        toolName: 'bash',
        // the model's description of the call, which only the second opinion reads
        intent: 'Run the requested command',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; event?: string | null; expected: object }>([
    {
      name: 'pre-tool-use-bash-string-args',
      expected: { type: 'step', step: { kind: 'shell', command: 'rm -rf dist' } },
    },
    // the powershell tool's step says its shell (bash's says none: the exact step above)
    {
      name: 'synth-pre-tool-use-powershell',
      expected: {
        type: 'step',
        step: { kind: 'shell', command: 'Remove-Item -Recurse -Force dist', shell: 'powershell' },
      },
    },
    {
      name: 'pre-tool-use-bash-rm',
      expected: {
        type: 'step',
        step: {
          kind: 'shell',
          command: 'rm -rf /home/dev/project/recipe/state/ws/victim',
          chatId: '2cbf7c5b-49d3-44bb-86ba-c77ff42e22ed',
          cwd: '/home/dev/project/recipe/state/ws',
        },
      },
    },
    {
      name: 'pre-tool-use-bash-probity',
      expected: { type: 'step', step: { kind: 'shell', command: '...', cwd: '/home/dev/project' } },
    },
    {
      name: 'pre-tool-use-task-complete',
      expected: {
        type: 'step',
        step: { kind: 'other', toolName: 'task_complete', args: { summary: 'fake task complete' } },
      },
    },
    { name: 'synth-pre-tool-use-view', expected: { type: 'step', step: { kind: 'read', path: `${ws}/README.md` } } },
    {
      name: 'synth-pre-tool-use-create',
      expected: { type: 'step', step: { kind: 'write', mode: 'create', path: `${ws}/notes.txt`, content: 'hello\n' } },
    },
    {
      name: 'synth-pre-tool-use-edit',
      expected: {
        type: 'step',
        step: { kind: 'write', mode: 'edit', path: `${ws}/.github/copilot-instructions.md`, content: 'b' },
      },
    },
    {
      name: 'synth-pre-tool-use-glob',
      expected: { type: 'step', step: { kind: 'other', toolName: 'glob', args: { pattern: '**/*.md' } } },
    },
    { name: 'synth-pre-tool-use-grep', expected: { type: 'step', step: { kind: 'other', toolName: 'grep' } } },
    {
      name: 'synth-pre-tool-use-web-fetch',
      expected: { type: 'step', step: { kind: 'fetch', url: 'https://example.com/install.sh' } },
    },
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        type: 'step',
        step: { kind: 'mcp', server: 'github-mcp-server', tool: 'list_issues', args: { owner: 'octo' } },
      },
    },
    {
      name: 'synth-pre-tool-use-report-intent',
      expected: { type: 'step', step: { kind: 'other', toolName: 'report_intent' } },
    },
    {
      name: 'pascal-pre-tool-use-bash',
      expected: {
        type: 'step',
        event: 'PreToolUse',
        step: { kind: 'shell', command: `touch ${ws}/ran-marker.txt`, toolName: 'Bash', chatId: '…' },
      },
    },
    { name: 'pascal-pre-tool-use-bash', event: null, expected: { type: 'step', event: 'PreToolUse' } },
    {
      name: 'post-tool-use-bash',
      event: 'postToolUse',
      expected: {
        type: 'result',
        event: 'postToolUse',
        result: {
          agent: 'copilot',
          output: 'marker-made\n<shellId: 0 completed with exit code 0>',
          exitCode: 0,
          failed: false,
          step: { kind: 'shell' },
        },
      },
    },
    {
      name: 'synth-post-tool-use-bash-exit-3',
      event: 'postToolUse',
      expected: { type: 'result', result: { exitCode: 3, failed: true } },
    },
    {
      name: 'post-tool-use-failure-view',
      event: 'postToolUseFailure',
      expected: { type: 'result', result: { output: 'Path does not exist', failed: true, step: { kind: 'read' } } },
    },
    {
      name: 'pascal-post-tool-use-read',
      event: null,
      expected: {
        type: 'result',
        event: 'PostToolUse',
        result: { output: '# ws\n', failed: false, step: { kind: 'read', path: `${ws}/README.md` } },
      },
    },
    {
      name: 'session-start',
      event: 'sessionStart',
      expected: { type: 'start', event: 'sessionStart', chatId: '9cf9519f-…', cwd: ws, projectRoot: ws },
    },
    {
      name: 'pascal-session-start',
      event: null,
      expected: { type: 'start', event: 'SessionStart', chatId: 'f59443a1-…', cwd: ws },
    },
    {
      name: 'user-prompt-submitted',
      event: 'userPromptSubmitted',
      expected: { type: 'prompt', prompt: 'go', chatId: '9cf9519f-…', cwd: ws },
    },
    { name: 'user-prompt-transformed', event: 'userPromptTransformed', expected: { type: 'ignore' } },
    { name: 'permission-request', event: null, expected: { type: 'ignore', event: 'permissionRequest' } },
    { name: 'agent-stop', event: 'agentStop', expected: { type: 'ignore' } },
    { name: 'session-end', event: 'sessionEnd', expected: { type: 'ignore' } },
    { name: 'notification', event: null, expected: { type: 'ignore', event: 'Notification' } },
    { name: 'error-occurred', event: 'errorOccurred', expected: { type: 'ignore' } },
  ])('$name (event $event)', ({ name, event = 'preToolUse', expected }) => {
    expect(read(load(name), event ?? undefined, [])).toMatchObject(expected);
  });

  it('a call denied by a hook is no tool failure', () => {
    const payload = {
      ...(load('post-tool-use-failure-view') as object),
      error: 'Denied by preToolUse hook: guard: blocked (fs.delete).',
    };
    expect(read(payload, 'postToolUseFailure', [])).toMatchObject({ type: 'ignore' });
  });
  it('a successful result with no exit code says nothing about one', () => {
    const input = read(load('pascal-post-tool-use-read'), undefined, []);
    expect(input.type === 'result' && 'exitCode' in input.result).toBe(false);
  });
});

describe('copilot.read: bad payloads are PayloadErrors that say what is wrong', () => {
  it.for<{ name: string; payload: unknown; event?: string | null; message: RegExp }>([
    {
      name: 'no event anywhere',
      payload: load('pre-tool-use-bash'),
      event: null,
      message: /must pass --event preToolUse/,
    },
    {
      name: "another agent's event",
      payload: load('pre-tool-use-bash'),
      event: 'beforeShellExecution',
      message: /unknown event "beforeShellExecution"/,
    },
    {
      name: 'toolArgs a string that is not JSON',
      payload: load('malformed-args-not-json'),
      message: /"toolArgs" is a string but not JSON/,
    },
    { name: 'no toolName', payload: load('malformed-no-tool-name'), message: /"toolName" must be a non-empty string/ },
    { name: 'relative cwd', payload: load('malformed-relative-cwd'), message: /absolute path, got "ws"/ },
    {
      name: 'bash without a command',
      payload: load('malformed-bash-no-command'),
      message: /"command" must be a string or a list of words, got nothing/,
    },
    {
      name: 'prompt not a string',
      payload: { ...(load('user-prompt-submitted') as object), prompt: ['go'] },
      event: 'userPromptSubmitted',
      message: /"prompt" must be a string/,
    },
    { name: 'a boolean', payload: true, message: /must be a JSON object, got a boolean/ },
  ])('$name', ({ payload, event = 'preToolUse', message }) => {
    const run = (): unknown => read(payload, event ?? undefined, []);
    expect(run).toThrow(PayloadError);
    expect(run).toThrow(message);
  });
});

describe('copilot.read: canAsk (will the ask dialog reach a person?)', () => {
  const payload = load('pre-tool-use-bash');
  it.for<{ name: string; args: string[]; canAsk: boolean }>([
    { name: 'interactive CLI', args: ['copilot'], canAsk: true },
    { name: 'command line unknown (VS Code)', args: [], canAsk: true },
    { name: 'interactive with a prompt that mentions -p', args: ['copilot', '-i', 'explain -p'], canAsk: true },
    { name: 'one tool allowed is no allow-all', args: ['copilot', '--allow-tool=shell(git)'], canAsk: true },
    { name: '--mode interactive', args: ['copilot', '--mode', 'interactive'], canAsk: true },
    { name: 'COPILOT_ALLOW_ALL=false', args: ['copilot', 'COPILOT_ALLOW_ALL=false'], canAsk: true },
    { name: '-p', args: ['copilot', '-p', 'clean up', '--allow-all-tools'], canAsk: false },
    { name: '--prompt', args: ['copilot', '--prompt', 'clean up'], canAsk: false },
    { name: '--autopilot', args: ['copilot', '--autopilot'], canAsk: false },
    { name: '--mode autopilot', args: ['copilot', '--mode', 'autopilot'], canAsk: false },
    { name: '--mode=autopilot', args: ['copilot', '--mode=autopilot'], canAsk: false },
    { name: '--yolo', args: ['copilot', '--yolo'], canAsk: false },
    { name: '--allow-all', args: ['copilot', '--allow-all'], canAsk: false },
    { name: '--allow-all-tools', args: ['copilot', '--allow-all-tools'], canAsk: false },
    { name: 'COPILOT_ALLOW_ALL=true passed along', args: ['copilot', 'COPILOT_ALLOW_ALL=true'], canAsk: false },
  ])('$name', ({ args, canAsk }) => {
    expect(read(payload, 'preToolUse', args)).toMatchObject({ type: 'step', canAsk });
  });
});

describe('copilot.toReply: exact bytes', () => {
  const ctx = (event: string, canAsk: boolean, extra: Partial<ReplyContext> = {}): ReplyContext => ({
    event,
    canAsk,
    failClosed: false,
    ...extra,
  });
  const decide = (decision: string, reason: string): string =>
    `{"permissionDecision":"${decision}","permissionDecisionReason":${J(reason)}}\n`;
  const both = (decision: string, reason: string): string =>
    `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":${J(reason)}},"permissionDecision":"${decision}","permissionDecisionReason":${J(reason)}}\n`;
  it.for([
    {
      name: 'no objection is silence',
      event: 'preToolUse',
      reply: toReply(allowed, ctx('preToolUse', true)),
      stdout: '',
    },
    {
      name: 'no objection under fail-closed is still silence',
      event: 'preToolUse',
      reply: toReply(allowed, ctx('preToolUse', false, { failClosed: true })),
      stdout: '',
    },
    {
      name: 'block',
      event: 'preToolUse',
      reply: toReply(blocked, ctx('preToolUse', true)),
      stdout: decide('deny', blockMessage(blocked)),
    },
    {
      name: 'ask: the dialog',
      event: 'preToolUse',
      reply: toReply(asked, ctx('preToolUse', true)),
      stdout: decide('ask', askMessage(asked)),
    },
    {
      name: 'ask with nobody there',
      event: 'preToolUse',
      reply: toReply(asked, ctx('preToolUse', false)),
      stdout: decide('deny', awayMessage(asked)),
    },
    {
      name: 'block with a notice',
      event: 'preToolUse',
      reply: toReply(blocked, ctx('preToolUse', true, { notice: GUARD_ON_NOTICE })),
      stdout: decide('deny', blockMessage(blocked, GUARD_ON_NOTICE)),
    },
    {
      name: 'PascalCase: no objection',
      event: 'PreToolUse',
      reply: toReply(allowed, ctx('PreToolUse', true)),
      stdout: '{}\n',
    },
    {
      name: 'PascalCase: block in both forms',
      event: 'PreToolUse',
      reply: toReply(blocked, ctx('PreToolUse', true)),
      stdout: both('deny', blockMessage(blocked)),
    },
    {
      name: 'PascalCase: ask in both forms',
      event: 'PreToolUse',
      reply: toReply(asked, ctx('PreToolUse', true)),
      stdout: both('ask', askMessage(asked)),
    },
  ])('$name', ({ event, reply, stdout }) => {
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCopilotReply(reply, event);
  });
});

describe('copilot.toEventReply', () => {
  it.for([
    { event: 'sessionStart', notice: GUARD_ON_NOTICE, stdout: `{"additionalContext":${J(GUARD_ON_NOTICE)}}\n` },
    { event: 'sessionStart', notice: undefined, stdout: '' },
    {
      event: 'SessionStart',
      notice: GUARD_ON_NOTICE,
      stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":${J(GUARD_ON_NOTICE)}}}\n`,
    },
    { event: 'SessionStart', notice: '', stdout: '' },
    { event: 'userPromptSubmitted', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'postToolUse', notice: GUARD_ON_NOTICE, stdout: '' },
    { event: 'preToolUse', notice: undefined, stdout: '' },
    { event: 'PreToolUse', notice: undefined, stdout: '{}\n' },
  ])('$event with notice $notice', ({ event, notice, stdout }) => {
    const reply = toEventReply(event, notice);
    expect(reply).toEqual({ stdout, exitCode: 0 });
    expectCopilotReply(reply, event);
  });
});

describe('copilot.capabilities', () => {
  it('asks natively on preToolUse and sees results, starts and messages', () => {
    expect(capabilities).toMatchObject({
      ask: 'native',
      askEvents: ['preToolUse'],
      results: true,
      startEvent: true,
      userMessages: true,
    });
  });
  it('registers only camelCase events read() understands', () => {
    for (const event of capabilities.events) {
      expect(event).toMatch(/^[a-z]/);
      expect(() => read({}, event, [])).not.toThrow(/unknown event/);
    }
  });
  it('says a timeout lets the step run and what to restart', () => {
    expect(capabilities.onHookTimeout).toMatch(/lets the step run/);
    expect(capabilities.afterSetup).toMatch(/Restart the Copilot CLI/);
  });
});
