// guard's system settings file: what an organisation sets for every user of the machine, read from
// under the system root its caller passes (the CLI and the hook pass SYSTEM_ROOT; tests a scratch
// folder). The hook reads it on every call: one small read, and no yaml parser unless the file is
// more than plain `key: value` lines. What it means is state/floor.ts's (pure).
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { rules as builtinRules } from '@guard/core';
import { ENCODINGS, encodingOf, logsEndpoint } from '../export/config.js';
import { readRegularText } from '../fsx.js';
import type { SystemExport, SystemFloor, SystemRead } from '../state/floor.js';
import { NO_FLOOR } from '../state/floor.js';
import { asBoolean, asMode, OPINION_KEYS, secondOpinionOf, SettingsError, settingsScalars } from '../state/settings.js';

/** The system settings file under a system root: `/etc/guard/settings.yaml`, `C:\ProgramData\guard\settings.yaml`. */
export function systemSettingsPath(root: string, platform: string = process.platform): string {
  return platform === 'win32'
    ? join(root, 'ProgramData', 'guard', 'settings.yaml')
    : join(root, 'etc', 'guard', 'settings.yaml');
}

/** The keys of the system settings file. Headers for the collector are `exportHeader-<Name>: value`. */
export const SYSTEM_KEYS = {
  failClosed: 'failClosed',
  strict: 'strict',
  mostPermissiveMode: 'mostPermissiveMode',
  offAllowed: 'offAllowed',
  lockedRules: 'lockedRules',
  exportOtlp: 'exportOtlp',
  exportCommand: 'exportCommand',
  exportProjectPath: 'exportProjectPath',
  exportProjectSalt: 'exportProjectSalt',
  exportEncoding: 'exportEncoding',
} as const;

const HEADER_PREFIX = 'exportHeader-';
const MAX_SYSTEM_BYTES = 64 * 1024;
const OWN: ReadonlySet<string> = new Set([...Object.values(SYSTEM_KEYS), ...Object.values(OPINION_KEYS)]);
const LISTS: ReadonlySet<string> = new Set([SYSTEM_KEYS.lockedRules]);
const RULE_ID = /^(\*|[a-z][\w-]*(\.[a-z][\w-]*)*)$/;

/** The system settings under `root`: none, the floor they set, or why they cannot be used. Never throws. */
export async function readSystemSettings(root: string, platform: string = process.platform): Promise<SystemRead> {
  const path = systemSettingsPath(root, platform);
  let text: string | undefined;
  try {
    text = readRegularText(path, MAX_SYSTEM_BYTES);
  } catch (error) {
    return {
      state: 'unreadable',
      path,
      problem: `it could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  // a link whose target is gone is a floor that cannot be read, not no floor
  if (text === undefined)
    return lstatSync(path, { throwIfNoEntry: false }) === undefined
      ? { state: 'none', path }
      : { state: 'unreadable', path, problem: 'it names a file that is not there' };
  try {
    return { state: 'read', path, floor: await parseSystemSettings(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { state: 'unreadable', path, problem: message.replace(/^settings\.yaml:? ?/, '').replace(/\.$/, '') };
  }
}

/** The floor a system settings file sets; throws a SettingsError for anything it cannot use. */
export async function parseSystemSettings(text: string): Promise<SystemFloor> {
  const values = await settingsScalars(text, OWN, LISTS);
  const keys = Object.keys(values);
  const unknown = keys.filter((key) => !OWN.has(key) && !key.startsWith(HEADER_PREFIX));
  // a typo must not quietly leave a floor out: the file is not used, and guard works at the strictest
  if (unknown.length > 0) throw new SettingsError(`${unknown.join(', ')} is not a system setting.`);
  const k = SYSTEM_KEYS;
  const lockedRules = (values[k.lockedRules] ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const bad = lockedRules.find((id) => !RULE_ID.test(id));
  if (bad !== undefined) throw new SettingsError(`lockedRules: "${bad}" is not a rule id.`);
  // a misspelt id would lock nothing: the file is not used, as for a misspelt key
  const unknownId = lockedRules.find((id) => id !== '*' && !builtinRules.some((rule) => rule.meta.id === id));
  if (unknownId !== undefined)
    throw new SettingsError(`lockedRules: ${unknownId} is not a rule guard knows; \`guard rules\` lists them.`);
  const opinion =
    values[OPINION_KEYS.on] === undefined ? undefined : asBoolean(values[OPINION_KEYS.on], false, OPINION_KEYS.on);
  const secondOpinion = opinion === true ? secondOpinionOf(values) : undefined;
  if (secondOpinion?.on === true && 'problem' in secondOpinion) throw new SettingsError(secondOpinion.problem);
  const exported = systemExport(values);
  return {
    failClosed: asBoolean(values[k.failClosed], NO_FLOOR.failClosed, k.failClosed),
    strict: asBoolean(values[k.strict], NO_FLOOR.strict, k.strict),
    mostPermissiveMode:
      values[k.mostPermissiveMode] === undefined ? NO_FLOOR.mostPermissiveMode : asMode(values[k.mostPermissiveMode]),
    offAllowed: asBoolean(values[k.offAllowed], NO_FLOOR.offAllowed, k.offAllowed),
    lockedRules,
    ...(secondOpinion === undefined ? {} : { secondOpinion }),
    ...(exported === undefined ? {} : { export: exported }),
  };
}

function systemExport(values: Readonly<Record<string, string>>): SystemExport | undefined {
  const k = SYSTEM_KEYS;
  const url = values[k.exportOtlp];
  if (url === undefined || url === '') {
    const stray = [k.exportCommand, k.exportProjectPath, k.exportProjectSalt, k.exportEncoding].find(
      (key) => key in values,
    );
    if (stray !== undefined) throw new SettingsError(`${stray} is set, but exportOtlp (the collector's URL) is not.`);
    return undefined;
  }
  const endpoint = logsEndpoint(url);
  if ('problem' in endpoint) throw new SettingsError(`exportOtlp: ${endpoint.problem}.`);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(values))
    if (key.startsWith(HEADER_PREFIX) && key.length > HEADER_PREFIX.length)
      headers[key.slice(HEADER_PREFIX.length)] = value;
  const salt = values[k.exportProjectSalt];
  const encoding = encodingOf(values[k.exportEncoding] ?? 'json');
  if (encoding === undefined)
    throw new SettingsError(`${k.exportEncoding}: "${values[k.exportEncoding]}" is not ${ENCODINGS.join(' or ')}.`);
  return {
    endpoint: endpoint.endpoint,
    headers,
    command: asBoolean(values[k.exportCommand], true, k.exportCommand),
    projectPath: asBoolean(values[k.exportProjectPath], false, k.exportProjectPath),
    ...(salt === undefined || salt === '' ? {} : { projectSalt: salt }),
    encoding,
  };
}
