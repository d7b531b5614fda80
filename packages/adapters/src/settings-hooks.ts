import type { AgentAnswers, AgentSetup, HookSwitches, HooksOff, Locations, SettingsFile } from './adapter.js';
import { ConfigError } from './adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from './hook-config.js';
import type { HookFileSchema } from './hook-config.js';
import { appendMember, detectStyle, lineAt, parseJson, removeItem } from './json-text.js';
import type { JsonObject, JsonValue } from './json-text.js';
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
  /**
   * The setting that keeps hooks on, written into the agent's system settings beside guard's
   * entries (`guard setup --system`): they win over the user's and the project's settings, so a
   * user's switch (`hooksConfig.enabled: false`) no longer turns the system's hooks off.
   */
  readonly systemOn?: OnOff;
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
  const { systemOn } = settings;
  return {
    install: (configText, options) => {
      const hooked = installHooks(schema, configText, options);
      return options.system === true && systemOn !== undefined ? withSwitch(settings, systemOn, hooked) : hooked;
    },
    uninstall: (configText, options) => {
      // the switch goes with guard's entries (and only then): first, so a file left with nothing else is ''
      const on =
        options?.system === true && systemOn !== undefined && guardCommands(schema, configText).length > 0
          ? withoutSwitch(settings, systemOn, configText, options.original)
          : configText;
      return uninstallHooks(schema, on, options?.original);
    },
    installedCommands: (configText) => guardCommands(schema, configText),
    installedCommand: (configText, event) => guardCommandOn(schema, configText, event),
  };
}

/** A setting whose one value switches hooks off (and the other keeps them on). */
export type OnOff = Pick<HookSwitch, 'key'> & { readonly off: boolean };

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
    const setters = values.filter((file) => sets(file.value));
    const counted = counts === 'any' ? values : setters.slice(-1);
    for (const file of counted) {
      if (says(file.value)) off.push({ message: `${file.path} ${what}, ${so}`, scope: 'everywhere' });
    }
    // the file that wins is the last one of all (the system settings): those before it that try are said too
    const winner = counts === 'last' ? setters.at(-1) : undefined;
    if (winner === undefined || winner.path !== values.at(-1)?.path || says(winner.value)) continue;
    for (const file of setters.filter((one) => says(one.value))) {
      off.push({
        message: `${file.path} ${what}, but ${winner.path}, which wins over it, sets ${member(key, winner.value as boolean)}: guard's hooks run all the same.`,
        scope: 'overruled',
      });
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

/** The members along a switch's key: each object and the index of the key's member there (-1: missing). */
function pathOf(
  settings: Pick<SettingsHooks, 'comments'>,
  key: readonly string[],
  text: string,
): { readonly object: JsonObject; readonly index: number }[] {
  const doc = parseJson(text, { comments: settings.comments === true });
  const path: { object: JsonObject; index: number }[] = [];
  let at = doc;
  for (const name of key) {
    if (at.kind !== 'object') break;
    const index = at.members.findIndex((member) => member.key === name);
    path.push({ object: at, index });
    if (index === -1) break;
    at = (at.members[index] as JsonObject['members'][number]).value;
  }
  return path;
}

/**
 * The text with the setting that keeps hooks on (`on`'s key set to the opposite of its `off`),
 * added where it is missing; one that switches them off is refused, as are the administrator's
 * own values of another kind there: guard does not overrule them.
 */
function withSwitch(settings: Pick<SettingsHooks, 'comments'>, on: OnOff, text: string): string {
  const value = !on.off;
  const path = pathOf(settings, on.key, text);
  const last = path.at(-1);
  if (last === undefined) return text;
  const depth = path.length - 1;
  if (last.index === -1) {
    const nested = on.key.slice(depth + 1).reduceRight<JsonValue>((inner, name) => ({ [name]: inner }), value);
    return appendMember(text, last.object, on.key[depth] as string, nested, detectStyle(text));
  }
  const found = (last.object.members[last.index] as JsonObject['members'][number]).value;
  if (depth === on.key.length - 1 && found.kind === 'boolean' && found.value === value) return text;
  const where = `"${on.key.slice(0, depth + 1).join('.')}"`;
  throw new ConfigError(
    depth === on.key.length - 1 && found.kind === 'boolean'
      ? `${where} is ${String(found.value)} here, which turns every hook off for every user, guard's included; guard will not overrule it: take it out, or make it ${String(value)}`
      : `${where} must be ${depth === on.key.length - 1 ? 'true or false' : 'an object'} for guard to keep hooks on here`,
    lineAt(text, found.start),
  );
}

/** How many objects along the key (the root first) the original text had: 1 (the root) when it is not known. */
function objectsAlong(settings: Pick<SettingsHooks, 'comments'>, key: readonly string[], original?: string): number {
  if (original === undefined || original.trim() === '') return 1;
  try {
    return pathOf(settings, key, original).length;
  } catch {
    return 1;
  }
}

/**
 * The text without the setting `withSwitch` adds, and the objects it alone filled (not one the
 * `original` text had, when known); as it was when it is not there.
 */
function withoutSwitch(
  settings: Pick<SettingsHooks, 'comments'>,
  on: OnOff,
  text: string,
  original: string | undefined,
): string {
  const path = pathOf(settings, on.key, text);
  const last = path.at(-1);
  if (path.length !== on.key.length || last === undefined || last.index === -1) return text;
  const found = (last.object.members[last.index] as JsonObject['members'][number]).value;
  if (found.kind !== 'boolean' || found.value !== !on.off) return text;
  const had = objectsAlong(settings, on.key, original);
  let level = path.length - 1;
  while (level >= had && (path[level] as { object: JsonObject }).object.members.length === 1) level -= 1;
  const unit = path[level] as { object: JsonObject; index: number };
  return removeItem(text, unit.object, unit.index);
}
