import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scaled } from '../../machine.js';

/**
 * Fake model servers for the real agents: a Responses API for Codex, a chat-completions API for
 * Copilot and Qwen Code, Anthropic's Messages API for Claude Code and the Gemini API for Gemini CLI. Each listens
 * on a random loopback port, answers each model request with the next scripted turn, records every
 * request, and closes itself when its lifetime runs out.
 */

/** What the fake model does on one request: call one tool, or answer with text (ends the turn). */
export type Turn =
  | { readonly shell: string }
  | { readonly patch: string }
  | { readonly create: { readonly path: string; readonly text: string } }
  /** Any tool of the agent's own, by the agent's name for it (Claude Code and Gemini CLI). */
  | { readonly call: { readonly name: string; readonly input: Readonly<Record<string, unknown>> } }
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
  /** The server alone (`http://127.0.0.1:<port>`), for agents that add their API's path themselves. */
  readonly origin: string;
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
  /**
   * Lifetime: the server closes itself after this long (by default longer than any agent run may
   * take, stretched as that limit is for a busy machine).
   */
  readonly lifetimeMs?: number;
}

/** Text the fake model ends a turn with when the script has nothing left. */
export const DONE_TEXT = 'fake-model: done';

type Answer = (
  body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
  url: string,
) => void;

