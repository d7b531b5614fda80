import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { HookInput, ReplyContext } from '../src/adapter.js';
import { commandIn, hookFileText } from '../src/cline/hook-file.js';
import { CANCELLED, capabilities, read, sayingWhy, toEventReply, toReply } from '../src/cline/payload.js';
import { awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked, expectWellFormed, fixture } from './helpers.js';

const load = (name: string): unknown => fixture('cline', name);
const cwd = '/home/dev/project';
const base = load('pre-tool-use-run-commands') as Record<string, unknown>;
/** The recorded run_commands envelope with another tool call. */
const call = (name: string, input: unknown): unknown => ({ ...base, tool_call: { id: 'call_9', name, input } });

describe('cline.read: recorded payloads (Cline CLI 3.0.65)', () => {
  it('a recorded run_commands call becomes exactly this step', () => {
    expect(read(load('pre-tool-use-run-commands'))).toEqual({
      type: 'step',
      event: 'PreToolUse',
      canAsk: false,
      step: {
        agent: 'cline',
        kind: 'shell',
        command: 'date +%s > /home/dev/project/slow-ran',
        chatId: 'conv_1796612564356_p55kb5d',
        callId: 'call_1',
        cwd,
        projectRoot: cwd,
        toolName: 'run_commands',
      },
    } satisfies HookInput);
  });

  it.for<{ name: string; expected: object }>([
    {
      name: 'pre-tool-use-editor',
      expected: { step: { kind: 'write', mode: 'overwrite', path: `${cwd}/new.txt`, content: 'hello\n' } },
    },
    { name: 'pre-tool-use-read-files', expected: { step: { kind: 'read', path: `${cwd}/new.txt` } } },
    {
      name: 'synth-pre-tool-use-git-push-force',
      expected: {
        step: { kind: 'shell', command: 'git push --force origin main', chatId: 'conv_1796612586623_guhbg03' },
      },
    },
    { name: 'synth-pre-tool-use-fetch', expected: { step: { kind: 'fetch', url: 'https://example.com/a' } } },
    // an MCP tool: `<server>__<tool>`
    {
      name: 'synth-pre-tool-use-mcp',
      expected: {
        step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { repo: 'me/app', title: 'x' } },
      },
    },
    {
      name: 'synth-user-prompt-submit',
      expected: { type: 'prompt', event: 'prompt_submit', prompt: 'yes, push it', cwd },
    },
    // nothing to stop: the task's start and end, a result
    { name: 'task-start', expected: { type: 'ignore', event: 'agent_start' } },
    { name: 'task-complete', expected: { type: 'ignore', event: 'agent_end' } },
    { name: 'post-tool-use-run-commands', expected: { type: 'ignore', event: 'tool_result' } },
  ])('$name', ({ name, expected }) => {
    expect(read(load(name))).toMatchObject(expected);
  });

  it.for([
    ['malformed-no-event', /"hookName" is missing/],
    ['malformed-unknown-event', /unknown event "tool_call_v2"/],
    ['malformed-no-input', /tool_call\.input: must be an object, got nothing/],
    ['malformed-command-not-string', /"commands" must be a string or a list of words/],
    ['malformed-relative-root', /must be an absolute path/],
  ] as const)('%s is a PayloadError', ([name, message]) => {
    expect(() => read(load(name))).toThrow(PayloadError);
    expect(() => read(load(name))).toThrow(message);
  });
});

