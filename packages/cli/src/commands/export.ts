import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, GuardError } from '../errors.js';
import {
  ENCODINGS,
  encodingOf,
  exportFor,
  exportPath,
  logHead,
  logsEndpoint,
  readExport,
  readState,
  statePath,
} from '../export/config.js';
import type { ExportEncoding } from '../export/config.js';
import { writeFileAtomic } from '../fsx.js';
import type { Io } from '../io.js';
import { appendLog, LOG_FILE } from '../state/decision-log.js';
import { guardHomeFrom } from '../state/settings.js';
import { refuseBelowFloor } from '../state/switches.js';
import { readSystemSettings } from '../world/system-settings.js';

/** How the messages name each encoding. */
const ENCODING_NAME: Readonly<Record<ExportEncoding, string>> = { json: 'JSON', protobuf: 'protobuf' };

export interface ExportOnOptions {
  readonly otlp: string | undefined;
  readonly header?: readonly string[];
  /** false with --no-command: the records leave the step's text out. */
  readonly command: boolean;
  /** --project-path: the records name the project's folder as it is, not its hash. */
  readonly projectPath?: boolean;
  /** --encoding: json (the default) or protobuf. */
  readonly encoding?: string;
}

/**
 * `guard export on --otlp URL [--header K=V]… [--no-command] [--encoding json|protobuf]`: every
 * decision from now on goes to the collector as an OpenTelemetry log record. The headers are kept in
 * export.json (mode 0600), never printed back.
 */
export async function exportOn(options: ExportOnOptions, io: Io): Promise<void> {
  if (options.otlp === undefined)
    throw new GuardError(
      'Say where the collector is.',
      'Run `guard export on --otlp https://collector.example:4318`.',
      ExitCode.Usage,
    );
  const endpoint = logsEndpoint(options.otlp);
  if ('problem' in endpoint) throw new GuardError(`--otlp: ${endpoint.problem}.`, undefined, ExitCode.Usage);
  const headers: Record<string, string> = {};
  for (const pair of options.header ?? []) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      throw new GuardError(
        `--header "${pair}" is not NAME=VALUE.`,
        'Run `guard export on --otlp URL --header Authorization="Bearer …"`.',
        ExitCode.Usage,
      );
    headers[key] = pair.slice(at + 1);
  }
  const encoding = encodingOf(options.encoding ?? 'json');
  if (encoding === undefined)
    throw new GuardError(
      `--encoding "${options.encoding}" is not ${ENCODINGS.join(' or ')}.`,
      'Run `guard export on --otlp URL --encoding protobuf` (JSON is the default).',
      ExitCode.Usage,
    );
  await refuseBelowFloor({ export: true }, io);
  const guardHome = guardHomeFrom(io.env, io.home());
  const config = {
    endpoint: endpoint.endpoint,
    headers,
    command: options.command,
    projectPath: options.projectPath === true,
    encoding,
  };
  writeFileAtomic(exportPath(guardHome), `${JSON.stringify(config, null, 2)}\n`, 0o600);
  appendLog(guardHome, { time: new Date().toISOString(), how: 'switch', changed: { export: endpoint.endpoint } });
  // from the end of the log as it is now: what was decided before export was on stays local
  const log = statSync(join(guardHome, LOG_FILE));
  const head = logHead(join(guardHome, LOG_FILE));
  const state = { position: { ino: log.ino, head, offset: log.size }, sent: 0, dropped: 0 };
  writeFileAtomic(statePath(guardHome), `${JSON.stringify(state, null, 2)}\n`, 0o600);
  io.out(
    `Export is on: each decision from now on goes to ${endpoint.endpoint} as an OpenTelemetry log record in OTLP ${ENCODING_NAME[encoding]}${options.command ? ' (the step redacted as in the log)' : ' (without the step)'}${Object.keys(headers).length > 0 ? `, with the header${Object.keys(headers).length === 1 ? '' : 's'} ${Object.keys(headers).join(', ')}` : ''}.\nA short-lived sender ships them after the hook's answers; \`guard export status\` shows how it goes.\n`,
  );
}

/** `guard export off`: nothing more is sent; what was not sent yet stays in the log only. */
export async function exportOff(io: Io): Promise<void> {
  await refuseBelowFloor({ export: false }, io);
  const guardHome = guardHomeFrom(io.env, io.home());
  const was = readExport(guardHome);
  rmSync(exportPath(guardHome), { force: true });
  rmSync(statePath(guardHome), { force: true });
  if (was === undefined) {
    io.out('Export was already off; nothing changed.\n');
    return;
  }
  appendLog(guardHome, { time: new Date().toISOString(), how: 'switch', changed: { export: 'off' } });
  io.out(`Export is off: nothing more goes to ${was.endpoint}.\n`);
}

/** `guard export status [--json]`: where the records go, how many went, and the last problem. */
export async function exportStatus(options: { readonly json: boolean }, io: Io, running: boolean): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const config = exportFor(guardHome, await readSystemSettings(io.systemRoot));
  const state = readState(guardHome);
  const report = {
    on: config !== undefined,
    ...(config === undefined
      ? {}
      : {
          endpoint: config.endpoint,
          headers: Object.keys(config.headers),
          command: config.command,
          projectPath: config.projectPath,
          projectSalted: !config.projectPath && config.projectSalt !== undefined,
          encoding: config.encoding,
          from: config.system === true ? 'system' : 'user',
        }),
    sent: state.sent,
    dropped: state.dropped,
    senderRunning: running,
    ...(state.lastSent === undefined ? {} : { lastSent: state.lastSent }),
    ...(state.lastError === undefined ? {} : { lastError: state.lastError, lastErrorAt: state.lastErrorAt }),
  };
  if (options.json) {
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  if (config === undefined) {
    io.out('Export is off (`guard export on --otlp URL` sends each decision to an OpenTelemetry collector).\n');
    return;
  }
  const lines = [
    `Export is on${config.system === true ? ' (set by the system settings, for everyone)' : ''}: to ${config.endpoint} as OTLP ${ENCODING_NAME[config.encoding]}${config.command ? '' : ', without the steps'}${config.projectPath ? ', with project folders as they are' : `, with project folders hashed${config.projectSalt === undefined ? '' : " with the organisation's salt"}`}${report.headers?.length ? ` (headers: ${report.headers.join(', ')})` : ''}.`,
    `sent: ${state.sent}${state.lastSent === undefined ? '' : ` (last at ${state.lastSent})`}; sender ${running ? 'running' : 'not running (one starts after the next hook call)'}`,
    ...(state.dropped > 0
      ? [
          `the log rotated past records not yet sent ${state.dropped} time${state.dropped === 1 ? '' : 's'}: those were dropped`,
        ]
      : []),
    ...(state.lastError === undefined
      ? []
      : [`last problem: ${state.lastError} (at ${state.lastErrorAt ?? '?'}); the records wait in the log`]),
  ];
  io.out(`${lines.join('\n')}\n`);
}
