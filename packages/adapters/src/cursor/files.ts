import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of this agent's tools. */
export type ToolKind = 'shell' | 'read' | 'search' | 'overwrite' | 'edit' | 'delete' | 'other';

/** The agent's own tools by name, and the step each is (its payload reader's table). */
export const TOOLS = {
  Shell: 'shell',
  Read: 'read',
  Grep: 'search',
  Write: 'overwrite',
  Delete: 'delete',
  // Names older builds and the CLI have used for edits.
  StrReplace: 'edit',
  Edit: 'edit',
  MultiEdit: 'edit',
  // a subagent: no step on the machine (its own steps come through the hook)
  Task: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

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
  tools: TOOLS,
  // Seconds (a value in milliseconds would mean hours). Cursor lets the step run when a hook times
  // out unless the entry is fail-closed, and on some Windows builds every call waits out the whole
  // timeout; guard answers within this less its margin (7 s). Cursor does not document its default.
  hookTimeout: 10,
  hooksOff: [],
  // the enterprise (MDM) hooks file, from the documentation
  system: {
    linux: '/etc/cursor/hooks.json',
    darwin: '/Library/Application Support/Cursor/hooks.json',
    win32: 'C:/ProgramData/Cursor/hooks.json',
    first: 'system',
    layer:
      "Cursor runs the enterprise hooks with the team's, the project's and the user's, and the enterprise answer wins where they differ",
  },
  // the CLI has no switch that turns the hooks off; started in a changed world it is guard.tamper all the same
  program: { names: ['cursor-agent'], hooksOff: [] },
};
