import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { claudeCode, claudeHome } from './agent.js';
import { capabilities } from './payload.js';
import { claudeCodeFiles } from './files.js';

const TIMEOUT_SECONDS = claudeCodeFiles.hookTimeout;

/** guard's hooks in Claude Code's settings.json (strict JSON: Claude Code reads no comments). */
export const SETTINGS: SettingsHooks = {
  agent: claudeCode,
  // The events the payload reader handles.
  events: capabilities.events,
  // The matcher filters tool names on the tool events ("*" includes MCP tools). SessionStart's
  // matcher filters how the session started (startup, resume, …) and UserPromptSubmit has none, so
  // those two get none.
  matcherEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
  timeout: TIMEOUT_SECONDS,
  // Claude Code's own fail-closed switch: a crash, a timeout or a reply it rejects blocks the step
  failClosed: { onFailure: 'block' },
};

/** `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude`), or `<project>/.claude/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.claude', 'settings.json');
  return posix.join(claudeHome(where), 'settings.json');
}

// Setup's edits: guard's groups added at the end of each event's list in `hooks`, removed, found.
export const { install, uninstall, installedCommands, installedCommand } = settingsHooks(SETTINGS);
