import type { AgentFiles } from '../adapter.js';
import { pluginAgentFiles } from '../opencode/files.js';
import type { PluginAgentNames } from '../opencode/files.js';

/**
 * Kilo Code CLI (`kilo`, 7.7.9): OpenCode's code under other names, the same plugin contract. It
 * loads `{plugin,plugins}/*.{ts,js}` from `~/.config/kilo`, its older home folders `~/.kilo` and
 * `~/.kilocode`, `$KILO_CONFIG_DIR` and a project's `.kilo` and `.kilocode`; its config files are
 * `kilo.json(c)` and still OpenCode's `opencode.json(c)`.
 */
export const KILO: PluginAgentNames = {
  id: 'kilo',
  displayName: 'Kilo Code CLI',
  folder: 'kilo',
  projectFolders: ['.kilo', '.kilocode'],
  homeFolders: ['.kilo', '.kilocode'],
  configNames: ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  configDir: 'KILO_CONFIG_DIR',
  configFile: 'KILO_CONFIG',
  pure: 'KILO_PURE',
  projectOff: 'KILO_DISABLE_PROJECT_CONFIG',
  names: ['kilo'],
  packages: ['@kilocode/cli'],
};

export const kiloFiles: AgentFiles = pluginAgentFiles(KILO);
