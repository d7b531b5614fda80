import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fake model servers for the real agents: a Responses API for Codex and a chat-completions API for
 * Copilot. Each listens on a random loopback port, answers each model request with the next
 * scripted turn, records every request, and closes itself when its lifetime runs out.
 */

/** What the fake model does on one request: call one tool, or answer with text (ends the turn). */
export type Turn =
  | { readonly shell: string }
  | { readonly patch: string }
  | { readonly create: { readonly path: string; readonly text: string } }
  | { readonly say: string };

/** One request as the agent sent it. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (the raw text when it is not JSON). */
  readonly body: unknown;
}

export interface FakeModel {
  /** The base URL to give the agent (ends in `/v1`). */
  readonly baseUrl: string;
  /** Every request so far, in order. */
  readonly requests: RecordedRequest[];
  /** Requests that asked the model for a turn (not title or other side requests). */
  turnRequests(): readonly RecordedRequest[];
  /** What the agent sent back as tool results, in order (the text the model reads). */
  toolOutputs(): readonly string[];
  close(): Promise<void>;
}

export interface FakeModelOptions {
  /** The turns, one per model request, in order; after the last one the model says `done`. */
  readonly script: readonly Turn[];
  /** Lifetime: the server closes itself after this long. */
  readonly lifetimeMs?: number;
}

/** Text the fake model ends a turn with when the script has nothing left. */
export const DONE_TEXT = 'fake-model: done';

type Answer = (body: Record<string, unknown>, turn: Turn | undefined, index: number, res: ServerResponse) => void;

interface Dialect {
  readonly path: string;
  /** Whether this request asks for a turn of the scripted conversation. */
  readonly isTurn: (body: Record<string, unknown>) => boolean;
  readonly answer: Answer;
  readonly outputs: (body: Record<string, unknown>) => string[];
}

/** A fake OpenAI Responses API (`POST /v1/responses`, SSE), as Codex 0.169 speaks it. */
export function fakeResponsesModel(options: FakeModelOptions): Promise<FakeModel> {
  return startFake(options, {
    path: '/v1/responses',
    isTurn: () => true,
    answer: answerResponses,
    // Codex resends the whole history; the outputs of the last request are all outputs so far.
    outputs: (body) =>
      records(body['input'])
        .filter((item) => typeof item['type'] === 'string' && item['type'].endsWith('_call_output'))
        .map((item) => outputText(item['output'])),
  });
}

/** A fake OpenAI chat-completions API (`POST /v1/chat/completions`, SSE), as Copilot 1.0.102 speaks it. */
export function fakeChatModel(options: FakeModelOptions): Promise<FakeModel> {
  return startFake(options, {
    path: '/v1/chat/completions',
    // Copilot also asks for short texts (a title) without tools; those are not scripted turns.
    isTurn: (body) => Array.isArray(body['tools']) && body['tools'].length > 0,
    answer: answerChat,
    outputs: (body) =>
      records(body['messages'])
        .filter((message) => message['role'] === 'tool')
        .map((message) => outputText(message['content'])),
  });
}

async function startFake(options: FakeModelOptions, dialect: Dialect): Promise<FakeModel> {
  const requests: RecordedRequest[] = [];
  const turns: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        let body: unknown = raw;
        try {
          body = raw === '' ? null : JSON.parse(raw);
        } catch {
          // kept as text: the test can still see it
        }
        const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        requests.push(recorded);
        const fields = isRecord(body) ? body : {};
        if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== dialect.path) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `the fake model serves only POST ${dialect.path}` } }));
          return;
        }
        if (!dialect.isTurn(fields)) {
          dialect.answer(fields, { say: 'fake title' }, -1, res);
          return;
        }
        turns.push(recorded);
        const index = turns.length - 1;
        dialect.answer(fields, options.script[index], index, res);
      })
      .catch((error: unknown) => {
        // a script mistake: the agent sees a server error, the test sees why in the recorded body
        requests.push({ method: 'ERROR', url: req.url ?? '', headers: {}, body: String(error) });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? 120_000);
  lifetime.unref();
  const close = async (): Promise<void> => {
    clearTimeout(lifetime);
    if (server.listening) {
      server.close();
      server.closeAllConnections();
    }
    await closed;
  };
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    turnRequests: () => turns,
    toolOutputs: () => {
      const last = turns.at(-1);
      return last !== undefined && isRecord(last.body) ? dialect.outputs(last.body) : [];
    },
    close,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sse(res: ServerResponse, events: readonly unknown[], done = false): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
  res.end(done ? 'data: [DONE]\n\n' : undefined);
}

