import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode, OpinionBars } from '@guard/core';
import { DEFAULT_BARS } from '@guard/core';
import { readRegularText, readTextIfExists, writeFileAtomic } from '../fsx.js';
import { ifUnlocked, withLockAsync } from './lock.js';

/** Where the second opinion's model is and how to ask it (SPEC §11). */
export interface SecondOpinionConfig {
  /** The server's base URL as given (`http://127.0.0.1:11434/v1`). */
  readonly url: string;
  /** The `chat/completions` endpoint worked out from it. */
  readonly endpoint: string;
  readonly model: string;
  /** The environment variable the key is read from (the key itself is never stored). */
  readonly keyEnv?: string;
  /** Time limit per judgement. */
  readonly timeoutMs: number;
  readonly bars: OpinionBars;
}

/**
 * The second opinion's switch: off (the default); on with a model to ask; or on with settings it
 * cannot use (hand-edited), in which case every step it would judge is logged as not judged, and
 * the rules decide alone.
 */
export type SecondOpinion =
  | { readonly on: false }
  | { readonly on: true; readonly config: SecondOpinionConfig }
  | { readonly on: true; readonly problem: string };

export const SECOND_OPINION_OFF: SecondOpinion = Object.freeze({ on: false });

/** The default time limit per judgement, and the most it may be (well within the hook's deadline). */
export const OPINION_TIMEOUT = Object.freeze({ default: 500, min: 50, max: 1_500 });

/** guard's switches, kept in `settings.yaml` in guard's folder. */
export interface Settings {
  /** `guard on` / `guard off`. */
  readonly enabled: boolean;
  /** `guard fail-closed on|off`: block when guard itself fails. */
  readonly failClosed: boolean;
  /** Untrusted content raises the bar for the whole chat, not only until the next message. */
  readonly strict: boolean;
  /** A chat's memory is forgotten after this many idle days. */
  readonly idleDays: number;
  /** `guard mode standard|extended|full`: how much runs without asking (SPEC §12). */
  readonly mode: Mode;
  /** `guard second-opinion on|off`. */
  readonly secondOpinion: SecondOpinion;
}

export const DEFAULT_SETTINGS: Settings = {
  enabled: true,
  failClosed: false,
  strict: false,
  idleDays: 7,
  mode: 'standard',
  secondOpinion: SECOND_OPINION_OFF,
};

/**
 * What the hook works with when settings.yaml cannot be read and no good copy was kept: guard on,
 * fail-closed, strict. A broken file never drops guard to its loosest (SPEC §7).
 */
export const STRICTEST_SETTINGS: Settings = {
  enabled: true,
  failClosed: true,
  strict: true,
  idleDays: 7,
  mode: 'standard',
  secondOpinion: SECOND_OPINION_OFF,
};

/** settings.yaml is read only up to this size; a bigger one is not a settings file. */
const MAX_SETTINGS_BYTES = 64 * 1024;

const HEADER = `# guard settings. Change them with \`guard on|off\`, \`guard fail-closed on|off\`, \`guard mode\` and
# \`guard second-opinion on|off\`; comments and other keys you add here are kept.
`;

/** Where guard keeps its settings, state and log: GUARD_HOME, else the platform's state folder. */
export function guardHomeFrom(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  platform: string = process.platform,
): string {
  if (env.GUARD_HOME) return env.GUARD_HOME;
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'guard');
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'guard');
}

/**
 * guard's folder when the home folder alone would not lead to it (GUARD_HOME, or XDG_STATE_HOME,
 * set): what setup writes into the entries of an agent that cleans its hooks' environment.
 */
export function movedGuardHome(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  platform: string = process.platform,
): string | undefined {
  const home_ = guardHomeFrom(env, home, platform);
  return home_ === guardHomeFrom({}, home, platform) ? undefined : home_;
}

export function settingsPath(guardHome: string): string {
  return join(guardHome, 'settings.yaml');
}

