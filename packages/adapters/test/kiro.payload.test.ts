import { describe, expect, it } from 'vitest';
import type { Verdict } from '@guard/core';
import { PayloadError } from '../src/adapter.js';
import type { HookInput } from '../src/adapter.js';
import { canAsk, capabilities, read, toEventReply, toReply } from '../src/kiro/payload.js';
import { askInChatMessage, awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked, fixture } from './helpers.js';

// `doc-` fixtures are Kiro CLI's hooks documentation's examples; `lineage-` ones have the tool inputs
// of the Amazon Q Developer CLI its tools come from. Neither was observed on a binary.
const load = (name: string): unknown => fixture('kiro', name);
const cwd = '/current/working/directory';
const base = { agent: 'kiro', chatId: cwd, cwd, projectRoot: cwd };

describe('kiro.read: documented payloads', () => {
  it.for<{ name: string; expected: HookInput }>([
    {
      name: 'doc-pre-tool-use-read',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        step: { ...base, kind: 'read', path: `${cwd}/docs/hooks.md`, toolName: 'read' },
      },
    },
    {
      name: 'doc-pre-tool-use-mcp',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        step: {
          ...base,
          kind: 'mcp',
          server: 'postgres',
          tool: 'query',
          args: { sql: 'SELECT * FROM orders WHERE user_id = 123;' },
          toolName: '@postgres/query',
        },
      },
    },
    {
      name: 'lineage-pre-tool-use-execute-bash',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        step: { ...base, kind: 'shell', command: 'npm install package-name', toolName: 'execute_bash' },
      },
    },
    {
      name: 'lineage-pre-tool-use-fs-write',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        // fs_write's `command` says what it does to the file; it is no shell command
        step: {
          ...base,
          kind: 'write',
          mode: 'edit',
          path: 'src/main.py',
          content: 'def new_function():\n    return True',
          toolName: 'fs_write',
        },
      },
    },
    {
      name: 'lineage-pre-tool-use-use-aws',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        step: {
          ...base,
          kind: 'shell',
          command: 'aws s3api list-objects-v2 --region us-east-1 --bucket my-bucket --max-items 10',
          toolName: 'use_aws',
        },
      },
    },
    {
      name: 'lineage-pre-tool-use-web-fetch',
      expected: {
        type: 'step',
        event: 'preToolUse',
        canAsk: true,
        step: { ...base, kind: 'fetch', url: 'https://example.com/docs', toolName: 'web_fetch' },
      },
    },
    {
      name: 'doc-agent-spawn',
      expected: { type: 'start', event: 'agentSpawn', chatId: cwd, cwd, projectRoot: cwd },
    },
    {
      name: 'doc-user-prompt-submit',
      expected: { type: 'prompt', event: 'userPromptSubmit', chatId: cwd, prompt: "user's input prompt", cwd },
    },
    { name: 'doc-stop', expected: { type: 'ignore', event: 'stop', why: 'guard does not act on stop' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined, [])).toEqual(expected);
  });

  it('postToolUse is the step with its result', () => {
    expect(read(load('doc-post-tool-use'), undefined, [])).toMatchObject({
      type: 'result',
      event: 'postToolUse',
      result: {
        agent: 'kiro',
        chatId: cwd,
        output: '# Hooks\n\nHooks allow you to execute custom commands...',
        step: { kind: 'read', path: `${cwd}/docs/hooks.md` },
      },
    });
  });

  it.for<{ name: string; response: unknown; output: string; failed?: true }>([
    {
      name: 'a result list, items not text as JSON',
      response: { success: true, result: ['a', { b: 1 }] },
      output: 'a\n{"b":1}',
    },
    { name: 'a failure', response: { success: false, result: ['no'] }, output: 'no', failed: true },
    // near misses: no result list, a plain text
    { name: 'no result list', response: { exit_status: '1', stdout: 'x' }, output: '{"exit_status":"1","stdout":"x"}' },
    { name: 'text', response: 'plain', output: 'plain' },
  ])('postToolUse reads $name', ({ response, output, failed }) => {
    const payload = { ...(load('doc-post-tool-use') as object), tool_response: response };
    const input = read(payload, undefined, []);
    expect(input.type === 'result' ? input.result.output : input).toBe(output);
    expect(input.type === 'result' ? input.result.failed : input).toBe(failed);
  });

  it('a session_id, when a payload has one, is the chat; without one the folder stands in', () => {
    const payload = { ...(load('lineage-pre-tool-use-execute-bash') as object), session_id: 'chat-1' };
    expect(read(payload, undefined, [])).toMatchObject({ step: { chatId: 'chat-1' } });
    expect(read({ ...payload, session_id: '' }, undefined, [])).toMatchObject({ step: { chatId: cwd } });
  });
});

