import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations } from '../adapter.js';
import { guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { claudeHome } from './agent.js';
import { capabilities } from './payload.js';
import { claudeCodeFiles } from './files.js';

const TIMEOUT_SECONDS = claudeCodeFiles.hookTimeout;

// The matcher filters tool names on the tool events ("*" includes MCP tools). SessionStart's
// matcher filters how the session started (startup, resume, …) and UserPromptSubmit has none, so
// those two get none.
const MATCHED_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

const schema: HookFileSchema = {
  agent: 'claude-code',
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles; the payloads name their event, so one command serves all.
  events: capabilities.events,
  eventArgument: false,
  layout: 'group',
  commandKeys: ['command'],
  header: {},
  entry: (event, command, options) => ({
    ...(MATCHED_EVENTS.includes(event) ? { matcher: '*' } : {}),
    hooks: [
      {
        type: 'command',
        command,
        timeout: TIMEOUT_SECONDS,
        // Claude Code's own fail-closed switch: a crash, a timeout or a reply it rejects blocks the step
        ...(options.failClosed ? { onFailure: 'block' } : {}),
      },
    ],
  }),
};

/** `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude`), or `<project>/.claude/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.claude', 'settings.json');
  return posix.join(claudeHome(where), 'settings.json');
}

/** Adds guard's groups at the end of each event's list in `hooks`; every other byte is kept. */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's handlers (and what only they filled); every other byte is kept. */
export function uninstall(configText: string): string {
  return uninstallHooks(schema, configText);
}

/** guard's commands in the file. */
export function installedCommands(configText: string): readonly string[] {
  return guardCommands(schema, configText);
}