/** The settings as last read whole (JSON), kept so that a broken settings.yaml changes nothing. */
export function lastGoodPath(guardHome: string): string {
  return join(guardHome, 'settings.last-good.json');
}

/** A settings file that exists but cannot be read as settings. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

const SIMPLE_LINE = /^([A-Za-z][\w-]*):[ \t]*([^#\s][^#]*?)?[ \t]*(#.*)?$/;

/**
 * Reads the settings on the hook's hot path without loading the yaml library: guard writes plain
 * top-level `key: value` lines, so those are read directly; anything fancier (a flow map, a nested
 * block) falls back to the yaml parser. A missing file means the defaults.
 */
export async function readSettings(guardHome: string): Promise<Settings> {
  const text = settingsText(guardHome);
  return text === undefined ? DEFAULT_SETTINGS : parseSettings(text);
}

/** settings.yaml's text, undefined when there is none; a file that cannot be read is a SettingsError. */
function settingsText(guardHome: string): string | undefined {
  try {
    return readRegularText(settingsPath(guardHome), MAX_SETTINGS_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SettingsError(`settings.yaml could not be read (${code ?? (error as Error).message}).`);
  }
}

async function parseSettings(text: string): Promise<Settings> {
  const values = await settingsScalars(text);
  // a file of keys none of which is guard's (`this: is: wrong` read loosely, a typo in every key)
  // must not mean the defaults, which may be looser than what it replaced; an empty file (or only
  // comments) is the defaults, as `guard` itself leaves it
  const keys = Object.keys(values);
  if (keys.length > 0 && !keys.some((key) => KNOWN_KEYS.has(key)))
    throw new SettingsError("settings.yaml holds none of guard's settings.");
  return {
    enabled: asBoolean(values.enabled, DEFAULT_SETTINGS.enabled, 'enabled'),
    failClosed: asBoolean(values.failClosed, DEFAULT_SETTINGS.failClosed, 'failClosed'),
    strict: asBoolean(values.strict, DEFAULT_SETTINGS.strict, 'strict'),
    idleDays: asNumber(values.idleDays, DEFAULT_SETTINGS.idleDays, 'idleDays'),
    mode: asMode(values.mode),
    secondOpinion: asBoolean(values.secondOpinion, false, 'secondOpinion')
      ? secondOpinionOf(values)
      : SECOND_OPINION_OFF,
  };
}

/** The keys `guard second-opinion on` writes (flat, so the hook reads them without the yaml parser). */
export const OPINION_KEYS = {
  on: 'secondOpinion',
  url: 'secondOpinionUrl',
  model: 'secondOpinionModel',
  keyEnv: 'secondOpinionKeyEnv',
  timeoutMs: 'secondOpinionTimeoutMs',
  irreversible: 'secondOpinionIrreversible',
  outside: 'secondOpinionOutside',
  irreversibleAlone: 'secondOpinionIrreversibleAlone',
} as const;

/** The second opinion's settings, when it is on: usable, or the first thing wrong with them. */
export function secondOpinionOf(values: Readonly<Record<string, string>>): SecondOpinion {
  const k = OPINION_KEYS;
  const endpoint = opinionEndpoint(values[k.url] ?? '');
  if ('problem' in endpoint) return { on: true, problem: `${k.url}: ${endpoint.problem}` };
  const model = values[k.model] ?? '';
  const modelProblem = opinionModelProblem(model);
  if (modelProblem !== undefined) return { on: true, problem: `${k.model}: ${modelProblem}` };
  const keyEnv = values[k.keyEnv];
  if (keyEnv !== undefined && keyEnv !== '' && !ENV_NAME.test(keyEnv))
    return { on: true, problem: `${k.keyEnv}: "${keyEnv}" is not an environment variable's name` };
  const timeoutMs = values[k.timeoutMs] === undefined ? OPINION_TIMEOUT.default : Number(values[k.timeoutMs]);
  const timeoutProblem = opinionTimeoutProblem(timeoutMs);
  if (timeoutProblem !== undefined) return { on: true, problem: `${k.timeoutMs}: ${timeoutProblem}` };
  const bars: Record<keyof OpinionBars, number> = { ...DEFAULT_BARS };
  for (const bar of ['irreversible', 'outside', 'irreversibleAlone'] as const) {
    const text = values[k[bar]];
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0 || value > 1)
      return { on: true, problem: `${k[bar]}: must be a probability above 0 and at most 1, not "${text}"` };
    bars[bar] = value;
  }
  return {
    on: true,
    config: {
      url: values[k.url] ?? '',
      endpoint: endpoint.endpoint,
      model,
      ...(keyEnv === undefined || keyEnv === '' ? {} : { keyEnv }),
      timeoutMs,
      bars,
    },
  };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a name can be an environment variable's. */
export function isEnvName(name: string): boolean {
  return ENV_NAME.test(name);
}

/**
 * The `chat/completions` endpoint of a base URL, or why guard will not send steps there: only
 * `https://`, or plain `http://` to this computer (`127.0.0.1`, `localhost`), with no name or
 * password in the URL (a key belongs in an environment variable) and no `#`.
 */
export function opinionEndpoint(text: string): { readonly endpoint: string } | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `"${text}" is not a URL` };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)))
    return { problem: 'only http:// to this computer (127.0.0.1, localhost, [::1]) or an https:// URL is used' };
  if (url.username !== '' || url.password !== '')
    return { problem: 'the URL holds a name or password; put the key in an environment variable and pass --key-env' };
  if (url.hash !== '') return { problem: 'the URL has a #fragment' };
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/chat/completions') ? path : `${path}/chat/completions`;
  return { endpoint: url.toString() };
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a model name cannot be used, or undefined. */
export function opinionModelProblem(model: string): string | undefined {
  if (model === '') return 'no model is named';
  if (model.length > 200 || !/^[\w.:/@+-]+$/.test(model))
    return `"${model.slice(0, 60)}" is not a model name (letters, digits and . : / @ + - _ only)`;
  return undefined;
}

