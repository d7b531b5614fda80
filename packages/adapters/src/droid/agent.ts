import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers } from '../scan.js';
import { droidFiles } from './files.js';
import { canAskUnread, capabilities, read, toEventReply, toReply } from './payload.js';

/** Factory Droid's own folder: `.factory` in `$FACTORY_HOME_OVERRIDE`, by default the home folder. */
export function droidHome(where: Locations): string {
  return posix.join(homeFolder(droidFiles, 'FACTORY_HOME_OVERRIDE', where), '.factory');
}

/** Factory Droid as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const droid: Agent = {
  id: 'droid',
  displayName: 'Factory Droid',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: droidFiles,
  chatStart: {
    rules(where) {
      const home = droidHome(where);
      return {
        files: [posix.join(home, 'AGENTS.md')],
        folders: [posix.join(home, 'skills'), posix.join(home, 'droids'), posix.join(home, 'commands')],
      };
    },
    // Droid reads its JSON files with comments allowed
    mcp: (where) => [
      { path: posix.join(droidHome(where), 'mcp.json'), servers: jsonServers('mcpServers', true) },
      // the project's own servers: fingerprinted, never started by guard
      {
        path: posix.join(where.projectRoot, '.factory', 'mcp.json'),
        project: true,
        servers: jsonServers('mcpServers', true),
      },
    ],
  },
  read,
  canAskUnread,
  toReply,
  toEventReply,
};
