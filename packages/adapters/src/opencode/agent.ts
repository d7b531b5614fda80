import { posix } from 'node:path';
import type { Agent, AgentFiles, ChatStartFiles, Locations, McpServer } from '../adapter.js';
import { homeFolder } from '../files.js';
import { McpConfigError, withoutComments } from '../scan.js';
import { isFields } from '../wire.js';
import { OPENCODE, opencodeFiles } from './files.js';
import type { PluginAgentNames } from './files.js';
import { pluginPayloads } from './payload.js';
import { STEP_EVENT } from './plugin.js';

/** The agent's own config folder: `$XDG_CONFIG_HOME/<folder>`, by default `~/.config/<folder>`. */
export function configFolder(names: PluginAgentNames, files: AgentFiles, where: Locations): string {
  return posix.join(homeFolder(files, 'XDG_CONFIG_HOME', where), names.folder);
}

/** The user's config folders it loads plugins, rules and config from: its own, its home ones, `$<CONFIG_DIR>` when set. */
export function userFolders(names: PluginAgentNames, files: AgentFiles, where: Locations): string[] {
  const extra = where.env[names.configDir];
  return [
    configFolder(names, files, where),
    ...names.homeFolders.map((dir) => posix.join(where.home, dir)),
    ...(extra === undefined || extra === '' ? [] : [extra]),
  ];
}

/** A project's config folders (`.opencode`; Kilo's `.kilo` and `.kilocode`). */
export function projectFolders(names: PluginAgentNames, where: Locations): string[] {
  return names.projectFolders.map((dir) => posix.join(where.projectRoot, dir));
}

/** What the chat-start scan reads: AGENTS.md in its folder, its agents, commands and skills, and its MCP servers. */
export function chatStartOf(names: PluginAgentNames, files: AgentFiles): ChatStartFiles {
  return {
    rules(where) {
      const dirs = [...userFolders(names, files, where), ...projectFolders(names, where)];
      return {
        files: [posix.join(configFolder(names, files, where), 'AGENTS.md')],
        folders: dirs.flatMap((dir) =>
          ['agent', 'agents', 'command', 'commands', 'skill', 'skills'].map((sub) => posix.join(dir, sub)),
        ),
      };
    },
    mcp: (where) => {
      const user = userFolders(names, files, where);
      const project = [where.projectRoot, ...projectFolders(names, where)];
      const json = (dir: string): string[] => names.configNames.map((name) => posix.join(dir, name));
      return [
        ...user.flatMap(json).map((path) => ({ path, servers: mcpServers })),
        ...project.flatMap(json).map((path) => ({ path, project: true as const, servers: mcpServers })),
      ];
    },
  };
}

/**
 * The local servers under `mcp` of an OpenCode config (JSON with comments): `{ "type": "local",
 * "command": [program, ...args], "environment": {...}, "enabled": false }`, or remote with `url`.
 */
async function mcpServers(text: string): Promise<readonly McpServer[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutComments(text));
  } catch {
    throw new McpConfigError('not valid JSON, its MCP servers were not checked');
  }
  const table = isFields(parsed) ? parsed['mcp'] : undefined;
  if (!isFields(table)) return [];
  return Object.entries(table).map(([name, value]) => {
    const entry = isFields(value) ? value : {};
    const words = Array.isArray(entry['command'])
      ? entry['command'].filter((word): word is string => typeof word === 'string')
      : [];
    const env: Record<string, string> = {};
    if (isFields(entry['environment']))
      for (const [key, val] of Object.entries(entry['environment'])) if (typeof val === 'string') env[key] = val;
    return {
      name,
      ...(words[0] === undefined ? {} : { command: words[0] }),
      args: words.slice(1),
      env,
      ...(typeof entry['url'] === 'string' ? { url: entry['url'] } : {}),
      ...(entry['enabled'] === false ? { skip: 'disabled in the agent' } : {}),
    };
  });
}

/** An OpenCode-like agent as the hook sees it, from its names and files. */
export function pluginAgent(names: PluginAgentNames, files: AgentFiles): Agent {
  const { capabilities, read, canAskUnread, toReply, toEventReply } = pluginPayloads(names);
  return {
    id: names.id,
    displayName: names.displayName,
    capabilities,
    stepEvents: [STEP_EVENT],
    files,
    chatStart: chatStartOf(names, files),
    read,
    canAskUnread,
    toReply,
    toEventReply,
  };
}

/** OpenCode as the hook sees it: the payloads of guard's plugin, and what its chat-start scan reads. */
export const opencode: Agent = pluginAgent(OPENCODE, opencodeFiles);
