import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of Cline's tools. */
export type ToolKind = 'shell' | 'write' | 'read' | 'search' | 'fetch' | 'other';

/**
 * Cline's own tools by name (as 3.0.65 offers them to the model), and the step each is. Any other
 * name (an MCP server's tool, a plugin's) is read by the shape of its input.
 */
export const TOOLS = {
  // `commands`: a list of command strings, run concurrently
  run_commands: 'shell',
  // `path` with `new_text` (and `old_text` or `insert_line`)
  editor: 'write',
  // `files: [{ path, start_line, end_line }]`
  read_files: 'read',
  // `queries`: searched for under the workspace
  search_codebase: 'search',
  // `requests: [{ url, prompt }]`
  fetch_web_content: 'fetch',
  // no step on the machine: questions to the person, subagents (whose own steps come through the hook)
  ask_question: 'other',
  spawn_agent: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/** guard's hook file's name in a hooks folder: Cline runs every `PreToolUse[.ext]` there (see hook-file.ts). */
export const HOOK_FILE = 'PreToolUse.bash';

/** Seconds Cline waits for a tool hook before it kills it and runs the step (its own limit, not settable). */
export const HOOK_TIMEOUT = 120;

/** The agent's options that take a value (so that value is not its subcommand). */
export const VALUE_OPTIONS = [
  '-P',
  '-p',
  '--provider',
  '-k',
  '--key',
  '--apikey',
  '-b',
  '--baseurl',
  '-m',
  '--model',
  '--modelid',
  '-s',
  '--system',
  '-c',
  '--cwd',
  '--config',
  '--data-dir',
  '--hooks-dir',
  '--id',
  '--session-id',
  '--mode',
  '--auto-approve',
  '--thinking',
  '--timeout',
  '-t',
  '--retries',
  '--compaction',
  '--workspace',
  '--hook-command',
  '-o',
  '--output',
];

/**
 * Cline's files and switches as data (see AgentFiles), from its shipped code (`@cline/shared`'s
 * storage paths): its folder is `$CLINE_DIR`, by default `~/.cline` (`--config <dir>` names another
 * for one run); its state is under `$CLINE_DATA_DIR` (default `$CLINE_DIR/data`); a person's
 * Documents folder has a `Cline` folder it reads too; a workspace has `.clinerules` and `.cline`.
 */
export const clineFiles: AgentFiles = {
  // the variables that move its hook files (CLINE_DATA_DIR and CLINE_MCP_SETTINGS_PATH move its
  // state and MCP settings, which hold no hook: agent.ts reads them for the chat-start scan)
  homes: [
    { variable: 'CLINE_DIR', default: '~/.cline' },
    // a folder of more hook files, which `--hooks-dir` sets
    { variable: 'CLINE_HOOKS_DIR', default: '$CLINE_DIR/hooks' },
  ],
  // every file in a hooks folder named after an event runs: guard's in the folders setup writes
  // (config.ts), the person's in the others too
  hooks: ['$CLINE_DIR/hooks/**', '~/.cline/hooks/**', '.clinerules/hooks/**'],
  // hooks folders guard never writes, and plugins (JavaScript Cline loads, which sees every tool
  // step): a change in them is held, taking them away leaves guard's file where it is
  otherHooks: [
    '$CLINE_HOOKS_DIR/**',
    '~/Documents/Cline/Hooks/**',
    '.cline/hooks/**',
    '$CLINE_DIR/plugins/**',
    '~/Documents/Cline/Plugins/**',
    '.cline/plugins/**',
  ],
  // its own folders, whose removal removes guard's hook file (its Documents folder holds only the person's)
  folders: ['$CLINE_DIR', '~/.cline'],
  settings: ['$CLINE_DIR/data/settings/**'],
  rules: [
    'AGENTS.md',
    '.clinerules',
    '.clinerules/**',
    '.cline/rules/**',
    '.cline/workflows/**',
    '.cline/skills/**',
    '.cline/agents/**',
    '.agents/skills/**',
    '~/.agents/AGENTS.md',
    '~/.agents/skills/**',
    '$CLINE_DIR/rules/**',
    '$CLINE_DIR/workflows/**',
    '$CLINE_DIR/skills/**',
    '$CLINE_DIR/agents/**',
    '~/Cline/Rules/**',
    '~/Documents/Cline/Rules/**',
    '~/Documents/Cline/Workflows/**',
  ],
  memory: [],
  mcp: ['$CLINE_DIR/data/settings/cline_mcp_settings.json'],
  tools: TOOLS,
  // Cline's own limit on a tool hook: past it the step runs; guard answers within this less its margin
  hookTimeout: HOOK_TIMEOUT,
  // no setting turns hooks off (3.0.65): removing or moving the files does
  hooksOff: [],
  program: {
    names: ['cline'],
    packages: ['cline'],
    argv: { values: VALUE_OPTIONS },
    // another config or data folder for one run: guard's user-level hook file is not in it
    hooksOff: [{ option: ['--config', '--data-dir'], value: '' }],
  },
};
