/**
 * One POST of JSON to the second opinion's model server, within a time limit (SPEC §11). It uses
 * node's own `http`/`https` modules, loaded on first use: on Node 20 the first `fetch()` of a
 * process costs some 150 ms and 40 MB more than a plain `http.request` (it loads undici), which a
 * hook that must answer within its budget cannot spend (docs/performance.md).
 */

/** The server's answer: its status and body text. */
export interface Posted {
  readonly status: number;
  readonly text: string;
}

/** The longest answer read; a judgement is a few dozen bytes (a few KB with log-probabilities). */
const MAX_ANSWER = 256 * 1024;

/**
 * Posts `body` as JSON to `endpoint` and resolves with the answer, or rejects with a one-line
 * reason: no answer within `timeoutMs` (counted from this call, loading the module included), the
 * connection failed, or the answer is too large. Nothing is left open afterwards (no keep-alive),
 * so the hook's process can end as soon as it has answered.
 */
export async function postJson(
  endpoint: string,
  body: unknown,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<Posted> {
  const deadline = Date.now() + timeoutMs;
  const url = new URL(endpoint);
  const payload = JSON.stringify(body);
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<Posted>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, posted?: Posted): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error !== undefined) reject(error);
      else resolve(posted as Posted);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          connection: 'close',
          'content-length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER) {
            request.destroy();
            finish(new Error(`the answer is larger than ${MAX_ANSWER / 1024} KB`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish(undefined, { status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (error) => finish(new Error(`the answer broke off (${describe(error)})`)));
      },
    );
    const timer = setTimeout(
      () => {
        request.destroy();
        finish(new Error(`no answer within ${timeoutMs} ms`));
      },
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', (error) => finish(new Error(`cannot reach the server (${describe(error)})`)));
    request.end(payload);
  });
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
