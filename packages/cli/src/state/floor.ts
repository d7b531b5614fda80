// The system settings floor (pure): what an organisation's system settings file sets, and the
// settings that apply once the user's own are held to it. No I/O here: world/system-settings.ts
// reads the file, and the hook, `guard status` and the commands that change a setting call these.
import type { Mode } from '@guard/core';
import { MODES } from '@guard/core';
import type { ExportEncoding } from '../export/config.js';
import type { SecondOpinion, Settings } from './settings.js';

/** Export turned on for everyone by the system settings. */
export interface SystemExport {
  /** The collector's logs endpoint (`…/v1/logs`). */
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Whether the step's text (redacted as in the log) goes with each record. */
  readonly command: boolean;
  /** Whether the project's folder is sent as it is (else hashed). */
  readonly projectPath: boolean;
  /** The organisation's salt for the project's hash, so a list of common folders does not reverse it. */
  readonly projectSalt?: string;
  /** OTLP's JSON or protobuf encoding. */
  readonly encoding: ExportEncoding;
}

/** What the system settings set: each field a floor the user's settings may only tighten. */
export interface SystemFloor {
  /** fail-closed on for everyone. */
  readonly failClosed: boolean;
  /** Untrusted content raises the bar for the whole chat. */
  readonly strict: boolean;
  /** The most permissive mode allowed. */
  readonly mostPermissiveMode: Mode;
  /** Whether `guard off` is allowed at all. */
  readonly offAllowed: boolean;
  /** Rules no allow list, project yes or mode lets go ahead unasked; `*` is every rule. */
  readonly lockedRules: readonly string[];
  /** The second opinion everyone uses (the user's own is not used then). */
  readonly secondOpinion?: SecondOpinion;
  readonly export?: SystemExport;
}

/** The system settings as read: none, a floor, or a file that could not be used (the strictest floor then). */
export type SystemRead =
  | { readonly state: 'none'; readonly path: string }
  | { readonly state: 'read'; readonly path: string; readonly floor: SystemFloor }
  | { readonly state: 'unreadable'; readonly path: string; readonly problem: string };

/** The floor with no system file: none at all (today's behaviour exactly). */
export const NO_FLOOR: SystemFloor = {
  failClosed: false,
  strict: false,
  mostPermissiveMode: 'full',
  offAllowed: true,
  lockedRules: [],
};

/** The floor of a system file that cannot be read or used: the strictest (SPEC §7: never loosen). */
export const STRICTEST_FLOOR: SystemFloor = {
  failClosed: true,
  strict: true,
  mostPermissiveMode: 'standard',
  offAllowed: false,
  lockedRules: ['*'],
};

/** The floor a read stands for. */
export function floorOf(read: SystemRead): SystemFloor {
  return read.state === 'read' ? read.floor : read.state === 'none' ? NO_FLOOR : STRICTEST_FLOOR;
}

/** Where a setting's value came from. */
export type Source = 'system' | 'user' | 'default';

/** The settings the floor governs. */
export type FloorSetting = 'enabled' | 'failClosed' | 'strict' | 'mode' | 'secondOpinion';

/** The settings that apply, where each came from, and what of the user's was not used. */
export interface Resolved {
  readonly settings: Settings;
  readonly from: Readonly<Record<FloorSetting, Source>>;
  /** The user's settings that the floor overrules, one sentence each (status and doctor say them). */
  readonly ignored: readonly string[];
  readonly lockedRules: readonly string[];
}

const modeRank = (mode: Mode): number => MODES.indexOf(mode);

/** The mode the hook judges in for a mode asked for: that one, or the floor's most permissive when it is looser. */
export function modeWithin(floor: SystemFloor, mode: Mode): Mode {
  return modeRank(mode) > modeRank(floor.mostPermissiveMode) ? floor.mostPermissiveMode : mode;
}

/**
 * The user's settings held to the system floor: each value the stricter of the two, and the second
 * opinion the system's when it sets one. `defaults` tells which user values are only the defaults
 * (their source is then `default`). With no system file the user's settings come back unchanged.
 */
