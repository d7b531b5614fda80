import {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  mkdirSync,
  fstatSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Decision, OpinionRecord } from '@guard/core';

/**
 * guard's decision log (SPEC §9): `log.jsonl` in guard's folder, one JSON object per line, only
 * ever appended to. Above a size it is rotated to `log.1.jsonl` and `log.2.jsonl`.
 */

/** How a decision was reached. */
export type How =
  | 'rules'
  | 'memory'
  /** A yes the person gave for this project (SPEC §12). */
  | 'project'
  /** The person's mode let the rules' asks go ahead (SPEC §12). */
  | 'mode'
  | 'off'
  | 'failure'
  | 'deadline'
  | 'ignored'
  | 'event'
  | 'switch'
  /** An ask nobody could answer, sent back as "do it a safer way or leave it out". */
  | 'away'
  /** The same step flagged again while nobody could answer: left undone. */
  | 'away-undone'
  /** The rules let the step through and the second opinion raised it to an ask. */
  | 'second-opinion'
  /** The second opinion failed too often in a row and pauses (a line of its own, written once). */
  | 'second-opinion-paused'
  /** guard's entries in an agent's hook file are not as setup left them (a line of its own, written once per drift). */
  | 'drift';

/** One line of the log. Step fields are absent on lines that are not about a step (switches). */
export interface LogEntry {
  /** ISO time. */
  readonly time: string;
  readonly how: How;
  readonly agent?: string;
  readonly chat?: string;
  readonly event?: string;
  readonly tool?: string;
  readonly kind?: string;
  /** The project folder the step ran in (export sends its hash unless told to send it as it is). */
  readonly project?: string;
  /**
   * The tool is one its agent's adapter does not know, and its input held nothing guard reads (a
   * command, a path, a URL): it went ahead unchecked (`guard report` lists such tools per chat).
   */
  readonly unknown?: true;
  /** The verdict. */
  readonly decision?: Decision;
  /** What the agent was told, where it differs from the verdict (an ask nobody can answer is a block). */
  readonly answer?: Decision;
  /** Rule ids of the findings, most severe first. */
  readonly rules?: readonly string[];
  readonly reason?: string;
  /** The step text with key-shaped values redacted, cut to a bounded length. */
  readonly step?: string;
  /** Time spent in the hook. */
  readonly ms?: number;
  /** For a step asked in the chat (block-then-chat): the code the person can quote to approve it. */
  readonly code?: string;
  /**
   * A change to the project's `.guard.yaml` that loosens it and waits for `guard policy accept`
   * (the pinned policy applied): what it loosens.
   */
  readonly policyHeld?: readonly string[];
  /** For failures: the cause, one line. */
  readonly error?: string;
  /** For switches: the settings that changed, with their new values. */
  readonly changed?: Readonly<Record<string, boolean | number | string>>;
  /** The mode a step was answered in, when it is not `standard` (SPEC §12). */
  readonly mode?: string;
  /** For a step the second opinion would judge: whether it judged, raised or could not judge it. */
  readonly opinion?: OpinionRecord;
}

export const LOG_FILE = 'log.jsonl';
/** Rotated files, newest first. */
const OLD_FILES: readonly string[] = ['log.1.jsonl', 'log.2.jsonl'];
const ROTATE_LOCK = 'log.rotate.lock';
/** A log file above this size is rotated before the next line is appended. */
export const ROTATE_BYTES = 5 * 1024 * 1024;
// A lock left behind by a process that died mid-rotation is taken over after this long.
const STALE_LOCK_MS = 30_000;

// Caps keep each line well under the size that one O_APPEND write puts down in one piece.
const MAX_STEP = 1_000;
const MAX_TEXT = 400;

/** Cuts a text to `max` characters, marking the cut; newlines become spaces (one line per entry). */
export function clip(text: string, max: number = MAX_TEXT): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The step text as the log keeps it: already redacted by the caller, then bounded. */
export function clipStep(redacted: string): string {
  return clip(redacted, MAX_STEP);
}

