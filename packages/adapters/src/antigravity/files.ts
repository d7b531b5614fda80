import type { AgentFiles } from '../adapter.js';

/** The folders Antigravity reads a workspace's customizations from. */
const ROOTS = ['.agents', '.agent', '_agents', '_agent'];

/**
 * Antigravity's files as data (see AgentFiles): its user hooks in `~/.gemini/config`, a
 * workspace's in any of its customization roots.
 */
export const antigravityFiles: AgentFiles = {
  homes: [],
  hooks: ['.gemini/config/hooks.json', ...ROOTS.map((root) => `${root}/hooks.json`)],
  folders: ['~/.gemini/config', ...ROOTS.map((root) => `~/${root}`)],
  settings: [],
  rules: [
    'GEMINI.md',
    ...ROOTS.flatMap((root) => ['rules', 'workflows', 'skills'].map((kind) => `${root}/${kind}/**`)),
  ],
  // what Antigravity learns in a chat and loads in the next
  memory: ['~/.gemini/antigravity/knowledge/**'],
  mcp: ['~/.gemini/antigravity/mcp_config.json'],
  hooksOff: [],
};
