import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { extensionParts, jsonServers } from '../scan.js';
import { qwenFiles } from './files.js';
import { canAsk, capabilities, read, toEventReply, toReply } from './payload.js';

/** Qwen Code's own folder: `$QWEN_HOME`, by default `~/.qwen`. */
export function qwenHome(where: Locations): string {
  return homeFolder(qwenFiles, 'QWEN_HOME', where);
}

/** Qwen Code as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const qwen: Agent = {
  id: 'qwen',
  displayName: 'Qwen Code',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: qwenFiles,
  chatStart: {
    rules(where) {
      const home = qwenHome(where);
      return {
        // the output language rule Qwen Code writes for itself and loads at every start
        files: [posix.join(home, 'QWEN.md'), posix.join(home, 'output-language.md')],
        folders: [posix.join(home, 'skills'), posix.join(home, 'agents'), posix.join(home, 'commands')],
      };
    },
    // settings.json is JSON with comments to Qwen Code
    mcp: (where) => [
      { path: posix.join(qwenHome(where), 'settings.json'), servers: jsonServers('mcpServers', true) },
      // the project's own settings: fingerprinted, never started by guard
      {
        path: posix.join(where.projectRoot, '.qwen', 'settings.json'),
        project: true,
        servers: jsonServers('mcpServers', true),
      },
    ],
    extensions: (where) => ({
      folder: posix.join(qwenHome(where), 'extensions'),
      manifest: 'qwen-extension.json',
      read: extensionParts('QWEN.md'),
      fallback: (dir) => ({ files: [posix.join(dir, 'QWEN.md')], folders: [posix.join(dir, 'skills')] }),
    }),
  },
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};