/**
 * Appends one entry as one line, with a single O_APPEND write so that lines from processes
 * writing at once never interleave. Rotates first when the file is too big. Throws only when
 * the folder cannot be written at all.
 */
export function appendLog(guardHome: string, entry: LogEntry, rotateBytes: number = ROTATE_BYTES): void {
  const path = join(guardHome, LOG_FILE);
  const line = `${JSON.stringify(bounded(entry))}\n`;
  try {
    if (statSync(path).size + line.length > rotateBytes) rotate(guardHome, rotateBytes - line.length);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(guardHome, { recursive: true });
  }
  appendLine(path, line);
}

/**
 * One O_APPEND write to a regular file. O_NONBLOCK: a named pipe in the log's place fails at once
 * (no reader: ENXIO) rather than holding the hook until someone reads it.
 */
function appendLine(path: string, line: string): void {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0),
    0o600,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function bounded(entry: LogEntry): LogEntry {
  return {
    ...entry,
    ...(entry.reason === undefined ? {} : { reason: clip(entry.reason) }),
    ...(entry.error === undefined ? {} : { error: clip(entry.error) }),
    ...(entry.step === undefined ? {} : { step: clipStep(entry.step) }),
  };
}

/**
 * Shifts log.jsonl → log.1.jsonl → log.2.jsonl. Several hook processes may see the big file at
 * once: a lock file taken with O_EXCL lets one of them rotate, and it checks the size again under
 * the lock, so a file another process just rotated is not rotated twice. The others skip rotating
 * and append to whichever file is current. A failed rename is not an error: the line still goes in.
 */
function rotate(guardHome: string, limit: number): void {
  const lock = join(guardHome, ROTATE_LOCK);
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch {
    clearStaleLock(lock);
    return;
  }
  try {
    const path = join(guardHome, LOG_FILE);
    if (statSync(path).size <= limit) return;
    const [first, second] = OLD_FILES.map((name) => join(guardHome, name)) as [string, string];
    tryRename(first, second);
    tryRename(path, first);
  } catch {
    // the log file vanished under us: nothing to rotate
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

function tryRename(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // another process got there first, or there is nothing to move yet
  }
}

function clearStaleLock(lock: string): void {
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
  } catch {
    // gone already
  }
}

/** Which entries `readLog` yields. */
export interface LogFilter {
  readonly chat?: string;
  readonly agent?: string;
  readonly decision?: Decision;
  readonly how?: How;
}

/**
 * Every entry in the log, oldest first, across the rotated files; a line that is torn or not
 * an entry is skipped. Streams line by line, so a big log is never held in memory at once.
 */
export async function* readLog(guardHome: string, filter: LogFilter = {}): AsyncGenerator<LogEntry> {
  // readline is loaded here, not at the top: the hook only ever appends
  const { createInterface } = await import('node:readline');
  for (const name of [...OLD_FILES].reverse().concat(LOG_FILE)) {
    const path = join(guardHome, name);
    if (!existsSync(path)) continue;
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        const entry = parseEntry(line);
        if (entry !== undefined && matches(entry, filter)) yield entry;
      }
    } catch {
      // unreadable, or rotated away while being read: the other files still count
    } finally {
      lines.close();
    }
  }
}

/** One log line as an entry, or undefined when it is not one (torn, hand-edited, empty). */
export function parseEntry(line: string): LogEntry | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields['time'] !== 'string' || typeof fields['how'] !== 'string') return undefined;
  return value as LogEntry;
}

function matches(entry: LogEntry, filter: LogFilter): boolean {
  return (
    (filter.chat === undefined || entry.chat === filter.chat) &&
    (filter.agent === undefined || entry.agent === filter.agent) &&
    (filter.decision === undefined || entry.decision === filter.decision) &&
    (filter.how === undefined || entry.how === filter.how)
  );
}