describe('cline.read: each tool input, and near misses', () => {
  it.for<{ name: string; tool: string; input: unknown; expected: object }>([
    // every command of the list is read: the lines of one script
    {
      name: 'two commands',
      tool: 'run_commands',
      input: { commands: ['npm test', 'git push --force'] },
      expected: { kind: 'shell', command: 'npm test\ngit push --force' },
    },
    { name: 'one command as a string', tool: 'run_commands', input: { commands: 'ls' }, expected: { command: 'ls' } },
    {
      name: 'a program and its words (run without a shell)',
      tool: 'run_commands',
      input: { commands: [{ command: 'rm', args: ['-rf', 'a b'] }] },
      expected: { command: "rm -rf 'a b'" },
    },
    {
      name: 'an edit (old_text)',
      tool: 'editor',
      input: { path: 'src/a.ts', old_text: 'a', new_text: 'b' },
      expected: { kind: 'write', mode: 'edit', path: `${cwd}/src/a.ts`, content: 'b' },
    },
    {
      name: 'an insert (insert_line)',
      tool: 'editor',
      input: { path: '/etc/hosts', insert_line: 3, new_text: 'x' },
      expected: { kind: 'write', mode: 'edit', path: '/etc/hosts' },
    },
    {
      name: 'several files read: the rest judged as an unknown tool arguments',
      tool: 'read_files',
      input: { files: [{ path: 'README.md' }, { path: '/home/dev/.ssh/id_rsa' }] },
      expected: { kind: 'read', path: `${cwd}/README.md`, otherArgs: ['/home/dev/.ssh/id_rsa'] },
    },
    {
      name: 'several fetches',
      tool: 'fetch_web_content',
      input: { requests: [{ url: 'https://a.example' }, { url: 'https://b.example' }] },
      expected: { kind: 'fetch', url: 'https://a.example', otherArgs: ['https://b.example'] },
    },
    {
      name: 'a search of the workspace',
      tool: 'search_codebase',
      input: { queries: ['x'] },
      expected: { kind: 'other' },
    },
    { name: 'a question to the person', tool: 'ask_question', input: { question: 'ok?' }, expected: { kind: 'other' } },
    {
      name: 'an MCP tool of a server with _ in its name',
      tool: 'my_server__run',
      input: { q: 1 },
      expected: { kind: 'mcp', server: 'my_server', tool: 'run' },
    },
    // near misses: one underscore, or a name cut and hashed (read by the shape of its input)
    { name: 'one underscore', tool: 'team_run', input: { query: 'x' }, expected: { kind: 'other', unknown: true } },
    { name: 'a hashed name', tool: '__x', input: { command: 'ls' }, expected: { kind: 'shell', command: 'ls' } },
    // an unknown tool with a command in its input is a shell step
    {
      name: 'an unknown tool',
      tool: 'team_run',
      input: { command: 'rm -rf /' },
      expected: { kind: 'shell', command: 'rm -rf /' },
    },
  ])('$name', ({ tool, input, expected }) => {
    const got = read(call(tool, input));
    expect(got.type).toBe('step');
    expect(got.type === 'step' ? got.step : undefined).toMatchObject(expected);
  });

  it.for<{ name: string; tool: string; input: unknown; message: RegExp }>([
    { name: 'no commands', tool: 'run_commands', input: { commands: [] }, message: /"commands" must be a list/ },
    {
      name: 'commands of another type',
      tool: 'run_commands',
      input: { commands: 3 },
      message: /"commands" must be a list/,
    },
    {
      name: 'a program that is not a word',
      tool: 'run_commands',
      input: { commands: [{ command: 5 }] },
      message: /list of words/,
    },
    { name: 'an editor with no path', tool: 'editor', input: { new_text: 'x' }, message: /"path" must be a string/ },
    { name: 'a read of no file', tool: 'read_files', input: { files: [] }, message: /"files" must be a list/ },
    { name: 'a file without a path', tool: 'read_files', input: { files: [{}] }, message: /"path" must be a string/ },
    {
      name: 'a fetch without a URL',
      tool: 'fetch_web_content',
      input: { requests: [{ prompt: 'x' }] },
      message: /"url"/,
    },
    { name: 'no tool name', tool: '', input: { commands: ['ls'] }, message: /"tool_call\.name" is missing/ },
  ])('$name is a PayloadError', ({ tool, input, message }) => {
    expect(() => read(call(tool, input))).toThrow(message);
  });
});

const SHAPE = { cancel: true, errorMessage: true, overrideInput: { commands: true }, context: true } as const;
const on = (tool: string | undefined): ReplyContext => ({
  event: 'PreToolUse',
  canAsk: false,
  failClosed: false,
  ...(tool === undefined ? {} : { tool }),
});

