import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OpinionHealth } from '@guard/core';
import { HEALTHY, redact } from '@guard/core';
import { writeFileAtomic } from '../fsx.js';
import { chatsDir, nameHash } from './chats.js';
import { withLock } from './lock.js';

/**
 * What the second opinion keeps in guard's folder (SPEC §11), all owner-only: its health across
 * chats (failures in a row, a pause), and, only while it is on, each chat's request for the turn
 * (the person's last message, with keys masked), next to the chat's state and forgotten with it.
 */

const HEALTH_FILE = 'second-opinion.json';
const REQUEST_SUFFIX = '.request.json';
/** The most of a request kept (the model is sent less). */
const MAX_REQUEST = 4_000;

export function healthPath(guardHome: string): string {
  return join(guardHome, HEALTH_FILE);
}

/** The second opinion's health; a missing or unreadable file is a healthy one (it is then asked, not skipped). */
export function readHealth(guardHome: string): OpinionHealth {
  try {
    const value = JSON.parse(readFileSync(healthPath(guardHome), 'utf8')) as Partial<OpinionHealth>;
    const failures = typeof value.failures === 'number' && value.failures >= 0 ? value.failures : 0;
    return {
      failures,
      ...(typeof value.pausedUntil === 'number' ? { pausedUntil: value.pausedUntil } : {}),
      ...(typeof value.why === 'string' ? { why: value.why } : {}),
    };
  } catch {
    return HEALTHY;
  }
}

export function writeHealth(guardHome: string, health: OpinionHealth): void {
  writeFileAtomic(healthPath(guardHome), `${JSON.stringify(health)}\n`, 0o600);
}

/**
 * Changes the health as it is on disk now, under its lock: hooks failing at the same moment each
 * count their failure (read, change, write by each in turn). Returns the health written.
 */
export function updateHealth(
  guardHome: string,
  change: (health: OpinionHealth) => OpinionHealth,
  options: { readonly timeoutMs?: number } = {},
): OpinionHealth {
  mkdirSync(guardHome, { recursive: true, mode: 0o700 });
  return withLock(
    `${healthPath(guardHome)}.lock`,
    () => {
      const before = readHealth(guardHome);
      const after = change(before);
      if (after !== before) writeHealth(guardHome, after);
      return after;
    },
    options,
  );
}

/** Where a chat's request for the turn is kept, beside the chat's state. */
export function requestPath(guardHome: string, agent: string, chatId: string): string {
  return join(chatsDir(guardHome), `${agent}-${nameHash(chatId)}${REQUEST_SUFFIX}`);
}

/** Keeps the person's message as the chat's request for this turn (keys masked), replacing the last one. */
export function keepRequest(guardHome: string, agent: string, chatId: string, text: string, now: number): void {
  const masked = redact(text.length > MAX_REQUEST ? text.slice(0, MAX_REQUEST) : text);
  writeFileAtomic(
    requestPath(guardHome, agent, chatId),
    `${JSON.stringify({ v: 1, time: now, text: masked })}\n`,
    0o600,
  );
}

/**
 * The chat's request for this turn, or undefined: none kept, unreadable, or as old as a chat that
 * idled out (a forgotten chat's request is forgotten with it).
 */
export function readRequest(
  guardHome: string,
  agent: string,
  chatId: string,
  now: number,
  idleMs: number,
): { readonly text: string; readonly time: number } | undefined {
  try {
    const value = JSON.parse(readFileSync(requestPath(guardHome, agent, chatId), 'utf8')) as {
      time?: unknown;
      text?: unknown;
    };
    if (typeof value.time !== 'number' || typeof value.text !== 'string' || value.text.trim() === '') return undefined;
    return now - value.time > idleMs ? undefined : { text: value.text, time: value.time };
  } catch {
    return undefined;
  }
}

/** Forgets every chat's request (the second opinion was turned off). Returns how many were removed. */
export function forgetRequests(guardHome: string): number {
  let names: string[];
  try {
    names = readdirSync(chatsDir(guardHome));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(REQUEST_SUFFIX)) continue;
    rmSync(join(chatsDir(guardHome), name), { force: true });
    removed++;
  }
  return removed;
}
