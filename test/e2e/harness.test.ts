import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DONE_TEXT,
  fakeChatModel,
  fakeGeminiModel,
  fakeMessagesModel,
  fakeResponsesModel,
} from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { runBounded } from './harness/process.js';

// The scenarios trust these pieces to tell the truth: each fake answers its script in order and
// records everything, never outlives its test, and a supervised process never outlives its limit.

const models: FakeModel[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((model) => model.close()));
});

async function post(model: FakeModel, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${model.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The JSON objects of an SSE body (its `data:` lines, `[DONE]` left out). */
function events(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('fake Responses model (Codex)', () => {
  it('answers each request with the next scripted turn, then "done", and records every request', async () => {
    const model = await fakeResponsesModel({
      script: [{ shell: 'ls' }, { patch: '*** Begin Patch\n*** End Patch\n' }],
    });
    models.push(model);
    const tools = [{ type: 'custom', name: 'apply_patch' }];
    const replies = [];
    for (let i = 0; i < 3; i += 1) replies.push(events((await post(model, '/responses', { tools, input: [] })).text));
    const items = replies.map(
      (reply) =>
        reply.find((event) => event['type'] === 'response.output_item.done')?.['item'] as Record<string, unknown>,
    );
    expect(items.map((item) => [item['type'], item['name'] ?? null])).toEqual([
      ['function_call', 'exec_command'],
      ['custom_tool_call', 'apply_patch'],
      ['message', null],
    ]);
    expect(JSON.parse(String(items[0]?.['arguments']))).toEqual({ cmd: 'ls' });
    expect(JSON.stringify(items[2])).toContain(DONE_TEXT);
    // every answer ends with response.completed, without which Codex fails the turn
    expect(replies.every((reply) => reply.at(-1)?.['type'] === 'response.completed')).toBe(true);
    expect(model.requests).toHaveLength(3);
  });

  it('reads the tool results from the last request; a wrong path is a 404 and still recorded', async () => {
    const model = await fakeResponsesModel({ script: [] });
    models.push(model);
    expect((await post(model, '/chat/completions', {})).status).toBe(404);
    await post(model, '/responses', {
      input: [
        { type: 'function_call_output', call_id: 'call_0', output: 'first' },
        { type: 'message', role: 'user', content: [] },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'second' },
      ],
    });
    expect(model.toolOutputs()).toEqual(['first', 'second']);
    expect(model.requests.map((request) => request.url)).toEqual(['/v1/chat/completions', '/v1/responses']);
  });
});

describe('fake chat-completions model (Copilot)', () => {
  it('a request without tools (a title) gets text and does not use up a scripted turn', async () => {
    const model = await fakeChatModel({ script: [{ create: { path: '/home/dev/project/a.txt', text: 'x' } }] });
    models.push(model);
    const title = events((await post(model, '/chat/completions', { messages: [] })).text);
    const turn = await post(model, '/chat/completions', {
      tools: [{ type: 'function', function: { name: 'create' } }],
      messages: [],
    });
    expect(JSON.stringify(title)).toContain('fake title');
    const call = events(turn.text)[0]?.['choices'] as {
      delta: { tool_calls: { function: { name: string; arguments: string } }[] };
    }[];
    expect(call[0]?.delta.tool_calls[0]?.function.name).toBe('create');
    expect(JSON.parse(call[0]?.delta.tool_calls[0]?.function.arguments ?? '{}')).toEqual({
      path: '/home/dev/project/a.txt',
      file_text: 'x',
    });
    expect(turn.text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(model.turnRequests()).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
  });

  it('reads tool results from role "tool" messages, as text or text parts', async () => {
    const model = await fakeChatModel({ script: [] });
    models.push(model);
    await post(model, '/chat/completions', {
      tools: [{ type: 'function', function: { name: 'bash' } }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', content: 'plain' },
        { role: 'tool', content: [{ type: 'text', text: 'in parts' }] },
      ],
    });
    expect(model.toolOutputs()).toEqual(['plain', 'in parts']);
  });
});

/** The (event name, data) pairs of an SSE body that names its events, as Anthropic's does. */
function namedEvents(text: string): [string, Record<string, unknown>][] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [name, data] = block.split('\n');
      return [
        name?.slice('event: '.length) ?? '',
        JSON.parse(data?.slice('data: '.length) ?? '{}') as Record<string, unknown>,
      ];
    });
}

