import type { AgentFiles } from '../adapter.js';
import type { ClaudeToolKind } from '../claude-dialect.js';

/**
 * Crush's own tools by name, and the step each is (from the tool list of another guard's Crush
 * integration and Crush's README; not observed on a binary, see docs/agents-observed.md). Its MCP
 * tools are `mcp_<server>_<tool>`; any other name is read by the shape of its input.
 */
export const TOOLS = {
  // `command`, maybe `working_dir`
  bash: 'shell',
  // `file_path` with `old_string` and `new_string`; multiedit's `edits` are read into one edit
  edit: 'edit',
  multiedit: 'edit',
  // `file_path` with `content`
  write: 'overwrite',
  // `url` and `file_path`: the body is written over the file (what it holds is not known beforehand)
  download: 'overwrite',
  view: 'read',
  // a folder listing, a file-name search and a content search: reads under their `path`, if named
  ls: 'search',
  glob: 'search',
  grep: 'search',
  fetch: 'fetch',
  // no step on the machine: a code search on a web service, a subagent (whose own steps come through the hook)
  sourcegraph: 'other',
  agent: 'other',
} as const satisfies Readonly<Record<string, ClaudeToolKind>>;

/** Seconds guard's hook answers within (Crush's own limit is not documented; setup writes none). */
export const HOOK_TIMEOUT = 30;

/**
 * Crush's files as data (see AgentFiles), from its README (0.96.1) and another guard's Crush
 * integration, none of it observed on a binary (docs/agents-observed.md). Its config folder is
 * `$XDG_CONFIG_HOME/crush` (by default `~/.config/crush`; `$CRUSH_GLOBAL_CONFIG` moves it), its data
 * folder `~/.local/share/crush` (`$CRUSH_GLOBAL_DATA`; `$XDG_DATA_HOME/crush` too, not declared), whose `crush.json` it merges too; a project
 * has `crush.json` or `.crush.json`, and the newer `crushrc` files, which run in a shell.
 */
export const crushFiles: AgentFiles = {
  homes: [
    { variable: 'XDG_CONFIG_HOME', default: '~/.config' },
    { variable: 'CRUSH_GLOBAL_CONFIG', default: '$XDG_CONFIG_HOME/crush' },
    // its data folder follows XDG_DATA_HOME too, which guard does not declare (a gap, see
    // docs/agents-observed.md): a folder that only stands in for CRUSH_GLOBAL_DATA holds nothing of it
    { variable: 'CRUSH_GLOBAL_DATA', default: '~/.local/share/crush' },
  ],
  // guard's entries (`hooks` in crush.json), and every file that could take them out: the other
  // config files, and the crushrc files, which are shell code run at load time. The default folders
  // too, whatever the variables say here: Crush may be started without them
  hooks: [
    '$CRUSH_GLOBAL_CONFIG/crush.json',
    '$CRUSH_GLOBAL_CONFIG/crushrc',
    '$CRUSH_GLOBAL_DATA/crush.json',
    '$XDG_CONFIG_HOME/crush/crush.json',
    '$XDG_CONFIG_HOME/crush/crushrc',
    '~/.config/crush/crush.json',
    '~/.config/crush/crushrc',
    '~/.local/share/crush/crush.json',
    'crush.json',
    '.crush.json',
    'crushrc',
    '.crushrc',
  ],
  folders: [
    '$CRUSH_GLOBAL_CONFIG',
    '$XDG_CONFIG_HOME/crush',
    '~/.config/crush',
    '$CRUSH_GLOBAL_DATA',
    '~/.local/share/crush',
  ],
  settings: ['$CRUSH_GLOBAL_CONFIG/crush.json', 'crush.json', '.crush.json'],
  rules: [
    // the project's context files Crush loads besides those every agent's scan reads
    'CRUSH.md',
    'CRUSH.local.md',
    'crush.md',
    'crush.local.md',
    'Crush.md',
    'Crush.local.md',
    // its global context files and skills
    '$CRUSH_GLOBAL_CONFIG/CRUSH.md',
    '$XDG_CONFIG_HOME/AGENTS.md',
    '$CRUSH_GLOBAL_CONFIG/skills/**',
    '$XDG_CONFIG_HOME/agents/skills/**',
    '.crush/skills/**',
  ],
  memory: [],
  // its MCP servers are under `mcp` in the config files
  mcp: ['$CRUSH_GLOBAL_CONFIG/crush.json', 'crush.json', '.crush.json'],
  tools: TOOLS,
  hookTimeout: HOOK_TIMEOUT,
  // no documented switch turns the hooks off (unverified)
  hooksOff: [],
  program: {
    names: ['crush'],
    packages: ['@charmland/crush'],
    argv: { values: ['-c', '--cwd', '-D', '--data-dir', '-m', '--model', '--small-model', '-s', '--session'] },
    // no documented flag or variable starts it without hooks (`--yolo` skips its own permission
    // prompts; whether it skips hooks too is unverified)
    hooksOff: [],
  },
};
