import { posix } from 'node:path';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { guardCommandOn, guardCommands, installHooks, uninstallHooks } from '../hook-config.js';
import type { HookFileSchema } from '../hook-config.js';
import { kiro, kiroHome } from './agent.js';
import { GUARD_AGENT, HOOK_TIMEOUT } from './files.js';
import { capabilities } from './payload.js';

/**
 * guard's agent file: Kiro's built-in default agent as its documentation describes it (every tool,
 * reads allowed without asking, AGENTS.md, README.md and the steering files as resources; unverified
 * on a binary), with guard's hooks. The person starts chats with it (see capabilities.afterSetup).
 */
export const AGENT_HEADER = {
  name: GUARD_AGENT,
  description: "Kiro's default agent, with guard checking each tool step first (written by guard setup kiro).",
  tools: ['*'],
  allowedTools: ['fs_read'],
  resources: [
    'file://AGENTS.md',
    'file://README.md',
    'file://.kiro/steering/**/*.md',
    'file://~/.kiro/steering/**/*.md',
  ],
};

const schema: HookFileSchema = {
  agent: kiro,
  eventMapKey: 'hooks',
  ownsMap: false,
  // the payloads name their event (hook_event_name), so one command serves all
  events: capabilities.events,
  eventArgument: false,
  layout: 'handler',
  commandKeys: ['command'],
  header: AGENT_HEADER,
  // no matcher: every tool, MCP tools included
  entry: (_event, command) => ({ command, timeout_ms: HOOK_TIMEOUT * 1000 }),
};

/** guard's agent file: `~/.kiro/agents/guard.json`, or `<project>/.kiro/agents/guard.json`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  const file = `${GUARD_AGENT}.json`;
  if (level === 'project') return posix.join(where.projectRoot, '.kiro', 'agents', file);
  return posix.join(kiroHome(where), 'agents', file);
}

/** Adds guard's entry at the end of each event's list (the whole agent where there is none); every other byte is kept. */
export function install(configText: string, options: InstallOptions): string {
  return installHooks(schema, configText, options);
}

/** Removes guard's entries, and the agent file when guard's agent holds nothing else; every other byte is kept. */
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
