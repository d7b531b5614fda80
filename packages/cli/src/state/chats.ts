import type { BigIntStats } from 'node:fs';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Change, Chat, Recorded } from '@guard/core';
import { asChange, changesNothing, isIdle, newChat, replay, withinLimits } from '@guard/core';
import { readRegularText, writeFileAtomic } from '../fsx.js';
import { ifUnlocked, StateError, withLock } from './lock.js';

/**
 * Where chats are kept (SPEC §5): one state file per chat in guard's folder, and beside it a
 * folder of the changes recorded since, one file each; read without a lock, recorded without one,
 * and folded into the state file under one. What a chat holds, and how it changes, is core's (`Chat`, `apply`).
 */

export type { Pending, StartScan } from '@guard/core';
export { lockOwner, StateError } from './lock.js';

/** A chat's state as a change callback may edit it in place. */
export type ChatState = {
  -readonly [K in keyof Chat]: Chat[K] extends readonly (infer T)[]
    ? T[]
    : Chat[K] extends Readonly<Record<string, number>>
      ? Record<string, number>
      : Chat[K];
};

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
 * Where the changes of one chat wait to be folded into its state file: one small file per change,
 * created whole (written aside, then renamed in) under a name of its own, so concurrent hook
 * processes of a chat record what they change without waiting on one another or on a lock.
 */
export function changesDir(guardHome: string, agent: string, chat: string): string {
  return join(chatsDir(guardHome), `${agent}-${nameHash(chat)}${CHANGES_SUFFIX}`);
}

const CHANGES_SUFFIX = '.changes';
/** A change file's name: the time it was recorded (hex, fixed width, so names sort by time), then whose. */
const CHANGE_NAME = /^[0-9a-f]{12}-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+\.json$/;
/** A change file is a few hundred bytes; far above that is not one guard wrote. */
const MAX_CHANGE_BYTES = 256 * 1024;

/** What the state file holds besides the chat: which change files are already folded into it. */
interface Stored {
  readonly chat: ChatState;
  /** Change files folded in by the last compaction (and any earlier one whose files are still there). */
  readonly folded: ReadonlySet<string>;
  /** The time of the latest change folded in (a change dated before it that comes later came late). */
  readonly through: number | undefined;
}

/** One change file as read. */
interface Entry extends Recorded {
  readonly name: string;
}

/** The chat as one consistent read saw it: the state file, and the change files not folded into it. */
interface Snapshot {
  readonly stored: Stored | undefined;
  readonly entries: readonly Entry[];
  /** Which state file was read (undefined: none was there). */
  readonly identity: string | undefined;
}

/**
 * The chat's state, or a fresh one when there is none or it idled out: the state file with the
 * change files recorded since folded in, in the order of their names (the time each was recorded).
 * Reading takes no lock: the state file is replaced whole, change files are created whole, and a
 * compaction that replaced the state file while the change files were read makes the read start
 * over (`snapshot`).
 */
export function loadChat(guardHome: string, agent: string, chat: string, now: number, idleMs: number): ChatState {
  return chatOf(snapshot(guardHome, agent, chat), agent, chat, now, idleMs);
}

function chatOf(read: Snapshot, agent: string, chat: string, now: number, idleMs: number): ChatState {
  // with no state file, the chat began with its first change: from then on it can idle out
  const base = read.stored?.chat ?? freshChat(agent, chat, read.entries[0]?.time ?? now);
  const through = read.stored?.through;
  const state = (
    read.entries.length === 0
      ? base
      : replay(base, read.entries, { idleMs, ...(through === undefined ? {} : { through }) })
  ) as ChatState;
  return isIdle(state, now, idleMs) ? freshChat(agent, chat, now) : state;
}

/** Reads tried before a read waits for the lock (compactions kept replacing the state file meanwhile). */
const LOCK_FREE_READS = 5;

