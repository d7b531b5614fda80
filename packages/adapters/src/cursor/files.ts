import type { AgentFiles } from '../adapter.js';

/**
 * Cursor's files as data (see AgentFiles): `~/.cursor` and a project's `.cursor`, and the
 * enterprise hooks file that outranks them.
 */
export const cursorFiles: AgentFiles = {
  homes: [],
  hooks: [
    '.cursor/hooks.json',
    '/etc/cursor/hooks.json',
    '/Library/Application Support/Cursor/hooks.json',
    'C:/ProgramData/Cursor/hooks.json',
  ],
  folders: ['~/.cursor'],
  settings: ['.cursor/cli.json', '.cursor/cli-config.json'],
  rules: ['.cursorrules', '.cursor/rules/**'],
  memory: [],
  mcp: ['.cursor/mcp.json'],
  hooksOff: [],
};
