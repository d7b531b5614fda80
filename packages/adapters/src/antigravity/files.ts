import type { AgentFiles } from '../adapter.js';

/** The folders Antigravity reads a workspace's customizations from. */
const ROOTS = ['.agents', '.agent', '_agents', '_agent'];

/** The kinds of step the payload reader makes of this agent's tools. */
export type ToolKind = 'shell' | 'create' | 'edit' | 'delete' | 'read' | 'search' | 'fetch' | 'mcp' | 'other';

/** The agent's own tools by name, and the step each is (its payload reader's table). */
// Model-facing tool names (argument keys are PascalCase; some builds vary their case).
export const TOOLS = {
  run_command: 'shell',
  write_to_file: 'create',
  replace_file_content: 'edit',
  multi_replace_file_content: 'edit',
  delete_file: 'delete',
  view_file: 'read',
  view_file_outline: 'read',
  view_code_item: 'read',
  list_dir: 'read',
  grep_search: 'search',
  read_url_content: 'fetch',
  open_browser_url: 'fetch',
  call_mcp_tool: 'mcp',
  // No step on the machine: subagents, questions to the person, images, tasks, web searches
  invoke_subagent: 'other',
  define_subagent: 'other',
  browser_subagent: 'other',
  ask_permission: 'other',
  ask_question: 'other',
  generate_image: 'other',
  manage_task: 'other',
  schedule: 'other',
  search_web: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/**
 * Antigravity's files as data (see AgentFiles): its user hooks in `~/.gemini/config`, a
 * workspace's in any of its customization roots.
 */
export const antigravityFiles: AgentFiles = {
  homes: [],
  hooks: ['.gemini/config/hooks.json', ...ROOTS.map((root) => `${root}/hooks.json`)],
  folders: ['~/.gemini/config', ...ROOTS.map((root) => `~/${root}`)],
  settings: [],
  rules: [
    'GEMINI.md',
    ...ROOTS.flatMap((root) => ['rules', 'workflows', 'skills'].map((kind) => `${root}/${kind}/**`)),
  ],
  // what Antigravity learns in a chat and loads in the next
  memory: ['~/.gemini/antigravity/knowledge/**'],
  mcp: ['~/.gemini/antigravity/mcp_config.json'],
  tools: TOOLS,
  // Whole seconds: Antigravity drops the whole file over a non-integer timeout. It denies the step
  // when a hook times out, so a hook that is merely slow to start (a cold Node on a busy Windows
  // machine) would cost the person a refused step: guard keeps Antigravity's own 30 s default,
  // and answers within it less its margin (21 s).
  hookTimeout: 30,
  hooksOff: [],
};
