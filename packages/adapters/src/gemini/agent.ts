import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { extensionParts, jsonServers } from '../scan.js';
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
      read: extensionParts('GEMINI.md'),
      fallback: (dir) => ({ files: [posix.join(dir, 'GEMINI.md')], folders: [posix.join(dir, 'skills')] }),
    }),
  },
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};
