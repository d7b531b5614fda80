import type { AgentFiles } from '../adapter.js';
import { DISABLE_ALL_HOOKS } from '../claude-code/files.js';

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
  hooksOff: [DISABLE_ALL_HOOKS],
};
