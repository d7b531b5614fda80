import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolStep } from '@guard/core';
import type { TranscriptRead } from '../src/index.js';
import { adapters } from '../src/index.js';

// guard scan's readers of the agents' past chats: the real transcripts recorded from each agent
// (test/e2e/transcripts.test.ts) must yield exactly the steps the chat attempted, and hand-made lines
// in each agent's format show what is a step (a tool call, whatever became of it) and what is not
// (a command only mentioned in text, a tool's result), a line that cannot be read, and a file that
// is not the agent's transcript at all.

const FIXTURES = join(import.meta.dirname, 'fixtures');
type Readable = 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'copilot';
const READABLE: readonly Readable[] = ['claude-code', 'codex', 'gemini', 'qwen', 'copilot'];

const reader = (agent: Readable) => {
  const transcript = adapters[agent].transcript;
  if (transcript === undefined) throw new Error(`${agent} has no transcript reader`);
  return transcript;
};

/** The recorded transcript of an agent (one chat). */
function recorded(agent: Readable): string {
  const dir = join(FIXTURES, agent, 'transcripts');
  const file = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((name) => name.endsWith('.jsonl'));
  if (file === undefined) throw new Error(`no transcript recorded for ${agent}`);
  return readFileSync(join(dir, file), 'utf8');
}

/** What a step is, in a word: kind and the text the rules read. */
function described(step: ToolStep): string {
  switch (step.kind) {
    case 'shell':
      return `shell ${step.command}`;
    case 'write':
    case 'read':
      return `${step.kind} ${step.path}`;
    case 'patch':
      return `patch ${step.patch.split('\n')[1] ?? ''}`;
    case 'fetch':
      return `fetch ${step.url}`;
    case 'mcp':
      return `mcp ${step.server} ${step.tool}`;
    case 'other':
      return `other ${step.toolName}`;
  }
}

const steps = (read: TranscriptRead): string[] =>
  read.events.flatMap((event) => (event.type === 'step' ? [`${event.line}: ${described(event.step)}`] : []));
const prompts = (read: TranscriptRead): string[] =>
  read.events.flatMap((event) => (event.type === 'prompt' ? [event.prompt] : []));

const RAN = ['shell ls', 'shell git push --force origin main (failed)', 'write /home/dev/project/notes.txt'];

/** What each recorded chat holds: ls, a git push --force guard blocked (the result says so), a file written. */
const RECORDED: Readonly<Record<Readable, { steps: string[]; chat: string; results: string[] }>> = {
  'claude-code': {
    steps: ['19: shell ls', '25: shell git push --force origin main', '31: write /home/dev/project/notes.txt'],
    chat: 'd6afbf62-c6fc-4250-be5a-1df0dfe26e2d',
    results: RAN,
  },
  codex: {
    steps: [
      '11: shell ls',
      '16: shell git push --force origin main',
      '20: patch *** Add File: /home/dev/project/notes.txt',
    ],
    chat: '01a24ec7-91c3-7f73-91bf-0a3da421486d',
    // Codex hands the hook's refusal back as the command's output, with nothing that says it failed
    results: ['shell ls', 'shell git push --force origin main', 'patch *** Add File: /home/dev/project/notes.txt'],
  },
  gemini: {
    steps: ['7: shell ls', '12: shell git push --force origin main', '17: write /home/dev/project/notes.txt'],
    chat: '52600965-5086-4f10-b960-2ccc2b417fe7',
    results: RAN,
  },
  qwen: {
    steps: ['4: shell ls', '8: shell git push --force origin main', '12: write /home/dev/project/notes.txt'],
    chat: 'd6064978-0edd-41fe-a5a3-85da37ecc47f',
    results: RAN,
  },
  copilot: {
    steps: ['10: shell ls', '20: shell git push --force origin main', '28: write /home/dev/project/notes.txt'],
    chat: '57414870-a465-4a5c-847f-56578b8c942b',
    results: RAN,
  },
};

