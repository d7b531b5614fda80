import type { AgentFiles } from '../adapter.js';

/**
 * The kinds of step an Auggie tool is: Claude Code's kinds, and `delete` (remove-files, a list of
 * paths), `patch` (apply_patch's text) and `input` (write-process: text typed into a running shell).
 */
export type AuggieToolKind = 'shell' | 'input' | 'overwrite' | 'edit' | 'delete' | 'patch' | 'read' | 'fetch' | 'other';

/** The agent's own tools by name (as Auggie 0.36.0 offers them to a model), and the step each is. */
export const TOOLS = {
  'launch-process': 'shell',
  // text typed into a process launch-process started (a shell kept open): read as a command line
  'write-process': 'input',
  'save-file': 'overwrite',
  'str-replace-editor': 'edit',
  'remove-files': 'delete',
  apply_patch: 'patch',
  view: 'read',
  'web-fetch': 'fetch',
  // No step on the machine: a running process's output or its end, Augment's code search (its own
  // service), past sessions, cut-off tool results, the task list
  'kill-process': 'other',
  'read-process': 'other',
  'list-processes': 'other',
  'codebase-retrieval': 'other',
  'view-session': 'other',
  'view-range-untruncated': 'other',
  'search-untruncated': 'other',
  view_tasklist: 'other',
  reorganize_tasklist: 'other',
  update_tasks: 'other',
  add_tasks: 'other',
} as const satisfies Readonly<Record<string, AuggieToolKind>>;

/**
 * Augment Auggie's files and switches as data (see AgentFiles), as read from its 0.36.0 bundle and
 * seen running it: its folder is `~/.augment` (no variable moves it; `--augment-cache-dir` moves
 * its sessions, not the hooks it reads), a project has its own `.augment`, and the machine's
 * settings are `/etc/augment/settings.json` (`%ProgramData%\augment` on Windows).
 */
export const auggieFiles: AgentFiles = {
  homes: [],
  // the hooks of all of them run side by side; a plugin brings hook files of its own
  hooks: [
    '~/.augment/settings.json',
    '.augment/settings.json',
    '.augment/settings.local.json',
    '~/.augment/plugins/**',
    '/etc/augment/**',
    'C:/ProgramData/augment/**',
  ],
  folders: ['~/.augment'],
  settings: ['~/.augment/settings.json', '.augment/settings.json', '.augment/settings.local.json'],
  rules: [
    'AGENTS.md',
    'CLAUDE.md',
    '.augment-guidelines',
    '~/.augment/user-guidelines.md',
    '~/.augment/rules/**',
    '~/.augment/skills/**',
    '~/.augment/commands/**',
    '~/.augment/agents/**',
    '.augment/rules/**',
    '.augment/skills/**',
    '.augment/commands/**',
    '.augment/agents/**',
  ],
  memory: [],
  // `mcpServers` is in the settings files (under settings)
  mcp: [],
  tools: TOOLS,
  // Seconds (Auggie's unit is the millisecond, setup writes 10000; its default is 60 s). Guard
  // answers within this less its margin (7 s; cli/src/hook/reply.ts); past this Auggie kills the
  // hook and runs the step.
  hookTimeout: 10,
  // No setting or flag turns hooks off; but hooks run only for an Augment account (tenant) whose
  // server-side flag allows them (feature flag enable_hooks), which nothing on the machine shows
  hooksOff: [],
  system: {
    linux: '/etc/augment/settings.json',
    darwin: '/etc/augment/settings.json',
    win32: 'C:/ProgramData/augment/settings.json',
    first: 'together',
    layer:
      'Auggie runs the hooks of the system, user and project settings side by side and refuses a merged set that drops or changes a system hook (seen in its 0.36 code), and it has no switch that turns hooks off; but it runs no hooks at all for an Augment account whose server-side hooks flag is off',
  },
  program: {
    names: ['auggie'],
    packages: ['@augmentcode/auggie'],
    argv: {
      values: [
        '-i',
        '--instruction',
        '-if',
        '--instruction-file',
        '--queue',
        '--image',
        '--file',
        '--output-format',
        '-m',
        '--model',
        '--reasoning-effort',
        '--persona',
        '-w',
        '--workspace-root',
        '--add-workspace',
        '--rules',
        '--augment-cache-dir',
        '--retry-timeout',
        '--max-turns',
        '-r',
        '--resume',
        '--augment-session-json',
        '--github-api-token',
        '--mcp-config',
        '--permission',
        '--remove-tool',
        '--shell',
        '--startup-script',
        '--startup-script-file',
        '--plugin-dir',
      ],
    },
    hooksOff: [],
  },
};
