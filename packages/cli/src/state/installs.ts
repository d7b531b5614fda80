import { join } from 'node:path';
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
    (record['crlfBySetup'] === undefined || typeof record['crlfBySetup'] === 'boolean')
  );
}

/** Sets (or, with undefined, forgets) the record of one file. */
export function saveRecord(guardHome: string, file: string, record: InstallRecord | undefined): void {
  const records: Record<string, InstallRecord> = { ...readRecords(guardHome) };
  if (record === undefined) {
    if (!(file in records)) return;
    delete records[file];
  } else {
    records[file] = record;
  }
  writeFileAtomic(recordsPath(guardHome), `${JSON.stringify(records, null, 2)}\n`);
}
