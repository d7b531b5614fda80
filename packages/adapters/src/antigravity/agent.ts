import { posix } from 'node:path';
import type { Agent } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { antigravityFiles } from './files.js';
import { canAsk, capabilities, read, toEventReply, toReply } from './payload.js';

/** Antigravity as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const antigravity: Agent = {
  id: 'antigravity',
  displayName: 'Antigravity',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: antigravityFiles,
  chatStart: {
    rules: (where) => ({
      files: [posix.join(where.home, '.gemini', 'GEMINI.md')],
      folders: [posix.join(where.home, '.gemini', 'antigravity', 'knowledge')],
    }),
    mcp: (where) => [
      { path: posix.join(where.home, '.gemini', 'antigravity', 'mcp_config.json'), servers: jsonServers() },
    ],
  },
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};