/** Why a time limit cannot be used, or undefined. */
export function opinionTimeoutProblem(ms: number): string | undefined {
  if (!Number.isInteger(ms) || ms < OPINION_TIMEOUT.min || ms > OPINION_TIMEOUT.max)
    return `the time limit must be a whole number of ms from ${OPINION_TIMEOUT.min} to ${OPINION_TIMEOUT.max} (well within the hook's deadline)`;
  return undefined;
}

/**
 * A settings file's top-level values as text: the plain `key: value` lines read directly, anything
 * fancier by the yaml parser (loaded only then). A list under one of `lists` comes back as its items
 * joined by commas; any other value that is not a single one is an error under one of `own` keys.
 */
export async function settingsScalars(
  text: string,
  own: ReadonlySet<string> = new Set(Object.keys(DEFAULT_SETTINGS)),
  lists: ReadonlySet<string> = new Set(),
): Promise<Record<string, string>> {
  if (text.includes('\uFFFD')) throw new SettingsError('settings.yaml is not UTF-8 text.');
  return simpleScalars(text) ?? (await yamlScalars(text, own, lists));
}

/** The plain `key: value` lines; undefined for anything the yaml parser must read (or refuse). */
function simpleScalars(text: string): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\uFEFF/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#') || line === '---') continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match?.[1] || match[2] === undefined) return undefined;
    // `a: b: c` (not YAML), a key given twice, a value YAML reads in its own way: the parser decides
    if (/:[ \t]|^[[{&*!|>%@`]/.test(match[2]) || match[1] in values) return undefined;
    values[match[1]] = unquote(match[2]);
  }
  return values;
}

function unquote(value: string): string {
  const first = value[0];
  if ((first === '"' || first === "'") && value.endsWith(first) && value.length >= 2) return value.slice(1, -1);
  return value;
}

async function yamlScalars(
  text: string,
  own: ReadonlySet<string>,
  lists: ReadonlySet<string>,
): Promise<Record<string, string>> {
  const { parseDocument } = await import('yaml');
  // strict: an error or a warning (a duplicate key, an unknown tag) is a file guard cannot read
  let parsed: unknown;
  try {
    const doc = parseDocument(text, { strict: true, uniqueKeys: true, prettyErrors: false });
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem !== undefined) throw problem;
    parsed = doc.toJS();
  } catch (error) {
    throw new SettingsError(`settings.yaml is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SettingsError('settings.yaml must be a mapping of keys to values.');
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values[key] = String(value);
    else if (lists.has(key) && Array.isArray(value) && value.every((item) => typeof item === 'string'))
      values[key] = value.join(',');
    // `failClosed:` with nothing after it must not quietly mean the default
    else if (own.has(key))
      throw new SettingsError(`settings.yaml: ${key} must be a single value, not ${JSON.stringify(value)}.`);
  }
  return values;
}

/** The keys guard reads from settings.yaml. */
export const KNOWN_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(DEFAULT_SETTINGS),
  ...Object.values(OPINION_KEYS),
]);