function snapshot(guardHome: string, agent: string, chat: string): Snapshot {
  for (let attempt = 0; attempt < LOCK_FREE_READS; attempt++) {
    const read = tryRead(guardHome, agent, chat);
    if (read !== undefined) return read;
  }
  // every read met a compaction: read under the lock, where none can run (it waits at most as long as saving did)
  return withLock(`${chatFile(guardHome, agent, chat)}.lock`, () => {
    const read = tryRead(guardHome, agent, chat);
    if (read === undefined) throw new StateError(`the chat state ${chatFile(guardHome, agent, chat)} kept changing`);
    return read;
  });
}

/**
 * One read: what the state file is, then the change files, then the state file itself. A
 * compaction writes the state file before it removes the change files it folded in, so when the
 * state file read is the one that was there before the change files were read, every change file
 * read is either named in it as folded or not in it at all. Undefined: the state file was replaced
 * meanwhile (try again).
 */
function tryRead(guardHome: string, agent: string, chat: string): Snapshot | undefined {
  const path = chatFile(guardHome, agent, chat);
  const before = identity(path);
  const entries = readChanges(changesDir(guardHome, agent, chat));
  let text: string | undefined;
  let after: string | undefined;
  try {
    // a pipe or a device in the file's place is an error at once, not a read that never ends
    const read = readRegularFile(path, MAX_CHAT_BYTES);
    text = read?.text;
    after = read?.identity;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateError(`cannot read chat state ${path}: ${code ?? (error as Error).message}`);
  }
  if (after !== before) return undefined;
  if (text === undefined) return { stored: undefined, entries, identity: undefined };
  const stored = parseStored(text);
  if (!stored) throw new StateError(`chat state ${path} is not valid`);
  return { stored, entries: entries.filter((entry) => !stored.folded.has(entry.name)), identity: after };
}

/** Which file stands at `path` now (inode, size and times), or undefined when none does. */
function identity(path: string): string | undefined {
  let stat: BigIntStats;
  try {
    stat = statSync(path, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new StateError(`cannot read chat state ${path}: ${code ?? (error as Error).message}`);
  }
  return identityOf(stat);
}

function identityOf(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** A regular file's text and identity, or undefined when there is none (see `readRegularText`). */
function readRegularFile(path: string, maxBytes: number): { text: string; identity: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > BigInt(maxBytes)) throw new Error(`${path} is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(Number(stat.size));
    let filled = 0;
    while (filled < buffer.length) {
      const count = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return { text: buffer.toString('utf8', 0, filled), identity: identityOf(stat) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The change files of a chat, oldest first. One that vanished meanwhile was folded into the state
 * file by a compaction (which the caller notices); one that cannot be read or is not a change is a
 * StateError, as a state file would be: a change left out could be the one that raised the bar.
 */
function readChanges(dir: string): Entry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new StateError(`cannot read the chat's changes in ${dir}: ${code ?? (error as Error).message}`);
  }
  const entries: Entry[] = [];
  for (const name of names.filter((each) => CHANGE_NAME.test(each)).sort()) {
    const path = join(dir, name);
    let text: string | undefined;
    try {
      text = readRegularText(path, MAX_CHANGE_BYTES);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new StateError(`cannot read the chat change ${path}: ${code ?? (error as Error).message}`);
    }
    if (text === undefined) continue;
    const entry = parseChange(name, text);
    if (entry === undefined) throw new StateError(`the chat change ${path} is not valid`);
    entries.push(entry);
  }
  return entries;
}

function parseChange(name: string, text: string): Entry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, time, change } = value as { v?: unknown; time?: unknown; change?: unknown };
  if (v !== 1 || typeof time !== 'number' || !Number.isFinite(time)) return undefined;
  const valid = asChange(change);
  return valid === undefined ? undefined : { name, time, change: valid };
}

/** Far above what `withinLimits` lets a chat grow to. */
const MAX_CHAT_BYTES = 8 * 1024 * 1024;

