import { posix } from 'node:path';
import type { Agent, Locations, McpServer } from '../adapter.js';
import { homeFolder } from '../files.js';
import { McpConfigError, serversIn } from '../scan.js';
import { codexFiles } from './files.js';
import { canAskUnread, capabilities, read, toEventReply, toReply } from './payload.js';

/** Codex's own folder: `$CODEX_HOME`, by default `~/.codex`. */
export function codexHome(where: Locations): string {
  return homeFolder(codexFiles, 'CODEX_HOME', where);
}

/** Codex as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const codex: Agent = {
  id: 'codex',
  displayName: 'Codex',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: codexFiles,
  chatStart: {
    rules(where) {
      const home = codexHome(where);
      return {
        files: [posix.join(home, 'AGENTS.md'), posix.join(home, 'AGENTS.override.md')],
        folders: [
          posix.join(home, 'skills'),
          posix.join(where.home, '.agents', 'skills'),
          posix.join(home, 'memories'),
        ],
      };
    },
    mcp: (where) => [{ path: posix.join(codexHome(where), 'config.toml'), servers: tomlServers }],
  },
  read,
  canAskUnread,
  toReply,
  toEventReply,
};

/** The `[mcp_servers.<name>]` tables of Codex's config.toml. */
async function tomlServers(text: string): Promise<readonly McpServer[]> {
  // a config with no MCP server (most) needs no TOML parser loaded: the name is in every form of the key
  if (!text.includes('mcp_servers')) return [];
  try {
    const { parse } = await import('smol-toml');
    return serversIn((parse(text) as Record<string, unknown>)['mcp_servers']);
  } catch {
    throw new McpConfigError('not valid TOML, its MCP servers were not checked');
  }
}
