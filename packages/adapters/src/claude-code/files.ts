import type { AgentFiles } from '../adapter.js';
import type { ClaudeToolKind } from '../claude-dialect.js';

/** `disableAllHooks`: no hook of any settings file runs (Claude Code and Copilot). */
export const DISABLE_ALL_HOOKS = String.raw`disableAllHooks["']?\s*[:=]\s*["']?(?:true|1)\b`;

/** The agent's own tools by name, and the step each is (its payload reader's table). */
export const TOOLS = {
  Bash: 'shell',
  PowerShell: 'shell',
  Write: 'overwrite',
  Edit: 'edit',
  // gone in 2.1 (no hook fires for it), kept for older versions
  MultiEdit: 'edit',
  NotebookEdit: 'notebook',
  Read: 'read',
  Glob: 'search',
  Grep: 'search',
  WebFetch: 'fetch',
  // Tools that are no step on the machine (subagents, searches, plans, skills), read as they are:
  // never by the shape of their input, where a prompt may quote a command
  Agent: 'other',
  Task: 'other',
  TaskCreate: 'other',
  TaskGet: 'other',
  TaskUpdate: 'other',
  TaskList: 'other',
  TaskStop: 'other',
  WebSearch: 'other',
  TodoWrite: 'other',
  Skill: 'other',
  ToolSearch: 'other',
} as const satisfies Readonly<Record<string, ClaudeToolKind>>;

/**
 * Claude Code's files and switches as data (see AgentFiles). Its folder is `$CLAUDE_CONFIG_DIR`, by
 * default `~/.claude`; a project has its own `.claude` folder; managed settings are machine-wide.
 */
export const claudeCodeFiles: AgentFiles = {
  homes: [{ variable: 'CLAUDE_CONFIG_DIR', default: '~/.claude' }],
  // guard's hooks, and the settings that switch them off (disableAllHooks), are in the settings files
  hooks: [
    '$CLAUDE_CONFIG_DIR/settings.json',
    '$CLAUDE_CONFIG_DIR/settings.local.json',
    '.claude/settings.json',
    '.claude/settings.local.json',
    '/etc/claude-code/**',
    '/Library/Application Support/ClaudeCode/**',
    'C:/Program Files/ClaudeCode/**',
  ],
  folders: ['$CLAUDE_CONFIG_DIR', '~/.claude'],
  settings: [
    '$CLAUDE_CONFIG_DIR/settings.json',
    '$CLAUDE_CONFIG_DIR/settings.local.json',
    '.claude/settings.json',
    '.claude/settings.local.json',
  ],
  rules: [
    'CLAUDE.md',
    'CLAUDE.local.md',
    '$CLAUDE_CONFIG_DIR/rules/**',
    '$CLAUDE_CONFIG_DIR/skills/**',
    '$CLAUDE_CONFIG_DIR/agents/**',
    '$CLAUDE_CONFIG_DIR/commands/**',
    '.claude/skills/**',
    '.claude/agents/**',
    '.claude/commands/**',
  ],
  // the memory Claude Code writes for itself, per project
  memory: ['$CLAUDE_CONFIG_DIR/projects/*/memory/**', '~/.claude/projects/*/memory/**'],
  // a project's shared servers, and the person's own and per-project local ones in `.claude.json`
  // (in the config folder when it is moved, else in the home folder)
  mcp: ['.mcp.json', '~/.claude.json', '$CLAUDE_CONFIG_DIR/.claude.json'],
  tools: TOOLS,
  // Seconds. Guard answers within this less its margin (7 s; cli/src/hook/reply.ts); past this
  // Claude Code kills the hook and runs the step, or blocks it under fail-closed (onFailure "block").
  hookTimeout: 10,
  // its chats: one file each, per project folder (a subagent's in a folder beside it)
  transcripts: { folder: '$CLAUDE_CONFIG_DIR/projects', files: /\.jsonl$/ },
  hooksOff: [DISABLE_ALL_HOOKS],
  // managed settings (run on 2.1.332 by test/e2e/claude-code-system.test.ts; macOS and Windows unverified)
  system: {
    linux: '/etc/claude-code/managed-settings.json',
    darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
    win32: 'C:/Program Files/ClaudeCode/managed-settings.json',
    first: 'together',
    layer:
      "Claude Code runs the hooks of every settings file side by side; a user's or a project's disableAllHooks, --setting-sources, --settings and even --bare leave a managed hook running, and the managed allowManagedHooksOnly keeps it (seen on 2.1.332); only a disableAllHooks in the managed file itself switches it off",
  },
  program: {
    names: ['claude'],
    packages: ['@anthropic-ai/claude-code'],
    argv: { values: ['--settings', '--setting-sources', '--model', '--permission-mode', '--mcp-config'] },
    // --bare loads no hooks; a settings file or JSON on the command line may switch them off;
    // setting sources without `user` leave out the person's settings, where guard's hooks are
    hooksOff: [
      { flag: '--bare' },
      // what --bare sets (its help says so; not run here)
      { variable: 'CLAUDE_CODE_SIMPLE' },
      { option: ['--settings'], hooksOff: true },
      { option: ['--setting-sources'], value: String.raw`^(?![\s\S]*\buser\b)` },
    ],
  },
};
