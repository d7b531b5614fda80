import { spawn } from 'node:child_process';

/**
 * Runs `count` Node processes at once, each the ES module `script(i)` with the arguments `args(i)`
 * (`process.argv[1]` on), and makes "at once" hold on a busy machine too: each loads its imports,
 * then waits until every one of them has, so that what the scripts race over (a lock, a file) is
 * raced over by all of them together, not by whichever finished starting Node first. Resolves when
 * every one exited 0; rejects with the first that did not, and what it wrote to stderr.
 */
export async function atOnce(
  count: number,
  script: (i: number) => string,
  args: (i: number) => readonly string[],
): Promise<void> {
  // (static imports are loaded before a module's first statement runs)
  const ready = "process.stdout.write('.'); await new Promise((go) => process.stdin.once('end', go).resume());";
  const children = Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, ['--input-type=module', '-e', `${ready}\n${script(i)}`, ...args(i)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let waiting = count;
  const ends = children.map(
    (child, i) =>
      new Promise<void>((resolve, reject) => {
        let stderr = '';
        child.stdout.once('data', () => {
          // the last one ready lets them all go
          if (--waiting === 0) for (const each of children) each.stdin.end();
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.stdin.on('error', () => undefined);
        child.on('error', reject);
        child.on('close', (code) => {
          if (code === 0) resolve();
          else reject(new Error(`process ${i} of ${count} exited ${String(code)}:\n${stderr}`));
        });
      }),
  );
  try {
    await Promise.all(ends);
  } finally {
    // one that failed before it was ready leaves the others waiting: end them
    for (const child of children) child.stdin.end();
  }
}
