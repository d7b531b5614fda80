import { posix } from 'node:path';
import type { Agent } from '../adapter.js';
import { jsonServers } from '../scan.js';
import { windsurfFiles } from './files.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** Windsurf (Cascade) as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const windsurf: Agent = {
  id: 'windsurf',
  displayName: 'Windsurf',
  capabilities,
  stepEvents: ['pre_run_command', 'pre_write_code', 'pre_read_code', 'pre_mcp_tool_use'],
  files: windsurfFiles,
  chatStart: {
    rules: (where) => ({
      files: [posix.join(where.home, '.codeium', 'windsurf', 'memories', 'global_rules.md')],
      folders: [posix.join(where.home, '.codeium', 'windsurf', 'memories')],
    }),
    mcp: (where) => [
      { path: posix.join(where.home, '.codeium', 'windsurf', 'mcp_config.json'), servers: jsonServers() },
    ],
  },
  read,
  toReply,
  toEventReply,
};
