// The resident checker: `node hook-server.cjs <socket>`, started by the hook client (hook-entry.cts)
// after a call it could not hand over. It loads the hook runtime once (the same bundle and code
// cache as a call in-process) and answers the calls of clients of the same build, each as
// `runHook` with the client's arguments, environment, folders and stdin, in one final frame.
// It leaves when idle, when its socket is gone or replaced, when its folder is no longer one it
// trusts, after a number of calls or past a heap size, and when a client of another build calls.
// docs/performance.md ("The resident checker") has the measurements and the threat model.
import fs = require('node:fs');
import net = require('node:net');
import path = require('node:path');
import base = require('./hook-base.cjs');
import load = require('./hook-load.cjs');
import type { Frame, Header } from './hook-wire.cjs';

/** Default time without a call after which the checker leaves (GUARD_SERVER_IDLE_MS sets another). */
const IDLE_MS = 10 * 60_000;
/** How often the checker looks at its socket and folder. */
const CHECK_MS = 2_000;
/** Calls after which it leaves (the next client starts a fresh one). */
const MAX_CALLS = 20_000;
/** Heap in use past which it leaves after its calls in progress. */
const MAX_HEAP = 256 * 1024 * 1024;
/** The most a header may hold (the client's whole environment). */
const MAX_HEADER = 1024 * 1024;

const socket = process.argv[2] ?? '';
const run = path.dirname(socket);
const lock = path.join(run, 'start.lock');
const id = base.buildId();

function idleMs(): number {
  const value = Number(process.env.GUARD_SERVER_IDLE_MS);
  return Number.isInteger(value) && value > 0 ? value : IDLE_MS;
}

/** Leaves; the socket is removed only while it is still this checker's own. */
function leave(ownSocket: fs.Stats | undefined): never {
  if (ownSocket !== undefined) {
    try {
      const now = fs.lstatSync(socket);
      if (now.ino === ownSocket.ino && now.dev === ownSocket.dev) fs.rmSync(socket, { force: true });
    } catch {
      // gone already
    }
  }
  process.exit(0);
}

