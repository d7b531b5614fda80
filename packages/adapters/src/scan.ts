import { posix } from 'node:path';
import type { ExtensionParts, Locations, McpServer } from './adapter.js';

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
    'CLAUDE.local.md',
    '.claude/CLAUDE.md',
    'GEMINI.md',
    'QWEN.md',
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
    '.claude/rules',
    '.claude/agents',
    '.claude/commands',
    '.gemini/skills',
    '.gemini/agents',
    '.qwen/skills',
    '.qwen/agents',
    '.qwen/commands',
    '.kiro/steering',
  ],
};

/**
 * Reads the servers of a JSON file that keeps them under `key` (an object: name → server); with
 * `comments`, of a file the agent reads as JSON with comments (Gemini CLI's settings.json).
 */
export function jsonServers(key = 'mcpServers', comments = false): (text: string) => Promise<readonly McpServer[]> {
  return async (text) => {
    try {
      const parsed = JSON.parse(comments ? withoutComments(text) : text) as Record<string, unknown>;
      return serversIn(parsed[key] ?? parsed['mcpServers']);
    } catch {
      throw new McpConfigError('not valid JSON, its servers were not checked');
    }
  };
}

/**
 * JSON with comments as plain JSON: each `//` and `/* … *\/` comment outside a string becomes spaces
 * (so a parse error still points at the right place). A comment left open runs to the end.
 */
export function withoutComments(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      // skip the string, escapes included
      for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const line = text[i + 1] === '/';
      const close = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : line ? close : close + 2;
      out += text.slice(from, i) + text.slice(i, end).replace(/[^\n]/g, ' ');
      from = end;
      i = end - 1;
    }
  }
  return out + text.slice(from);
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
        : typeof entry['httpUrl'] === 'string'
          ? { url: entry['httpUrl'] }
          : {}),
    ...(typeof entry['cwd'] === 'string' ? { cwd: entry['cwd'] } : {}),
    ...(skip ? { skip } : {}),
  };
}

/**
 * What an extension of Gemini CLI or Qwen Code (a fork of it) adds, from its manifest
 * (`gemini-extension.json`, `qwen-extension.json`): the MCP servers it starts, with
 * `${extensionPath}`, `${workspacePath}` and `${/}` put in as the agent does, its context files
 * (`contextFileName`, one name or a list; the agent's own name, `context`, when none is named) and
 * its skills folder.
 */
export function extensionParts(context: string): (text: string, dir: string, where: Locations) => ExtensionParts {
  return (text, dir, where) => {
    let manifest: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(withoutComments(text));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      manifest = parsed as Record<string, unknown>;
    } catch {
      throw new McpConfigError('not valid JSON, its MCP servers and context files were not checked');
    }
    const fill = (value: string): string =>
      value
        .replaceAll('${extensionPath}', dir)
        .replaceAll('${workspacePath}', where.projectRoot)
        .replaceAll('${/}', '/');
    const servers = serversIn(manifest['mcpServers']).map((server): McpServer => ({
      ...server,
      ...(server.command === undefined ? {} : { command: fill(server.command) }),
      args: server.args.map(fill),
      env: Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, fill(value)])),
      ...(server.cwd === undefined ? {} : { cwd: fill(server.cwd) }),
    }));
    const named = manifest['contextFileName'];
    const names = typeof named === 'string' ? [named] : Array.isArray(named) ? named.filter(isString) : [];
    return {
      rules: {
        // a name that climbs out of the extension's folder is read where it points, as the agent would
        files: (names.length > 0 ? names : [context]).map((name) => posix.join(dir, name)),
        folders: [posix.join(dir, 'skills')],
      },
      servers,
    };
  };
}

const isString = (value: unknown): value is string => typeof value === 'string';
