import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers } from '../scan.js';
import { copilotFiles } from './files.js';
import { canAsk, capabilities, owns, read, toEventReply, toReply } from './payload.js';

/** Copilot's own folder: `$COPILOT_HOME`, by default `~/.copilot`. */
export function copilotHome(where: Locations): string {
  return homeFolder(copilotFiles, 'COPILOT_HOME', where);
}

/** Copilot as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const copilot: Agent = {
  id: 'copilot',
  displayName: 'GitHub Copilot',
  capabilities,
  // Copilot answers preToolUse and PreToolUse differently
  stepEvents: ['preToolUse', 'PreToolUse'],
  files: copilotFiles,
  chatStart: {
    rules(where) {
      const home = copilotHome(where);
      return {
        files: [posix.join(home, 'copilot-instructions.md')],
        folders: [posix.join(home, 'instructions'), posix.join(home, 'skills')],
      };
    },
    mcp: (where) => [{ path: posix.join(copilotHome(where), 'mcp-config.json'), servers: jsonServers() }],
  },
  owns,
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};
