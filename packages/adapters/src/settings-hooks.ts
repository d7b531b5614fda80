import type { AgentAnswers, AgentSetup, HookSwitches, HooksOff, Locations, SettingsFile } from './adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from './hook-config.js';
import type { HookFileSchema } from './hook-config.js';
import type { JsonValue } from './json-text.js';
import { withoutComments } from './scan.js';
import { isFields } from './wire.js';

/**
 * Agents shaped like Claude Code (Claude Code, Gemini CLI): guard's hooks sit under the `hooks` key
 * of a JSON settings.json, one group per event (`{"matcher"?, "hooks": [handler]}`), and settings
 * files can switch hooks off. Such an adapter states only what differs (a `SettingsHooks` and its
 * `HookSwitch`es); this module edits the file and reads the switches the same way for all of them.
 */

/** What differs between the agents that keep guard's hooks in their settings.json. */
export interface SettingsHooks {
  /** The agent, and how it is answered (hook-config.ts). */
  readonly agent: AgentAnswers;
  /** The events guard registers (the payloads name their event, so one command serves all). */
  readonly events: readonly string[];
  /** Events whose matcher filters tool names: guard's group there matches every tool (`"*"`). */
  readonly matcherEvents: readonly string[];
  /** The handler's `timeout`, in the agent's own unit. */
  readonly timeout: number;
  /** The handler's `name`, for an agent that lists, trusts and switches hooks off by name. */
  readonly name?: string;
  /** Handler members that are the agent's own fail-closed switch, written under fail-closed. */
  readonly failClosed?: Readonly<Record<string, JsonValue>>;
  /** The agent empties a hook's environment: guard's folder goes in the handler's `env` (`GUARD_HOME`). */
  readonly guardHomeEnv?: boolean;
  /** The agent reads its settings as JSON with comments (kept when editing); else strict JSON. */
  readonly comments?: boolean;
  /** The key of the event map: `hooks` unless said; '' for a file whose root is the map (Factory Droid's hooks.json). */
  readonly eventMapKey?: string;
}

/** The hook file's layout for the shared editor (`hook-config.ts`). */
function schemaOf(settings: SettingsHooks): HookFileSchema {
  return {
    agent: settings.agent,
    eventMapKey: settings.eventMapKey ?? 'hooks',
    ownsMap: false,
    events: settings.events,
    eventArgument: false,
    layout: 'group',
    commandKeys: ['command'],
    header: {},
    comments: settings.comments === true,
    entry: (event, command, options) => ({
      ...(settings.matcherEvents.includes(event) ? { matcher: '*' } : {}),
      hooks: [
        {
          ...(settings.name === undefined ? {} : { name: settings.name }),
          type: 'command',
          command,
          timeout: settings.timeout,
          ...(options.failClosed ? settings.failClosed : {}),
          ...(settings.guardHomeEnv === true && options.guardHome !== undefined
            ? { env: { GUARD_HOME: options.guardHome } }
            : {}),
        },
      ],
    }),
  };
}

/**
 * Setup's edits of the settings file: guard's groups added at the end of each event's list in
 * `hooks` (or updated), removed, and found; every other byte (comments too, where allowed) kept.
 */
export function settingsHooks(
  settings: SettingsHooks,
): Pick<AgentSetup, 'install' | 'uninstall' | 'installedCommands' | 'installedCommand'> {
  const schema = schemaOf(settings);
  return {
    install: (configText, options) => installHooks(schema, configText, options),
    uninstall: (configText) => uninstallHooks(schema, configText),
    installedCommands: (configText) => guardCommands(schema, configText),
    installedCommand: (configText, event) => guardCommandOn(schema, configText, event),
  };
}

/** One setting that keeps guard's hooks from running. */
export interface HookSwitch {
  /** Where it sits in a settings file: `["disableAllHooks"]`, `["hooksConfig", "enabled"]`. */
  readonly key: readonly [string, ...string[]];
  /** The value that switches hooks off, or `{ listed: name }`: that name in the list there. */
  readonly off: boolean | { readonly listed: string };
  /** `any`: every file that says so counts; `last`: only the last file that sets it at all (the one that wins). */
  readonly counts: 'any' | 'last';
  /** What follows, after "<file> sets …, " (`so Claude Code runs no hooks at all, guard's included.`). */
  readonly so: string;
}

/** Where an agent's hooks can be switched off, and by which settings. */
export interface SettingsSwitches {
  /** The settings files, lowest precedence first. */
  files(where: Locations): readonly string[];
  readonly switches: readonly HookSwitch[];
}

/** The `HookSwitches` of an agent whose settings files switch hooks off only by keys. */
export function settingsSwitches(settings: SettingsHooks, switchable: SettingsSwitches): HookSwitches {
  return {
    files: (where) => switchable.files(where),
    check: (files) => hooksOff(settings, files, switchable.switches),
  };
}

/** What the settings files (lowest precedence first) say that keeps guard's hooks from running. */
export function hooksOff(
  settings: Pick<SettingsHooks, 'comments'>,
  files: readonly SettingsFile[],
  switches: readonly HookSwitch[],
): HooksOff[] {
  const read = files.map((file) => ({ path: file.path, value: readSettings(settings, file) }));
  const off: HooksOff[] = [];
  for (const { key, off: setting, counts, so } of switches) {
    const values = read.map((file) => ({ path: file.path, value: valueAt(file.value, key) }));
    const sets = (value: unknown): boolean =>
      typeof setting === 'boolean' ? typeof value === 'boolean' : Array.isArray(value);
    const says = (value: unknown): boolean =>
      typeof setting === 'boolean' ? value === setting : Array.isArray(value) && value.includes(setting.listed);
    const what =
      typeof setting === 'boolean'
        ? `sets ${member(key, setting)}`
        : `lists ${JSON.stringify(setting.listed)} in "${key.join('.')}"`;
    const counted = counts === 'any' ? values : values.filter((file) => sets(file.value)).slice(-1);
    for (const file of counted) {
      if (says(file.value)) off.push({ message: `${file.path} ${what}, ${so}`, scope: 'everywhere' });
    }
  }
  return off;
}

/** A settings file's object, read as the agent reads it; undefined when it is missing or does not parse (it sets nothing). */
export function readSettings(
  settings: Pick<SettingsHooks, 'comments'>,
  file: SettingsFile | undefined,
): Record<string, unknown> | undefined {
  if (file?.text === undefined) return undefined;
  const text = file.text.replace(/^\uFEFF/, '');
  try {
    const value: unknown = JSON.parse(settings.comments === true ? withoutComments(text) : text);
    return isFields(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The value at a path of keys (objects only), or undefined. */
export function valueAt(value: unknown, key: readonly string[]): unknown {
  let at = value;
  for (const name of key) at = isFields(at) ? at[name] : undefined;
  return at;
}

/** `"a": {"b": false}` for `["a", "b"]` and false. */
function member(key: readonly string[], value: boolean): string {
  const [first, ...rest] = key;
  return `"${first}": ${rest.length === 0 ? JSON.stringify(value) : `{${member(rest, value)}}`}`;
}