describe('the recorded chats of the real agents', () => {
  it.for(READABLE)('%s: exactly the three steps it attempted, in its folder and chat, and the message', (agent) => {
    const read = reader(agent).read(recorded(agent));
    expect(read.unknown).toBeUndefined();
    expect(read.malformed).toEqual([]);
    expect(steps(read)).toEqual(RECORDED[agent].steps);
    for (const event of read.events) {
      if (event.type !== 'step') continue;
      expect(event.step).toMatchObject({ agent, chatId: RECORDED[agent].chat, cwd: '/home/dev/project' });
      // every step has its time, in the chat's day
      expect(new Date(event.time ?? 0).toISOString()).toMatch(/^2026-12-07T04:3/);
    }
    expect(prompts(read)).toEqual(['do the task']);
    // what each step gave back follows it: ls ran, the push was blocked by guard, the file was written
    const results = read.events.flatMap((event) =>
      event.type === 'result' ? [`${described(event.step)}${event.failed === true ? ' (failed)' : ''}`] : [],
    );
    expect(results).toEqual(RECORDED[agent].results);
  });

  it.for(READABLE)('%s: a transcript of another agent is not its own: named unknown, nothing read', (agent) => {
    for (const other of READABLE) {
      if (other === agent) continue;
      const read = reader(agent).read(recorded(other));
      // Claude Code's and Qwen Code's lines look alike (uuid, sessionId, type): each reads the other's
      // lines, and finds no step in them
      if (new Set([agent, other]).size === 2 && [agent, other].every((id) => id === 'claude-code' || id === 'qwen')) {
        expect(steps(read), `${agent} reading ${other}'s`).toEqual([]);
        continue;
      }
      expect(read.unknown, `${agent} reading ${other}'s`).toMatch(/^not a .* transcript guard knows$/);
      expect(read.events).toEqual([]);
    }
  });
});

/** One chat's lines in an agent's format: a tool call, text the model wrote, a tool's result, the person's message. */
interface Format {
  readonly start: readonly object[];
  call(name: string, input: Record<string, unknown>, id: string): object;
  said(text: string): object;
  result(text: string, id: string): object;
  /** The agent's names for its shell tool and an MCP tool (server `tracker`, tool `lookup`). */
  readonly shell: string;
  readonly mcp: string;
  /** The shell tool's input for a command. */
  shellInput(command: string): Record<string, unknown>;
}

const AT = '2026-11-02T10:00:00.000Z';
const CWD = '/home/dev/app';

const FORMATS: Readonly<Record<Readable, Format>> = {
  'claude-code': {
    start: [],
    call: (name, input, id) => ({
      type: 'assistant',
      sessionId: 's1',
      cwd: CWD,
      timestamp: AT,
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    }),
    said: (text) => ({
      type: 'assistant',
      sessionId: 's1',
      cwd: CWD,
      timestamp: AT,
      message: { role: 'assistant', content: [{ type: 'text', text }] },
    }),
    result: (text, id) => ({
      type: 'user',
      sessionId: 's1',
      cwd: CWD,
      timestamp: AT,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
    }),
    shell: 'Bash',
    mcp: 'mcp__tracker__lookup',
    shellInput: (command) => ({ command }),
  },
  codex: {
    start: [{ timestamp: AT, type: 'session_meta', payload: { id: 's1', cwd: CWD } }],
    call: (name, input, id) => ({
      timestamp: AT,
      type: 'response_item',
      payload: { type: 'function_call', name, arguments: JSON.stringify(input), call_id: id },
    }),
    said: (text) => ({
      timestamp: AT,
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    }),
    result: (text, id) => ({
      timestamp: AT,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: id, output: text },
    }),
    shell: 'exec_command',
    mcp: 'mcp__tracker__lookup',
    shellInput: (command) => ({ cmd: command }),
  },
  gemini: {
    start: [
      { sessionId: 's1', projectHash: 'h', startTime: AT },
      { $set: { messages: [{ type: 'user', content: [{ text: `**Workspace Directories:**\n  - ${CWD}\n` }] }] } },
    ],
    call: (name, input, id) => ({
      id: `m-${id}`,
      timestamp: AT,
      type: 'gemini',
      content: '',
      toolCalls: [{ id, name, args: input, status: 'success', timestamp: AT }],
    }),
    said: (text) => ({ id: 'm-said', timestamp: AT, type: 'gemini', content: text }),
    result: (text, id) => ({
      id: `r-${id}`,
      timestamp: AT,
      type: 'user',
      content: [{ functionResponse: { id, name: 'run_shell_command', response: { output: text } } }],
    }),
    shell: 'run_shell_command',
    mcp: 'mcp_tracker_lookup',
    shellInput: (command) => ({ command }),
  },
  qwen: {
    start: [],
    call: (name, input, id) => ({
      uuid: `u-${id}`,
      sessionId: 's1',
      timestamp: AT,
      type: 'assistant',
      cwd: CWD,
      message: { role: 'model', parts: [{ functionCall: { id, name, args: input } }] },
    }),
    said: (text) => ({
      uuid: 'u-said',
      sessionId: 's1',
      timestamp: AT,
      type: 'assistant',
      cwd: CWD,
      message: { role: 'model', parts: [{ text }] },
    }),
    result: (text, id) => ({
      uuid: `r-${id}`,
      sessionId: 's1',
      timestamp: AT,
      type: 'tool_result',
      cwd: CWD,
      message: {
        role: 'user',
        parts: [{ functionResponse: { id, name: 'run_shell_command', response: { output: text } } }],
      },
    }),
    shell: 'run_shell_command',
    mcp: 'mcp__tracker__lookup',
    shellInput: (command) => ({ command }),
  },
  copilot: {
    start: [{ type: 'session.start', id: 'e0', timestamp: AT, data: { sessionId: 's1', context: { cwd: CWD } } }],
    call: (name, input, id) => ({
      type: 'assistant.message',
      id: `e-${id}`,
      timestamp: AT,
      data: { content: '', toolRequests: [{ toolCallId: id, name, arguments: input }] },
    }),
    said: (text) => ({
      type: 'assistant.message',
      id: 'e-said',
      timestamp: AT,
      data: { content: text, toolRequests: [] },
    }),
    result: (text, id) => ({
      type: 'tool.execution_complete',
      id: `r-${id}`,
      timestamp: AT,
      data: { toolCallId: id, success: true, result: { content: text } },
    }),
    shell: 'bash',
    mcp: 'tracker-lookup',
    shellInput: (command) => ({ command }),
  },
};