interface Dialect {
  /** The paths this API serves (without the query). */
  readonly path: string | RegExp;
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

/** How a chat-completions agent names its shell and file-creating tools, and their arguments. */
interface ChatTools {
  shell(command: string): [name: string, args: unknown];
  create(path: string, text: string): [name: string, args: unknown];
}

const COPILOT_TOOLS: ChatTools = {
  shell: (command) => ['bash', { command, description: 'scripted by the fake model' }],
  create: (path, text) => ['create', { path, file_text: text }],
};

const QWEN_TOOLS: ChatTools = {
  shell: (command) => ['run_shell_command', { command, description: 'scripted by the fake model' }],
  create: (path, text) => ['write_file', { file_path: path, content: text }],
};

// Factory Droid's Execute refuses a call without its summary and risk level
const DROID_TOOLS: ChatTools = {
  shell: (command) => [
    'Execute',
    {
      summary: 'Run the scripted command now',
      command,
      riskLevelReason: 'Scripted by the fake model.',
      riskLevel: 'low',
    },
  ],
  create: (path, text) => ['Create', { file_path: path, content: text }],
};
const CLINE_TOOLS: ChatTools = {
  shell: (command) => ['run_commands', { commands: [command] }],
  create: (path, text) => ['editor', { path, new_text: text }],
};

/** A fake OpenAI chat-completions API (`POST /v1/chat/completions`, SSE), as Copilot 1.0.102 speaks it. */
export function fakeChatModel(options: FakeModelOptions): Promise<FakeModel> {
  return chatModel(options, COPILOT_TOOLS);
}

/** The same API with Qwen Code 0.24's tools (`run_shell_command`, `write_file`), as it speaks it. */
export function fakeQwenModel(options: FakeModelOptions): Promise<FakeModel> {
  return chatModel(options, QWEN_TOOLS);
}

/** The same API with Factory Droid 0.215's tools (`Execute`, `Create`), for a model of its own (BYOK). */
export function fakeDroidModel(options: FakeModelOptions): Promise<FakeModel> {
  return chatModel(options, DROID_TOOLS);
}
/** The same API with Cline 3.0's tools (`run_commands`, `editor`), as its `openai-compatible` provider speaks it. */
export function fakeClineModel(options: FakeModelOptions): Promise<FakeModel> {
  return chatModel(options, CLINE_TOOLS);
}

function chatModel(options: FakeModelOptions, tools: ChatTools): Promise<FakeModel> {
  return startFake(options, {
    path: '/v1/chat/completions',
    // Copilot and Qwen Code also ask for short texts (a title) without tools; those are not scripted turns.
    isTurn: (body) => Array.isArray(body['tools']) && body['tools'].length > 0,
    answer: (body, turn, index, res) => answerChat(body, turn, index, res, tools),
    outputs: (body) =>
      records(body['messages'])
        .filter((message) => message['role'] === 'tool')
        .map((message) => outputText(message['content'])),
  });
}

/**
 * A fake Anthropic Messages API (`POST /v1/messages`, SSE), as Claude Code 2.1 speaks it. Claude Code
 * hands tool results back in `tool_result` blocks of a user message, and may add `role: "system"`
 * messages after them (hook context), so every message of the last request is read.
 */
export function fakeMessagesModel(options: FakeModelOptions): Promise<FakeModel> {
  return startFake(options, {
    path: '/v1/messages',
    // side requests (a title, a summary) come without tools and are not scripted turns
    isTurn: (body) => Array.isArray(body['tools']) && body['tools'].length > 0,
    answer: answerMessages,
    outputs: (body) =>
      records(body['messages']).flatMap((message) =>
        records(message['content'])
          .filter((block) => block['type'] === 'tool_result')
          .map((block) => outputText(block['content'])),
      ),
  });
}

/**
 * A fake Gemini API (`POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent`),
 * as Gemini CLI 0.61 speaks it. Its model router and its next-speaker check ask for JSON without
 * tools: those get a JSON text that answers both, and are not scripted turns.
 */
export function fakeGeminiModel(options: FakeModelOptions): Promise<FakeModel> {
  return startFake(options, {
    path: /^\/v1beta\/models\/[^/]+:(?:stream)?[gG]enerateContent$/,
    isTurn: (body) => Array.isArray(body['tools']) && body['tools'].length > 0,
    answer: answerGemini,
    outputs: (body) =>
      records(body['contents']).flatMap((content) =>
        records(content['parts']).flatMap((part) => {
          const response = part['functionResponse'];
          if (!isRecord(response)) return [];
          const value = isRecord(response['response']) ? response['response'] : {};
          const text = value['output'] ?? value['error'] ?? value['llmContent'];
          return [typeof text === 'string' ? text : JSON.stringify(value)];
        }),
      ),
  });
}

/**
 * A fake Augment service, as Auggie 0.36 speaks it to its tenant URL: `get-models` (with the
 * account's hooks flag on: Auggie runs no hooks without it), `agents/list-remote-tools` (none), and
 * `chat-stream` (one JSON object a line; a tool call is a node of type 5). Its other requests get `{}`.
 */
export function fakeAuggieModel(options: FakeModelOptions): Promise<FakeModel> {
  return startFake(options, {
    path: /^\/[a-z/-]+$/,
    isTurn: (body) => Array.isArray(body['tool_definitions']),
    answer: answerAuggie,
    // each earlier exchange keeps its tool results in its request nodes; the last ones come in `nodes`
    outputs: (body) =>
      [
        ...records(body['chat_history']).flatMap((exchange) => records(exchange['request_nodes'])),
        ...records(body['nodes']),
      ]
        .map((node) => node['tool_result_node'])
        .filter(isRecord)
        .map((result) => outputText(result['content'])),
  });
}

function answerAuggie(
  _body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
  url: string,
): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (index < 0) {
    const path = url.split('?')[0];
    if (path === '/get-models') {
      const model = { name: 'fake-model', suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 };
      res.end(JSON.stringify({ default_model: 'fake-model', models: [model], feature_flags: { enable_hooks: true } }));
    } else res.end(path === '/agents/list-remote-tools' ? JSON.stringify({ tools: [] }) : '{}');
    return;
  }
  const call = (name: string, input: unknown): object => ({
    id: 1,
    type: 5,
    content: '',
    tool_use: { tool_use_id: `toolu_${index}`, tool_name: name, input_json: JSON.stringify(input) },
  });
  let lines: object[];
  if (turn !== undefined && 'shell' in turn) {
    lines = [
      {
        text: '',
        nodes: [call('launch-process', { command: turn.shell, wait: true, max_wait_seconds: 30, cwd: '.' })],
      },
    ];
  } else if (turn !== undefined && 'create' in turn) {
    lines = [{ text: '', nodes: [call('save-file', { path: turn.create.path, file_content: turn.create.text })] }];
  } else if (turn !== undefined && 'call' in turn) {
    lines = [{ text: '', nodes: [call(turn.call.name, turn.call.input)] }];
  } else if (turn !== undefined && 'patch' in turn) {
    lines = [{ text: '', nodes: [call('apply_patch', { input: turn.patch })] }];
  } else {
    const text = turn?.say ?? DONE_TEXT;
    lines = [{ text, nodes: [{ id: 0, type: 0, content: text }] }];
  }
  res.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
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
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (
          req.method !== 'POST' ||
          !(typeof dialect.path === 'string' ? path === dialect.path : dialect.path.test(path))
        ) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `the fake model serves only POST ${String(dialect.path)}` } }));
          return;
        }
        if (!dialect.isTurn(fields)) {
          dialect.answer(fields, { say: 'fake title' }, -1, res, req.url ?? '');
          return;
        }
        turns.push(recorded);
        const index = turns.length - 1;
        dialect.answer(fields, options.script[index], index, res, req.url ?? '');
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
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? scaled(120_000));
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
    origin: `http://127.0.0.1:${port}`,
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
  } else if (turn !== undefined && ('create' in turn || 'call' in turn)) {
    throw new Error('the Codex fake scripts exec_command and apply_patch only');
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
function answerChat(
  body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
  tools: ChatTools,
): void {
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
  if (turn !== undefined && 'shell' in turn) events = call(...tools.shell(turn.shell));
  else if (turn !== undefined && 'create' in turn) events = call(...tools.create(turn.create.path, turn.create.text));
  else if (turn !== undefined && 'patch' in turn)
    throw new Error('Copilot and Qwen Code have no apply_patch tool: script a create instead');
  else if (turn !== undefined && 'call' in turn) events = call(turn.call.name, turn.call.input);
  else events = [chunk({ role: 'assistant', content: turn?.say ?? DONE_TEXT }, null), chunk({}, 'stop')];
  events.push({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  sse(res, events, true);
}

// Messages API: message_start, one content block (a tool_use or text), message_delta, message_stop;
// each event named on an `event:` line, as Anthropic's own stream does.
function answerMessages(
  body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
): void {
  const tool = (name: string, input: unknown) => ({
    block: { type: 'tool_use', id: `toolu_fake_${index}`, name, input: {} },
    delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    stop: 'tool_use',
  });
  let content: { block: unknown; delta: unknown; stop: string };
  if (turn !== undefined && 'shell' in turn)
    content = tool('Bash', { command: turn.shell, description: 'scripted by the fake model' });
  else if (turn !== undefined && 'create' in turn)
    content = tool('Write', { file_path: turn.create.path, content: turn.create.text });
  else if (turn !== undefined && 'call' in turn) content = tool(turn.call.name, turn.call.input);
  else if (turn !== undefined && 'patch' in turn)
    throw new Error('Claude Code has no apply_patch tool: script a create instead');
  else
    content = {
      block: { type: 'text', text: '' },
      delta: { type: 'text_delta', text: turn?.say ?? DONE_TEXT },
      stop: 'end_turn',
    };
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: `msg_fake_${index}`,
    type: 'message',
    role: 'assistant',
    model: body['model'],
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  const events: [string, unknown][] = [
    ['message_start', { type: 'message_start', message }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: content.block }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: content.delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: content.stop, stop_sequence: null }, usage: { output_tokens: 1 } },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [name, event] of events) res.write(`event: ${name}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

// The JSON text Gemini CLI's side requests get: its router's model choice and its next-speaker check.
const GEMINI_SIDE_ANSWER = JSON.stringify({ reasoning: 'fake', model_choice: 'flash', next_speaker: 'user' });

// Gemini API: one GenerateContentResponse, as one SSE event when streamed, else as the body.
function answerGemini(
  _body: Record<string, unknown>,
  turn: Turn | undefined,
  index: number,
  res: ServerResponse,
  url: string,
): void {
  let part: Record<string, unknown>;
  if (turn !== undefined && 'shell' in turn)
    part = {
      functionCall: {
        name: 'run_shell_command',
        args: { command: turn.shell, description: 'scripted by the fake model' },
      },
    };
  else if (turn !== undefined && 'call' in turn)
    part = { functionCall: { name: turn.call.name, args: turn.call.input } };
  else if (turn !== undefined && 'create' in turn)
    part = { functionCall: { name: 'write_file', args: { file_path: turn.create.path, content: turn.create.text } } };
  else if (turn !== undefined && 'patch' in turn)
    throw new Error('Gemini CLI has no apply_patch tool: script a create instead');
  else part = { text: index < 0 ? GEMINI_SIDE_ANSWER : (turn?.say ?? DONE_TEXT) };
  const response = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'fake',
    responseId: `fake-${index}`,
  };
  if (url.includes(':streamGenerateContent')) sse(res, [response]);
  else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
  }
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
