import { createHash, createHmac } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fsx.js';
import { guardVersion } from '../self.js';
import type { LogEntry } from '../state/decision-log.js';
import { LOG_FILE } from '../state/decision-log.js';
import type { ExportConfig, ExportState, LogPosition } from './config.js';
import { readSystemSettings } from '../world/system-settings.js';
import { exportFor, logHead, readState, senderLock, STALE_MS, statePath } from './config.js';

/** The log's files, oldest first (the log is the export's spool). */
const FILES = ['log.2.jsonl', 'log.1.jsonl', LOG_FILE];
/** Records per request. */
const BATCH = 500;
const REQUEST_MS = 10_000;

export interface SendOptions {
  /** The system root the system settings are read under (they may turn export on for everyone). */
  readonly systemRoot: string;
  /** How long to wait for more lines once the spool is empty before leaving. */
  readonly lingerMs?: number;
  /** How long to keep retrying a collector that does not take the records before leaving. */
  readonly retryForMs?: number;
}

/** What one sender run did. */
export interface SendResult {
  readonly sent: number;
  /** Another sender holds the lock, or export is off. */
  readonly skipped?: 'running' | 'off';
  readonly error?: string;
}

/**
 * Sends the log's lines after the position to the collector, in batches, until none is left and none
 * came for `lingerMs`; a collector that fails is retried with a growing pause for `retryForMs`, and
 * the lines stay in the log for the next sender. One sender at a time (a lock file it keeps fresh).
 */
export async function sendExport(guardHome: string, options: SendOptions): Promise<SendResult> {
  const exported = async (): Promise<ExportConfig | undefined> =>
    exportFor(guardHome, await readSystemSettings(options.systemRoot));
  const config = await exported();
  if (config === undefined) return { sent: 0, skipped: 'off' };
  const lock = senderLock(guardHome);
  if (!takeLock(lock)) return { sent: 0, skipped: 'running' };
  const linger = options.lingerMs ?? 3_000;
  const retryFor = options.retryForMs ?? 10 * 60_000;
  let sent = 0;
  let error: string | undefined;
  for (;;) {
    try {
      const run = await drain(guardHome, config, exported, lock, linger, retryFor);
      sent += run.sent;
      error = run.error;
    } finally {
      rmSync(lock, { force: true });
    }
    // a line written while the lock was still there (its hook started no sender) is not left behind
    if (error !== undefined || pending(guardHome, readState(guardHome).position).entries.length === 0) break;
    if (!takeLock(lock)) break;
  }
  return { sent, ...(error === undefined ? {} : { error }) };
}

/** One sender's run while it holds the lock: batches until the spool stays empty or the collector keeps failing. */
async function drain(
  guardHome: string,
  config: ExportConfig,
  exported: () => Promise<ExportConfig | undefined>,
  lock: string,
  linger: number,
  retryFor: number,
): Promise<{ sent: number; error?: string }> {
  let sent = 0;
  let error: string | undefined;
  let state = readState(guardHome);
  let quietSince = Date.now();
  let failingSince: number | undefined;
  let pause = 1_000;
  // export switched off (or guard's folder gone) ends the run
  while ((await exported()) !== undefined) {
    utimesSync(lock, new Date(), new Date());
    const batch = pending(guardHome, state.position);
    if (batch.overrun) state = { ...state, dropped: state.dropped + 1 };
    if (batch.entries.length === 0) {
      if (batch.overrun || state.position === undefined) saveState(guardHome, { ...state, position: batch.next });
      if (Date.now() - quietSince >= linger) break;
      await sleep(Math.min(500, linger));
      continue;
    }
    const problem = await post(config, encode(batch.entries, config));
    if (problem === undefined) {
      sent += batch.entries.length;
      const { lastError: _error, lastErrorAt: _at, ...rest } = state;
      state = { ...rest, position: batch.next, sent: state.sent + batch.entries.length, lastSent: now() };
      saveState(guardHome, state);
      quietSince = Date.now();
      failingSince = undefined;
      pause = 1_000;
      error = undefined;
      continue;
    }
    error = problem;
    state = { ...state, lastError: problem, lastErrorAt: now() };
    saveState(guardHome, state);
    failingSince ??= Date.now();
    if (Date.now() - failingSince >= retryFor) break;
    await sleep(pause);
    pause = Math.min(pause * 2, 60_000);
  }
  return { sent, ...(error === undefined ? {} : { error }) };
}

/** The lines after the position (at most a batch), where the position goes after them, and whether the log rotated past it. */
function pending(
  guardHome: string,
  position: ExportState['position'],
): { entries: LogEntry[]; next: LogPosition; overrun: boolean } {
  const files = FILES.map((name) => {
    const path = join(guardHome, name);
    try {
      const stat = statSync(path);
      return { path, ino: stat.ino, size: stat.size, head: logHead(path) };
    } catch {
      return undefined;
    }
  }).filter((file) => file !== undefined);
  const newest = files.at(-1);
  if (newest === undefined) return { entries: [], next: position ?? { ino: 0, offset: 0 }, overrun: false };
  // no position yet: from the end of the log as it is now
  if (position === undefined)
    return { entries: [], next: { ino: newest.ino, head: newest.head, offset: newest.size }, overrun: false };
  // the same inode with another first line is a newer file that took a rotated one's inode
  let at = files.findIndex(
    (file) => file.ino === position.ino && (position.head === undefined || position.head === file.head),
  );
  const overrun = at === -1;
  let offset = overrun ? 0 : position.offset;
  if (overrun) at = 0;
  const entries: LogEntry[] = [];
  let next: LogPosition = { ino: files[at]?.ino ?? 0, head: files[at]?.head ?? '', offset };
  for (; at < files.length && entries.length < BATCH; at++, offset = 0) {
    const file = files[at];
    if (file === undefined) break;
    next = { ino: file.ino, head: file.head, offset };
    let text: Buffer;
    try {
      text = readFileSync(file.path).subarray(offset);
    } catch {
      continue;
    }
    let start = 0;
    for (let end = text.indexOf(10); end !== -1 && entries.length < BATCH; end = text.indexOf(10, start)) {
      const entry = parse(text.subarray(start, end).toString('utf8'));
      if (entry !== undefined) entries.push(entry);
      start = end + 1;
      next = { ino: file.ino, head: file.head, offset: offset + start };
    }
    // a torn last line is read again next time, once it is whole
    if (entries.length >= BATCH || start < text.length) break;
  }
  return { entries, next, overrun };
}

