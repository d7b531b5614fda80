import { read, writeSync } from 'node:fs';

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

export function rawStdio(): RawStdio {
  let stopped = false;

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
      // A read already waiting on the thread pool cannot be cancelled: with stdin still open and the
      // payload unfinished (answered at the deadline), the process ends when the agent closes stdin
      // or stops it.
      stopped = true;
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