const lines = (format: Format, ...rest: (object | string)[]): string =>
  [...format.start, ...rest].map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

describe("hand-made lines in each agent's format", () => {
  it.for(READABLE)('%s: a tool call is a step, in the chat and folder the transcript names', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(lines(format, format.call(format.shell, format.shellInput('rm -rf build'), 'c1')));
    expect(read.malformed).toEqual([]);
    expect(steps(read)).toEqual([`${format.start.length + 1}: shell rm -rf build`]);
    expect(read.events[0]).toMatchObject({ time: Date.parse(AT), step: { chatId: 's1', cwd: CWD, agent } });
  });

  it.for(READABLE)('%s: an MCP tool is an MCP step of its server', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(lines(format, format.call(format.mcp, { ticket: 'T-1' }, 'c1')));
    expect(steps(read)).toEqual([`${format.start.length + 1}: mcp tracker lookup`]);
  });

  it.for(READABLE)('%s: a command only mentioned in text, or in a tool result, is no step', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(
      lines(format, format.said('I could run git push --force origin main'), format.result('git push --force', 'c9')),
    );
    expect(read.malformed).toEqual([]);
    expect(read.unknown).toBeUndefined();
    expect(steps(read)).toEqual([]);
  });

  it.for(READABLE)('%s: a result is what its own call gave back; one of a call it never saw is nothing', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(
      lines(
        format,
        format.call(format.shell, format.shellInput('curl -s https://example.com'), 'c1'),
        format.result('<html>page</html>', 'c1'),
        format.result('another page', 'c1'),
        format.result('a stray page', 'c7'),
      ),
    );
    const results = read.events.flatMap((event) =>
      event.type === 'result' ? [`${event.line}: ${described(event.step)} -> ${event.output}`] : [],
    );
    expect(results).toEqual([`${format.start.length + 2}: shell curl -s https://example.com -> <html>page</html>`]);
  });

  it.for(READABLE)('%s: a line that is not JSON is named by its number, and the rest is read', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(
      lines(
        format,
        '{"type": "assistant", "message": {',
        '[1, 2]',
        format.call(format.shell, format.shellInput('git status'), 'c1'),
      ),
    );
    const at = format.start.length;
    expect(read.malformed.map((bad) => bad.line)).toEqual([at + 1, at + 2]);
    expect(read.malformed[0]?.reason).toMatch(/^not JSON/);
    expect(read.malformed[1]?.reason).toBe('not a JSON object');
    expect(steps(read)).toEqual([`${at + 3}: shell git status`]);
  });

  it.for(READABLE)('%s: a call its hook reader refuses is a malformed line, never guessed', (agent) => {
    const format = FORMATS[agent];
    const read = reader(agent).read(
      lines(
        format,
        format.call(format.shell, { nothing: 1 }, 'c1'),
        format.call(format.shell, format.shellInput('ls'), 'c2'),
      ),
    );
    expect(read.malformed.map((bad) => bad.line)).toEqual([format.start.length + 1]);
    expect(steps(read)).toEqual([`${format.start.length + 2}: shell ls`]);
  });

  it.for(READABLE)(
    '%s: text in a format guard does not know is named unknown; an empty file holds nothing',
    (agent) => {
      const unknown = reader(agent).read(
        '{"role": "user", "text": "hi"}\n{"role": "bot", "tool": "sh", "cmd": "rm -rf /"}\n',
      );
      expect(unknown.unknown).toMatch(/transcript guard knows$/);
      expect(unknown.events).toEqual([]);
      const notJson = reader(agent).read('# a markdown file\nrm -rf /\n');
      expect(notJson.unknown).toMatch(/transcript guard knows$/);
      expect(reader(agent).read('')).toEqual({ events: [], malformed: [] });
    },
  );
});

