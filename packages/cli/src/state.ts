import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fsx.js';
import { sha256Hex } from '@guard/core';

/**
 * What guard remembers about one chat (SPEC §5). Never result text, never a secret value: steps
 * are kept as fingerprints (hashes) and memory keys, which name destinations, packages, paths,
 * hosts, servers or file hashes.
 */
export interface ChatState {
  readonly v: 1;
  agent: string;
  chat: string;
  /** ms since epoch. */
  created: number;
  updated: number;
  /** Memory keys the person said yes to in this chat. */
  approved: string[];
  /** Step fingerprints a person's yes lets through exactly once (Codex block-then-chat). */
  allowOnce: string[];
  /** Asked steps waiting for the person's answer. */
  pending: Pending[];
  /** Absolute paths of files the agent created in this chat. */
  createdFiles: string[];
  /** Untrusted content was read since the person's last message. */
  untrusted: boolean;
  /** A result (or a rules file at chat start) showed injection signs. */
  injection: boolean;
  /** A key-shaped value came back in a result. */
  keySeen: boolean;
  /** MCP servers whose tool descriptions showed injection signs at chat start. */
  poisonedServers: string[];
  /** A rules or memory file the agent loads showed injection signs at chat start (lasts the chat). */
  poisonedRules?: boolean;
  /** The chat was told that guard is on (agents with no chat-start event). */
  announced?: boolean;
  /** The chat-start scan ran (with what it found and could not check, for the report). */
  scan?: StartScan;
  /** Steps flagged while nobody could be asked, by fingerprint: how many times. */
  away: Record<string, number>;
  /** The last failing command (by hash) and how often in a row it failed with no file changed since. */
  failure?: { readonly command: string; count: number };
}

export interface Pending {
  /** Short code the person can quote to approve. */
  readonly code: string;
  /** Fingerprint of the asked step. */
  readonly step: string;
  /** Memory keys of the asked findings that may be remembered after a yes. */
  readonly keys: readonly string[];
  readonly rules: readonly string[];
  readonly time: number;
}

export interface StartScan {
  readonly time: number;
  /** Files and servers that were read, what was found, and what could not be checked. */
  readonly checked: readonly string[];
  readonly found: readonly string[];
  readonly unchecked: readonly string[];
}

/** The state folder cannot be read or written; the hook applies its failure policy. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

const LIMITS = { approved: 500, allowOnce: 50, pending: 20, createdFiles: 2000, away: 200, list: 200 } as const;

/** A chat with nothing remembered yet. */
export function freshChat(agent: string, chat: string, now: number): ChatState {
  return {
    v: 1,
    agent,
    chat,
    created: now,
    updated: now,
    approved: [],
    allowOnce: [],
    pending: [],
    createdFiles: [],
    untrusted: false,
    injection: false,
    keySeen: false,
    poisonedServers: [],
    away: {},
  };
}

/** A short stable hash (SHA-256), for step fingerprints and command identities. */
export function shortHash(text: string, length = 16): string {
  return sha256Hex(text).slice(0, length);
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return freshChat(agent, chat, now);
    throw new StateError(`cannot read chat state ${path}: ${code ?? (error as Error).message}`);
  }
  const state = parseChat(text);
  if (!state) throw new StateError(`chat state ${path} is not valid`);
  if (now - state.updated > idleMs) return freshChat(agent, chat, now);
  return state;
}

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
 * release. A lock left behind by a dead process is broken after `staleMs`.
 */
export function updateChat(
  guardHome: string,
  agent: string,
  chat: string,
  now: number,
  idleMs: number,
  change: (state: ChatState) => void,
  options: { readonly timeoutMs?: number; readonly staleMs?: number } = {},
): ChatState {
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
    change(state);
    state.updated = now;
    bound(state);
    writeFileAtomic(path, `${JSON.stringify(state)}\n`, 0o600);
    return state;
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
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new StateError(`cannot lock chat state ${lock}: ${code ?? (error as Error).message}`);
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > staleMs) rmSync(lock, { force: true });
    } catch {
      // the holder released it meanwhile
    }
    if (Date.now() - start > timeoutMs) throw new StateError(`timed out waiting for the chat state lock ${lock}`);
    Atomics.wait(sleeper, 0, 0, wait);
    wait = Math.min(wait * 2, 20);
  }
}

function keepLast<T>(list: T[], max: number): T[] {
  return list.length > max ? list.slice(list.length - max) : list;
}

/** Keeps a chat's state small whatever the chat does. */
function bound(state: ChatState): void {
  state.approved = keepLast(state.approved, LIMITS.approved);
  state.allowOnce = keepLast(state.allowOnce, LIMITS.allowOnce);
  state.pending = keepLast(state.pending, LIMITS.pending);
  state.createdFiles = keepLast(state.createdFiles, LIMITS.createdFiles);
  state.poisonedServers = keepLast(state.poisonedServers, LIMITS.list);
  const away = Object.entries(state.away);
  if (away.length > LIMITS.away) state.away = Object.fromEntries(away.slice(away.length - LIMITS.away));
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
