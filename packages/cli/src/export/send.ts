import { createHash, createHmac } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fsx.js';
import { guardVersion } from '../self.js';
import type { LogEntry } from '../state/decision-log.js';
import { LOG_FILE } from '../state/decision-log.js';
import type { ExportConfig, ExportEncoding, ExportState, LogPosition } from './config.js';
import { readSystemSettings } from '../world/system-settings.js';
import { exportFor, logHead, readState, senderLock, STALE_MS, statePath } from './config.js';

/** The log's files, oldest first (the log is the export's spool). */
const FILES = ['log.2.jsonl', 'log.1.jsonl', LOG_FILE];
/** Records per request. */
const BATCH = 500;
const REQUEST_MS = 10_000;
/** OTLP/HTTP's content type for each encoding. */
const CONTENT_TYPE: Readonly<Record<ExportEncoding, string>> = {
  json: 'application/json',
  protobuf: 'application/x-protobuf',
};

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
    const problem = await post(config, batch.entries);
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

/** A record's attribute values: strings, whole numbers and lists of strings, as OTLP's AnyValue holds them. */
type Attributes = Record<string, string | number | readonly string[]>;

/** One decision as a log record, before it is encoded. */
interface LogRecord {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly body: string;
  readonly attributes: Attributes;
}

const SEVERITY: Readonly<Record<string, [number, string]>> = {
  allow: [9, 'INFO'],
  ask: [13, 'WARN'],
  block: [17, 'ERROR'],
};

/**
 * The entries as log records: each carries the decision's fields as `guard.*` attributes, and the
 * step (redacted as in the log) unless the person chose `--no-command`. The project is its folder's
 * hash unless `--project-path` (or the system settings) said to send it.
 */
function logRecords(
  entries: readonly LogEntry[],
  config: Pick<ExportConfig, 'command' | 'projectPath' | 'projectSalt'>,
): LogRecord[] {
  return entries.map((entry) => {
    const [severityNumber, severityText] = SEVERITY[entry.answer ?? entry.decision ?? 'allow'] ?? [9, 'INFO'];
    const project =
      entry.project === undefined || config.projectPath
        ? entry.project
        : projectHash(entry.project, config.projectSalt);
    const fields: Record<string, Attributes[string] | undefined> = {
      'guard.how': entry.how,
      'guard.agent': entry.agent,
      'guard.chat_id': entry.chat,
      'guard.event': entry.event,
      'guard.tool': entry.tool,
      'guard.kind': entry.kind,
      'guard.project': project,
      'guard.decision': entry.decision,
      'guard.answer': entry.answer,
      'guard.mode': entry.mode ?? (entry.decision === undefined ? undefined : 'standard'),
      'guard.reason': entry.reason,
      'guard.rule_ids': entry.rules,
      'guard.duration_ms': entry.ms,
      'guard.command': config.command ? entry.step : undefined,
    };
    const attributes: Attributes = {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) attributes[key] = value;
    return {
      time: Date.parse(entry.time) || 0,
      severityNumber,
      severityText,
      body: [entry.answer ?? entry.decision ?? entry.how, entry.rules?.join(',')].filter(Boolean).join(' '),
      attributes,
    };
  });
}

/** What every request names as its source: guard, its version and this host. */
function resourceAttributes(): Attributes {
  return { 'service.name': 'guard', 'service.version': guardVersion(), 'host.name': hostname() };
}

type AnyValue = { stringValue: string } | { intValue: string } | { arrayValue: { values: AnyValue[] } };

/** Attributes as OTLP JSON's list of `{ key, value }`, each value in its AnyValue form. */
function keyValues(attributes: Attributes): Array<{ key: string; value: AnyValue }> {
  const anyValue = (value: Attributes[string]): AnyValue =>
    typeof value === 'number'
      ? { intValue: String(value) }
      : typeof value === 'string'
        ? { stringValue: value }
        : { arrayValue: { values: value.map((item) => ({ stringValue: item })) } };
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
}

/** The entries as one OTLP/HTTP JSON logs request (`ExportLogsServiceRequest`). */
export function encode(
  entries: readonly LogEntry[],
  config: Pick<ExportConfig, 'command' | 'projectPath' | 'projectSalt'>,
): string {
  const records = logRecords(entries, config).map((record) => {
    const nanos = `${BigInt(record.time) * 1_000_000n}`;
    return {
      timeUnixNano: nanos,
      observedTimeUnixNano: nanos,
      severityNumber: record.severityNumber,
      severityText: record.severityText,
      body: { stringValue: record.body },
      attributes: keyValues(record.attributes),
    };
  });
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: keyValues(resourceAttributes()) },
        scopeLogs: [{ scope: { name: 'guard', version: guardVersion() }, logRecords: records }],
      },
    ],
  });
}

/**
 * The same request in OTLP's protobuf encoding, written by the OpenTelemetry project's own
 * serializer (@opentelemetry/otlp-transformer, pinned: it calls the serializer experimental). It is
 * loaded here, in the sender, on its first protobuf batch: never by the hook.
 */
export async function encodeProtobuf(
  entries: readonly LogEntry[],
  config: Pick<ExportConfig, 'command' | 'projectPath' | 'projectSalt'>,
): Promise<Uint8Array> {
  const { ProtobufLogsSerializer } = await import('@opentelemetry/otlp-transformer');
  // the serializer groups records by these two objects, and reads only the fields given here of the
  // SDK's records (a test decodes its bytes with another decoder and compares them with the JSON)
  const resource = { attributes: resourceAttributes() };
  const scope = { name: 'guard', version: guardVersion() };
  const records = logRecords(entries, config).map((record) => {
    const hrTime: [number, number] = [Math.floor(record.time / 1000), (record.time % 1000) * 1_000_000];
    return {
      hrTime,
      hrTimeObserved: hrTime,
      severityNumber: record.severityNumber,
      severityText: record.severityText,
      body: record.body,
      attributes: record.attributes,
      droppedAttributesCount: 0,
      resource,
      instrumentationScope: scope,
    };
  });
  type Records = Parameters<typeof ProtobufLogsSerializer.serializeRequest>[0];
  const bytes = ProtobufLogsSerializer.serializeRequest(records as unknown as Records);
  if (bytes === undefined) throw new Error('the OTLP protobuf serializer returned nothing');
  return bytes;
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
async function post(config: ExportConfig, entries: readonly LogEntry[]): Promise<string | undefined> {
  let body: string | Uint8Array;
  try {
    body = config.encoding === 'protobuf' ? await encodeProtobuf(entries, config) : encode(entries, config);
  } catch (error) {
    return `the records could not be encoded as ${config.encoding} (${(error as Error).message})`;
  }
  try {
    const response = await fetch(config.endpoint, {
      method: 'POST',
      headers: { 'content-type': CONTENT_TYPE[config.encoding], ...config.headers },
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
