import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Chat } from '@guard/core';
import { withinLimits, isIdle, newChat } from '@guard/core';
import { readRegularText, writeFileAtomic } from '../fsx.js';

/**
 * Where chats are kept (SPEC §5): one file per chat in guard's folder, read without a lock and
 * changed under one. What a chat holds, and how it changes, is core's (`Chat`, `apply`).
 */

export type { Pending, StartScan } from '@guard/core';

/** A chat's state as a change callback may edit it in place. */
export type ChatState = {
  -readonly [K in keyof Chat]: Chat[K] extends readonly (infer T)[]
    ? T[]
    : Chat[K] extends Readonly<Record<string, number>>
      ? Record<string, number>
      : Chat[K];
};

/** The state folder cannot be read or written; the hook applies its failure policy. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

/** A chat with nothing remembered yet. */
export function freshChat(agent: string, chat: string, now: number): ChatState {
  return newChat(agent, chat, now) as ChatState;
}

/**
 * A file name for a chat id (which is not trusted as a file name). FNV-1a in two 32-bit lanes:
 * chat ids are made by the agents, not chosen to collide, and every hook call needs this one.
 */
export function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}${text.length.toString(16).padStart(8, '0')}`;
}

export function chatsDir(guardHome: string): string {
  return join(guardHome, 'chats');
}

/** The state file of one chat: the agent plus a hash of the chat id (ids are not trusted as file names). */
export function chatFile(guardHome: string, agent: string, chat: string): string {
  return join(chatsDir(guardHome), `${agent}-${nameHash(chat)}.json`);
}

/**
 * The chat's state, or a fresh one when there is none or it idled out. Reading takes no lock:
 * writes replace the file atomically, so a reader sees a whole old or a whole new state.
 */
export function loadChat(guardHome: string, agent: string, chat: string, now: number, idleMs: number): ChatState {
  const path = chatFile(guardHome, agent, chat);
  let text: string | undefined;
  try {
    // a pipe or a device in the file's place is an error at once, not a read that never ends
    text = readRegularText(path, MAX_CHAT_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateError(`cannot read chat state ${path}: ${code ?? (error as Error).message}`);
  }
  if (text === undefined) return freshChat(agent, chat, now);
  const state = parseChat(text);
  if (!state) throw new StateError(`chat state ${path} is not valid`);
  if (isIdle(state, now, idleMs)) return freshChat(agent, chat, now);
  return state;
}

/** Far above what `withinLimits` lets a chat grow to. */
const MAX_CHAT_BYTES = 8 * 1024 * 1024;

function parseChat(text: string): ChatState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== 1) return undefined;
  const state = value as ChatState;
  if (!Array.isArray(state.approved) || !Array.isArray(state.pending) || !Array.isArray(state.createdFiles))
    return undefined;
  return state;
}

/**
 * Changes a chat's state under a lock, so concurrent hook processes of one chat never lose an
 * update: take the lock (a file created exclusively), read, change, bound, write atomically,
 * release. `change` edits the state it is given, or returns the new one (`apply(state, …)`). A lock
 * names its holder (PID and the time that process started): one left by a process that is gone is
 * broken at once, and any other after `staleMs`.
 */
export function updateChat(
  guardHome: string,
  agent: string,
  chat: string,
  now: number,
  idleMs: number,
  change: (state: ChatState) => Chat | void,
  options: { readonly timeoutMs?: number; readonly staleMs?: number } = {},
): Chat {
  const path = chatFile(guardHome, agent, chat);
  const lock = `${path}.lock`;
  try {
    mkdirSync(chatsDir(guardHome), { recursive: true });
  } catch (error) {
    throw new StateError(
      `cannot create ${chatsDir(guardHome)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  acquire(lock, options.timeoutMs ?? LOCK_WAIT_MS, options.staleMs ?? LOCK_STALE_MS);
  try {
    const state = loadChat(guardHome, agent, chat, now, idleMs);
    const changed = change(state) ?? state;
    const saved = withinLimits({ ...changed, updated: now });
    writeFileAtomic(path, `${JSON.stringify(saved)}\n`, 0o600);
    return saved;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A lock older than this was left by a process that died: it is broken. */
const LOCK_STALE_MS = 5_000;
// Giving up on the lock loses this update, so wait until the lock would count as stale and a bit:
// only a holder that is alive and stuck makes a waiter give up. Many hook processes of one chat
// on a busy machine queue for seconds (50 at once on 2 cores waited up to 3 s).
const LOCK_WAIT_MS = LOCK_STALE_MS + 1_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function acquire(lock: string, timeoutMs: number, staleMs: number): void {
  const start = Date.now();
  let wait = 1;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, lockOwner(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new StateError(`cannot lock chat state ${lock}: ${code ?? (error as Error).message}`);
    }
    try {
      // a lock dated in the future (a clock set back) would never grow old: it counts as stale too
      if (holderGone(lock) || Math.abs(Date.now() - statSync(lock).mtimeMs) > staleMs) rmSync(lock, { force: true });
    } catch {
      // the holder released it meanwhile
    }
    if (Date.now() - start > timeoutMs) throw new StateError(`timed out waiting for the chat state lock ${lock}`);
    Atomics.wait(sleeper, 0, 0, wait);
    wait = Math.min(wait * 2, 20);
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

// An empty lock is one whose holder died between creating and naming it (or is naming it now).
const UNNAMED_LOCK_MS = 1_000;

/** Whether the process a lock names is gone (dead, or its PID now another process's). */
function holderGone(lock: string): boolean {
  let text: string;
  let age: number;
  try {
    text = (readRegularText(lock, 256) ?? '').trim();
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false;
  }
  const [pidText, start] = text.split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return age > UNNAMED_LOCK_MS;
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

/** Removes chats idle for longer than `idleMs` (and stale lock files). Never throws. */
export function sweepChats(guardHome: string, now: number, idleMs: number): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(chatsDir(guardHome));
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(chatsDir(guardHome), name);
    try {
      if (now - statSync(path).mtimeMs > idleMs) {
        rmSync(path, { force: true });
        removed++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}
