import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { windsurf } from './agent.js';
import { capabilities } from './payload.js';

const schema: HookFileSchema = {
  agent: windsurf,
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles; payloads carry agent_action_name, so one command serves all.
  events: capabilities.events,
  eventArgument: false,
  layout: 'handler',
  commandKeys: ['command'],
  header: {},
  // show_output puts guard's reason in Cascade's view of the step; the file has no timeout field.
  entry: (_event, command) => ({ command, show_output: true }),
};

/** `~/.codeium/windsurf/hooks.json`, or `<project>/.windsurf/hooks.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.windsurf', 'hooks.json');
  return posix.join(where.home, '.codeium', 'windsurf', 'hooks.json');
}

/** Adds guard's entry at the end of each event's list; every other byte is kept. */
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