describe('kiro.read: both names of each tool, and the shapes of their inputs', () => {
  const step = (toolName: string, toolInput: unknown): unknown => {
    const input = read(
      { hook_event_name: 'preToolUse', cwd, tool_name: toolName, tool_input: toolInput },
      undefined,
      [],
    );
    return input.type === 'step' ? input.step : input;
  };
  it.for<{ name: string; tool: string; input: unknown; want: object }>([
    { name: 'shell alias', tool: 'shell', input: { command: 'ls' }, want: { kind: 'shell', command: 'ls' } },
    {
      name: 'Windows shell tool',
      tool: 'execute_cmd',
      input: { command: 'dir' },
      want: { kind: 'shell', command: 'dir' },
    },
    {
      name: 'a working folder',
      tool: 'execute_bash',
      input: { command: 'ls', working_dir: 'sub' },
      want: { kind: 'shell', command: 'ls', cwd: `${cwd}/sub` },
    },
    {
      name: 'write alias, create',
      tool: 'write',
      input: { command: 'create', path: '/etc/hosts', file_text: 'x' },
      want: { kind: 'write', mode: 'overwrite', path: '/etc/hosts', content: 'x' },
    },
    {
      name: 'append',
      tool: 'fs_write',
      input: { command: 'append', path: 'a.txt', new_str: 'more' },
      want: { kind: 'write', mode: 'edit', path: 'a.txt', content: 'more' },
    },
    {
      name: 'insert',
      tool: 'fs_write',
      input: { command: 'insert', path: 'a.txt', insert_line: 3, new_str: 'line' },
      want: { kind: 'write', mode: 'edit', path: 'a.txt', content: 'line' },
    },
    {
      name: 'the older read, one operation at the top',
      tool: 'fs_read',
      input: { mode: 'Line', path: '~/.ssh/id_rsa' },
      want: { kind: 'read', path: '~/.ssh/id_rsa' },
    },
    {
      name: 'several reads: the rest are judged too',
      tool: 'fs_read',
      input: {
        operations: [
          { mode: 'Line', path: 'a' },
          { mode: 'Directory', path: '/etc' },
        ],
      },
      want: { kind: 'read', path: 'a', otherArgs: ['/etc'] },
    },
    {
      name: 'an image read',
      tool: 'fs_read',
      input: { operations: [{ mode: 'Image', image_paths: ['/tmp/a.png', '/tmp/b.png'] }] },
      want: { kind: 'read', path: '/tmp/a.png', otherArgs: ['/tmp/b.png'] },
    },
    {
      name: 'a search reads under its path',
      tool: 'grep',
      input: { pattern: 'key', path: '/home/dev/.aws' },
      want: { kind: 'read', path: '/home/dev/.aws', otherArgs: { pattern: 'key', path: '/home/dev/.aws' } },
    },
    {
      name: 'a search with no path reads under the folder',
      tool: 'glob',
      input: { pattern: '**/*.ts' },
      want: { kind: 'read', path: cwd },
    },
    {
      name: 'aws alias, a parameter that is no text, and a profile',
      tool: 'aws',
      input: {
        service_name: 's3',
        operation_name: 'rb',
        profile_name: 'prod',
        parameters: { bucket: 's3://data', force: '', tags: ['a b'] },
      },
      want: { kind: 'shell', command: `aws s3 rb --profile prod --bucket s3://data --force --tags '["a b"]'` },
    },
    {
      name: 'an MCP tool',
      tool: '@git/git_push',
      input: { force: true },
      want: { kind: 'mcp', server: 'git', tool: 'git_push', args: { force: true } },
    },
    {
      // near miss: `@` and no slash is no MCP tool's name; read by its input's shape
      name: 'an unknown tool with a command',
      tool: '@git',
      input: { command: 'rm -rf /' },
      want: { kind: 'shell', command: 'rm -rf /' },
    },
    {
      name: 'a tool with nothing to check',
      tool: 'todo_list',
      input: { command: 'create', tasks: ['a'] },
      want: { kind: 'other', args: { command: 'create', tasks: ['a'] } },
    },
  ])('$name', ({ tool, input, want }) => {
    expect(step(tool, input)).toMatchObject({ ...want, toolName: tool });
  });

  it.for<{ name: string; message: RegExp }>([
    { name: 'malformed-relative-cwd', message: /must be an absolute path/ },
    { name: 'malformed-no-tool-name', message: /"tool_name"/ },
    { name: 'malformed-unknown-event', message: /unknown event "preCompact"/ },
    { name: 'malformed-write-no-path', message: /"path"/ },
  ])('refuses $name', ({ name, message }) => {
    expect(() => read(load(name), undefined, [])).toThrow(PayloadError);
    expect(() => read(load(name), undefined, [])).toThrow(message);
  });

  it.for<{ name: string; tool: string; input: unknown; message: RegExp }>([
    { name: 'a shell step with no command', tool: 'execute_bash', input: { summary: 'x' }, message: /"command"/ },
    {
      name: 'a write that is none of the four',
      tool: 'fs_write',
      input: { command: 'delete', path: 'a' },
      message: /create, str_replace/,
    },
    { name: 'a read with no path', tool: 'fs_read', input: { operations: [{ mode: 'Line' }] }, message: /"path"/ },
    {
      name: 'one read of two with no path',
      tool: 'fs_read',
      input: { operations: [{ mode: 'Line', path: 'a' }, { mode: 'Line' }] },
      message: /"path"/,
    },
    {
      name: 'aws parameters that are a list',
      tool: 'use_aws',
      input: { service_name: 's3', operation_name: 'ls', parameters: [] },
      message: /"parameters"/,
    },
    { name: 'a fetch with no URL', tool: 'web_fetch', input: { mode: 'full' }, message: /"url"/ },
    { name: 'an input that is a list', tool: 'shell', input: ['ls'], message: /must be an object/ },
  ])('refuses $name', ({ tool, input, message }) => {
    expect(() =>
      read({ hook_event_name: 'preToolUse', cwd, tool_name: tool, tool_input: input }, undefined, []),
    ).toThrow(message);
  });
});