const TRUE = new Set(['true', 'yes', 'on']);
const FALSE = new Set(['false', 'no', 'off']);

export function asBoolean(value: string | undefined, fallback: boolean, key: string): boolean {
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  throw new SettingsError(`settings.yaml: ${key} must be true or false, not "${value}".`);
}

const MODE_NAMES: readonly string[] = ['standard', 'extended', 'full'];

/** A mode that is not one of the three is an error, not a quiet fall back to some other mode. */
export function asMode(value: string | undefined): Mode {
  if (value === undefined) return DEFAULT_SETTINGS.mode;
  if (MODE_NAMES.includes(value)) return value as Mode;
  throw new SettingsError(`settings.yaml: mode must be standard, extended or full, not "${value}".`);
}

function asNumber(value: string | undefined, fallback: number, key: string): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new SettingsError(`settings.yaml: ${key} must be a positive number, not "${value}".`);
  return number;
}

/** The settings the hook works with, and why they are not settings.yaml's own when they are not. */
export interface EffectiveSettings {
  readonly settings: Settings;
  /** settings.yaml could not be used: what went wrong, and what was used instead. */
  readonly problem?: string;
}

/**
 * The settings for the hook (SPEC §7: unreadable settings never loosen). A good settings.yaml is
 * used as it is, and a copy of what it says is kept beside it (written only when it changed). A
 * settings.yaml that cannot be read, or that is gone while a copy exists, gives the last good
 * settings; with no copy, the strictest. Never throws. `keep: false` reads only (`guard scan`):
 * the copy is used, never written.
 */
export async function effectiveSettings(
  guardHome: string,
  { keep = true }: { readonly keep?: boolean } = {},
): Promise<EffectiveSettings> {
  const copyPath = lastGoodPath(guardHome);
  let copy: string | undefined;
  try {
    copy = readRegularText(copyPath, MAX_SETTINGS_BYTES);
  } catch {
    copy = undefined;
  }
  let problem: string;
  try {
    const read = settingsText(guardHome);
    // an emptied file is to the hook what a removed one is: the last good settings stay
    const text = read !== undefined && saysAnything(read) ? read : undefined;
    if (text === undefined && copy === undefined) return { settings: DEFAULT_SETTINGS };
    if (text !== undefined) {
      const settings = await parseSettings(text);
      const kept = `${JSON.stringify(settings)}\n`;
      if (keep && kept !== copy) keepCopyOf(guardHome, text, kept);
      return { settings };
    }
    problem = read === undefined ? 'settings.yaml is gone' : 'settings.yaml is empty';
  } catch (error) {
    problem = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
  }
  const kept = copy === undefined ? undefined : parseCopy(copy);
  return kept === undefined
    ? { settings: STRICTEST_SETTINGS, problem: `${problem}; guard works fail-closed and strict until it is fixed` }
    : { settings: kept, problem: `${problem}; guard works with the last good settings until it is fixed` };
}

