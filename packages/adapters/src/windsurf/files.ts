import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of this agent's hook events. */
export type ToolKind = 'shell' | 'write' | 'read' | 'mcp';

/**
 * Windsurf's payloads name no tool, only the event (`agent_action_name`): guard names each step's
 * tool after its event without the `pre_`/`post_` prefix, and this is the table of those names.
 */
export const TOOLS = {
  run_command: 'shell',
  write_code: 'write',
  read_code: 'read',
  mcp_tool_use: 'mcp',
} as const satisfies Readonly<Record<string, ToolKind>>;

/**
 * Windsurf's files as data (see AgentFiles), from its documentation (not observed on a binary, see
 * docs/agents-observed.md): the user's `~/.codeium/windsurf`, a workspace's `.windsurf`, and the
 * system hooks file that is merged before both.
 */
export const windsurfFiles: AgentFiles = {
  homes: [],
  hooks: [
    '.windsurf/hooks.json',
    '.codeium/windsurf/hooks.json',
    '/etc/windsurf/hooks.json',
    '/Library/Application Support/Windsurf/hooks.json',
    'C:/ProgramData/Windsurf/hooks.json',
  ],
  folders: ['~/.codeium/windsurf'],
  settings: [],
  rules: ['.windsurfrules', '.windsurf/rules/**', '.windsurf/workflows/**'],
  // the global rules file and what Cascade remembers between chats
  memory: ['~/.codeium/windsurf/memories/**'],
  mcp: ['~/.codeium/windsurf/mcp_config.json'],
  tools: TOOLS,
  // Windsurf's hooks.json has no timeout field and its documentation names no limit (unverified):
  // guard answers within this less its margin all the same.
  hookTimeout: 30,
  // no documented switch turns the hooks off (unverified)
  hooksOff: [],
  // the system hooks file, from the documentation
  system: {
    linux: '/etc/windsurf/hooks.json',
    darwin: '/Library/Application Support/Windsurf/hooks.json',
    win32: 'C:/ProgramData/Windsurf/hooks.json',
    first: 'system',
    layer:
      "Windsurf merges the system hooks before the user's and the workspace's, and runs them all (documentation, unverified)",
  },
};
