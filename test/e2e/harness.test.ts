import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DONE_TEXT, fakeChatModel, fakeResponsesModel } from './harness/fake-model.js';
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
