import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigLevel, InstallOptions } from '@guard/adapters';
import { readTextIfExists, writeFileAtomic } from '../fsx.js';

/**
 * What `guard setup` did to one agent config file, so `guard uninstall` can give back exactly what
 * was there: the file itself when guard created it, or the backup's bytes when nothing changed since.
 */
export interface InstallRecord {
  /** SHA-256 of the text guard wrote. */
  readonly after: string;
  /** SHA-256 of the bytes before guard's first setup (absent when guard created the file). */
  readonly before?: string;
  /** The file did not exist before guard's setup. */
  readonly created: boolean;
  /** The topmost folder guard created for the file, if any. */
  readonly createdDir?: string;
  /**
   * The file's lines ended in LF before setup and setup's write (Codex's app-server writing its
   * trust) turned them into CRLF: uninstall turns them back while the file is still all CRLF.
   */
  readonly crlfBySetup?: boolean;
  /**
   * The pin of an agent's hook file (from issue 25's setups on): whose file it is, at which level,
   * and what setup wrote into it, so status, doctor and the hook can tell when guard's entries
   * there were taken out or changed since (the file with the same options would be written anew).
   */
  readonly pin?: Pin;
}

/** The level of a hook file setup wrote: the user's, a project's, or the system's (`--system`). */
export type PinLevel = ConfigLevel | 'system';

/** Whose hook file a record is, and the options setup wrote guard's entries with. */
export interface Pin {
  readonly agent: string;
  readonly level: PinLevel;
  readonly options: InstallOptions;
  /** What setup added to the file (`guardParts()` in state/pins.ts), for the hook's look without parsing. */
  readonly parts?: readonly string[];
  /** The file as setup wrote it is JSON: one that no longer parses is told by the hook too. */
  readonly json?: boolean;
  /** The file is guard's alone (uninstall removes it whole): code (not JSON) with more in it is changed. */
  readonly whole?: boolean;
}

type Records = Readonly<Record<string, InstallRecord>>;

function recordsPath(guardHome: string): string {
  return join(guardHome, 'installs.json');
}

/** Every record, by config file path. A missing or unreadable file means none (uninstall then edits the text). */
export function readRecords(guardHome: string): Records {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readTextIfExists(recordsPath(guardHome)) ?? '{}');
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const records: Record<string, InstallRecord> = {};
  for (const [file, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (isRecord(value)) records[file] = value;
  }
  return records;
}

function isRecord(value: unknown): value is InstallRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['after'] === 'string' &&
    typeof record['created'] === 'boolean' &&
    (record['before'] === undefined || typeof record['before'] === 'string') &&
    (record['createdDir'] === undefined || typeof record['createdDir'] === 'string') &&
    (record['crlfBySetup'] === undefined || typeof record['crlfBySetup'] === 'boolean') &&
    (record['pin'] === undefined || isPin(record['pin']))
  );
}

function isPin(value: unknown): value is Pin {
  if (typeof value !== 'object' || value === null) return false;
  const pin = value as Record<string, unknown>;
  const options = pin['options'] as Record<string, unknown> | null | undefined;
  return (
    typeof pin['agent'] === 'string' &&
    (pin['level'] === 'user' || pin['level'] === 'project' || pin['level'] === 'system') &&
    typeof options === 'object' &&
    options !== null &&
    typeof options['hookCommand'] === 'string' &&
    typeof options['failClosed'] === 'boolean'
  );
}

/** Sets (or, with undefined, forgets) the record of one file. */
export function saveRecord(guardHome: string, file: string, record: InstallRecord | undefined): void {
  const records: Record<string, InstallRecord> = { ...readRecords(guardHome) };
  if (record === undefined) {
    if (!(file in records)) return;
    delete records[file];
    // the last record gone, so is the file (guard's system folder is then as setup found it)
    if (Object.keys(records).length === 0) {
      rmSync(recordsPath(guardHome), { force: true });
      return;
    }
  } else {
    records[file] = record;
  }
  writeFileAtomic(recordsPath(guardHome), `${JSON.stringify(records, null, 2)}\n`);
}
