import { posix } from 'node:path';
import type { Agent, Locations } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers } from '../scan.js';
import { clineFiles } from './files.js';
import { capabilities, read, STEP_EVENT, toEventReply, toReply } from './payload.js';

/** Cline's own folder: `$CLINE_DIR`, by default `~/.cline`. */
export function clineDir(where: Locations): string {
  return homeFolder(clineFiles, 'CLINE_DIR', where);
}

/** A variable of the environment Cline runs in, when set (Cline trims it; empty is unset). */
function variable(where: Locations, name: string): string | undefined {
  const value = where.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Its MCP settings file: `$CLINE_MCP_SETTINGS_PATH`, else `settings/cline_mcp_settings.json` in
 * `$CLINE_DATA_DIR` (default `$CLINE_DIR/data`).
 */
export function mcpSettings(where: Locations): string {
  const data = variable(where, 'CLINE_DATA_DIR') ?? posix.join(clineDir(where), 'data');
  return variable(where, 'CLINE_MCP_SETTINGS_PATH') ?? posix.join(data, 'settings', 'cline_mcp_settings.json');
}

/** Cline as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const cline: Agent = {
  id: 'cline',
  displayName: 'Cline',
  capabilities,
  stepEvents: [STEP_EVENT],
  files: clineFiles,
  chatStart: {
    // the rules, workflows and skills Cline 3.0.65 reads (@cline/shared's storage paths)
    rules(where) {
      const dir = clineDir(where);
      const documents = posix.join(where.home, 'Documents', 'Cline');
      const project = (...parts: string[]): string => posix.join(where.projectRoot, ...parts);
      return {
        // `.clinerules` may be one file of rules, or a folder of them
        files: [posix.join(where.home, '.agents', 'AGENTS.md'), project('.clinerules')],
        folders: [
          posix.join(dir, 'rules'),
          posix.join(dir, 'workflows'),
          posix.join(dir, 'skills'),
          posix.join(where.home, 'Cline', 'Rules'),
          posix.join(documents, 'Rules'),
          posix.join(documents, 'Workflows'),
          project('.clinerules'),
          project('.clinerules', 'workflows'),
          project('.clinerules', 'skills'),
          project('.cline', 'rules'),
          project('.cline', 'workflows'),
          project('.cline', 'skills'),
        ],
      };
    },
    // its MCP servers: `mcpServers` in cline_mcp_settings.json (no project file)
    mcp: (where) => [{ path: mcpSettings(where), servers: jsonServers() }],
  },
  read,
  toReply,
  toEventReply,
};
