import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of this agent's tools. */
export type ToolKind = 'shell' | 'overwrite' | 'edit' | 'read' | 'folder' | 'search' | 'fetch' | 'other';

/** The agent's own tools by name, and the step each is (its payload reader's table). */
export const TOOLS = {
  run_shell_command: 'shell',
  write_file: 'overwrite',
  replace: 'edit',
  read_file: 'read',
  list_directory: 'folder',
  glob: 'search',
  grep_search: 'search',
  web_fetch: 'fetch',
  // several files at once: their paths go to core as the tool's arguments
  read_many_files: 'other',
  // No step on the machine: searches, plans, questions to the person, skills, subagents
  google_web_search: 'other',
  write_todos: 'other',
  ask_user: 'other',
  activate_skill: 'other',
  enter_plan_mode: 'other',
  exit_plan_mode: 'other',
  update_topic: 'other',
  invoke_agent: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/**
 * Gemini CLI's files and switches as data (see AgentFiles). It works from `$GEMINI_CLI_HOME`, by
 * default the home folder, and keeps its files in `.gemini` there; a project has its own `.gemini`
 * folder; system settings are machine-wide.
 */
export const geminiFiles: AgentFiles = {
  homes: [
    { variable: 'GEMINI_CLI_HOME', default: '~' },
    {
      variable: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH',
      default: '$GEMINI_CLI_HOME/.gemini/trustedFolders.json',
      file: true,
    },
    { variable: 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH', default: '/etc/gemini-cli/system-defaults.json', file: true },
    { variable: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', default: '/etc/gemini-cli/settings.json', file: true },
  ],
  // guard's hooks and hooksConfig are in settings.json; the trusted folders decide whether a
  // project's hooks run
  hooks: [
    '$GEMINI_CLI_HOME/.gemini/settings.json',
    '$GEMINI_CLI_TRUSTED_FOLDERS_PATH',
    '$GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
    '$GEMINI_CLI_SYSTEM_SETTINGS_PATH',
    '.gemini/settings.json',
    '.gemini/trustedFolders.json',
    '/etc/gemini-cli/**',
    '/Library/Application Support/GeminiCli/**',
    'C:/ProgramData/gemini-cli/**',
  ],
  // a moved home holds the `.gemini` folder: removing it removes the hooks (unset, it is the home
  // folder, which nothing may remove anyway)
  folders: ['$GEMINI_CLI_HOME', '$GEMINI_CLI_HOME/.gemini', '~/.gemini'],
  settings: ['$GEMINI_CLI_HOME/.gemini/settings.json', '.gemini/settings.json'],
  rules: [
    'GEMINI.md',
    '$GEMINI_CLI_HOME/.gemini/skills/**',
    '$GEMINI_CLI_HOME/.gemini/agents/**',
    '$GEMINI_CLI_HOME/.agents/skills/**',
    // an extension adds context files, commands and the code of its MCP servers
    '$GEMINI_CLI_HOME/.gemini/extensions/**',
  ],
  memory: [],
  // an extension's manifest declares MCP servers (the settings files' own are under settings)
  mcp: ['$GEMINI_CLI_HOME/.gemini/extensions/*/gemini-extension.json'],
  tools: TOOLS,
  // Seconds (Gemini CLI's own unit is ms; its default is 60 s). Guard answers within this less its
  // margin (7 s; cli/src/hook/reply.ts); past this Gemini CLI kills the hook and runs the step.
  hookTimeout: 10,
  // its chats: per project, one file each
  transcripts: { folder: '$GEMINI_CLI_HOME/.gemini/tmp', files: /^[^/]+\/chats\/[^/]+\.jsonl$/ },
  // `"hooksConfig": { "enabled": false }`
  hooksOff: [String.raw`hooksConfig["']?\s*[:=]\s*\{[^}]*\benabled["']?\s*[:=]\s*false\b`],
  // the system settings file (its documentation; run on 0.61 by test/e2e/system.test.ts)
  system: {
    linux: '/etc/gemini-cli/settings.json',
    darwin: '/Library/Application Support/GeminiCli/settings.json',
    win32: 'C:/ProgramData/gemini-cli/settings.json',
    first: 'system',
    layer:
      "Gemini CLI runs the system settings' hooks beside the user's and reads the system settings last, so the hooksConfig.enabled true setup writes there keeps them on whatever a user's or a project's file says (seen on 0.61); but a user's hooksConfig.disabled that lists guard still skips it (the lists of all files are joined), it runs none in a folder it does not trust, $GEMINI_CLI_SYSTEM_SETTINGS_PATH moves the file, and it skips a file with a folder above it that a group or everyone may write",
  },
  // no switch of its own turns the hooks off; started in a changed world it is guard.tamper all the
  // same. The system settings file moved away takes a system-wide guard with it (the variable is
  // read by the binary, any value names a file)
  program: {
    names: ['gemini'],
    packages: ['@google/gemini-cli'],
    hooksOff: [{ variable: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', system: true }],
  },
};
