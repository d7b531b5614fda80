import { join } from 'node:path';
import { shortHash } from '@guard/core';
import { mkdirSync } from 'node:fs';
import { readTextIfExists, writeFileAtomic } from '../fsx.js';
import { withLock } from './lock.js';

/**
 * Yeses the person gave for a whole project (SPEC §12): `allowed.json` in guard's folder, one entry
 * per project root and memory key (`pkg.install:npm:zod`, `net.new-site:example.org`). Core decides
 * what may be kept (never a destructive step's yes) and when one counts (not while the chat's bar is
 * up); this file only keeps them. `guard allowed` lists them and `guard forget` removes them.
 */

export const ALLOWED_FILE = 'allowed.json';

/** Most entries kept; the oldest go first. */
export const MAX_ALLOWED = 1_000;

export interface AllowedEntry {
  /** Short stable id for `guard forget <id>`. */
  readonly id: string;
  /** The project root the yes was given in. */
  readonly project: string;
  /** What the yes is for: `<rule id>:<what>`. */
  readonly key: string;
  /** When it was given (ISO time). */
  readonly time: string;
}

interface AllowedFile {
  readonly v: 1;
  readonly entries: readonly AllowedEntry[];
}

export function allowedPath(guardHome: string): string {
  return join(guardHome, ALLOWED_FILE);
}

/** An entry's id: the same project and key always get the same one. */
export function allowedId(project: string, key: string): string {
  return shortHash(`${project}\n${key}`, 8);
}

/**
 * Every kept yes. A file that cannot be read as one counts as holding none: a broken file must
 * never let a step through, and asking again is the safe side.
 */
export function readAllowed(guardHome: string): AllowedEntry[] {
  const text = readTextIfExists(allowedPath(guardHome));
  if (text === undefined) return [];
  try {
    const parsed = JSON.parse(text) as { v?: unknown; entries?: unknown } | null;
    if (parsed?.v !== 1 || !Array.isArray(parsed.entries)) return [];
    return (parsed.entries as unknown[]).filter(isEntry);
  } catch {
    return [];
  }
}

function isEntry(value: unknown): value is AllowedEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry['id'] === 'string' &&
    typeof entry['project'] === 'string' &&
    typeof entry['key'] === 'string' &&
    typeof entry['time'] === 'string'
  );
}

function writeAllowed(guardHome: string, entries: readonly AllowedEntry[]): void {
  const file: AllowedFile = { v: 1, entries: entries.slice(-MAX_ALLOWED) };
  writeFileAtomic(allowedPath(guardHome), `${JSON.stringify(file, null, 1)}\n`, 0o600);
}

/**
 * Reads the entries, changes them and writes them back under the file's lock, so a hook keeping a
 * yes and `guard forget` (or another hook) at the same moment lose nothing of each other's.
 */
function changeAllowed<T>(
  guardHome: string,
  change: (entries: AllowedEntry[]) => { entries?: AllowedEntry[]; out: T },
): T {
  mkdirSync(guardHome, { recursive: true, mode: 0o700 });
  return withLock(`${allowedPath(guardHome)}.lock`, () => {
    const { entries, out } = change(readAllowed(guardHome));
    if (entries !== undefined) writeAllowed(guardHome, entries);
    return out;
  });
}

/** Keeps a yes for the project, once per key; returns the entries added. */
export function keepForProject(guardHome: string, project: string, keys: readonly string[], now: Date): AllowedEntry[] {
  return changeAllowed(guardHome, (entries) => {
    const known = new Set(entries.map((entry) => entry.id));
    const added: AllowedEntry[] = [];
    for (const key of keys) {
      const id = allowedId(project, key);
      if (known.has(id)) continue;
      known.add(id);
      added.push({ id, project, key, time: now.toISOString() });
    }
    return added.length > 0 ? { entries: [...entries, ...added], out: added } : { out: added };
  });
}

/** Removes the entries `drop` picks; returns them. */
export function forgetAllowed(guardHome: string, drop: (entry: AllowedEntry) => boolean): AllowedEntry[] {
  // nothing to forget: no lock taken, no folder made
  if (!readAllowed(guardHome).some(drop)) return [];
  return changeAllowed(guardHome, (entries) => {
    const gone = entries.filter(drop);
    return gone.length > 0 ? { entries: entries.filter((entry) => !drop(entry)), out: gone } : { out: gone };
  });
}

/**
 * The lookup core's `rememberedBy` takes for a project: reads the file the first time a key is
 * asked about (most steps ask about none), then answers from memory.
 */
export function projectYes(guardHome: string, project: string): (key: string) => boolean {
  let keys: ReadonlySet<string> | undefined;
  return (key) => {
    keys ??= new Set(
      readAllowed(guardHome)
        .filter((entry) => entry.project === project)
        .map((entry) => entry.key),
    );
    return keys.has(key);
  };
}
