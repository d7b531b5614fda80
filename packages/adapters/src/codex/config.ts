import { posix } from 'node:path';
import { ConfigError } from '../adapter.js';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { lineAt } from '../json-text.js';
import { codex, codexHome } from './agent.js';
import { capabilities } from './payload.js';
import { codexFiles } from './files.js';

const TIMEOUT_SECONDS = codexFiles.hookTimeout;

// Codex rejects the whole file when the root holds any other key ($schema included).
const ROOT_KEYS = ['description', 'hooks'];

// The matcher filters tool names on the tool events ("*" includes MCP tools). SessionStart's
// matcher filters the start source (startup, resume, …) and UserPromptSubmit ignores it, so those
// two get none.
const MATCHED_EVENTS = ['PreToolUse', 'PostToolUse'];

const schema: HookFileSchema = {
  agent: codex,
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles. Codex payloads carry hook_event_name, so one command
  // serves every event.
  events: capabilities.events,
  eventArgument: false,
  layout: 'group',
  commandKeys: ['command'],
  header: {},
  entry: (event, command) => ({
    ...(MATCHED_EVENTS.includes(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command, timeout: TIMEOUT_SECONDS }],
  }),
  checkRoot(root, text) {
    const extra = root.members.find((member) => !ROOT_KEYS.includes(member.key));
    if (extra) {
      throw new ConfigError(
        `Codex ignores a hooks.json whose top level holds anything but "description" and "hooks", ` +
          `and this one holds "${extra.key}"; move that key out of the file first`,
        lineAt(text, extra.keyStart),
      );
    }
  },
};

/** `$CODEX_HOME/hooks.json` (default `~/.codex`), or `<project>/.codex/hooks.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.codex', 'hooks.json');
  return posix.join(codexHome(where), 'hooks.json');
}

/** Adds guard's groups at the end of each event's list; every other byte is kept. */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's handlers (and what only they filled); every other byte is kept. */
export function uninstall(configText: string, options?: UninstallOptions): string {
  return uninstallHooks(schema, configText, options?.original);
}

/** guard's commands in the file. */
export function installedCommands(configText: string): readonly string[] {
  return guardCommands(schema, configText);
}

/** guard's command on one event in the file. */
export function installedCommand(configText: string, event: string): string | undefined {
  return guardCommandOn(schema, configText, event);
}
