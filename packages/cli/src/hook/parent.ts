import { closeSync, openSync, readSync } from 'node:fs';

// The agent runs the hook through a shell (`sh -c`, `$SHELL -lc`, `cmd /c`), sometimes through a
// wrapper too, so the agent's own command line is a few processes up.
const ANCESTORS = 4;
const MAX_READ = 64 * 1024;

/**
 * The command lines of the hook's parent and up to three further ancestors, nearest first, joined
 * into one list: adapters look there for headless or skip-permission flags. Linux only (read from
 * /proc, cheaply and synchronously); elsewhere, or when /proc cannot be read, an empty list, which
 * adapters treat as "unknown".
 */
export function ancestorArgs(
  ppid: number,
  platform: string = process.platform,
  readFile: (path: string) => string | undefined = readSmall,
): readonly string[] {
  if (platform !== 'linux') return [];
  const args: string[] = [];
  let pid = ppid;
  for (let depth = 0; depth < ANCESTORS && pid > 1; depth += 1) {
    const cmdline = readFile(`/proc/${pid}/cmdline`);
    if (cmdline === undefined) break;
    args.push(...cmdline.split('\0').filter((arg) => arg !== ''));
    const parent = parentOf(readFile(`/proc/${pid}/stat`));
    if (parent === undefined) break;
    pid = parent;
  }
  return args;
}

/** The ppid field of a /proc/<pid>/stat line; the command name before it may hold spaces and ')'. */
export function parentOf(stat: string | undefined): number | undefined {
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

function readSmall(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_READ);
    let size = 0;
    for (
      let n = readSync(fd, buffer, 0, MAX_READ, null);
      n > 0 && size < MAX_READ;
      n = readSync(fd, buffer, size, MAX_READ - size, null)
    )
      size += n;
    return buffer.toString('utf8', 0, size);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
