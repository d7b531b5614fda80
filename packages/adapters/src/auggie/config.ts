import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { auggie, auggieHome } from './agent.js';
import { auggieFiles } from './files.js';
import { capabilities } from './payload.js';

/**
 * guard's hooks in Auggie's settings.json (read as JSON with comments, which are kept). Auggie's
 * matcher is a regular expression (`*` is none and matches no tool): guard's groups have no
 * matcher, which Auggie takes as every tool, MCP servers' included.
 */
export const SETTINGS: SettingsHooks = {
  agent: auggie,
  events: capabilities.events,
  matcherEvents: [],
  // milliseconds, Auggie's unit
  timeout: auggieFiles.hookTimeout * 1000,
  comments: true,
};

/** `~/.augment/settings.json`, or `<project>/.augment/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.augment', 'settings.json');
  return posix.join(auggieHome(where), 'settings.json');
}

// Setup's edits: guard's groups added at the end of each event's list in `hooks`, removed, found.
export const { install, uninstall, installedCommands, installedCommand } = settingsHooks(SETTINGS);