function parseStored(text: string): Stored | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== 1) return undefined;
  const { folded, through, ...chat } = value as ChatState & { folded?: unknown; through?: unknown };
  if (
    !Array.isArray(chat.approved) ||
    !Array.isArray(chat.pending) ||
    !Array.isArray(chat.createdFiles) ||
    (chat.wroteFiles !== undefined && !Array.isArray(chat.wroteFiles))
  )
    return undefined;
  // a state file saved before change files existed names none
  if (folded !== undefined && !(Array.isArray(folded) && folded.every((name) => typeof name === 'string')))
    return undefined;
  if (through !== undefined && (typeof through !== 'number' || !Number.isFinite(through))) return undefined;
  return {
    chat,
    folded: new Set(folded),
    through,
  };
}

let recorded = 0;

/**
 * Records what one event changes in a chat, without the lock: a change file of its own, written
 * aside and renamed in whole. The next read folds it in; `compactChat` folds change files into the
 * state file. A change that changes nothing is not recorded.
 */
export function recordChange(guardHome: string, agent: string, chat: string, now: number, change: Change): void {
  if (changesNothing(change)) return;
  const dir = changesDir(guardHome, agent, chat);
  const name = `${Math.max(0, Math.floor(now)).toString(16).padStart(12, '0')}-${process.pid.toString(16)}-${(recorded++).toString(16)}-${Math.floor(Math.random() * 0x1_0000_0000).toString(16)}.json`;
  const text = `${JSON.stringify({ v: 1, time: now, change })}\n`;
  const temp = join(dir, `.${name}.tmp`);
  let fd: number;
  try {
    try {
      fd = openSync(temp, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      fd = openSync(temp, 'wx', 0o600);
    }
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, join(dir, name));
  } catch (error) {
    removeFile(temp);
    throw new StateError(
      `cannot record a change of the chat in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** How many change files wait in a chat's change folder (0 when it cannot be read). */
export function waitingChanges(guardHome: string, agent: string, chat: string): number {
  try {
    return readdirSync(changesDir(guardHome, agent, chat)).filter((name) => CHANGE_NAME.test(name)).length;
  } catch {
    return 0;
  }
}

/** At this many change files waiting, a hook that recorded one folds them into the state file after its answer. */
export const COMPACT_AT = 8;

/**
 * Folds a chat's change files into its state file, if the lock is free (nobody waits for it: this
 * runs after the answer, and whoever holds the lock is folding them already). Returns whether it
 * did. Never throws for a lock held by another; throws StateError when the chat cannot be read or
 * written.
 */
export function compactChat(guardHome: string, agent: string, chat: string, now: number, idleMs: number): boolean {
  return (
    ifUnlocked(`${chatFile(guardHome, agent, chat)}.lock`, () => {
      fold(guardHome, agent, chat, now, idleMs);
      return true;
    }) ?? false
  );
}

/**
 * Under the lock: the chat as read (state file and change files), changed by `change`, written as
 * the new state file naming the change files it folded in; then those are removed. A reader that
 * read the old state file and the change files sees the state file replaced and reads again; one
 * that reads the new state file skips the change files named in it.
 */
function fold(
  guardHome: string,
  agent: string,
  chat: string,
  now: number,
  idleMs: number,
  change?: (state: ChatState) => Chat | void,
): Chat {
  const path = chatFile(guardHome, agent, chat);
  const dir = changesDir(guardHome, agent, chat);
  const read = tryRead(guardHome, agent, chat);
  // under the lock nothing replaces the state file
  if (read === undefined) throw new StateError(`the chat state ${path} changed under its lock`);
  // change files folded in before and still there (their removal failed): removed now, named until they are gone
  const left = [...(read.stored?.folded ?? [])].filter((name) => !removeFile(join(dir, name)));
  const state = chatOf(read, agent, chat, now, idleMs);
  const changed = change === undefined ? state : (change(state) ?? state);
  const saved = withinLimits(change === undefined ? changed : { ...changed, updated: now });
  const names = read.entries.map((entry) => entry.name);
  const through = Math.max(read.stored?.through ?? -Infinity, ...read.entries.map((entry) => entry.time));
  const folded = [...left, ...names];
  // a lock taken over as stale while this process still held it (stopped for seconds on a busy
  // machine): the other holder's state file is not written over with one that lacks its changes
  if (identity(path) !== read.identity) throw new StateError(`the chat state ${path} changed under its lock`);
  writeFileAtomic(
    path,
    `${JSON.stringify({ ...saved, ...(folded.length === 0 ? {} : { folded }), ...(Number.isFinite(through) ? { through } : {}) })}\n`,
    0o600,
  );
  for (const name of names) removeFile(join(dir, name));
  return saved;
}

/** Removes a file; whether it is gone. */
function removeFile(path: string): boolean {
  try {
    rmSync(path, { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Changes a chat's state under a lock, so concurrent processes never lose an update: take the
 * lock (a file created exclusively), read (the state file and its change files), change, bound,
 * write atomically, release. `change` edits the state it is given, or returns the new one
 * (`apply(state, …)`). A lock names its holder (PID and the time that process started): one left by
 * a process that is gone is broken at once, and any other after `staleMs`. The hook does not use
 * it on its answer path: it records change files (`recordChange`).
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
  const lock = `${chatFile(guardHome, agent, chat)}.lock`;
  try {
    mkdirSync(chatsDir(guardHome), { recursive: true });
  } catch (error) {
    throw new StateError(
      `cannot create ${chatsDir(guardHome)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return withLock(lock, () => fold(guardHome, agent, chat, now, idleMs, change), options);
}

/**
 * Removes chats idle for longer than `idleMs`: state files, change files and their emptied folders,
 * stale locks and left-over temp files. A state file counts as used when its chat recorded a change
 * since (the change folder's time). A change folder is only ever removed empty, so a change being
 * recorded in it at that moment is never lost. Returns how many chats' files went. Never throws.
 */
export function sweepChats(guardHome: string, now: number, idleMs: number): number {
  let removed = 0;
  let names: string[];
  const dir = chatsDir(guardHome);
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const idle = (path: string): boolean => now - statSync(path).mtimeMs > idleMs;
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (name.endsWith(CHANGES_SUFFIX)) {
        if (!statSync(path).isDirectory()) continue;
        for (const change of readdirSync(path))
          if (idle(join(path, change))) rmSync(join(path, change), { force: true });
        try {
          rmdirSync(path);
        } catch {
          // not empty: changes of a chat in use
        }
        continue;
      }
      if (!idle(path)) continue;
      if (name.endsWith('.json')) {
        const changes = join(dir, `${name.slice(0, -'.json'.length)}${CHANGES_SUFFIX}`);
        if (existsSync(changes) && !idle(changes)) continue;
      }
      rmSync(path, { force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** How often the hook sweeps idle chats (after its answer), at most. */
export const SWEEP_EVERY_MS = 3_600_000;

/**
 * Sweeps idle chats when the last sweep is more than `SWEEP_EVERY_MS` ago (a marker file's time
 * says when): one stat on most calls. Never throws.
 */
export function sweepChatsNow(guardHome: string, now: number, idleMs: number): boolean {
  const marker = join(chatsDir(guardHome), SWEPT);
  try {
    if (Math.abs(now - statSync(marker).mtimeMs) < SWEEP_EVERY_MS) return false;
  } catch {
    // never swept: sweep now
  }
  try {
    // the marker first: hook processes running at once sweep once
    writeFileSync(marker, '', { mode: 0o600 });
    utimesSync(marker, now / 1000, now / 1000);
  } catch {
    return false;
  }
  sweepChats(guardHome, now, idleMs);
  return true;
}

const SWEPT = '.swept';
