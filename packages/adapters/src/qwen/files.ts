import type { AgentFiles } from '../adapter.js';
import type { ClaudeToolKind } from '../claude-dialect.js';
import { DISABLE_ALL_HOOKS } from '../claude-code/files.js';

/** The agent's own tools by name, and the step each is (its payload reader's table). */
export const TOOLS = {
  run_shell_command: 'shell',
  // runs a command and streams its output back: a shell step like the other
  monitor: 'shell',
  write_file: 'overwrite',
  edit: 'edit',
  notebook_edit: 'notebook',
  read_file: 'read',
  list_directory: 'folder',
  glob: 'search',
  grep_search: 'search',
  web_fetch: 'fetch',
  // No step on the machine: subagents, skills, plans, questions to the person, the task list, goals
  agent: 'other',
  skill: 'other',
  todo_write: 'other',
  save_memory: 'other',
  ask_user_question: 'other',
  enter_plan_mode: 'other',
  exit_plan_mode: 'other',
  web_search: 'other',
  tool_search: 'other',
  list_agents: 'other',
  get_goal: 'other',
  update_goal: 'other',
  task_create: 'other',
  task_update: 'other',
  task_list: 'other',
  task_stop: 'other',
} as const satisfies Readonly<Record<string, ClaudeToolKind>>;

/**
 * Qwen Code's files and switches as data (see AgentFiles). Its folder is `$QWEN_HOME`, by default
 * `~/.qwen`; a project has its own `.qwen` folder; system settings are machine-wide, each file
 * movable by a variable of its own.
 */
export const qwenFiles: AgentFiles = {
  homes: [
    { variable: 'QWEN_HOME', default: '~/.qwen' },
    { variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH', default: '/etc/qwen-code/settings.json', file: true },
    { variable: 'QWEN_CODE_SYSTEM_DEFAULTS_PATH', default: '/etc/qwen-code/system-defaults.json', file: true },
    { variable: 'QWEN_CODE_TRUSTED_FOLDERS_PATH', default: '$QWEN_HOME/trustedFolders.json', file: true },
  ],
  // guard's hooks and disableAllHooks are in the settings files; the trusted folders decide whether
  // a project's hooks run (when folder trust is on)
  hooks: [
    '$QWEN_HOME/settings.json',
    '$QWEN_CODE_SYSTEM_SETTINGS_PATH',
    '$QWEN_CODE_SYSTEM_DEFAULTS_PATH',
    '$QWEN_CODE_TRUSTED_FOLDERS_PATH',
    '.qwen/settings.json',
    '/etc/qwen-code/**',
    '/Library/Application Support/QwenCode/**',
    'C:/ProgramData/qwen-code/**',
  ],
  // a `.env` in the default folder (or, with QWEN_HOME unset there, in the home folder) may set
  // QWEN_HOME, which moves the settings guard's hooks are in (never a project's .env)
  envFiles: ['~/.qwen/.env', '~/.env'],
  folders: ['$QWEN_HOME', '~/.qwen'],
  settings: ['$QWEN_HOME/settings.json', '.qwen/settings.json'],
  rules: [
    'QWEN.md',
    '$QWEN_HOME/output-language.md',
    '$QWEN_HOME/skills/**',
    '$QWEN_HOME/agents/**',
    '$QWEN_HOME/commands/**',
    '.qwen/skills/**',
    '.qwen/agents/**',
    '.qwen/commands/**',
    // an extension adds context files, commands, hooks and the code of its MCP servers
    '$QWEN_HOME/extensions/**',
  ],
  // the memory Qwen Code keeps per project
  memory: ['$QWEN_HOME/projects/*/memory/**'],
  // an extension's manifest declares MCP servers (the settings files' own are under settings)
  mcp: ['$QWEN_HOME/extensions/*/qwen-extension.json'],
  tools: TOOLS,
  // Seconds (Qwen Code 0.24 reads 1 to 999 as seconds, 1000 and more as milliseconds; its default
  // is 60 s). Guard answers within this less its margin (7 s; cli/src/hook/reply.ts); past this
  // Qwen Code kills the hook and runs the step.
  hookTimeout: 10,
  // its chats: per project, one file each
  transcripts: { folder: '$QWEN_HOME/projects', files: /^[^/]+\/chats\/[^/]+\.jsonl$/ },
  // `disableAllHooks`, and a tool execution sandbox (`tools.executionSandbox`), which runs no hooks
  hooksOff: [DISABLE_ALL_HOOKS, String.raw`executionSandbox["']?\s*[:=]\s*\{`],
  // the system settings file (as Gemini CLI, which it forked)
  system: {
    linux: '/etc/qwen-code/settings.json',
    darwin: '/Library/Application Support/QwenCode/settings.json',
    win32: 'C:/ProgramData/qwen-code/settings.json',
    first: 'system',
    layer:
      "Qwen Code runs the system settings' hooks beside the user's and reads the system settings last, so the disableAllHooks false setup writes there keeps them on whatever a user's or a project's file says (seen on 0.24); but --bare and --safe-mode (and their variables) still run none, and $QWEN_CODE_SYSTEM_SETTINGS_PATH moves the file",
  },
  program: {
    names: ['qwen'],
    packages: ['@qwen-code/qwen-code'],
    argv: {
      values: [
        '-m',
        '--model',
        '-p',
        '--prompt',
        '-i',
        '--prompt-interactive',
        '--approval-mode',
        '--output-format',
        '-o',
        '--input-format',
        '--auth-type',
        '--openai-base-url',
        '--openai-api-key',
      ],
    },
    // --bare and --safe-mode run no hooks (nor any other customisation)
    // the flags and their variables (`1`, `true`, `yes` or `on`, read by the binary)
    hooksOff: [
      { flag: '--bare' },
      { flag: '--safe-mode' },
      { variable: 'QWEN_CODE_SIMPLE' },
      { variable: 'QWEN_CODE_SAFE_MODE' },
      // the system settings file moved away takes a system-wide guard with it
      { variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH', system: true },
    ],
  },
};
