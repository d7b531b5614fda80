import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../src/io.js';

/**
 * A folder no test creates: the home that the defaults below and the recorded payloads (hook-cases)
 * name, so code that looks there on disk finds nothing on any machine. A fixed /home/dev would be
 * read (policy files, git, MCP servers to start) wherever that folder happens to exist.
 */
export const NOWHERE = join(tmpdir(), `guard-test-nowhere-${randomUUID()}`);
/** The default cwd of captureIo: a project folder in that home. */
export const NOWHERE_PROJECT = join(NOWHERE, 'project');

/** What a command wrote, plus the fake Io it wrote through. */
export interface Captured {
  readonly io: Io;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

/** An Io that records output and serves `stdin` (one string, split into lines on demand). */
export function captureIo(
  options: { stdin?: string; cwd?: string; home?: string; systemRoot?: string } = {},
): Captured {
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
    cwd: () => options.cwd ?? NOWHERE_PROJECT,
    home: () => options.home ?? NOWHERE,
    tmp: () => '/tmp',
    // a system root no test creates unless it passes its own: the machine's own system settings are never read
    systemRoot: options.systemRoot ?? join(NOWHERE, 'system-root'),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
