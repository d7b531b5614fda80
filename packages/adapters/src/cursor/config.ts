import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks, versionOne } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { cursor } from './agent.js';
import { capabilities } from './payload.js';
import { cursorFiles } from './files.js';

const TIMEOUT_SECONDS = cursorFiles.hookTimeout;

// Events that stop a step before it runs; only these get `failClosed`. On the result, start and
// prompt events a failure of guard must not stop the chat.
const GATES = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'preToolUse'];

const schema: HookFileSchema = {
  agent: cursor,
  eventMapKey: 'hooks',
  ownsMap: false,
  // The events the payload reader handles. An unknown event name makes Cursor drop the whole file
  // (tests check each name against the reference): builds from 1.7 know beforeShellExecution,
  // beforeMCPExecution, beforeReadFile and beforeSubmitPrompt; about 2.4 adds preToolUse,
  // postToolUse, postToolUseFailure and sessionStart, so an older build rejects this file.
  // Payloads carry hook_event_name, so one command serves every event.
  events: capabilities.events,
  eventArgument: false,
  layout: 'handler',
  commandKeys: ['command'],
  header: { version: 1 },
  entry: (event, command, options) => ({
    command,
    timeout: TIMEOUT_SECONDS,
    ...(options.failClosed && GATES.includes(event) ? { failClosed: true } : {}),
  }),
  checkRoot: versionOne('Cursor'),
};

/** `~/.cursor/hooks.json`, or `<project>/.cursor/hooks.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  return posix.join(level === 'project' ? where.projectRoot : where.home, '.cursor', 'hooks.json');
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
