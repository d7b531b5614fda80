import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks, versionOne } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { copilot, copilotHome } from './agent.js';
import { capabilities } from './payload.js';
import { copilotFiles } from './files.js';

const TIMEOUT_SECONDS = copilotFiles.hookTimeout;

const schema: HookFileSchema = {
  agent: copilot,
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles, in camelCase: a PascalCase registration switches
  // Copilot to another payload format.
  events: capabilities.events,
  // The camelCase payloads do not name their event.
  eventArgument: true,
  layout: 'handler',
  // `command` is Copilot's cross-platform fallback; a person may have written guard's there.
  commandKeys: ['bash', 'powershell', 'command'],
  header: { version: 1 },
  entry: (_event, command, _options, plain) => ({
    type: 'command',
    bash: command,
    // PowerShell runs a quoted program path only through the call operator (and has no fallback form).
    powershell: `& ${plain}`,
    timeoutSec: TIMEOUT_SECONDS,
  }),
  checkRoot: versionOne('Copilot'),
};

/** `$COPILOT_HOME/hooks/guard.json` (default `~/.copilot`), or `<project>/.github/hooks/guard.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  if (level === 'project') return posix.join(where.projectRoot, '.github', 'hooks', 'guard.json');
  return posix.join(copilotHome(where), 'hooks', 'guard.json');
}

/** Adds guard's entry to each event's list (the person's own entries stay). */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's entries; '' when nothing else was in the file. */
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
