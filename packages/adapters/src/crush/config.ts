import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { crush, crushHome } from './agent.js';
import { capabilities } from './payload.js';

const schema: HookFileSchema = {
  agent: crush,
  eventMapKey: 'hooks',
  ownsMap: false,
  events: capabilities.events,
  // the payload names its event
  eventArgument: false,
  layout: 'handler',
  commandKeys: ['command'],
  header: {},
  // no matcher (every tool, MCP tools included) and no timeout: neither is documented beyond their
  // names, and a wrong one could keep guard's hook from running (docs/agents-observed.md, Crush)
  entry: (_event, command) => ({ command }),
};

/** `$CRUSH_GLOBAL_CONFIG/crush.json` (by default `~/.config/crush/crush.json`), or `<project>/crush.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, 'crush.json');
  return posix.join(crushHome(where), 'crush.json');
}

/** Adds guard's entry at the end of PreToolUse's list; every other byte is kept. */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's entries (and what only they filled); every other byte is kept. */
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
