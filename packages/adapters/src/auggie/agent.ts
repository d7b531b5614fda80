import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { auggieFiles } from './files.js';
import { canAskUnread, capabilities, read, toEventReply, toReply } from './payload.js';

/** Auggie's own folder: `~/.augment` (where it reads its hooks whatever --augment-cache-dir says). */
export function auggieHome(where: Locations): string {
  return posix.join(where.home, '.augment');
}

/** Augment Auggie as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const auggie: Agent = {
  id: 'auggie',
  displayName: 'Augment Auggie',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: auggieFiles,
  chatStart: {
    rules(where) {
      const home = auggieHome(where);
      return {
        files: [posix.join(home, 'user-guidelines.md')],
        folders: ['rules', 'skills', 'commands', 'agents'].map((name) => posix.join(home, name)),
      };
    },
    // Auggie reads its settings with comments allowed
    mcp: (where) => [
      { path: posix.join(auggieHome(where), 'settings.json'), servers: jsonServers('mcpServers', true) },
      // the project's own servers: fingerprinted, never started by guard
      {
        path: posix.join(where.projectRoot, '.augment', 'settings.json'),
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