export function resolveSettings(read: SystemRead, user: Settings, defaults: Settings): Resolved {
  const floor = floorOf(read);
  const ignored: string[] = [];
  const userSource = (key: FloorSetting): Source =>
    JSON.stringify(user[key]) === JSON.stringify(defaults[key]) ? 'default' : 'user';
  const pick = <K extends FloorSetting>(key: K, systemValue: Settings[K], overrules: boolean, note: string) => {
    if (!overrules) return { value: user[key], source: userSource(key) };
    // a user value that says the same as the system's is no loosening to report
    if (userSource(key) === 'user' && JSON.stringify(user[key]) !== JSON.stringify(systemValue)) ignored.push(note);
    return { value: systemValue, source: 'system' as const };
  };
  const enabled = pick(
    'enabled',
    true,
    !floor.offAllowed && !user.enabled,
    'guard off is not used: the system settings do not allow guard off',
  );
  const failClosed = pick(
    'failClosed',
    true,
    floor.failClosed && !user.failClosed,
    'fail-closed off is not used: the system settings keep fail-closed on',
  );
  const strict = pick(
    'strict',
    true,
    floor.strict && !user.strict,
    'strict off is not used: the system settings keep strict on',
  );
  const mode = pick(
    'mode',
    floor.mostPermissiveMode,
    modeRank(user.mode) > modeRank(floor.mostPermissiveMode),
    `mode ${user.mode} is not used: the system settings allow at most ${floor.mostPermissiveMode}`,
  );
  const opinion = floor.secondOpinion;
  const secondOpinion = pick(
    'secondOpinion',
    opinion ?? user.secondOpinion,
    opinion !== undefined,
    "the second opinion in the user's settings is not used: the system settings set the second opinion",
  );
  if (read.state === 'unreadable')
    ignored.unshift(`${read.path}: ${read.problem}; guard works at the strictest until it is fixed`);
  return {
    settings: {
      ...user,
      enabled: enabled.value,
      failClosed: failClosed.value,
      strict: strict.value,
      mode: mode.value,
      secondOpinion: secondOpinion.value,
    },
    from: {
      enabled: enabled.source,
      failClosed: failClosed.source,
      strict: strict.source,
      mode: mode.source,
      secondOpinion: secondOpinion.source,
    },
    ignored,
    lockedRules: floor.lockedRules,
  };
}

/** A change the commands may make to the user's settings. */
export interface WantedChange {
  readonly enabled?: boolean;
  readonly failClosed?: boolean;
  readonly mode?: Mode;
  /** Turning the second opinion on or off, or pointing it elsewhere. */
  readonly secondOpinion?: boolean;
  /** Turning export off, or pointing it elsewhere. */
  readonly export?: boolean;
}

/**
 * Why the system settings do not allow a change, or undefined when they do (a change that tightens,
 * or one the floor does not govern). A system file that cannot be read allows no loosening.
 */
export function floorRefusal(read: SystemRead, change: WantedChange): string | undefined {
  const floor = floorOf(read);
  const by =
    read.state === 'unreadable'
      ? `the system settings (${read.path}) cannot be read (${read.problem}), so nothing that loosens guard is allowed`
      : `the system settings (${read.path})`;
  if (change.enabled === false && !floor.offAllowed)
    return read.state === 'unreadable' ? by : `${by} do not allow \`guard off\``;
  if (change.failClosed === false && floor.failClosed)
    return read.state === 'unreadable' ? by : `${by} keep fail-closed on`;
  if (change.mode !== undefined && modeRank(change.mode) > modeRank(floor.mostPermissiveMode))
    return read.state === 'unreadable' ? by : `${by} allow at most mode ${floor.mostPermissiveMode}`;
  if (change.secondOpinion !== undefined && floor.secondOpinion !== undefined)
    return `${by} set the second opinion for everyone`;
  if (change.export !== undefined && floor.export !== undefined)
    return `${by} send every decision to ${floor.export.endpoint} for everyone`;
  return undefined;
}
