import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations } from '../adapter.js';
import { guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { geminiHome } from './agent.js';
import { capabilities } from './payload.js';
import { geminiFiles } from './files.js';

// Gemini CLI's unit is milliseconds
const TIMEOUT_MS = geminiFiles.hookTimeout * 1000;

// The matcher is a regular expression over tool names on the tool events ("*" is every tool, MCP
// included) and an exact string on the others, so those get none.
const MATCHED_EVENTS = ['BeforeTool', 'AfterTool'];

/** The name guard's entries carry: Gemini CLI lists, trusts and switches hooks off by name. */
export const HOOK_NAME = 'guard';

const schema: HookFileSchema = {
  agent: 'gemini',
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles; the payloads name their event, so one command serves all.
  events: capabilities.events,
  eventArgument: false,
  layout: 'group',
  commandKeys: ['command'],
  header: {},
  comments: true,
  entry: (event, command, options) => ({
    ...(MATCHED_EVENTS.includes(event) ? { matcher: '*' } : {}),
    hooks: [
      {
        name: HOOK_NAME,
        type: 'command',
        command,
        timeout: TIMEOUT_MS,
        // Gemini CLI drops every variable but a few (PATH, HOME, …) from a hook's environment when
        // GITHUB_SHA is set, and names that look secret when its redaction is on; a handler's own
        // `env` is added after that, so guard's folder reaches the hook this way
        ...(options.guardHome === undefined ? {} : { env: { GUARD_HOME: options.guardHome } }),
      },
    ],
  }),
};

/** `~/.gemini/settings.json` (`$GEMINI_CLI_HOME` for the home), or `<project>/.gemini/settings.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.gemini', 'settings.json');
  return posix.join(geminiHome(where), 'settings.json');
}

/** Adds guard's groups at the end of each event's list in `hooks`; every other byte (comments too) is kept. */
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