describe('a huge transcript', () => {
  it('Claude Code: 100,000 lines (20,000 steps) are read in order, quickly', () => {
    const format = FORMATS['claude-code'];
    const parts: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      parts.push(JSON.stringify(format.call('Bash', { command: `echo ${i}` }, `c${i}`)));
      parts.push(JSON.stringify(format.result(`${i}`, `c${i}`)));
      for (let j = 0; j < 3; j += 1) parts.push(JSON.stringify(format.said(`thinking about step ${i}, part ${j}`)));
    }
    const text = parts.join('\n');
    const started = performance.now();
    const read = reader('claude-code').read(text);
    const took = performance.now() - started;
    expect(steps(read)).toHaveLength(20_000);
    expect(read.events.filter((event) => event.type === 'result')).toHaveLength(20_000);
    expect(read.events.at(-2)).toMatchObject({ type: 'step', line: 99_996, step: { command: 'echo 19999' } });
    expect(read.events.at(-1)).toMatchObject({ type: 'result', line: 99_997, output: '19999' });
    // about 0.3 s on a laptop; a bound far above it, for a loaded machine
    expect(took).toBeLessThan(15_000);
  });
});

describe('where each agent keeps its chats', () => {
  const ROWS: readonly [agent: string, path: string, matches: boolean][] = [
    ['claude-code', '-home-dev-app/0b1c.jsonl', true],
    ['claude-code', '-home-dev-app/0b1c/subagents/agent-1.jsonl', true],
    ['claude-code', '-home-dev-app/memory/notes.md', false],
    ['codex', '2026/12/07/rollout-2026-12-07T04-33-51-01a2.jsonl', true],
    ['codex', '2026/12/07/notes.jsonl', false],
    ['gemini', 'project/chats/session-2026-12-07T04-33-5260.jsonl', true],
    ['gemini', 'project/logs.json', false],
    ['gemini', 'project/chats/sub/session.jsonl', false],
    ['qwen', '-home-dev-project/chats/d606.jsonl', true],
    ['qwen', '-home-dev-project/memory.jsonl', false],
    ['copilot', '5741/events.jsonl', true],
    ['copilot', '5741/workspace.yaml', false],
    ['copilot', 'events.jsonl', false],
    ['opencode', 'opencode.db', true],
    ['opencode', 'opencode.db-wal', false],
  ];
  it.for(ROWS)('%s: %s is a chat file: %s', ([agent, path, matches]) => {
    const place = adapters[agent as keyof typeof adapters].files.transcripts;
    expect(place?.files.test(path)).toBe(matches);
  });

  it('OpenCode keeps its chats in a database guard does not read: named, never read', () => {
    expect(adapters.opencode.files.transcripts?.unreadable).toMatch(/SQLite/);
    expect(adapters.opencode.transcript).toBeUndefined();
  });
});
