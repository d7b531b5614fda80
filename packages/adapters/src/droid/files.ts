import type { AgentFiles } from '../adapter.js';
import type { ClaudeToolKind } from '../claude-dialect.js';

/** `hooksDisabled`: no hook of any level runs (Factory Droid's hooks.json, or `hooks` in its settings). */
export const HOOKS_DISABLED = String.raw`hooksDisabled["']?\s*[:=]\s*["']?(?:true|1)\b`;

/** The agent's own tools by name (as Factory Droid 0.215.0 offers them to a model), and the step each is. */
export const TOOLS = {
  Execute: 'shell',
  Create: 'overwrite',
  Edit: 'edit',
  Read: 'read',
  // a folder listing, a content search and a file-name search: reads under their folder, if named
  LS: 'search',
  Grep: 'search',
  Glob: 'search',
  FetchUrl: 'fetch',
  // No step on the machine: subagents, skills, the task list, tool search, images, web search, plans
  Task: 'other',
  TaskOutput: 'other',
  TaskStop: 'other',
  Skill: 'other',
  ToolSearch: 'other',
  TodoWrite: 'other',
  WebSearch: 'other',
  GenerateImage: 'other',
  GenerateDroid: 'other',
  ExitSpecMode: 'other',
  ProposeMission: 'other',
  StartMissionRun: 'other',
  EndFeatureRun: 'other',
  DismissHandoffItems: 'other',
  Loop: 'other',
} as const satisfies Readonly<Record<string, ClaudeToolKind>>;

/** The tools whose input keys differ from Claude Code's: Droid's key → Claude Code's. */
export const INPUT_KEYS = {
  Edit: { old_str: 'old_string', new_str: 'new_string' },
  LS: { directory_path: 'path' },
  Glob: { folder: 'path' },
} as const;

/**
 * Factory Droid's files and switches as data (see AgentFiles), as read from its 0.215.0 binary:
 * its folder is `.factory` in the home folder (`$FACTORY_HOME_OVERRIDE` stands in for the home
 * folder), a project has its own `.factory`, and a machine's managed settings are in
 * `/etc/factory/settings.json` (macOS and Windows: their own folders).
 */
export const droidFiles: AgentFiles = {
  homes: [
    { variable: 'FACTORY_HOME_OVERRIDE', default: '~' },
    {
      variable: 'FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH',
      default: '$FACTORY_HOME_OVERRIDE/.factory/org-managed-settings.json',
      file: true,
    },
  ],
  // guard's hooks are in hooks.json (an older hooks/hooks.json, or `hooks` in settings.json, where
  // there is none); `hooksDisabled` in any of them at any level turns every hook off; the runtime,
  // organisation and machine settings are merged over them
  hooks: [
    '$FACTORY_HOME_OVERRIDE/.factory/hooks.json',
    '$FACTORY_HOME_OVERRIDE/.factory/hooks/hooks.json',
    '$FACTORY_HOME_OVERRIDE/.factory/settings.json',
    '$FACTORY_HOME_OVERRIDE/.factory/settings.local.json',
    '$FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH',
    '.factory/hooks.json',
    '.factory/hooks/hooks.json',
    '.factory/settings.json',
    '.factory/settings.local.json',
    '/etc/factory/**',
    '/Library/Application Support/Factory/**',
    'C:/Program Files/Factory/**',
  ],
  // the home it stands in for holds the `.factory` folder: it is Droid's home wherever it points (the
  // project, the temp folder), as a moved home of Gemini CLI is; unset, it is the home folder, the wipe rules'
  folders: ['$FACTORY_HOME_OVERRIDE', '$FACTORY_HOME_OVERRIDE/.factory', '~/.factory'],
  settings: ['$FACTORY_HOME_OVERRIDE/.factory/settings.json', '.factory/settings.json'],
  rules: [
    'AGENTS.md',
    '$FACTORY_HOME_OVERRIDE/.factory/AGENTS.md',
    '$FACTORY_HOME_OVERRIDE/.factory/skills/**',
    '$FACTORY_HOME_OVERRIDE/.factory/droids/**',
    '$FACTORY_HOME_OVERRIDE/.factory/commands/**',
    '$FACTORY_HOME_OVERRIDE/.factory/output-styles/**',
    '.factory/skills/**',
    '.factory/droids/**',
    '.factory/commands/**',
    '.factory/output-styles/**',
    // a plugin adds skills, droids, commands, hooks and MCP servers
    '$FACTORY_HOME_OVERRIDE/.factory/plugins/**',
  ],
  memory: [],
  mcp: ['$FACTORY_HOME_OVERRIDE/.factory/mcp.json', '.factory/mcp.json'],
  tools: TOOLS,
  // Seconds (Droid's unit; its default is 60 s). Guard answers within this less its margin (7 s;
  // cli/src/hook/reply.ts); past this Droid kills the hook and runs the step.
  hookTimeout: 10,
  hooksOff: [HOOKS_DISABLED],
  // the machine's managed settings, which Droid reads as its organisation's settings ahead of the
  // organisation's URL or API (run on 0.215.0 by test/e2e/droid-system.test.ts). The path is the
  // same on macOS: 0.215.0 asks for Linux's whatever the platform (its code; not run there). On
  // Windows it asks for the same POSIX path, which names no fixed folder there: none is declared.
  system: {
    linux: '/etc/factory/settings.json',
    darwin: '/etc/factory/settings.json',
    first: 'together',
    layer:
      "Droid runs the managed settings' hooks beside the user's and the project's, with no trust step in droid exec; a user's or a project's hooksDisabled (hooks.json, or hooks in settings.json) and a runtime --settings file would switch them off, but the hooksDisabled false setup writes there wins over all of them (seen on 0.215.0); in the interactive TUI no hook runs in a folder the person has not trusted yet (its code)",
  },
  program: {
    names: ['droid'],
    packages: ['droid', '@factory/cli'],
    argv: {
      values: [
        '--settings',
        '-m',
        '--model',
        '-o',
        '--output-format',
        '--input-format',
        '-f',
        '--file',
        '--auto',
        '-s',
        '--session-id',
        '--fork',
        '-r',
        '--reasoning-effort',
        '--spec-model',
        '--spec-reasoning-effort',
        '--only-tools',
        '--add-tools',
        '--remove-tools',
        '--cwd',
        '--worktree-dir',
        '--tag',
        '--log-group-id',
        '--append-system-prompt',
        '--append-system-prompt-file',
      ],
    },
    // a runtime settings file merged for one run may say hooksDisabled
    hooksOff: [{ option: ['--settings'], hooksOff: true }],
  },
};