// Responses API: one output item per request, then response.completed (without it Codex fails the turn).
function answerResponses(
  body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
): void {
  const id = `resp_${index}`;
  const callId = `call_${index}`;
  let item: Record<string, unknown>;
  if (turn !== undefined && 'shell' in turn) {
    item = {
      type: 'function_call',
      id: `fc_${index}`,
      call_id: callId,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: turn.shell }),
      status: 'completed',
    };
  } else if (turn !== undefined && 'patch' in turn) {
    // gpt-5.5 gets apply_patch as a freeform (custom) tool; older models as a function
    const tool = records(body['tools']).find((entry) => entry['name'] === 'apply_patch');
    item =
      tool?.['type'] === 'custom'
        ? {
            type: 'custom_tool_call',
            id: `ctc_${index}`,
            call_id: callId,
            name: 'apply_patch',
            input: turn.patch,
            status: 'completed',
          }
        : {
            type: 'function_call',
            id: `fc_${index}`,
            call_id: callId,
            name: 'apply_patch',
            arguments: JSON.stringify({ input: turn.patch }),
            status: 'completed',
          };
  } else if (turn !== undefined && 'create' in turn) {
    throw new Error('Codex has no create tool: script an apply_patch instead');
  } else {
    const text = turn?.say ?? DONE_TEXT;
    item = {
      type: 'message',
      role: 'assistant',
      id: `msg_${index}`,
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
  }
  sse(res, [
    { type: 'response.created', response: { id } },
    { type: 'response.output_item.done', output_index: 0, item },
    {
      type: 'response.completed',
      response: {
        id,
        usage: {
          input_tokens: 1,
          input_tokens_details: null,
          output_tokens: 1,
          output_tokens_details: null,
          total_tokens: 2,
        },
      },
    },
  ]);
}

// Chat completions: one chunk with the tool call or the text, a finish chunk, a usage chunk, [DONE].
function answerChat(body: Record<string, unknown>, turn: Turn | undefined, index: number, res: ServerResponse): void {
  const base = { id: `chat_${index}`, object: 'chat.completion.chunk', created: 0, model: body['model'] };
  const chunk = (delta: unknown, finish: string | null): unknown => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const call = (name: string, args: unknown): unknown[] => [
    chunk(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { index: 0, id: `call_${index}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
        ],
      },
      null,
    ),
    chunk({}, 'tool_calls'),
  ];
  let events: unknown[];
  if (turn !== undefined && 'shell' in turn)
    events = call('bash', { command: turn.shell, description: 'scripted by the fake model' });
  else if (turn !== undefined && 'create' in turn)
    events = call('create', { path: turn.create.path, file_text: turn.create.text });
  else if (turn !== undefined && 'patch' in turn)
    throw new Error('Copilot has no apply_patch tool: script a create instead');
  else events = [chunk({ role: 'assistant', content: turn?.say ?? DONE_TEXT }, null), chunk({}, 'stop')];
  events.push({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  sse(res, events, true);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

// A tool result is a string, or (chat completions) a list of text parts.
function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  return records(value)
    .map((part) => (typeof part['text'] === 'string' ? part['text'] : ''))
    .join('');
}
