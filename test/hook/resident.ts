import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answering } from '../../packages/cli/src/state/resident.js';
import { scaled } from '../machine.js';

/**
 * The hook command as `guard setup` writes it (`node hook-entry.cjs hook <agent>`), which hands
 * calls to the resident checker (hook-server.cjs), and what tests need around it: the checker's
 * socket for a guard folder, starting one, and telling whether a call was answered by it or
 * in-process.
 */

const DIST = fileURLToPath(new URL('../../packages/cli/dist/', import.meta.url));
export const HOOK_ENTRY = join(DIST, 'hook-entry.cjs');
export const HOOK_SERVER = join(DIST, 'hook-server.cjs');

/** The build's id, as the build wrote it. */
export function buildId(): string {
  return readFileSync(join(DIST, 'hook.bundle.id'), 'latin1').trim();
}

/** The checker's run folder and socket for a guard folder. */
export function checkerSocket(guardHome: string): { run: string; socket: string } {
  const run = join(guardHome, 'run');
  return { run, socket: join(run, `hook-${buildId().slice(0, 16)}.sock`) };
}

/** Whether something accepts connections at a socket (what `guard status` asks too). */
export const answers = answering;

/** Waits until something accepts at the socket (a checker just started); false after `ms`. */
export async function waitForChecker(socket: string, ms = scaled(20_000)): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(socket) && (await answers(socket))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * Starts a checker (`server`: another copy's hook-server.cjs) for a guard folder with the given
 * environment (as a missed call would) and waits until it answers. It leaves by itself when the folder is removed.
 */
export async function startChecker(
  guardHome: string,
  env: Readonly<Record<string, string>>,
  server: string = HOOK_SERVER,
): Promise<void> {
  const { run, socket } = checkerSocket(guardHome);
  mkdirSync(run, { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, [server, socket], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
  child.unref();
  if (!(await waitForChecker(socket))) throw new Error(`no checker answered at ${socket}`);
}

/**
 * An environment whose hook processes note how each call was answered: a module preloaded into
 * hook-entry.cjs writes `resident` or `in-process` (whether the hook runtime was loaded) to `file`.
 */
export function noting(env: Readonly<Record<string, string>>, file: string): Record<string, string> {
  const preload = `${file}.cjs`;
  writeFileSync(
    preload,
    [
      "if (/hook-entry\\.cjs$/.test(process.argv[1] ?? '')) {",
      "  process.on('exit', () => {",
      "    const loaded = Object.keys(require.cache).some((name) => name.endsWith('hook-load.cjs'));",
      `    require('node:fs').appendFileSync(${JSON.stringify(file)}, loaded ? 'in-process\\n' : 'resident\\n');`,
      '  });',
      '}',
      '',
    ].join('\n'),
  );
  return { ...env, NODE_OPTIONS: `--require ${preload}` };
}

/** How the calls so far were answered, in the order they ended. */
export function noted(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** The pid of the checker serving a socket (Linux: from /proc). */
export function checkerPid(socket: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(socket)) return Number(pid);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no checker for ${socket}`);
}

/** Whether a process is still running (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/^\S+ \S+ Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/\(.*\)/, 'x'));
  } catch {
    return false;
  }
}
