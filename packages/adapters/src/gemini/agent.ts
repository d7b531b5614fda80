import { posix } from 'node:path';
import type { Agent, ExtensionParts, Locations, McpServer } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers, McpConfigError, serversIn, withoutComments } from '../scan.js';
import { geminiFiles } from './files.js';
import { canAsk, capabilities, read, toEventReply, toReply } from './payload.js';

/** The home Gemini CLI works from: `$GEMINI_CLI_HOME`, by default the person's home folder. */
export function geminiUserHome(where: Locations): string {
  return homeFolder(geminiFiles, 'GEMINI_CLI_HOME', where);
}

/** Gemini CLI's own folder: `.gemini` in its home. */
export function geminiHome(where: Locations): string {
  return posix.join(geminiUserHome(where), '.gemini');
}

/** Gemini CLI as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const gemini: Agent = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  capabilities,
  stepEvents: ['BeforeTool'],
  files: geminiFiles,
  chatStart: {
    rules(where) {
      const home = geminiHome(where);
      return {
        files: [posix.join(home, 'GEMINI.md')],
        folders: [
          posix.join(home, 'skills'),
          posix.join(home, 'agents'),
          posix.join(geminiUserHome(where), '.agents', 'skills'),
        ],
      };
    },
    // settings.json is JSON with comments to Gemini CLI
    mcp: (where) => [
      { path: posix.join(geminiHome(where), 'settings.json'), servers: jsonServers('mcpServers', true) },
      // the project's own settings: loaded in a trusted folder; fingerprinted, never started by guard
      {
        path: posix.join(where.projectRoot, '.gemini', 'settings.json'),
        project: true,
        servers: jsonServers('mcpServers', true),
      },
    ],
    extensions: (where) => ({
      folder: posix.join(geminiHome(where), 'extensions'),
      manifest: 'gemini-extension.json',
      read: extensionParts,
      fallback: (dir) => ({ files: [posix.join(dir, 'GEMINI.md')], folders: [posix.join(dir, 'skills')] }),
    }),
  },
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};

/**
 * What a Gemini CLI extension adds (its `gemini-extension.json`): the MCP servers it starts, with
 * `${extensionPath}`, `${workspacePath}` and `${/}` put in as Gemini CLI does, its context files
 * (`contextFileName`, one name or a list; `GEMINI.md` when none is named) and its skills folder.
 */
function extensionParts(text: string, dir: string, where: Locations): ExtensionParts {
  let manifest: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(withoutComments(text));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    manifest = parsed as Record<string, unknown>;
  } catch {
    throw new McpConfigError('not valid JSON, its MCP servers and context files were not checked');
  }
  const fill = (value: string): string =>
    value.replaceAll('${extensionPath}', dir).replaceAll('${workspacePath}', where.projectRoot).replaceAll('${/}', '/');
  const servers = serversIn(manifest['mcpServers']).map((server): McpServer => ({
    ...server,
    ...(server.command === undefined ? {} : { command: fill(server.command) }),
    args: server.args.map(fill),
    env: Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, fill(value)])),
    ...(server.cwd === undefined ? {} : { cwd: fill(server.cwd) }),
  }));
  const named = manifest['contextFileName'];
  const names = typeof named === 'string' ? [named] : Array.isArray(named) ? named.filter(isString) : [];
  return {
    rules: {
      // a name that climbs out of the extension's folder is read where it points, as the agent would
      files: (names.length > 0 ? names : ['GEMINI.md']).map((name) => posix.join(dir, name)),
      folders: [posix.join(dir, 'skills')],
    },
    servers,
  };
}

const isString = (value: unknown): value is string => typeof value === 'string';
