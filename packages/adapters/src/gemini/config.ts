import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { gemini, geminiHome } from './agent.js';
import { capabilities } from './payload.js';
import { geminiFiles } from './files.js';

// Gemini CLI's unit is milliseconds
const TIMEOUT_MS = geminiFiles.hookTimeout * 1000;

/** The name guard's entries carry: Gemini CLI lists, trusts and switches hooks off by name. */
export const HOOK_NAME = 'guard';

/** guard's hooks in Gemini CLI's settings.json (JSON with comments, which are kept). */
export const SETTINGS: SettingsHooks = {
  agent: gemini,
  // The events the payload reader handles.
  events: capabilities.events,
  // The matcher is a regular expression over tool names on the tool events ("*" is every tool, MCP
  // included) and an exact string on the others, so those get none.
  matcherEvents: ['BeforeTool', 'AfterTool'],
  timeout: TIMEOUT_MS,
  name: HOOK_NAME,
  // Gemini CLI drops every variable but a few (PATH, HOME, …) from a hook's environment when
  // GITHUB_SHA is set, and names that look secret when its redaction is on; a handler's own `env`
  // is added after that, so guard's folder reaches the hook this way
  guardHomeEnv: true,
  comments: true,
  // The system settings are merged last, over the user's and the project's: there this keeps the
  // hooks on whatever a user's file says (its hooksConfig.disabled is a union of all files, so a
  // user's listing of guard's name still counts: status says so)
  systemOn: { key: ['hooksConfig', 'enabled'], off: false },
};

/** `~/.gemini/settings.json` (`$GEMINI_CLI_HOME` for the home), or `<project>/.gemini/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.gemini', 'settings.json');
  return posix.join(geminiHome(where), 'settings.json');
}

// Setup's edits: guard's groups added at the end of each event's list in `hooks`, removed, found.
export const { install, uninstall, installedCommands, installedCommand } = settingsHooks(SETTINGS);
