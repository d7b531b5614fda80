import { posix } from 'node:path';
import type { Agent } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { cursorFiles } from './files.js';
import { capabilities, owns, read, toEventReply, toReply } from './payload.js';

/** Cursor as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const cursor: Agent = {
  id: 'cursor',
  displayName: 'Cursor',
  capabilities,
  stepEvents: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
  files: cursorFiles,
  chatStart: {
    rules: (where) => ({ files: [], folders: [posix.join(where.home, '.cursor', 'rules')] }),
    mcp: (where) => [{ path: posix.join(where.home, '.cursor', 'mcp.json'), servers: jsonServers() }],
  },
  owns,
  read,
  toReply,
  toEventReply,
};