describe('fake Messages model (Claude Code)', () => {
  it('streams a tool_use per scripted turn, text when the script is done; requests without tools are no turns', async () => {
    const model = await fakeMessagesModel({
      script: [{ shell: 'ls' }, { call: { name: 'Read', input: { file_path: '/home/dev/project/a.txt' } } }],
    });
    models.push(model);
    const tools = [{ name: 'Bash' }];
    const side = namedEvents((await post(model, '/messages?beta=true', { messages: [] })).text);
    const turns = [];
    for (let i = 0; i < 3; i += 1)
      turns.push(namedEvents((await post(model, '/messages?beta=true', { tools, messages: [] })).text));
    expect(turns[0]?.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const input = (turn: [string, Record<string, unknown>][] | undefined): unknown =>
      JSON.parse(String((turn?.[2]?.[1]['delta'] as Record<string, unknown>)['partial_json']));
    expect(turns[0]?.[1]?.[1]['content_block']).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(input(turns[0])).toEqual({ command: 'ls', description: 'scripted by the fake model' });
    expect(turns[1]?.[1]?.[1]['content_block']).toMatchObject({ type: 'tool_use', name: 'Read' });
    expect(input(turns[1])).toEqual({ file_path: '/home/dev/project/a.txt' });
    expect(turns[2]?.[2]?.[1]['delta']).toEqual({ type: 'text_delta', text: DONE_TEXT });
    expect(turns[2]?.[4]?.[1]['delta']).toMatchObject({ stop_reason: 'end_turn' });
    expect(side[2]?.[1]['delta']).toEqual({ type: 'text_delta', text: 'fake title' });
    expect(model.turnRequests()).toHaveLength(3);
    expect(model.origin).toBe(model.baseUrl.replace(/\/v1$/, ''));
  });

  it('reads tool results from tool_result blocks, past the system messages Claude Code adds after them', async () => {
    const model = await fakeMessagesModel({ script: [] });
    models.push(model);
    await post(model, '/messages', {
      tools: [{ name: 'Bash' }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'plain', is_error: true }] },
        { role: 'system', content: [{ type: 'text', text: 'PostToolUse:Bash hook additional context: x' }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'parts' }] }],
        },
      ],
    });
    expect(model.toolOutputs()).toEqual(['plain', 'parts']);
  });
});

/** The first part of the first candidate of a Gemini answer (JSON text). */
function firstPart(text: string): Record<string, unknown> | undefined {
  const answer = JSON.parse(text) as { candidates?: { content?: { parts?: Record<string, unknown>[] } }[] };
  return answer.candidates?.[0]?.content?.parts?.[0];
}

describe('fake Gemini model (Gemini CLI)', () => {
  it('answers the router with JSON and no turn used; a turn with tools gets a functionCall, streamed or not', async () => {
    const model = await fakeGeminiModel({ script: [{ shell: 'ls' }, { create: { path: '/p/a.txt', text: 'x' } }] });
    models.push(model);
    // another API's path is no Gemini path
    expect((await post(model, '/chat/completions', {})).status).toBe(404);
    const url = (path: string): string => `${model.origin}${path}`;
    const call = async (path: string, body: unknown) =>
      (await fetch(url(path), { method: 'POST', body: JSON.stringify(body) })).text();
    const router = firstPart(await call('/v1beta/models/gemini-3.5-flash-lite:generateContent', { contents: [] }));
    expect(JSON.parse(String(router?.['text']))).toMatchObject({ model_choice: 'flash' });
    const tools = [{ functionDeclarations: [{ name: 'run_shell_command' }] }];
    const streamed = await call('/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse', {
      tools,
      contents: [],
    });
    expect(streamed.startsWith('data: ')).toBe(true);
    expect(firstPart(streamed.slice(6))).toEqual({
      functionCall: { name: 'run_shell_command', args: { command: 'ls', description: 'scripted by the fake model' } },
    });
    const whole = firstPart(await call('/v1beta/models/gemini-3.8-flash:generateContent', { tools, contents: [] }));
    expect(whole).toEqual({
      functionCall: { name: 'write_file', args: { file_path: '/p/a.txt', content: 'x' } },
    });
    expect(model.turnRequests()).toHaveLength(2);
  });

  it('reads tool results from functionResponse parts', async () => {
    const model = await fakeGeminiModel({ script: [] });
    models.push(model);
    await fetch(`${model.origin}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({
        tools: [{}],
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'ran' } } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'x', response: { error: 'Tool execution blocked: no' } } }],
          },
        ],
      }),
    });
    expect(model.toolOutputs()).toEqual(['ran', 'Tool execution blocked: no']);
  });
});

/** Whether a process has ended (Linux: no /proc entry, or a zombie; elsewhere: no such process). */
function gone(pid: number): boolean {
  if (!existsSync('/proc/self')) {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .startsWith('Z');
  } catch {
    return true;
  }
}

/** Whether the process is gone within a few seconds (a kill is delivered, not done, when it returns; a busy machine takes a moment). */
async function goneSoon(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    if (gone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return gone(pid);
}

describe('lifetimes', () => {
  it('a fake model closes itself when its lifetime runs out', async () => {
    const model = await fakeResponsesModel({ script: [], lifetimeMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${model.baseUrl}/responses`, { method: 'POST', body: '{}' })).rejects.toThrow();
    await model.close();
  });

  it.for([
    { name: 'a process that ends on its own', script: 'echo hi', timedOut: false, code: 0 },
    {
      name: 'a process past its limit, with a child of its own',
      script: '"$NODE" -e "setTimeout(() => {}, 30000)" & echo $! > "$0.pid"; "$NODE" -e "setTimeout(() => {}, 30000)"',
      timedOut: true,
      code: null,
    },
  ])('$name: its whole process group is gone afterwards', async ({ script, timedOut, code }) => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-e2e-run-'));
    const marker = join(dir, 'child');
    try {
      const result = await runBounded('/bin/sh', ['-c', script, marker], {
        cwd: dir,
        env: { PATH: '/usr/bin:/bin', NODE: process.execPath },
        limitMs: 300,
      });
      expect(result.timedOut).toBe(timedOut);
      expect(result.code).toBe(code);
      if (existsSync(`${marker}.pid`)) {
        const pid = Number(readFileSync(`${marker}.pid`, 'utf8'));
        // the group was killed: the background child is gone, or a zombie waiting for its reaper
        expect(await goneSoon(pid)).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
