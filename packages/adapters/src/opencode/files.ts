import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of OpenCode's tools. */
export type ToolKind = 'shell' | 'overwrite' | 'edit' | 'patch' | 'read' | 'search' | 'fetch' | 'other';

/**
 * OpenCode's own tools by name (as 1.18.33 offers them to the model), and the step each is. Its MCP
 * tools are named `<server>_<tool>` and are read by the shape of their input.
 */
export const TOOLS = {
  bash: 'shell',
  write: 'overwrite',
  edit: 'edit',
  // offered to GPT models instead of edit and write: Codex's patch text in `patchText`
  apply_patch: 'patch',
  read: 'read',
  glob: 'search',
  grep: 'search',
  list: 'search',
  webfetch: 'fetch',
  // no step on the machine: subagents (whose own steps come through the hook), plans, skills
  task: 'other',
  todowrite: 'other',
  todoread: 'other',
  skill: 'other',
  question: 'other',
  websearch: 'other',
  codesearch: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/** What differs between OpenCode and its forks (Kilo Code CLI): names, folders and variables. */
export interface PluginAgentNames {
  readonly id: string;
  readonly displayName: string;
  /** The folder under the XDG config folder (`~/.config/<folder>`). */
  readonly folder: string;
  /** A project's config folders (the first is where `--project` puts guard's plugin). */
  readonly projectFolders: readonly string[];
  /** More config folders in the home folder that it loads plugins from (Kilo's `~/.kilo`). */
  readonly homeFolders: readonly string[];
  /** The config files it reads in each config folder and a project's root. */
  readonly configNames: readonly string[];
  /** The variable that adds one more config folder, whose plugins load too (`OPENCODE_CONFIG_DIR`). */
  readonly configDir: string;
  /** The variable that names one more config file (`OPENCODE_CONFIG`). */
  readonly configFile: string;
  /** The variable that runs it without external plugins, guard's included (`OPENCODE_PURE`). */
  readonly pure: string;
  /** The variable that leaves a project's config out, its plugins too (`OPENCODE_DISABLE_PROJECT_CONFIG`). */
  readonly projectOff: string;
  /** Its programs and npm packages. */
  readonly names: readonly string[];
  readonly packages: readonly string[];
}

export const OPENCODE: PluginAgentNames = {
  id: 'opencode',
  displayName: 'OpenCode',
  folder: 'opencode',
  projectFolders: ['.opencode'],
  homeFolders: [],
  configNames: ['opencode.json', 'opencode.jsonc'],
  configDir: 'OPENCODE_CONFIG_DIR',
  configFile: 'OPENCODE_CONFIG',
  pure: 'OPENCODE_PURE',
  projectOff: 'OPENCODE_DISABLE_PROJECT_CONFIG',
  names: ['opencode'],
  packages: ['opencode-ai'],
};

/** guard's plugin file's name in a plugins folder. */
export const PLUGIN_FILE = 'guard.js';

/** Seconds the plugin waits for guard's hook before it blocks the step itself. */
export const HOOK_TIMEOUT = 30;

/** The agent's options that take a value (so that value is not its subcommand). */
export const VALUE_OPTIONS = [
  '--log-level',
  '--port',
  '--hostname',
  '--mdns-domain',
  '--cors',
  '-m',
  '--model',
  '-s',
  '--session',
  '--prompt',
  '--agent',
  '--format',
  '-f',
  '--file',
  '--title',
  '--attach',
  '-p',
  '--password',
  '-u',
  '--username',
  '--dir',
  '--variant',
  '--command',
];

/**
 * An OpenCode-like agent's files and switches as data (see AgentFiles). Its folder is
 * `$XDG_CONFIG_HOME/<folder>` (by default `~/.config/<folder>`), and `$<CONFIG_DIR>` adds one
 * more; a project has its own (`.opencode`; Kilo's `.kilo` and `.kilocode`). guard's plugin is in
 * `plugins/`; the config files (`opencode.json`, `opencode.jsonc`) list more plugins, MCP servers and
 * permissions.
 */
export function pluginAgentFiles(names: PluginAgentNames): AgentFiles {
  const { folder, configDir, configNames } = names;
  const homes = names.homeFolders.map((dir) => `~/${dir}`);
  const dirs = [`$XDG_CONFIG_HOME/${folder}`, `$${configDir}`, ...names.projectFolders, ...homes];
  const configs = dirs.flatMap((dir) => configNames.map((name) => `${dir}/${name}`));
  return {
    homes: [
      { variable: 'XDG_CONFIG_HOME', default: '~/.config' },
      { variable: configDir, default: `$XDG_CONFIG_HOME/${folder}` },
    ],
    // a plugin in these folders runs before every tool (one could undo guard's), and the config
    // files load more plugins
    hooks: [
      ...dirs.flatMap((dir) => [`${dir}/plugins/**`, `${dir}/plugin/**`]),
      // the default folder too, whatever XDG_CONFIG_HOME says here: the agent may be started without it
      `~/.config/${folder}/plugins/**`,
      `~/.config/${folder}/plugin/**`,
      ...configNames.map((name) => `~/.config/${folder}/${name}`),
      ...configs,
      ...configNames,
    ],
    folders: [`$XDG_CONFIG_HOME/${folder}`, `~/.config/${folder}`, `$${configDir}`, ...homes],
    settings: [...configs, ...configNames],
    rules: [
      'AGENTS.md',
      `$XDG_CONFIG_HOME/${folder}/AGENTS.md`,
      ...dirs.flatMap((dir) => [`${dir}/agent/**`, `${dir}/agents/**`, `${dir}/command/**`, `${dir}/commands/**`]),
      ...dirs.flatMap((dir) => [`${dir}/skill/**`, `${dir}/skills/**`]),
    ],
    memory: [],
    mcp: [],
    tools: TOOLS,
    // Seconds: the plugin's own limit (the agent sets none on plugins); past it the plugin blocks
    hookTimeout: HOOK_TIMEOUT,
    // its chats: in a SQLite database in its data folder (1.x), which guard does not read
    transcripts: {
      folder: `~/.local/share/${folder}`,
      files: new RegExp(`^${folder}\\.db$`),
      unreadable: 'its chats are kept in a SQLite database, which guard does not read yet',
    },
    hooksOff: [],
    program: {
      names: names.names,
      packages: names.packages,
      argv: { values: VALUE_OPTIONS },
      // --pure and $<PURE> load no external plugin, guard's included; $<PROJECT_OFF> no project's
      hooksOff: [{ flag: '--pure' }, { variable: names.pure }, { variable: names.projectOff, project: true }],
    },
  };
}

export const opencodeFiles: AgentFiles = pluginAgentFiles(OPENCODE);
