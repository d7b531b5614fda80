// The command agents run on every tool call: `node hook-entry.cjs hook <agent> [--event NAME]`
// (`guard hook …` through bin.js does the same in-process, a little slower: it starts as an ES module).
//
// Most of a call's cost is loading the hook runtime (a 370 KB bundle and its code cache), so this
// script first hands the call to the resident checker (hook-server.cts): a process of the same build
// that keeps the runtime loaded, listening on a unix socket in guard's folder. It sends the call's
// arguments, environment and stdin, and writes the checker's one answer. Whenever that is not
// possible (no checker, a folder it does not trust, another build, a checker that does not accept
// in time, dies or answers something it cannot read), the call runs in this process as it always
// did, on the same stdin bytes; then, if no checker answered, one is started for the next call.
// docs/performance.md ("The resident checker") has the measurements and the threat model.
import fs = require('node:fs');
import path = require('node:path');
import type * as Net from 'node:net';
import type { RawStdio } from './hook/stdio.js' with { 'resolution-mode': 'import' };
// what it shares with the checker and the loader: the build's id, the protocol, the socket's folder
import base = require('./hook-base.cjs');
import type { Frame, Header } from './hook-wire.cjs';

/**
 * How long a checker may take to accept a call (it accepts as soon as it reads the header; a busy
 * one, such as one running git for another call, later), and then to say the call's deadline (at
 * once, when it has read the call). GUARD_RESIDENT_ACCEPT_MS sets another.
 */
const ACCEPT_MS = 1_000;
/**
 * What the checker gets beyond its own deadline (base.RESERVE_MS before the call's) before the
 * call runs here instead, in what is left of the call's deadline.
 */
const GRACE_MS = 200;
/**
 * A missed call starts a checker only when guard's log shows another call within this long: a
 * single call (a one-off, a test's fresh folder) never leaves a process behind, a working agent
 * gets one from its second call on.
 */
const BUSY_MS = 60_000;
/** A start lock older than this belongs to a start that failed: it is taken over. */
const START_LOCK_MS = 10_000;

/**
 * The folder of the checker's socket: `run/` in guard's folder (as state/settings.ts guardHomeFrom
 * finds it on POSIX), or undefined when guard's folder cannot be known without loading more.
 */
function runFolder(env: NodeJS.ProcessEnv): string | undefined {
  if (env.GUARD_HOME) return path.join(env.GUARD_HOME, 'run');
  const state = env.XDG_STATE_HOME || (env.HOME ? path.join(env.HOME, '.local', 'state') : undefined);
  return state === undefined ? undefined : path.join(state, 'guard', 'run');
}

/**
 * This process's home and temp folders as os.homedir() and os.tmpdir() give them on POSIX, from the
 * environment when it names them (node:os costs a few ms to load).
 */
function homeAndTmp(env: NodeJS.ProcessEnv): { home: string; tmp: string } {
  let tmp = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  if (tmp.length > 1 && tmp.endsWith('/')) tmp = tmp.slice(0, -1);
  const home = env.HOME || process.getBuiltinModule('node:os').homedir();
  return { home, tmp };
}

/** Writes all of `text` to a descriptor; a reader that went away is not an error (as hook/stdio.ts). */
function writeAll(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  const giveUp = Date.now() + 1_000;
  while (done < bytes.length) {
    try {
      done += fs.writeSync(fd, bytes, done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN' && Date.now() < giveUp) continue;
      return;
    }
  }
}

/** Reads one frame line; undefined when it is not one this client knows. */
function frameOf(line: string): Frame | undefined {
  const frame = base.objectOf(line);
  if (frame === undefined) return undefined;
  switch (frame.t) {
    case 'accepted':
    case 'stale':
      return frame as Frame;
    case 'deadline':
      return Number.isInteger(frame.ms) && (frame.ms as number) > 0 ? (frame as Frame) : undefined;
    case 'done':
      return typeof frame.out === 'string' &&
        typeof frame.err === 'string' &&
        Number.isInteger(frame.code) &&
        (frame.code as number) >= 0 &&
        (frame.code as number) <= 255
        ? (frame as Frame)
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Stdin (a pipe or socket) read through one handle, kept as it arrives: `forward` sends each chunk on
 * (to the checker), and `rest()` gives what was read and what is still to come (to the runtime here).
 */
function stdinReader(net: typeof Net): {
  forward(to: Net.Socket): void;
  rest(): RawStdio;
} {
  const chunks: Buffer[] = [];
  let ended = false;
  let failed: Error | undefined;
  let target: Net.Socket | undefined;
  let wake: (() => void) | undefined;
  const socket = new net.Socket({ fd: 0, readable: true, writable: false });
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    target?.write(chunk);
    wake?.();
  });
  socket.on('end', () => {
    ended = true;
    target?.end();
    wake?.();
  });
  socket.on('error', (error) => {
    failed = error;
    ended = true;
    wake?.();
  });
  let stopped = false;
  return {
    forward(to) {
      target = to;
      for (const chunk of chunks) to.write(chunk);
      if (ended) to.end();
    },
    rest() {
      target = undefined;
      async function* all(): AsyncGenerator<Uint8Array> {
        let next = 0;
        while (!stopped) {
          if (next < chunks.length) {
            yield chunks[next++] as Buffer;
            continue;
          }
          if (failed !== undefined) throw failed;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      }
      return {
        chunks: all(),
        stop() {
          stopped = true;
          socket.destroy();
          wake?.();
        },
        write: writeAll,
      };
    },
  };
}

/** How a hand-off ended when the checker gave no answer, and whether a checker should be started. */
type Missed = { readonly start: boolean };

/**
 * Hands the call to the checker at `socket`: its answer, or how it missed. The checker answers by
 * its deadline, which it says at once and which comes base.RESERVE_MS before the call's own (both
 * count from `header.started`, this process's start): a checker that has not answered by then (and
 * a little grace) is given up, and the call runs here in what is left.
 */
function handOff(
  net: typeof Net,
  socket: string,
  header: Header,
  stdin: ReturnType<typeof stdinReader>,
): Promise<Extract<Frame, { t: 'done' }> | Missed> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const conn = net.connect(socket);
    const finish = (result: Extract<Frame, { t: 'done' }> | Missed): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(result);
    };
    const wait = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ start: false }), Math.max(0, ms));
    };
    const accept = Number(header.env.GUARD_RESIDENT_ACCEPT_MS);
    const acceptMs = Number.isInteger(accept) && accept > 0 ? accept : ACCEPT_MS;
    wait(acceptMs);
    conn.on('error', (error: NodeJS.ErrnoException) =>
      // nobody listening: start one; anything else (a checker that went away mid-call) is left to it
      finish({ start: error.code === 'ENOENT' || error.code === 'ECONNREFUSED' }),
    );
    conn.on('close', () => finish({ start: false }));
    conn.on('connect', () => {
      conn.write(`${JSON.stringify(header)}\n`);
      stdin.forward(conn);
    });
    let text = '';
    conn.setEncoding('utf8');
    conn.on('data', (data: string) => {
      text += data;
      let end: number;
      while ((end = text.indexOf('\n')) >= 0) {
        const frame = frameOf(text.slice(0, end));
        text = text.slice(end + 1);
        if (frame === undefined) return finish({ start: false });
        if (frame.t === 'stale') return finish({ start: true });
        if (frame.t === 'done') return finish(frame);
        // accepted: the deadline comes next; the deadline: the checker's, from this process's start
        wait(frame.t === 'deadline' ? header.started + frame.ms + GRACE_MS - Date.now() : acceptMs);
      }
    });
  });
}

