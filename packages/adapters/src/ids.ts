/**
 * Every agent id, in the order guard lists them: `guard setup <id>`, `guard hook <id>`. The
 * registry (`AGENTS` in agents.ts) has one agent for each id and no other, which its type checks.
 * The list stands apart from the registry so that the CLI can name the agents (its help, its
 * arguments' choices) without loading them and the engine: every `guard` command starts with it.
 */
export const AGENT_IDS = [
  'codex',
  'cursor',
  'antigravity',
  'copilot',
  'claude-code',
  'gemini',
  'opencode',
  'qwen',
  'windsurf',
  'droid',
  'cline',
  'kilo',
  'crush',
  'auggie',
  'kiro',
] as const;

/** An agent's id: `guard setup <id>`, `guard hook <id>`. */
export type AgentId = (typeof AGENT_IDS)[number];
