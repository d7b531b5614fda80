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

// Setup's edits: guard's groups added at the end of each event's list, removed, found.
export const { install, uninstall, installedCommands, installedCommand } = settingsHooks(SETTINGS);
