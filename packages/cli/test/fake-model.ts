import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible `chat/completions` server, on 127.0.0.1 at a port the
 * system picks, for the second opinion's tests. Each request is answered the way `behaviour` says
 * at the time it arrives, and its body is kept, so a test can check what guard sent.
 */

export type Behaviour =
  /** Irreversible and outside the request, sure of both. */
  | 'high'
  /** Neither. */
  | 'low'
  /** High, with token log-probabilities that show the model sure. */
  | 'high-sure'
  /** High as written, with log-probabilities that show most of the weight below the bar. */
  | 'high-unsure'
  /** Answers high only after this many ms (past any time limit a test sets). */
  | { readonly slowMs: number }
  /** HTTP 500. */
  | 'error'
  /** A body that is not JSON. */
  | 'garbage'
  /** A well-formed answer whose message holds no JSON. */
  | 'no-json'
  /** Takes the connection and closes it without an answer. */
  | 'hang-up';

export interface FakeModel {
  /** The base URL to give `guard second-opinion on --url`. */
  readonly url: string;
  /** Bodies received, parsed, oldest first. */
  readonly bodies: Record<string, unknown>[];
  /** Raw request texts received (headers included), to check nothing leaked. */
  readonly raw: string[];
  /** Answers sent so far (a slow one counts once it is sent). */
  readonly answered: () => number;
  behaviour: Behaviour;
  close(): Promise<void>;
}

const HIGH = '{"irreversible": 0.97, "outside_request": 0.95}';
const LOW = '{"irreversible": 0.05, "outside_request": 0.1}';

export async function startFakeModel(behaviour: Behaviour = 'high'): Promise<FakeModel> {
  const bodies: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let answered = 0;
  const model: FakeModel = {
    url: '',
    bodies,
    raw,
    answered: () => answered,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      raw.push(`${request.method ?? ''} ${request.url ?? ''}\n${JSON.stringify(request.headers)}\n${text}`);
      try {
        bodies.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        bodies.push({ unreadable: text });
      }
      response.on('finish', () => answered++);
      answer(model.behaviour, response, timers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (model as { url: string }).url = `http://127.0.0.1:${port}/v1`;
  return model;
}

function answer(behaviour: Behaviour, response: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const json = (status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const completion = (content: string, logprobs?: unknown): unknown => ({
    id: 'fake',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content },
        finish_reason: 'stop',
        ...(logprobs === undefined ? {} : { logprobs: { content: logprobs } }),
      },
    ],
  });
  if (typeof behaviour === 'object') {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!response.destroyed) json(200, completion(HIGH));
    }, behaviour.slowMs);
    timers.add(timer);
    return;
  }
  switch (behaviour) {
    case 'high':
      return json(200, completion(HIGH));
    case 'low':
      return json(200, completion(LOW));
    case 'high-sure':
      return json(200, completion(HIGH, tokensOf(HIGH, 0.9)));
    case 'high-unsure':
      return json(200, completion(HIGH, tokensOf(HIGH, 0.2)));
    case 'error':
      return json(500, { error: { message: 'the model is loading' } });
    case 'garbage':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>not json</html>');
      return;
    case 'no-json':
      return json(200, completion('This step looks dangerous to me.'));
    case 'hang-up':
      response.socket?.destroy();
      return;
  }
}

/**
 * The answer's tokens, one per digit and one per run of other characters, where every digit of
 * a number carries probability `p` and the rest of the weight sits on `0` (below any bar).
 */
function tokensOf(content: string, p: number): unknown[] {
  return (content.match(/\d|[^\d]+/g) ?? []).map((token) => ({
    token,
    logprob: /\d/.test(token) ? Math.log(p) : 0,
    top_logprobs: /\d/.test(token)
      ? [
          { token, logprob: Math.log(p) },
          { token: '0', logprob: Math.log(1 - p) },
        ]
      : [],
  }));
}
