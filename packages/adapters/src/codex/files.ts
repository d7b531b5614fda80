import type { AgentFiles } from '../adapter.js';

/**
 * Codex's files and switches as data (see AgentFiles). Its folder is `$CODEX_HOME`, by default
 * `~/.codex`; a project has its own `.codex` folder.
 */
export const codexFiles: AgentFiles = {
  homes: [{ variable: 'CODEX_HOME', default: '~/.codex' }],
  // hooks.json holds guard's entries; config.toml can switch hooks off ([features] hooks = false)
  hooks: ['$CODEX_HOME/hooks.json', '$CODEX_HOME/config.toml', '.codex/hooks.json', '.codex/config.toml'],
  folders: ['$CODEX_HOME', '~/.codex'],
  settings: ['$CODEX_HOME/config.toml', '.codex/config.toml'],
  rules: ['AGENTS.md', 'AGENTS.override.md', '$CODEX_HOME/skills/**', '.codex/skills/**', '.agents/skills/**'],
  memory: ['$CODEX_HOME/memories/**', '.codex/memories/**'],
  mcp: [],
  hooksOff: [],
  program: {
    names: ['codex'],
    // `codex -c key=value features disable hooks`
    argv: {
      values: [
        '-c',
        '--config',
        '-m',
        '--model',
        '-p',
        '--profile',
        '-s',
        '--sandbox',
        '-a',
        '--ask-for-approval',
        '-C',
        '--cd',
        '-i',
        '--image',
        '--enable',
        '--disable',
      ],
    },
    hooksOff: [
      // hooks nobody reviewed trusted for the run
      { flag: '--dangerously-bypass-hook-trust' },
      // `-c features.hooks=false`, or one of guard's hooks switched off in `hooks.state`
      { option: ['-c', '--config'], value: String.raw`(?:^|\.)(?:codex_)?hooks\s*=\s*false\b` },
      { option: ['-c', '--config'], value: String.raw`^(?=[\s\S]*hooks\.state)[\s\S]*\benabled\s*=\s*false\b` },
      { option: ['--disable'], value: '^(?:codex_)?hooks$' },
      { operands: [['features'], ['disable'], ['hooks', 'codex_hooks']] },
    ],
  },
};
