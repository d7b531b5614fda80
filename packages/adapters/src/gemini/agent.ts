import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** The home Gemini CLI works from: `$GEMINI_CLI_HOME`, by default the person's home folder. */
export function geminiUserHome(where: Locations): string {
  return where.env['GEMINI_CLI_HOME'] || where.home;
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
    ],
  },
  read,
  toReply,
  toEventReply,
};
