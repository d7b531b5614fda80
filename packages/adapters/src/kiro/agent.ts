import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { GUARD_AGENT, kiroFiles } from './files.js';
import { capabilities, canAsk, read, toEventReply, toReply } from './payload.js';

/** `~/.kiro`, Kiro CLI's folder (no variable moves it, as far as its documentation says). */
export function kiroHome(where: Locations): string {
  return posix.join(where.home, '.kiro');
}

/** Kiro CLI as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const kiro: Agent = {
  id: 'kiro',
  displayName: 'Kiro CLI',
  capabilities,
  stepEvents: ['preToolUse'],
  files: kiroFiles,
  chatStart: {
    // the user's steering files (a project's .kiro/steering and AGENTS.md are in the shared list)
    rules: (where) => ({ files: [], folders: [posix.join(kiroHome(where), 'steering')] }),
    mcp: (where) => [
      { path: posix.join(kiroHome(where), 'settings', 'mcp.json'), servers: jsonServers() },
      { path: posix.join(kiroHome(where), 'agents', `${GUARD_AGENT}.json`), servers: jsonServers() },
      // the project's own servers: fingerprinted, never started by guard
      { path: posix.join(where.projectRoot, '.kiro', 'settings', 'mcp.json'), project: true, servers: jsonServers() },
      {
        path: posix.join(where.projectRoot, '.kiro', 'agents', `${GUARD_AGENT}.json`),
        project: true,
        servers: jsonServers(),
      },
    ],
  },
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};
