import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers } from '../scan.js';
import { crushFiles } from './files.js';
import { capabilities, read, STEP_EVENT, toEventReply, toReply } from './payload.js';

/** Crush's config folder: `$CRUSH_GLOBAL_CONFIG`, by default `$XDG_CONFIG_HOME/crush`. */
export function crushHome(where: Locations): string {
  return homeFolder(crushFiles, 'CRUSH_GLOBAL_CONFIG', where);
}

// the context files Crush loads from a project besides those every agent's scan reads (scan.ts)
const PROJECT_CONTEXT = ['CRUSH.md', 'CRUSH.local.md', 'crush.md', 'crush.local.md', 'Crush.md', 'Crush.local.md'];

/** Crush as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const crush: Agent = {
  id: 'crush',
  displayName: 'Crush',
  capabilities,
  stepEvents: [STEP_EVENT],
  files: crushFiles,
  chatStart: {
    rules(where) {
      const home = crushHome(where);
      const config = homeFolder(crushFiles, 'XDG_CONFIG_HOME', where);
      return {
        files: [
          posix.join(home, 'CRUSH.md'),
          posix.join(config, 'AGENTS.md'),
          ...PROJECT_CONTEXT.map((name) => posix.join(where.projectRoot, name)),
        ],
        folders: [
          posix.join(home, 'skills'),
          posix.join(config, 'agents', 'skills'),
          posix.join(where.projectRoot, '.crush', 'skills'),
        ],
      };
    },
    // its servers are under `mcp` in its config files; the project's are fingerprinted, never started by guard
    mcp: (where) => [
      { path: posix.join(crushHome(where), 'crush.json'), servers: jsonServers('mcp') },
      ...['crush.json', '.crush.json'].map((name) => ({
        path: posix.join(where.projectRoot, name),
        project: true as const,
        servers: jsonServers('mcp'),
      })),
    ],
  },
  read,
  toReply,
  toEventReply,
};