/** Whether a settings file holds more than blank lines, comments and a document marker. */
function saysAnything(text: string): boolean {
  return text.split(/\r?\n/).some((line) => line.trim() !== '' && !line.trimStart().startsWith('#') && line !== '---');
}

function settingsLock(guardHome: string): string {
  return `${settingsPath(guardHome)}.lock`;
}

/**
 * Keeps `kept` as the last good copy if settings.yaml still says `text`, under the settings' lock
 * and only if it is free (the hook never waits on it): a hook that read the file before
 * `guard fail-closed on` changed it must not write the older settings over the newer copy.
 */
function keepCopyOf(guardHome: string, text: string, kept: string): void {
  try {
    ifUnlocked(settingsLock(guardHome), () => {
      if (settingsText(guardHome) === text) keepCopy(lastGoodPath(guardHome), kept);
    });
  } catch {
    // a folder that cannot be written keeps the older copy; the settings themselves were read
  }
}

function keepCopy(path: string, text: string): void {
  try {
    writeFileAtomic(path, text, 0o600);
  } catch {
    // a folder that cannot be written keeps the older copy; the settings themselves were read
  }
}

function isOpinion(value: unknown): value is SecondOpinion {
  if (typeof value !== 'object' || value === null) return false;
  const opinion = value as Partial<Record<'on' | 'config' | 'problem', unknown>>;
  if (opinion.on === false) return true;
  return opinion.on === true && (typeof opinion.problem === 'string' || typeof opinion.config === 'object');
}

function parseCopy(text: string): Settings | undefined {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof Settings, unknown>>;
    if (
      typeof value.enabled !== 'boolean' ||
      typeof value.failClosed !== 'boolean' ||
      typeof value.strict !== 'boolean' ||
      typeof value.idleDays !== 'number' ||
      !(value.idleDays > 0) ||
      !(value.mode === undefined || MODE_NAMES.includes(value.mode as string))
    )
      return undefined;
    return {
      enabled: value.enabled,
      failClosed: value.failClosed,
      strict: value.strict,
      idleDays: value.idleDays,
      mode: (value.mode as Mode | undefined) ?? 'standard',
      // the copy is guard's own JSON: an opinion it kept is as it was written
      secondOpinion: isOpinion(value.secondOpinion) ? value.secondOpinion : SECOND_OPINION_OFF,
    };
  } catch {
    return undefined;
  }
}

/**
 * Changes some settings, keeping every comment and every other key of the file (yaml Document
 * API; the file is never re-serialised from a plain object). Returns the settings before and after.
 */
export async function updateSettings(
  guardHome: string,
  changes: Readonly<Record<string, string | number | boolean | undefined>>,
): Promise<{ readonly before: Settings; readonly after: Settings }> {
  const path = settingsPath(guardHome);
  const { parseDocument } = await import('yaml');
  mkdirSync(guardHome, { recursive: true, mode: 0o700 });
  // under the lock: two commands at once each change the file as the other left it, and the copy
  // is always of the file as it is
  return withLockAsync(settingsLock(guardHome), async () => {
    const before = await readSettings(guardHome);
    const doc = parseDocument(readTextIfExists(path) ?? HEADER);
    if (doc.errors.length > 0)
      throw new SettingsError(`${path} is not valid YAML: ${doc.errors[0]?.message.split('\n')[0] ?? ''}`);
    // undefined removes the key
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) doc.delete(key);
      else doc.set(key, value);
    }
    writeFileAtomic(path, String(doc));
    const after = await readSettings(guardHome);
    keepCopy(lastGoodPath(guardHome), `${JSON.stringify(after)}\n`);
    return { before, after };
  });
}