describe('kiro: a person reads the chat but in kiro-cli chat --no-interactive', () => {
  it.for<{ args: string[]; want: boolean }>([
    { args: [], want: true },
    { args: ['/usr/local/bin/kiro-cli', 'chat'], want: true },
    { args: ['/usr/local/bin/kiro-cli', 'chat', '--no-interactive', 'fix it'], want: false },
    { args: ['kiro-cli', 'chat', '--agent', 'guard', '--no-interactive'], want: false },
    // near misses: the words of the prompt, and another program's flag
    { args: ['kiro-cli', 'chat', '--agent', '--no-interactive'], want: true },
    { args: ['other', '--no-interactive'], want: true },
  ])('$args', ({ args, want }) => {
    expect(canAsk(args)).toBe(want);
    const input = read(load('lineage-pre-tool-use-execute-bash'), undefined, args);
    expect(input).toMatchObject({ canAsk: want });
  });
});

describe('kiro.toReply: exit 2 blocks, nothing else does', () => {
  const context = { event: 'preToolUse', canAsk: true, failClosed: false, approvalCode: 'K7Q2' };
  it('allow is silence and exit 0, under fail-closed too', () => {
    expect(toReply(allowed, context)).toEqual({ stdout: '', exitCode: 0 });
    expect(toReply(allowed, { ...context, failClosed: true })).toEqual({ stdout: '', exitCode: 0 });
  });
  it('block exits 2 with the reason on stderr (and stdout)', () => {
    const text = `${blockMessage(blocked)}\n`;
    expect(toReply(blocked, context)).toEqual({ stdout: text, stderr: text, exitCode: 2 });
  });
  it.for<{ canAsk: boolean; text: (v: Verdict) => string }>([
    { canAsk: true, text: (v) => askInChatMessage(v, 'K7Q2') },
    { canAsk: false, text: (v) => awayMessage(v, undefined, 'K7Q2') },
  ])('ask blocks too and asks in the chat (canAsk $canAsk)', ({ canAsk, text }) => {
    const reply = toReply(asked, { ...context, canAsk });
    expect(reply).toEqual({ stdout: `${text(asked)}\n`, stderr: `${text(asked)}\n`, exitCode: 2 });
    expect(reply.stderr).toContain(canAsk ? 'ask them in the chat' : 'no one can approve');
  });
  it('a notice goes on stdout where Kiro adds it to the context, nowhere else', () => {
    expect(toEventReply('agentSpawn', 'guard is on')).toEqual({ stdout: 'guard is on\n', exitCode: 0 });
    expect(toEventReply('userPromptSubmit', 'guard is on')).toEqual({ stdout: 'guard is on\n', exitCode: 0 });
    expect(toEventReply('agentSpawn', undefined)).toEqual({ stdout: '', exitCode: 0 });
    expect(toEventReply('postToolUse', 'guard is on')).toEqual({ stdout: '', exitCode: 0 });
    expect(toEventReply('stop', 'guard is on')).toEqual({ stdout: '', exitCode: 0 });
    expect(capabilities.askEvents).toEqual(['preToolUse']);
  });
});
