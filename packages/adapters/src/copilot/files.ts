import type { AgentFiles } from '../adapter.js';
import { DISABLE_ALL_HOOKS } from '../claude-code/files.js';

/** The kinds of step the payload reader makes of this agent's tools. */
export type ToolKind =
  'shell' | 'create' | 'overwrite' | 'edit' | 'read' | 'search' | 'fetch' | 'patch' | 'editor' | 'other';

/** The agent's own tools by name, and the step each is (its payload reader's table). */
// Lower-cased tool names: the CLI's own, the Claude names of PascalCase registrations, and the
// VS Code Local harness's names.
export const TOOLS = {
  bash: 'shell',
  powershell: 'shell',
  run_in_terminal: 'shell',
  create: 'create',
  create_file: 'create',
  write: 'overwrite',
  edit: 'edit',
  multiedit: 'edit',
  replace_string_in_file: 'edit',
  multi_replace_string_in_file: 'edit',
  insert_edit_into_file: 'edit',
  str_replace_editor: 'editor',
  view: 'read',
  read: 'read',
  read_file: 'read',
  grep: 'search',
  rg: 'search',
  glob: 'search',
  web_fetch: 'fetch',
  webfetch: 'fetch',
  apply_patch: 'patch',
  // No step on the machine: the CLI's own tools for its shells' output, its subagents, its
  // questions, its plan and its session's own database (the commands a shell runs come as bash)
  read_bash: 'other',
  stop_bash: 'other',
  list_bash: 'other',
  task: 'other',
  task_complete: 'other',
  read_agent: 'other',
  list_agents: 'other',
  write_agent: 'other',
  ask_user: 'other',
  report_intent: 'other',
  update_todo: 'other',
  skill: 'other',
  web_search: 'other',
  fetch_copilot_cli_documentation: 'other',
  sql: 'other',
  session_store_sql: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/**
 * Copilot's files and switches as data (see AgentFiles). Its folder is `$COPILOT_HOME`, by default
 * `~/.copilot`; a repository's are in `.github`; policies are machine-wide. VS Code's settings and
 * MCP file steer Copilot in the editor.
 */
export const copilotFiles: AgentFiles = {
  homes: [{ variable: 'COPILOT_HOME', default: '~/.copilot' }],
  // every *.json in a hooks folder is loaded; settings.json holds inline hooks and disableAllHooks
  hooks: [
    '$COPILOT_HOME/hooks/**',
    '$COPILOT_HOME/settings.json',
    '.copilot/hooks/**',
    '.copilot/settings.json',
    '.github/hooks/**',
    '.github/copilot/settings.json',
    '.github/copilot/settings.local.json',
    '/etc/github-copilot/policy.d/**',
    'C:/ProgramData/GitHub/Copilot/policy.d/**',
  ],
  folders: ['$COPILOT_HOME', '~/.copilot'],
  settings: [
    // config.json's trustedFolders decide whether a repository's hooks run
    '$COPILOT_HOME/config.json',
    '$COPILOT_HOME/settings.json',
    '.copilot/config.json',
    '.copilot/settings.json',
    '.github/copilot/settings.json',
    '.github/copilot/settings.local.json',
    // VS Code's settings can switch off Copilot's confirmations (chat.tools.autoApprove)
    '.vscode/settings.json',
  ],
  rules: [
    '.github/copilot-instructions.md',
    '.github/instructions/**',
    '$COPILOT_HOME/copilot-instructions.md',
    '$COPILOT_HOME/instructions/**',
    '$COPILOT_HOME/skills/**',
  ],
  memory: [],
  mcp: ['$COPILOT_HOME/mcp-config.json', '.copilot/mcp-config.json', '.vscode/mcp.json'],
  tools: TOOLS,
  // Seconds. Copilot lets the step run when a hook times out (default 30 s), so the timeout only
  // decides how long a stuck hook holds the agent up; guard answers within this less its margin (7 s).
  hookTimeout: 10,
  // its chats: a folder each, whose events.jsonl holds what happened
  transcripts: { folder: '$COPILOT_HOME/session-state', files: /^[^/]+\/events\.jsonl$/ },
  hooksOff: [DISABLE_ALL_HOOKS],
  // policy hooks: every *.json in policy.d, root-owned and not group- or world-writable (run on 1.0.102
  // by test/e2e/copilot-system.test.ts; macOS and Windows unverified)
  system: {
    linux: '/etc/github-copilot/policy.d/guard.json',
    darwin: '/etc/github-copilot/policy.d/guard.json',
    win32: 'C:/ProgramData/GitHub/Copilot/policy.d/guard.json',
    first: 'system',
    layer:
      "Copilot runs policy hooks first, then the user's and the project's; no disableAllHooks switches a policy hook off (a trusted project's, which turns off the user's hooks, leaves it running), it runs in folders nobody trusted (seen on 1.0.102), and it skips a policy file a group or everyone may write",
  },
  // no switch of its own turns the hooks off; started in a changed world it is guard.tamper all the same
  program: { names: ['copilot'], packages: ['@github/copilot'], hooksOff: [] },
};
