import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { droid, droidHome } from './agent.js';
import { droidFiles } from './files.js';
import { capabilities } from './payload.js';

/**
 * guard's hooks in Factory Droid's hooks.json: the events are the file's root keys (JSON with
 * comments, which are kept). Droid takes an event's list from hooks.json over the same event's list
 * in `hooks` of settings.json in the same folder (docs/agents-observed.md).
 */
export const SETTINGS: SettingsHooks = {
  agent: droid,
  events: capabilities.events,
  // the matcher filters tool names on the tool events ("*" is every tool, MCP included)
  matcherEvents: ['PreToolUse', 'PostToolUse'],
  // seconds
  timeout: droidFiles.hookTimeout,
  comments: true,
  eventMapKey: '',
};

/** `~/.factory/hooks.json` (`$FACTORY_HOME_OVERRIDE/.factory`), or `<project>/.factory/hooks.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.factory', 'hooks.json');
  return posix.join(droidHome(where), 'hooks.json');
}

/**
 * guard's hooks in the machine's managed settings (`/etc/factory/settings.json`, `guard setup droid
 * --system`): a settings file, whose event map is its `hooks`. Beside guard's entries goes
 * `"hooksDisabled": false`: Droid takes the organisation's value over the runtime's, a project's and
 * the user's (seen on 0.215.0), so their `hooksDisabled: true` no longer turns the machine's hooks off.
 */
export const SYSTEM_SETTINGS: SettingsHooks = {
  ...SETTINGS,
  eventMapKey: 'hooks',
  systemOn: { key: ['hooks', 'hooksDisabled'], off: true },
};

const hooksJson = settingsHooks(SETTINGS);
const managed = settingsHooks(SYSTEM_SETTINGS);

/** The edits of the file a level holds: a hooks.json, or the managed settings (`system`). */
const of = (options?: { readonly system?: true }): typeof hooksJson => (options?.system === true ? managed : hooksJson);

// Setup's edits: guard's groups added at the end of each event's list, removed, found.
export const install: typeof hooksJson.install = (configText, options) => of(options).install(configText, options);
export const uninstall: typeof hooksJson.uninstall = (configText, options) =>
  of(options).uninstall(configText, options);
export const installedCommands: typeof hooksJson.installedCommands = (configText, options) =>
  of(options).installedCommands(configText);
export const installedCommand: typeof hooksJson.installedCommand = (configText, event, options) =>
  of(options).installedCommand(configText, event);
