import { homedir, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { SYSTEM_ROOT } from './world/system-root.js';

/**
 * Everything a command may touch of the process: output, input and where it runs. Commands get
 * an Io instead of reaching for `process`, so tests can hand them a fake one.
 */
export interface Io {
  /** Writes to stdout as is (add the newline yourself). */
  out(this: void, text: string): void;
  /** Writes to stderr as is. */
  err(this: void, text: string): void;
  /** All of stdin as one string. */
  readStdin(): Promise<string>;
  /** Stdin line by line as it arrives, without line endings. */
  stdinLines(): AsyncIterable<string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  cwd(): string;
  home(): string;
  /** The system temp folder. */
  tmp(): string;
  /** The root of the system-wide folders (world/system-root.ts); tests pass a scratch folder. */
  readonly systemRoot: string;
}

// A reader that stops early (`guard explain --jsonl ... | head -1`) closes our stdout: stop reading
// input and finish quietly instead of crashing on EPIPE.
let stopReading = (): void => {};
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  stopReading();
});

// Output is gathered and written at most once per turn of the event loop (or per 64 KB): `guard
// explain --jsonl` answers thousands of lines, and a write per line cost more than the JSON did.
// What is gathered goes out before anything is read again (the loop turns while input is awaited,
// so a caller that waits for each answer gets it), before a message on stderr, and at exit.
const OUT_BATCH_CHARS = 64 * 1024;
let pendingOut = '';
let flushQueued = false;
function flushOut(): void {
  flushQueued = false;
  if (pendingOut === '') return;
  const text = pendingOut;
  pendingOut = '';
  process.stdout.write(text);
}
process.on('exit', flushOut);

/** The real process. Only light built-ins are imported here, so the hook path may use it too. */
export const processIo: Io = {
  out: (text) => {
    pendingOut += text;
    if (pendingOut.length >= OUT_BATCH_CHARS) flushOut();
    else if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushOut);
    }
  },
  err: (text) => {
    flushOut();
    process.stderr.write(text);
  },
  async readStdin() {
    process.stdin.setEncoding('utf8');
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text;
  },
  stdinLines() {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    stopReading = () => lines.close();
    return lines;
  },
  env: process.env,
  cwd: () => process.cwd(),
  home: () => homedir(),
  tmp: () => tmpdir(),
  systemRoot: SYSTEM_ROOT,
};
