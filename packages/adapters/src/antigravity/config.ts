import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { antigravity } from './agent.js';
import { capabilities } from './payload.js';
import { antigravityFiles } from './files.js';

const TIMEOUT_SECONDS = antigravityFiles.hookTimeout;

const schema: HookFileSchema = {
  agent: antigravity,
  // Top-level keys are hook names; guard owns the one called "guard".
  eventMapKey: 'guard',
  ownsMap: true,
  // The events the payload reader handles: only PreToolUse (its result event carries no result,
  // and it has no start or prompt event).
  events: capabilities.events,
  // The payload does not name its event.
  eventArgument: true,
  layout: 'group',
  commandKeys: ['command'],
  header: {},
  entry: (_event, command) => ({
    matcher: '*',
    hooks: [{ type: 'command', command, timeout: TIMEOUT_SECONDS }],
  }),
};

/** `~/.gemini/config/hooks.json`, or `<project>/.agents/hooks.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.agents', 'hooks.json');
  return posix.join(where.home, '.gemini', 'config', 'hooks.json');
}

/** Adds (or updates) the hook named "guard"; every other byte is kept. */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's entries (and the "guard" hook once empty); every other byte is kept. */
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