/**
 * Starts a checker for `socket` (detached, its own session, no stdio), unless one is being started:
 * an exclusive start lock in the run folder keeps many missed calls at once from starting many.
 */
function startChecker(run: string, socket: string): void {
  const lock = path.join(run, 'start.lock');
  let fd: number;
  try {
    fd = fs.openSync(lock, 'wx', 0o600);
  } catch {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs < START_LOCK_MS) return;
      fs.rmSync(lock, { force: true });
      fd = fs.openSync(lock, 'wx', 0o600);
    } catch {
      return;
    }
  }
  fs.closeSync(fd);
  try {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(process.execPath, [path.join(__dirname, 'hook-server.cjs'), socket], {
      detached: true,
      stdio: 'ignore',
      env: process.env,
    });
    child.on('error', () => fs.rmSync(lock, { force: true }));
    child.unref();
  } catch {
    fs.rmSync(lock, { force: true });
  }
}

/** Whether guard's log in `guardHome` was written within BUSY_MS (by another call: read before this one logs). */
function recentCall(guardHome: string): boolean {
  try {
    return Date.now() - fs.statSync(path.join(guardHome, 'log.jsonl')).mtimeMs < BUSY_MS;
  } catch {
    return false;
  }
}

/** The run folder for a checker: made (0700) when guard's folder exists, then trusted only as trustedFolder says. */
function ensureRunFolder(run: string): boolean {
  if (!fs.existsSync(path.dirname(run))) return false;
  try {
    fs.mkdirSync(run, { mode: 0o700 });
  } catch {
    // there already, or not ours to make: checked below
  }
  return base.trustedFolder(run);
}

/** The call: through the checker when it can, else here. */
async function main(): Promise<number> {
  // the call's deadline counts from here, however it is answered
  const started = Math.floor(performance.timeOrigin);
  const argv = process.argv.slice(3);
  const inProcess = async (stdio?: RawStdio): Promise<number> => {
    // loaded only here: a call the checker answers never loads the runtime
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const load = require('./hook-load.cjs') as typeof import('./hook-load.cjs');
    if (stdio === undefined) return (await load.hookRuntime())(argv);
    return (await load.hookRuntimeOver(stdio))(argv);
  };
  const env = process.env;
  if (process.platform === 'win32' || env.GUARD_RESIDENT === 'off') return inProcess();
  let streamed = false;
  try {
    const stat = fs.fstatSync(0);
    streamed = stat.isSocket() || stat.isFIFO();
  } catch {
    // no stdin at all: the runtime says so
  }
  const run = runFolder(env);
  const id = base.buildId();
  // a file or terminal on stdin (not how agents call) is read here, as it always was
  if (!streamed || run === undefined || id === undefined) return inProcess();
  const trusted = base.trustedFolder(run);
  const socket = base.socketPath(run, id);
  const net = process.getBuiltinModule('node:net');
  const stdin = stdinReader(net);
  let missed: Missed = { start: !fs.existsSync(run) };
  if (trusted) {
    const header: Header = {
      v: base.PROTOCOL,
      id,
      argv,
      env,
      ppid: process.ppid,
      started,
      ...homeAndTmp(env),
      node: process.version,
    };
    const answer = await handOff(net, socket, header, stdin);
    if ('t' in answer) {
      writeAll(1, answer.out);
      writeAll(2, answer.err);
      return answer.code;
    }
    missed = answer;
  }
  const busy = missed.start && recentCall(path.dirname(run));
  const code = await inProcess(stdin.rest());
  if (busy && ensureRunFolder(run)) startChecker(run, socket);
  return code;
}

if (require.main === module) {
  // exit at once: an agent that left stdin open would otherwise keep the process (and the agent)
  // waiting on a read that cannot be cancelled, after the answer went out
  void main().then((code) => process.exit(code));
}
