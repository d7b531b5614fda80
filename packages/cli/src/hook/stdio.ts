import { fstatSync, read, writeSync } from 'node:fs';

/**
 * The hook's stdin and stdout, straight on the file descriptors. `process.stdin` and
 * `process.stdout` would load Node's whole stream machinery (a fifth of the hook's start-up);
 * one payload in and one reply out need none of it.
 */
export interface RawStdio {
  /** Stdin's chunks until its end. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Stops reading (no read is started after this). */
  stop(this: void): void;
  /** Writes all of `text` to a descriptor; a reader that went away is not an error. */
  write(fd: 1 | 2, text: string): void;
}

const CHUNK = 64 * 1024;

/**
 * Whether stdin is a pipe or socket (as agents give it, rather than a file). A blocking read of one
 * on the thread pool cannot be cancelled, and Node waits for the thread pool when it exits: with
 * the agent's end left open and no payload coming, the process would outlive its own answer until
 * the agent's timeout. Such a stdin is read through a libuv handle instead, which closes at once.
 */
function streamedStdin(): boolean {
  if (process.platform === 'win32') return false;
  try {
    const stat = fstatSync(0);
    return stat.isSocket() || stat.isFIFO();
  } catch {
    return false;
  }
}

export function rawStdio(): RawStdio {
  let stopped = false;
  let closeStream: (() => void) | undefined;

  /** Stdin's chunks through a non-blocking handle (loaded only for a pipe or socket). */
  async function* streamChunks(): AsyncGenerator<Uint8Array> {
    const { Socket } = await import('node:net');
    const socket = new Socket({ fd: 0, readable: true, writable: false });
    closeStream = () => socket.destroy();
    try {
      for await (const chunk of socket as AsyncIterable<Buffer>) {
        if (stopped) return;
        yield chunk;
      }
    } finally {
      socket.destroy();
    }
  }

  /** One read from fd 0 (on the thread pool, so the deadline timer still runs while it waits). */
  const readOnce = (buffer: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (error === null) resolve(bytes);
        else if (error.code === 'EOF')
          resolve(0); // Windows says so for a closed pipe
        else reject(error);
      });
    });

  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (streamedStdin()) {
      yield* streamChunks();
      return;
    }
    while (!stopped) {
      const buffer = Buffer.allocUnsafe(CHUNK);
      let bytes: number;
      try {
        bytes = await readOnce(buffer);
      } catch (error) {
        // a non-blocking pipe with nothing in it yet: look again shortly
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      if (bytes === 0) return;
      yield buffer.subarray(0, bytes);
    }
  }

  return {
    chunks: chunks(),
    stop() {
      // A pipe or socket's handle closes here; a read of a file never waits.
      stopped = true;
      closeStream?.();
    },
    write(fd, text) {
      const bytes = Buffer.from(text);
      let done = 0;
      const giveUp = Date.now() + 1_000;
      while (done < bytes.length) {
        try {
          done += writeSync(fd, bytes, done);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // a full non-blocking pipe: the reader is draining it (unless it stopped for good)
          if (code === 'EAGAIN' && Date.now() < giveUp) continue;
          return; // EPIPE, EBADF: nobody is listening any more
        }
      }
    },
  };
}
