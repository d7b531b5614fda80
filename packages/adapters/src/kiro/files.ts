import type { AgentFiles } from '../adapter.js';

/** The kinds of step the payload reader makes of Kiro's tools. */
export type ToolKind = 'shell' | 'write' | 'read' | 'search' | 'aws' | 'fetch' | 'other';

/**
 * Kiro CLI's built-in tools by name, and the step each is. Kiro names them after the Amazon Q
 * Developer CLI it grew from (`execute_bash`, `fs_write`) and by shorter aliases (`shell`, `write`);
 * its documentation says a hook's matcher takes either, and does not say which one a payload carries
 * (its examples show `read`), so both are here (unverified on a binary). Any other name is read by
 * the shape of its input; an MCP server's tool is `@server/tool`.
 */
export const TOOLS = {
  execute_bash: 'shell',
  // the Amazon Q CLI's shell tool on Windows
  execute_cmd: 'shell',
  shell: 'shell',
  fs_write: 'write',
  write: 'write',
  fs_read: 'read',
  read: 'read',
  // searches under a path: they read what they search
  glob: 'search',
  grep: 'search',
  // runs the `aws` program with the call's service, operation and parameters
  use_aws: 'aws',
  aws: 'aws',
  web_fetch: 'fetch',
  // no step on the machine: a web search's query, the model's own notes and lists, Kiro's help
  web_search: 'other',
  thinking: 'other',
  todo_list: 'other',
  introspect: 'other',
  report_issue: 'other',
} as const satisfies Readonly<Record<string, ToolKind>>;

/** The agent guard's setup writes (`guard.json` in an agents folder), which the person starts chats with. */
export const GUARD_AGENT = 'guard';

/** Milliseconds Kiro waits for a hook when its entry names no `timeout_ms` (its documentation: 30 seconds). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Seconds guard's entries give its hook (`timeout_ms` is written from this). */
export const HOOK_TIMEOUT = 30;

/** The agent's options that take a value (so that value is not its subcommand). */
export const VALUE_OPTIONS = ['--agent', '--model', '--trust-tools'];

/**
 * Kiro CLI's files and switches as data (see AgentFiles), from its documentation (not observed on a
 * binary, see docs/agents-observed.md): its folder `~/.kiro` (agents, settings, steering), a
 * project's `.kiro`, and the project's AGENTS.md. Hooks live in agent files: every file in an agents
 * folder is one agent, and the agent a chat runs decides which hooks run.
 */
export const kiroFiles: AgentFiles = {
  homes: [],
  // every agent file, guard's or not: which one a chat runs is the person's choice, and a project's
  // agent of the same name takes the place of the user's
  hooks: ['~/.kiro/agents/**', '.kiro/agents/**', '~/.kiro/settings/cli.json'],
  folders: ['~/.kiro'],
  // the default agent and Kiro's other settings
  settings: ['~/.kiro/settings/**', '.kiro/settings/**'],
  rules: ['.kiro/steering/**', '~/.kiro/steering/**', 'AGENTS.md'],
  memory: [],
  // guard's agent file may hold servers too (`mcpServers`), which the chat-start scan reads
  mcp: ['~/.kiro/settings/mcp.json', '.kiro/settings/mcp.json', '~/.kiro/agents/guard.json', '.kiro/agents/guard.json'],
  tools: TOOLS,
  hookTimeout: HOOK_TIMEOUT,
  // the setting that names the agent a chat starts with (guard's hooks run only in an agent that has them)
  hooksOff: [String.raw`"chat\.defaultAgent"\s*:`],
  program: {
    names: ['kiro-cli'],
    argv: { values: VALUE_OPTIONS },
    // a chat with another agent runs that agent's hooks, not guard's; so does a new default agent
    hooksOff: [
      { option: ['--agent'], value: String.raw`^(?!guard$)` },
      { operands: [['settings'], ['chat.defaultAgent']] },
      { operands: [['agent'], ['set-default']] },
    ],
  },
};
