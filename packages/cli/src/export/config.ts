import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemRead } from '../state/floor.js';

/**
 * `guard export on --otlp URL`: guard's decisions sent to the organisation's OpenTelemetry
 * collector as log records over OTLP/HTTP. The log is the spool: the hook writes nothing more than
 * its usual log line, and a short-lived sender ships the lines after a position (export/state.json).
 * The settings are their own file, `export.json` (headers may hold a token: mode 0600), so the
 * hook learns whether export is on from one stat, without reading settings.yaml's parser.
 */
export interface ExportConfig {
  /** The collector's logs endpoint (`…/v1/logs`). */
  readonly endpoint: string;
  /** Extra HTTP headers (an authorisation token, a tenant). */
  readonly headers: Readonly<Record<string, string>>;
  /** Whether the step's text (redacted as in the log) goes with each record. */
  readonly command: boolean;
  /** Whether the project's folder goes as it is (`--project-path`); else its hash. */
  readonly projectPath: boolean;
  /** The salt of that hash (the system settings' `exportProjectSalt`); unsalted without. */
  readonly projectSalt?: string;
  /** How the requests are encoded: OTLP's JSON (the default) or protobuf (`--encoding protobuf`). */
  readonly encoding: ExportEncoding;
  /** The system settings turned export on for everyone (it is not the user's to turn off). */
  readonly system?: true;
}

/** The OTLP/HTTP encodings guard sends: JSON first, the default. */
export const ENCODINGS = ['json', 'protobuf'] as const;
export type ExportEncoding = (typeof ENCODINGS)[number];

/** The encoding a setting names, or undefined for a name that is not one. */
export function encodingOf(name: string): ExportEncoding | undefined {
  return ENCODINGS.find((encoding) => encoding === name);
}

/** Where the sender keeps its position in the log, what it sent, dropped and last saw go wrong. */
export interface ExportState {
  /** The log file and the byte offset after the last line sent. */
  readonly position?: LogPosition;
  readonly sent: number;
  /** Lines the log rotated away before they could be sent (the spool's bound). */
  readonly dropped: number;
  readonly lastSent?: string;
  readonly lastError?: string;
  readonly lastErrorAt?: string;
}

/**
 * A place in the log: the file by its inode and the start of its first line (`head`), since the
 * inode of a file rotated away is soon another log file's; and the byte offset in it.
 */
export interface LogPosition {
  readonly ino: number;
  readonly head?: string;
  readonly offset: number;
}

/** How much of a log file's first line tells it from another (the line starts with its time). */
const HEAD_BYTES = 96;

/** The start of a log file's first line ('' for an empty or unreadable file). */
export function logHead(path: string): string {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
      return buffer.toString('utf8', 0, read).split('\n')[0] ?? '';
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

export const EXPORT_FILE = 'export.json';
export const EXPORT_DIR = 'export';

export const exportPath = (guardHome: string): string => join(guardHome, EXPORT_FILE);
export const statePath = (guardHome: string): string => join(guardHome, EXPORT_DIR, 'state.json');
export const senderLock = (guardHome: string): string => join(guardHome, EXPORT_DIR, 'sender.lock');

/** A sender whose lock was not touched for this long is gone; another may take over. */
export const STALE_MS = 30_000;

/** Whether a sender runs now (its lock is fresh). */
export function senderRunning(guardHome: string): boolean {
  try {
    return Date.now() - statSync(senderLock(guardHome)).mtimeMs < STALE_MS;
  } catch {
    return false;
  }
}

/** Whether export is on, from one look at the file (the hook's question). */
export function exportIsOn(guardHome: string): boolean {
  return existsSync(exportPath(guardHome));
}

/** The export settings, or undefined when export is off (no file) or the file cannot be used. */
export function readExport(guardHome: string): ExportConfig | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(exportPath(guardHome), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { endpoint, headers, command, projectPath, encoding } = parsed as Record<string, unknown>;
  if (typeof endpoint !== 'string' || endpointProblem(endpoint) !== undefined) return undefined;
  // a file written before there was a choice is JSON; an encoding guard does not know makes the
  // file unusable, as a bad endpoint does
  const encoded = encoding === undefined ? 'json' : typeof encoding === 'string' ? encodingOf(encoding) : undefined;
  if (encoded === undefined) return undefined;
  const kept: Record<string, string> = {};
  if (typeof headers === 'object' && headers !== null)
    for (const [key, value] of Object.entries(headers)) if (typeof value === 'string') kept[key] = value;
  return { endpoint, headers: kept, command: command !== false, projectPath: projectPath === true, encoding: encoded };
}

/** The export that applies: the system settings' when they turn it on for everyone, else the user's. */
export function exportFor(guardHome: string, system: SystemRead): ExportConfig | undefined {
  if (system.state === 'read' && system.floor.export !== undefined) return { ...system.floor.export, system: true };
  return readExport(guardHome);
}

export function readState(guardHome: string): ExportState {
  try {
    const parsed = JSON.parse(readFileSync(statePath(guardHome), 'utf8')) as ExportState;
    return { ...parsed, sent: parsed.sent ?? 0, dropped: parsed.dropped ?? 0 };
  } catch {
    return { sent: 0, dropped: 0 };
  }
}

/**
 * The logs endpoint for a collector URL: `https://collector:4318` → `https://collector:4318/v1/logs`;
 * a URL that already ends in `/v1/logs` is kept. Plain http only to this machine (as the second opinion).
 */
export function logsEndpoint(url: string): { readonly endpoint: string } | { readonly problem: string } {
  const problem = endpointProblem(url);
  if (problem !== undefined) return { problem };
  const trimmed = url.replace(/\/+$/, '');
  return { endpoint: trimmed.endsWith('/v1/logs') ? trimmed : `${trimmed}/v1/logs` };
}

function endpointProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.username !== '' || parsed.password !== '')
    return 'a URL with a user or password in it would be kept in a file; pass them as --header instead';
  if (parsed.protocol === 'https:') return undefined;
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && local) return undefined;
  return 'the collector must be https://, or http:// to 127.0.0.1 or localhost (the records name commands and projects)';
}
