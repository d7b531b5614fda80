import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of Codex's tools. */
export type ToolKind = 'shell' | 'patch' | 'other';

/**
 * Codex's own tools by name, and the step each is: every shell variant arrives as Bash with one
 * command string; apply_patch carries its patch text in the same field. A subagent's spawn is no
 * step on the machine (the subagent's own steps come through the hook).
 */
export const TOOLS = {
  Bash: 'shell',
  apply_patch: 'patch',
  spawn_agent: 'other',
  collaborationspawn_agent: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/** Codex's top-level options that take a value as the next argument (so that value is not the subcommand). */
export const VALUE_OPTIONS = [
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
  '--add-dir',
  '--local-provider',
];

/** The administrator's requirements, which win over every user's and project's config.toml. */
export const REQUIREMENTS = '/etc/codex/requirements.toml';

/**
 * Codex's files and switches as data (see AgentFiles). Its folder is `$CODEX_HOME`, by default
 * `~/.codex`; a project has its own `.codex` folder.
 */
export const codexFiles: AgentFiles = {
  homes: [{ variable: 'CODEX_HOME', default: '~/.codex' }],
  // hooks.json holds guard's entries; config.toml can switch hooks off ([features] hooks = false)
  hooks: [
    '$CODEX_HOME/hooks.json',
    '$CODEX_HOME/config.toml',
    '.codex/hooks.json',
    '.codex/config.toml',
    '/etc/codex/hooks.json',
    '/etc/codex/config.toml',
    REQUIREMENTS,
  ],
  folders: ['$CODEX_HOME', '~/.codex'],
  settings: ['$CODEX_HOME/config.toml', '.codex/config.toml'],
  rules: ['AGENTS.md', 'AGENTS.override.md', '$CODEX_HOME/skills/**', '.codex/skills/**', '.agents/skills/**'],
  memory: ['$CODEX_HOME/memories/**', '.codex/memories/**'],
  mcp: [],
  tools: TOOLS,
  // Seconds. Codex runs the command through the user's login shell (`$SHELL -lc`), whose profile
  // can be slow, and lets the tool run when a hook times out; guard answers within this less its
  // margin (21 s), and 30 s is far below Codex's 600 s default. Codex's trust hash covers the timeout, so changing this
  // number makes every user re-trust the hook: keep it a constant.
  hookTimeout: 30,
  // its chats: one rollout file each, by day
  transcripts: { folder: '$CODEX_HOME/sessions', files: /(?:^|\/)rollout-[^/]*\.jsonl$/ },
  hooksOff: [],
  // the system config layer's hooks file (run on 0.171.0 by test/e2e/codex-system.test.ts; Windows unknown)
  system: {
    linux: '/etc/codex/hooks.json',
    darwin: '/etc/codex/hooks.json',
    first: 'together',
    layer:
      "Codex runs the hooks of every layer, the system layer's with no trust in the user's config (seen on 0.171); the hooks feature switched off by a user ([features] hooks = false in config.toml, -c features.hooks=false, --disable hooks) would switch them off too, but the [features] hooks = true setup writes in /etc/codex/requirements.toml pins the feature on",
    // without it, a user's switch turns the system layer's hooks off with every other (seen on 0.171)
    also: [
      {
        linux: REQUIREMENTS,
        darwin: REQUIREMENTS,
        table: 'features',
        key: 'hooks',
        value: true,
        why: "keeps Codex's hooks feature on for every user: no config.toml, -c or --disable switches it off",
      },
    ],
  },
  program: {
    names: ['codex'],
    packages: ['@openai/codex'],
    // `codex -c key=value features disable hooks`
    argv: { values: VALUE_OPTIONS },
    hooksOff: [
      // hooks nobody reviewed trusted for the run
      { flag: '--dangerously-bypass-hook-trust' },
      // `-c features.hooks=false` (`features."hooks"=false`, `features={hooks=false}`), or one of
      // guard's hooks switched off in `hooks.state`
      { option: ['-c', '--config'], value: String.raw`(?:^|[.{,\s])["']?(?:codex_)?hooks["']?\s*=\s*false\b` },
      { option: ['-c', '--config'], value: String.raw`^(?=[\s\S]*hooks\.state)[\s\S]*\benabled\s*=\s*false\b` },
      { option: ['--disable'], value: '^(?:codex_)?hooks$' },
      { operands: [['features'], ['disable'], ['hooks', 'codex_hooks']] },
    ],
  },
};
