import { describe, expect, it } from 'vitest';
import type { ToolStep } from '@guard/core';
import { PayloadError } from '../src/adapter.js';
import { capabilities, read, toEventReply, toReply } from '../src/crush/payload.js';
import { awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked, fixture } from './helpers.js';

// No payload here was observed on a binary (Crush's release binary cannot be installed here): the
// envelope is the one another guard's Crush integration documents, with the tool inputs of
// Crush's tools (`synth-`). See docs/agents-observed.md, Crush.
const load = (name: string): unknown => fixture('crush', name);
const project = '/home/dev/project';
const base = { agent: 'crush', chatId: 'synth-session-1', cwd: project, projectRoot: project };

describe('crush.read: every tool of its table', () => {
  it.for<{ name: string; step: Partial<ToolStep> & Record<string, unknown> }>([
    {
      name: 'synth-pre-tool-use-bash',
      step: { kind: 'shell', toolName: 'bash', command: 'git push --force origin main' },
    },
    {
      // working_dir is relative to the session's folder
      name: 'synth-pre-tool-use-bash-working-dir',
      step: { kind: 'shell', toolName: 'bash', command: 'rm -rf build', cwd: `${project}/packages/app` },
    },
    {
      name: 'synth-pre-tool-use-edit',
      step: { kind: 'write', mode: 'edit', toolName: 'edit', path: `${project}/src/main.go`, content: 'a := 2' },
    },
    {
      name: 'synth-pre-tool-use-multiedit',
      step: { kind: 'write', mode: 'edit', toolName: 'multiedit', path: `${project}/src/main.go`, content: 'b\nd' },
    },
    {
      name: 'synth-pre-tool-use-write',
      step: { kind: 'write', mode: 'overwrite', toolName: 'write', path: `${project}/notes.txt`, content: 'hello\n' },
    },
    {
      // a download writes over its file, whatever the body holds
      name: 'synth-pre-tool-use-download',
      step: { kind: 'write', mode: 'overwrite', toolName: 'download', path: `${project}/tool.sh` },
    },
    { name: 'synth-pre-tool-use-view', step: { kind: 'read', toolName: 'view', path: `${project}/.env` } },
    { name: 'synth-pre-tool-use-ls', step: { kind: 'read', toolName: 'ls', path: `${project}/src` } },
    { name: 'synth-pre-tool-use-grep', step: { kind: 'read', toolName: 'grep', path: project } },
    // a search with no path searches the session's folder: nothing named to judge
    { name: 'synth-pre-tool-use-glob', step: { kind: 'other', toolName: 'glob', args: { pattern: '**/*.go' } } },
    { name: 'synth-pre-tool-use-fetch', step: { kind: 'fetch', toolName: 'fetch', url: 'https://example.com/' } },
    {
      name: 'synth-pre-tool-use-sourcegraph',
      step: { kind: 'other', toolName: 'sourcegraph', args: { query: 'repo:charmbracelet/crush hooks', count: 10 } },
    },
    {
      name: 'synth-pre-tool-use-agent',
      step: { kind: 'other', toolName: 'agent', args: { prompt: 'Find where hooks are read' } },
    },
    {
      name: 'synth-pre-tool-use-mcp',
      step: {
        kind: 'mcp',
        toolName: 'mcp_github_create_issue',
        server: 'github',
        tool: 'create_issue',
        args: { owner: 'code-owner', repo: 'my-repo', title: 'Bug report' },
      },
    },
  ])('$name', ({ name, step }) => {
    // an ask never reaches a person: no documented answer raises Crush's prompt
    expect(read(load(name), undefined)).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: false,
      step: { ...base, ...step },
    });
  });

  it('a tool outside the table is read by the shape of its input; mcp_ without a tool is not an MCP call (near miss)', () => {
    const payload = (tool: string, input: object) => ({
      ...(load('synth-pre-tool-use-bash') as object),
      tool_name: tool,
      tool_input: input,
    });
    expect(read(payload('job_output', { shell_id: '1' }), undefined)).toMatchObject({ step: { kind: 'other' } });
    expect(read(payload('lsp_run', { command: 'make' }), undefined)).toMatchObject({
      step: { kind: 'shell', command: 'make' },
    });
    expect(read(payload('mcp_github', { x: 1 }), undefined)).toMatchObject({
      step: { kind: 'other', toolName: 'mcp_github' },
    });
  });

  it('without session_id the chat has no id; without cwd the step cannot be read (the documented envelope names neither)', () => {
    const payload = { ...(load('synth-pre-tool-use-bash') as object), session_id: undefined };
    expect(read(JSON.parse(JSON.stringify(payload)) as unknown, undefined)).toMatchObject({ step: { chatId: '' } });
    expect(() => read(load('synth-pre-tool-use-bash-envelope'), undefined)).toThrow(/"cwd"/);
  });

  it.for<{ name: string; message: RegExp }>([
    { name: 'malformed-relative-cwd', message: /must be an absolute path/ },
    { name: 'malformed-unknown-event', message: /unknown event "PostToolUse"/ },
    { name: 'malformed-multiedit-edits', message: /"edits" must be a list/ },
    { name: 'malformed-command-not-string', message: /command/ },
    { name: 'malformed-array', message: /Crush hook payload/ },
  ])('refuses $name', ({ name, message }) => {
    expect(() => read(load(name), undefined)).toThrow(PayloadError);
    expect(() => read(load(name), undefined)).toThrow(message);
  });

  it('an event named by --event alone is read; an event in the payload wins', () => {
    const payload = { ...(load('synth-pre-tool-use-bash') as object), event: undefined };
    expect(read(JSON.parse(JSON.stringify(payload)) as unknown, 'PreToolUse')).toMatchObject({ type: 'step' });
    expect(() => read(JSON.parse(JSON.stringify(payload)) as unknown, undefined)).toThrow(/"event" is missing/);
  });
});

describe('crush.toReply: the documented deny, exit 0', () => {
  const context = { event: 'PreToolUse', canAsk: false, failClosed: false };
  it('allow is silence and exit 0 (an "allow" could approve past its prompt), under fail-closed too', () => {
    expect(toReply(allowed, context)).toEqual({ stdout: '', exitCode: 0 });
    expect(toReply(allowed, { ...context, failClosed: true })).toEqual({ stdout: '', exitCode: 0 });
  });
  it('block denies with the reason', () => {
    const reason = blockMessage(blocked);
    expect(toReply(blocked, context)).toEqual({
      stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`,
      exitCode: 0,
    });
  });
  it('ask is a deny saying nobody can approve it here, whatever canAsk says', () => {
    for (const canAsk of [true, false]) {
      const reply = toReply(asked, { ...context, canAsk });
      const reason = awayMessage(asked);
      expect(reply).toEqual({ stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, exitCode: 0 });
      expect(reason).toContain('no one can approve');
      expect(reply.stdout).not.toContain('"ask"');
    }
  });
  it('every other event gets silence and exit 0', () => {
    for (const event of [...capabilities.events, 'PostToolUse'])
      expect(toEventReply(event, 'guard is on')).toEqual({ stdout: '', exitCode: 0 });
  });
});
