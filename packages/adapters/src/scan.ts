import type { McpServer } from './adapter.js';

/**
 * What the chat-start scan reads that no one agent owns, and reading MCP servers out of the JSON
 * most agents keep them in. Each agent's own files are in its folder (`chatStart`).
 */

/** A file of MCP servers that cannot be read; the message says why, in a few words. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/**
 * Rules and memory files agents load from a project, relative to its root (folders are read one
 * level deep). A project's files are there for whichever agent opens it, and agents read each
 * other's (AGENTS.md, CLAUDE.md), so every agent's scan reads all of them.
 */
export const PROJECT_RULES: { readonly files: readonly string[]; readonly folders: readonly string[] } = {
  files: [
    'AGENTS.md',
    'AGENTS.override.md',
    'CLAUDE.md',
    'GEMINI.md',
    '.cursorrules',
    '.github/copilot-instructions.md',
    '.windsurfrules',
  ],
  folders: [
    '.cursor/rules',
    '.github/instructions',
    '.agents/rules',
    '.agents/skills',
    '.codex/skills',
    '.claude/skills',
  ],
};

/** Reads the servers of a JSON file that keeps them under `key` (an object: name → server). */
export function jsonServers(key = 'mcpServers'): (text: string) => Promise<readonly McpServer[]> {
  return async (text) => {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return serversIn(parsed[key] ?? parsed['mcpServers']);
    } catch {
      throw new McpConfigError('not valid JSON, its servers were not checked');
    }
  };
}

/** The servers of a parsed table (name → server); nothing when it is not a table. */
export function serversIn(table: unknown): McpServer[] {
  if (!table || typeof table !== 'object') return [];
  return Object.entries(table).map(([name, value]) => serverFrom(name, value));
}

function serverFrom(name: string, value: unknown): McpServer {
  const entry = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const args = Array.isArray(entry['args']) ? entry['args'].filter((a): a is string => typeof a === 'string') : [];
  const env: Record<string, string> = {};
  if (entry['env'] && typeof entry['env'] === 'object') {
    for (const [key, val] of Object.entries(entry['env'])) if (typeof val === 'string') env[key] = val;
  }
  const skip = entry['disabled'] === true || entry['enabled'] === false ? 'disabled in the agent' : undefined;
  return {
    name,
    ...(typeof entry['command'] === 'string' ? { command: entry['command'] } : {}),
    args,
    env,
    ...(typeof entry['url'] === 'string'
      ? { url: entry['url'] }
      : typeof entry['serverUrl'] === 'string'
        ? { url: entry['serverUrl'] }
        : {}),
    ...(skip ? { skip } : {}),
  };
}