/** Whether a checker already answers at the socket. */
function answering(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socket);
    probe.on('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

/** Writes one frame. */
function send(conn: net.Socket, frame: Frame): void {
  if (!conn.destroyed) conn.write(`${JSON.stringify(frame)}\n`);
}

/** A header as the client sends it, or undefined. */
function headerOf(line: string): Header | undefined {
  const h = base.objectOf(line);
  if (h === undefined) return undefined;
  const env = h.env;
  if (
    typeof h.v !== 'number' ||
    typeof h.id !== 'string' ||
    !Array.isArray(h.argv) ||
    !h.argv.every((arg) => typeof arg === 'string') ||
    typeof env !== 'object' ||
    env === null ||
    Object.values(env).some((item) => typeof item !== 'string') ||
    !Number.isInteger(h.ppid) ||
    !Number.isFinite(h.started) ||
    typeof h.home !== 'string' ||
    typeof h.tmp !== 'string' ||
    typeof h.node !== 'string'
  )
    return undefined;
  return h as unknown as Header;
}

async function serve(): Promise<boolean> {
  if (process.platform === 'win32' || id === undefined || socketName() !== path.basename(socket)) return false;
  if (!base.trustedFolder(run)) return false;
  if (await answering()) return false;
  // a broken bundle throws here: no checker, and every call runs in-process (and fails as it does there)
  const loaded = load.loadBundledHook();
  if (loaded === undefined) return false;
  const { runHook, ancestorArgs } = loaded.exports;
  const saved = new Set<string>();

  // a socket file nobody answers on is a checker's that is gone (killed, or its machine restarted)
  fs.rmSync(socket, { force: true });
  // half-open: a client ends its side at stdin's end, and the answer still goes back on this one
  const server = net.createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  const own = fs.lstatSync(socket);
  fs.rmSync(lock, { force: true });
  // no folder of the first caller's kept busy (every path a call uses is absolute)
  process.chdir('/');

  let calls = 0;
  let active = 0;
  let last = Date.now();
  let leaving = false;
  const leaveWhenDone = (): void => {
    leaving = true;
    server.close();
    if (active === 0) leave(own);
  };

  setInterval(() => {
    // the socket replaced or removed, or the folder no longer one to trust: this checker is not
    // the one clients reach any more
    let now: fs.Stats | undefined;
    try {
      now = fs.lstatSync(socket);
    } catch {
      now = undefined;
    }
    if (now === undefined || now.ino !== own.ino || now.dev !== own.dev || !base.trustedFolder(run)) process.exit(0);
    if (active === 0 && Date.now() - last > idleMs()) leave(own);
  }, CHECK_MS).unref();

  server.on('connection', (conn) => {
    if (leaving) {
      conn.destroy();
      return;
    }
    active++;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      active--;
      last = Date.now();
      if (!leaving && (calls >= MAX_CALLS || process.memoryUsage().heapUsed > MAX_HEAP)) leaveWhenDone();
      if (leaving && active === 0) leave(own);
    };
    conn.on('close', finish);
    conn.on('error', () => conn.destroy());

    // the header, then stdin's bytes until the client half-closes
    let head = Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let ended = false;
    let wake: (() => void) | undefined;
    let stopped = false;
    let started = false;
    conn.on('end', () => {
      ended = true;
      wake?.();
      // ended before a whole header (a probe that only connected): nothing to answer
      if (!started) conn.destroy();
    });
    conn.on('data', (data: Buffer) => {
      if (started) {
        chunks.push(data);
        wake?.();
        return;
      }
      head = Buffer.concat([head, data]);
      const end = head.indexOf(10);
      if (end < 0) {
        if (head.length > MAX_HEADER) conn.destroy();
        return;
      }
      started = true;
      const header = headerOf(head.subarray(0, end).toString('utf8'));
      if (end + 1 < head.length) chunks.push(head.subarray(end + 1));
      if (header === undefined) {
        conn.destroy();
        return;
      }
      if (header.v !== base.PROTOCOL || header.id !== id || header.node !== process.version) {
        // a client of another build or another Node: it runs in-process and starts its own; this one is
        // not needed (it would answer with other code, or on the Node the person has moved away from)
        send(conn, { t: 'stale' });
        conn.end();
        if (/^[0-9a-f]{16,64}$/.test(header.id)) leaveWhenDone();
        return;
      }
      calls++;
      send(conn, { t: 'accepted' });
      void answer(conn, header).catch(() => conn.destroy());
    });

    async function* stdin(): AsyncGenerator<Uint8Array> {
      let next = 0;
      while (!stopped) {
        if (next < chunks.length) {
          yield chunks[next++] as Buffer;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    }

    async function answer(conn: net.Socket, header: Header): Promise<void> {
      let out = '';
      let err = '';
      const code = await runHook(
        header.argv,
        {
          stdin: stdin(),
          stopInput: () => {
            stopped = true;
            wake?.();
          },
          out: (text) => (out += text),
          err: (text) => (err += text),
          env: header.env,
          home: () => header.home,
          tmp: () => header.tmp,
          parentArgs: () => ancestorArgs(header.ppid),
          // the deadline counts from the client's start, and the client is told this checker's
          started: header.started,
          deadline: (ms) => send(conn, { t: 'deadline', ms }),
        },
        { reserveMs: base.RESERVE_MS },
      );
      send(conn, { t: 'done', out, err, code });
      conn.end();
      // what had no usable cache (another Node since the build), saved once, as a call in-process does
      for (const script of loaded?.scripts ?? [])
        if (script.cacheMissed && !saved.has(script.file)) {
          saved.add(script.file);
          load.saveCache(script);
        }
    }
  });
  return true;
}

/** The socket's name for this build. */
function socketName(): string | undefined {
  return id === undefined ? undefined : path.basename(base.socketPath(run, id));
}

// Started or not, the start lock is the starter's to give back: a checker that did not start (one
// answers already, the folder is not trusted, the bundle is broken) simply ends, having nothing open.
serve().then(
  (listening) => {
    if (!listening) fs.rmSync(lock, { force: true });
  },
  () => {
    fs.rmSync(lock, { force: true });
    process.exit(1);
  },
);
