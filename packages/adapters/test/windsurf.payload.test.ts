import { describe, expect, it } from 'vitest';
import type { Verdict } from '@guard/core';
import { PayloadError } from '../src/adapter.js';
import type { HookInput } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/windsurf/payload.js';
import { askInChatMessage, awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked, fixture } from './helpers.js';

// Every fixture here is from Windsurf's hooks documentation (`doc-`), never observed on a binary.
const load = (name: string): unknown => fixture('windsurf', name);
const project = '/path/to/project';

describe('windsurf.read: documented payloads', () => {
  it.for<{ name: string; expected: HookInput }>([
    {
      name: 'doc-pre-run-command',
      expected: {
        type: 'step',
        event: 'pre_run_command',
        canAsk: true,
        step: {
          agent: 'windsurf',
          kind: 'shell',
          command: 'npm install package-name',
          chatId: 'doc-trajectory-1',
          turnId: 'doc-execution-1',
          cwd: project,
          projectRoot: project,
          toolName: 'run_command',
        },
      },
    },
    {
      name: 'doc-pre-read-code',
      expected: {
        type: 'step',
        event: 'pre_read_code',
        canAsk: true,
        step: {
          agent: 'windsurf',
          kind: 'read',
          path: `${project}/src/main.py`,
          chatId: 'doc-trajectory-1',
          turnId: 'doc-execution-2',
          // the payload names no folder: the file's stands in
          cwd: `${project}/src`,
          projectRoot: `${project}/src`,
          toolName: 'read_code',
        },
      },
    },
    {
      name: 'doc-pre-write-code',
      expected: {
        type: 'step',
        event: 'pre_write_code',
        canAsk: true,
        step: {
          agent: 'windsurf',
          kind: 'write',
          mode: 'edit',
          path: `${project}/src/main.py`,
          content: 'def new_function():\n    return True',
          chatId: 'doc-trajectory-1',
          turnId: 'doc-execution-3',
          cwd: `${project}/src`,
          projectRoot: `${project}/src`,
          toolName: 'write_code',
        },
      },
    },
    {
      name: 'doc-pre-mcp-tool-use',
      expected: {
        type: 'step',
        event: 'pre_mcp_tool_use',
        canAsk: true,
        step: {
          agent: 'windsurf',
          kind: 'mcp',
          server: 'github',
          tool: 'create_issue',
          args: { owner: 'code-owner', repo: 'my-repo', title: 'Bug report', body: 'Description here' },
          chatId: 'doc-trajectory-1',
          turnId: 'doc-execution-4',
          // an MCP call names no folder at all
          cwd: '/',
          projectRoot: '/',
          toolName: 'mcp_tool_use',
        },
      },
    },
    {
      name: 'doc-pre-user-prompt',
      expected: {
        type: 'prompt',
        event: 'pre_user_prompt',
        chatId: 'doc-trajectory-1',
        prompt: 'can you run the echo hello command',
        cwd: '',
      },
    },
    {
      name: 'doc-post-run-command',
      expected: { type: 'ignore', event: 'post_run_command', why: 'guard does not act on post_run_command' },
    },
    {
      name: 'doc-post-cascade-response',
      expected: { type: 'ignore', event: 'post_cascade_response', why: 'guard does not act on post_cascade_response' },
    },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name), undefined)).toEqual(expected);
  });

  it('post_mcp_tool_use is the MCP call with its result', () => {
    const input = read(load('doc-post-mcp-tool-use'), undefined);
    expect(input).toMatchObject({
      type: 'result',
      result: {
        agent: 'windsurf',
        chatId: 'doc-trajectory-1',
        output: 'Issue created',
        step: { kind: 'mcp', tool: 'create_issue' },
      },
    });
  });

  it('a write from nothing (one edit, empty old_string) is taken as overwriting the file', () => {
    const payload = structuredClone(load('doc-pre-write-code')) as { tool_info: { edits: object[] } };
    payload.tool_info.edits = [{ old_string: '', new_string: 'all of it' }];
    expect(read(payload, undefined)).toMatchObject({ step: { mode: 'overwrite', content: 'all of it' } });
    // near miss: two edits, the first from nothing, still edit a file that is there
    payload.tool_info.edits = [
      { old_string: '', new_string: 'a' },
      { old_string: 'b', new_string: 'c' },
    ];
    expect(read(payload, undefined)).toMatchObject({ step: { mode: 'edit', content: 'a\nc' } });
  });

  it.for<{ name: string; message: RegExp }>([
    { name: 'malformed-no-tool-info', message: /"tool_info" must be an object/ },
    { name: 'malformed-relative-cwd', message: /must be an absolute path/ },
    { name: 'malformed-unknown-event', message: /unknown event "pre_browse"/ },
  ])('refuses $name', ({ name, message }) => {
    expect(() => read(load(name), undefined)).toThrow(PayloadError);
    expect(() => read(load(name), undefined)).toThrow(message);
  });

  it('refuses a write whose edits are not a list, and one without new_string', () => {
    const payload = structuredClone(load('doc-pre-write-code')) as { tool_info: Record<string, unknown> };
    payload.tool_info['edits'] = 'x';
    expect(() => read(payload, undefined)).toThrow(/"edits" must be a list/);
    payload.tool_info['edits'] = [{ old_string: 'a' }];
    expect(() => read(payload, undefined)).toThrow(/"new_string"/);
  });
});

describe('windsurf.toReply: exit 2 blocks, nothing else does', () => {
  const context = { event: 'pre_run_command', canAsk: true, failClosed: false, approvalCode: 'K7Q2' };
  it('allow is silence and exit 0, under fail-closed too', () => {
    expect(toReply(allowed, context)).toEqual({ stdout: '', exitCode: 0 });
    expect(toReply(allowed, { ...context, failClosed: true })).toEqual({ stdout: '', exitCode: 0 });
  });
  it('block exits 2 with the reason on stderr and stdout', () => {
    const text = `${blockMessage(blocked)}\n`;
    expect(toReply(blocked, context)).toEqual({ stdout: text, stderr: text, exitCode: 2 });
  });
  it.for<{ canAsk: boolean; text: (v: Verdict) => string }>([
    { canAsk: true, text: (v) => askInChatMessage(v, 'K7Q2') },
    { canAsk: false, text: (v) => awayMessage(v, undefined, 'K7Q2') },
  ])('ask blocks too and asks in the chat (canAsk $canAsk)', ({ canAsk, text }) => {
    const reply = toReply(asked, { ...context, canAsk });
    expect(reply).toEqual({ stdout: `${text(asked)}\n`, stderr: `${text(asked)}\n`, exitCode: 2 });
    expect(reply.stdout).toContain(canAsk ? 'ask them in the chat' : 'no one can approve');
  });
  it('every other event gets silence and exit 0', () => {
    for (const event of capabilities.events)
      expect(toEventReply(event, 'guard is on')).toEqual({ stdout: '', exitCode: 0 });
  });
});
