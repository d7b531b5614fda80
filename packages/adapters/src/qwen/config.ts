import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { qwen, qwenHome } from './agent.js';
import { qwenFiles } from './files.js';
import { capabilities } from './payload.js';

/** guard's hooks in Qwen Code's settings.json (JSON with comments, which are kept). */
export const SETTINGS: SettingsHooks = {
  agent: qwen,
  // The events the payload reader handles.
  events: capabilities.events,
  // The matcher filters tool names on the tool events ("*" is every tool, MCP included); the
  // others get none.
  matcherEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
  // seconds (below 1000, Qwen Code's unit is the second)
  timeout: qwenFiles.hookTimeout,
  comments: true,
  // The system settings are merged last, over the user's and the project's: there this keeps the
  // hooks on whatever a user's file says
  systemOn: { key: ['disableAllHooks'], off: true },
};

/** `$QWEN_HOME/settings.json` (default `~/.qwen`), or `<project>/.qwen/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.qwen', 'settings.json');
  return posix.join(qwenHome(where), 'settings.json');
}

// Setup's edits: guard's groups added at the end of each event's list in `hooks`, removed, found.
export const { install, uninstall, installedCommands, installedCommand } = settingsHooks(SETTINGS);