function parse(line: string): LogEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && typeof (value as LogEntry).time === 'string'
      ? (value as LogEntry)
      : undefined;
  } catch {
    return undefined;
  }
}

type AnyValue =
  { stringValue: string } | { intValue: string } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } };
interface KeyValue {
  key: string;
  value: AnyValue;
}

const SEVERITY: Readonly<Record<string, [number, string]>> = {
  allow: [9, 'INFO'],
  ask: [13, 'WARN'],
  block: [17, 'ERROR'],
};

/**
 * The entries as one OTLP/HTTP JSON logs request (`ExportLogsServiceRequest`): the resource names
 * guard, its version and this host; each record carries the decision's fields as `guard.*`
 * attributes, and the step (redacted as in the log) unless the person chose `--no-command`. The
 * project is its folder's hash unless `--project-path` (or the system settings) said to send it.
 */
export function encode(
  entries: readonly LogEntry[],
  config: Pick<ExportConfig, 'command' | 'projectPath' | 'projectSalt'>,
): string {
  const string = (key: string, value: string | undefined): KeyValue[] =>
    value === undefined ? [] : [{ key, value: { stringValue: value } }];
  const records = entries.map((entry) => {
    const [severityNumber, severityText] = SEVERITY[entry.answer ?? entry.decision ?? 'allow'] ?? [9, 'INFO'];
    const nanos = `${BigInt(Date.parse(entry.time) || 0) * 1_000_000n}`;
    const attributes: KeyValue[] = [
      ...string('guard.how', entry.how),
      ...string('guard.agent', entry.agent),
      ...string('guard.chat_id', entry.chat),
      ...string('guard.event', entry.event),
      ...string('guard.tool', entry.tool),
      ...string('guard.kind', entry.kind),
      ...string(
        'guard.project',
        entry.project === undefined || config.projectPath
          ? entry.project
          : projectHash(entry.project, config.projectSalt),
      ),
      ...string('guard.decision', entry.decision),
      ...string('guard.answer', entry.answer),
      ...string('guard.mode', entry.mode ?? (entry.decision === undefined ? undefined : 'standard')),
      ...string('guard.reason', entry.reason),
      ...(entry.rules === undefined
        ? []
        : [
            {
              key: 'guard.rule_ids',
              value: { arrayValue: { values: entry.rules.map((id) => ({ stringValue: id })) } },
            },
          ]),
      ...(entry.ms === undefined ? [] : [{ key: 'guard.duration_ms', value: { intValue: String(entry.ms) } }]),
      ...(config.command ? string('guard.command', entry.step) : []),
    ];
    const body = [entry.answer ?? entry.decision ?? entry.how, entry.rules?.join(',')].filter(Boolean).join(' ');
    return {
      timeUnixNano: nanos,
      observedTimeUnixNano: nanos,
      severityNumber,
      severityText,
      body: { stringValue: body },
      attributes,
    };
  });
  return JSON.stringify({
    resourceLogs: [
      {
        resource: {
          attributes: [
            ...string('service.name', 'guard'),
            ...string('service.version', guardVersion()),
            ...string('host.name', hostname()),
          ],
        },
        scopeLogs: [{ scope: { name: 'guard', version: guardVersion() }, logRecords: records }],
      },
    ],
  });
}

/**
 * A project folder as the records name it: the first 16 hex digits of its SHA-256, the same on every
 * machine for the same path, so a collector can group a project's decisions without learning its path.
 * With the organisation's salt (`exportProjectSalt`), an HMAC-SHA-256 keyed with it instead: hashing
 * a list of common folders (`/home/<name>/src/<repo>`) no longer finds which one it was.
 */
export function projectHash(path: string, salt?: string): string {
  const hash = salt === undefined ? createHash('sha256') : createHmac('sha256', salt);
  return hash.update(path).digest('hex').slice(0, 16);
}

/** One request; undefined when the collector took it, else what went wrong. */
async function post(config: ExportConfig, body: string): Promise<string | undefined> {
  try {
    const response = await fetch(config.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...config.headers },
      body,
      signal: AbortSignal.timeout(REQUEST_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.ok ? undefined : `the collector answered HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `the collector could not be reached (${cause ?? (error as Error).name})`;
  }
}

/** Takes the sender's lock: false while another live sender holds it. */
function takeLock(lock: string): boolean {
  mkdirSync(dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs < STALE_MS) return false;
        rmSync(lock, { force: true });
      } catch {
        // gone in between: try again
      }
    }
  }
  return false;
}

function saveState(guardHome: string, state: ExportState): void {
  writeFileAtomic(statePath(guardHome), `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

const now = (): string => new Date().toISOString();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