describe('cline.toReply: what each verdict tells Cline', () => {
  it('no objection: nothing, whatever the tool', () => {
    for (const tool of ['run_commands', 'editor', undefined])
      expect(toReply(allowed, on(tool))).toEqual({ stdout: '', exitCode: 0 });
  });

  it.for<{ name: string; tool: string | undefined; verdict: typeof blocked; reason: string; override: boolean }>([
    {
      name: 'a blocked shell step',
      tool: 'run_commands',
      verdict: blocked,
      reason: blockMessage(blocked),
      override: true,
    },
    { name: 'an asked shell step', tool: 'run_commands', verdict: asked, reason: awayMessage(asked), override: true },
    { name: 'a blocked write', tool: 'editor', verdict: blocked, reason: blockMessage(blocked), override: false },
    { name: 'an asked fetch', tool: 'fetch_web_content', verdict: asked, reason: awayMessage(asked), override: false },
    {
      name: 'an MCP tool',
      tool: 'github__create_issue',
      verdict: blocked,
      reason: blockMessage(blocked),
      override: false,
    },
    // a tool of a similar name is not the shell tool
    {
      name: 'run_command (near miss)',
      tool: 'run_command',
      verdict: blocked,
      reason: blockMessage(blocked),
      override: false,
    },
    // a step guard could not read: no tool known, a cancel
    { name: 'no tool known', tool: undefined, verdict: blocked, reason: blockMessage(blocked), override: false },
  ])('$name', ({ tool, verdict, reason, override }) => {
    const reply = toReply(verdict, on(tool));
    expectWellFormed(reply, SHAPE);
    const out = JSON.parse(reply.stdout) as Record<string, unknown>;
    if (override) {
      // never a cancel: the model is told why through the replaced command's result
      expect(out).toEqual({ overrideInput: { commands: [sayingWhy(reason)] }, context: reason });
    } else {
      // never an input of guard's for a tool other than the shell
      expect(out).toEqual({ cancel: true, errorMessage: `${reason} ${CANCELLED}` });
    }
  });

  it('other events: nothing', () => {
    expect(toEventReply()).toEqual({ stdout: '', exitCode: 0 });
    expect(capabilities.events).toEqual(['PreToolUse']);
  });
});

const box = mkdtempSync(join(tmpdir(), 'guard-cline-'));
afterAll(() => rmSync(box, { recursive: true, force: true }));
const SHELLS = ['/bin/sh', ...(existsSync('/bin/bash') ? ['/bin/bash'] : [])];

describe("sayingWhy: the reason never leaves its quotes, in each shell Cline's commands may run in", () => {
  it.for(
    SHELLS.flatMap((shell) =>
      [
        "it's guard's",
        'a "quoted" word',
        '$(touch pwned-dollar)',
        '`touch pwned-backtick`',
        'one\nline two\n',
        'a back\\slash at the end\\',
        "'; touch pwned-quote; echo '",
        '$HOME ${HOME} %s %d \\n',
        '-n starts with a dash',
      ].map((reason) => [shell, reason] as const),
    ),
  )('%s: %j', ([shell, reason]) => {
    const result = spawnSync(shell, ['-c', sayingWhy(reason)], { cwd: box, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${reason}\n`);
    expect(readdirSync(box).filter((name) => name.startsWith('pwned'))).toEqual([]);
  });
});

describe("guard's hook file: the command's answer passed on, a cancel of its own when the command fails silently", () => {
  const failed = '{"cancel":true,"errorMessage":"guard: it failed"}';
  it.for<{ name: string; command: string; stdout: string }>([
    { name: 'an answer', command: `printf '%s\\n' '{"cancel":true}'`, stdout: '{"cancel":true}\n' },
    { name: 'an answer and a failing exit code', command: `echo '{"x":1}'; exit 3`, stdout: '{"x":1}\n' },
    { name: 'silence (no objection)', command: 'cat > /dev/null', stdout: '' },
    { name: 'silence and exit 1 (a crash)', command: 'cat > /dev/null; exit 1', stdout: `${failed}\n` },
    { name: 'killed', command: `/bin/sh -c 'kill -9 $$'`, stdout: `${failed}\n` },
    { name: 'a program that is not there', command: `${join(box, 'no-such-node')} hook cline`, stdout: `${failed}\n` },
  ])('$name', ({ command, stdout }) => {
    const file = join(box, 'PreToolUse.bash');
    writeFileSync(file, hookFileText(command, failed));
    const result = spawnSync('/bin/sh', [file], { input: '{"hookName":"tool_call"}', encoding: 'utf8', cwd: box });
    expect(result.stdout).toBe(stdout);
    expect(result.status).toBe(0);
  });

  it('reads back its command; any other text has none', () => {
    const text = hookFileText('/n /s hook cline', failed);
    expect(commandIn(text)).toBe('/n /s hook cline');
    expect(commandIn(`#!/bin/sh\n${text}`)).toBeUndefined();
    expect(commandIn(text.replace('# guard: written', '# mine: written'))).toBeUndefined();
    expect(commandIn('#!/bin/sh\no=$(/n /s hook cline)\n')).toBeUndefined();
    expect(() => hookFileText('a\nb', failed)).toThrow(/one line/);
  });
});
