import type { Io } from '../src/io.js';

/** What a command wrote, plus the fake Io it wrote through. */
export interface Captured {
  readonly io: Io;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

/** An Io that records output and serves `stdin` (one string, split into lines on demand). */
export function captureIo(options: { stdin?: string; cwd?: string; home?: string } = {}): Captured {
  let stdout = '';
  let stderr = '';
  const stdin = options.stdin ?? '';
  const io: Io = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    readStdin: async () => stdin,
    async *stdinLines() {
      // like readline: no empty last line for a trailing newline, and CRLF endings removed
      const lines = stdin.split('\n');
      if (lines.at(-1) === '') lines.pop();
      for (const line of lines) yield line.replace(/\r$/, '');
    },
    env: {},
    cwd: () => options.cwd ?? '/home/dev/project',
    home: () => options.home ?? '/home/dev',
    tmp: () => '/tmp',
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
