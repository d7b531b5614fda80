import { posix } from 'node:path';
import type { ConfigLevel, Locations } from '../adapter.js';
import type { SettingsHooks } from '../settings-hooks.js';
import { settingsHooks } from '../settings-hooks.js';
import { claudeHome } from './agent.js';
import { capabilities } from './payload.js';

// Seconds. Guard answers within 2 s (7 s at a chat start, which asks the MCP servers); past this
// Claude Code kills the hook and runs the step, or blocks it under fail-closed (onFailure "block").
const TIMEOUT_SECONDS = 10;

/** guard's hooks in Claude Code's settings.json (strict JSON: Claude Code reads no comments). */
export const SETTINGS: SettingsHooks = {
  agent: 'claude-code',
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
export const { install, uninstall, installedCommands } = settingsHooks(SETTINGS);
