import { closeSync, linkSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { readRegularText } from '../fsx.js';

/**
 * guard's locks on the files in its folder that several processes change (a chat's state, the
 * project yeses, the second opinion's health, the settings and their last good copy): a file
 * created exclusively that names its holder, broken when that holder is gone or it grew stale.
 * What is written under one still goes through a temporary file and a rename.
 */

/** The state folder cannot be read or written; the hook applies its failure policy. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

/** A lock older than this was left by a process that died: it is broken. */
export const LOCK_STALE_MS = 5_000;
// Giving up on the lock loses this update, so wait until the lock would count as stale and a bit:
// only a holder that is alive and stuck makes a waiter give up. Many hook processes of one chat
// on a busy machine queue for seconds (50 at once on 2 cores waited up to 3 s).
export const LOCK_WAIT_MS = LOCK_STALE_MS + 1_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Takes the lock, waiting up to `timeoutMs` (a lock whose holder is gone, or stale, is broken).
 * Returns true once held; when it is not to be had in time, throws StateError, or with `orThrow`
 * false returns false.
 */
export function acquire(lock: string, timeoutMs: number, staleMs: number, orThrow = true): boolean {
  const start = Date.now();
  let wait = 1;
  let broke = false;
  for (;;) {
    if (create(lock)) return true;
    // a broken lock is taken at once, even by one that does not wait
    if (breakLeft(lock, staleMs) && !broke) {
      broke = true;
      continue;
    }
    if (Date.now() - start >= timeoutMs) {
      if (!orThrow) return false;
      throw new StateError(`timed out waiting for the lock ${lock}`);
    }
    Atomics.wait(sleeper, 0, 0, wait);
    wait = Math.min(wait * 2, 20);
  }
}

/**
 * Creates the lock naming this process, or returns false when it exists. The name is written
 * first and the lock made by a hard link, so no lock is ever seen without its holder (one whose
 * creator was slow to name it would look left behind); where the file system has no hard links,
 * the lock is created and named in two steps.
 */
function create(lock: string): boolean {
  const named = `${lock}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(named, lockOwner(process.pid), { flag: 'wx', mode: 0o600 });
    try {
      linkSync(named, lock);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      if (!NO_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    } finally {
      rmSync(named, { force: true });
    }
    const fd = openSync(lock, 'wx', 0o600);
    writeSync(fd, lockOwner(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw new StateError(`cannot lock ${lock}: ${code ?? (error as Error).message}`);
  }
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** A lock as seen at one moment: who it names and when it was last written. */
interface Seen {
  readonly text: string;
  readonly mtimeMs: number;
}

function look(lock: string): Seen | undefined {
  try {
    const text = (readRegularText(lock, 256) ?? '').trim();
    return { text, mtimeMs: statSync(lock).mtimeMs };
  } catch {
    return undefined;
  }
}

/** Whether a lock was left: its holder is gone, or it grew stale (a clock set back counts too). */
function left(seen: Seen, staleMs: number): boolean {
  return holderGone(seen) || Math.abs(Date.now() - seen.mtimeMs) > staleMs;
}

/**
 * Removes the lock when it was left; true when it is gone (removed here or by its holder). Breakers
 * take turns under a second lock, and each removes the lock only if it is still the one it judged:
 * a holder that lets go and exits between the look and the removal would otherwise make a breaker
 * remove its successor's lock, and two processes would hold it at once.
 */
function breakLeft(lock: string, staleMs: number): boolean {
  const seen = look(lock);
  if (seen === undefined) return true;
  if (!left(seen, staleMs)) return false;
  const turn = `${lock}.break`;
  if (!create(turn)) {
    // a breaker holds its turn for a moment: one that died holding it is broken as any lock is
    const other = look(turn);
    if (other !== undefined && left(other, staleMs)) rmSync(turn, { force: true });
    return false;
  }
  try {
    const now = look(lock);
    if (now === undefined) return true;
    if (now.text !== seen.text || now.mtimeMs !== seen.mtimeMs) return false;
    rmSync(lock, { force: true });
    return true;
  } finally {
    release(turn);
  }
}

/**
 * What a lock file says about its holder: `<pid> <start>`, where start is when that process began
 * (clock ticks since boot, from /proc; empty where there is no /proc). The pair names one process:
 * a PID the system handed to another process since is not the holder.
 */
export function lockOwner(pid: number): string {
  return `${pid} ${startOf(pid) ?? ''}`.trim();
}

/** When a process started (field 22 of /proc/<pid>/stat), or undefined when it cannot be read. */
function startOf(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the program name (field 2) is in parentheses and may hold spaces: count from after it
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

// An empty lock is one whose holder died between creating and naming it (or is naming it now, on
// a file system without hard links).
const UNNAMED_LOCK_MS = 1_000;

/** Whether the process a lock names is gone (dead, or its PID now another process's). */
function holderGone({ text, mtimeMs }: Seen): boolean {
  const [pidText, start] = text.split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return Date.now() - mtimeMs > UNNAMED_LOCK_MS;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, another user's
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  if (start === undefined) return false;
  const now = startOf(pid);
  return now !== undefined && now !== start;
}

/**
 * Lets go of a lock this process took: removed only while it still names this process, so a
 * holder whose lock was broken as stale never removes the lock its successor holds.
 */
export function release(lock: string): void {
  try {
    if ((readRegularText(lock, 256) ?? '').trim() !== lockOwner(process.pid)) return;
  } catch {
    return;
  }
  rmSync(lock, { force: true });
}

/**
 * Runs `change` holding the lock `lock` (waiting up to `timeoutMs`; StateError when it is not to
 * be had), and releases it however `change` ends.
 */
export function withLock<T>(
  lock: string,
  change: () => T,
  options: { readonly timeoutMs?: number; readonly staleMs?: number } = {},
): T {
  acquire(lock, options.timeoutMs ?? LOCK_WAIT_MS, options.staleMs ?? LOCK_STALE_MS);
  try {
    return change();
  } finally {
    release(lock);
  }
}

/** `withLock` for a change that awaits (the lock is held until its promise settles). */
export async function withLockAsync<T>(
  lock: string,
  change: () => Promise<T>,
  options: { readonly timeoutMs?: number; readonly staleMs?: number } = {},
): Promise<T> {
  acquire(lock, options.timeoutMs ?? LOCK_WAIT_MS, options.staleMs ?? LOCK_STALE_MS);
  try {
    return await change();
  } finally {
    release(lock);
  }
}

/** Runs `change` holding the lock if it is free (or broken) now; undefined, and nothing run, when another holds it. */
export function ifUnlocked<T>(lock: string, change: () => T): T | undefined {
  if (!acquire(lock, 0, LOCK_STALE_MS, false)) return undefined;
  try {
    return change();
  } finally {
    release(lock);
  }
}
