import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AgentId } from '@guard/core';
import { rulesFileSigns, scanInjection } from '@guard/core';
import { folderProblem } from './fsx.js';

/** What the chat-start scan looked at, what it found, and what it could not check (SPEC §5). */
export interface StartScanResult {
  readonly checked: readonly string[];
  /** `<what>: <signs>`; never the text itself. */
  readonly found: readonly string[];
  /** `<what>: <why not>`. */
  readonly unchecked: readonly string[];
  /** A rules or memory file the agent loads showed injection signs: risky steps stop for the chat. */
  readonly poisonedRules: boolean;
  /** MCP servers whose tool descriptions showed injection signs: their tools are blocked. */
  readonly poisonedServers: readonly string[];
}

export interface StartScanOptions {
  readonly agent: AgentId;
  readonly projectRoot: string;
  readonly home: string;
  readonly codexHome?: string;
  readonly copilotHome?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** For all MCP servers together. */
  readonly timeoutMs?: number;
}

const MAX_FILE = 256 * 1024;
const MAX_FILES = 60;

/** Rules and memory files agents load from a project, relative to its root (folders are read one level deep). */
const PROJECT_FILES = [
  'AGENTS.md',
  'AGENTS.override.md',
  'CLAUDE.md',
  'GEMINI.md',
  '.cursorrules',
  '.github/copilot-instructions.md',
  '.windsurfrules',
];
const PROJECT_FOLDERS = [
  '.cursor/rules',
  '.github/instructions',
  '.agents/rules',
  '.agents/skills',
  '.codex/skills',
  '.claude/skills',
];

function userFiles(options: StartScanOptions): { files: string[]; folders: string[] } {
  const codex = options.codexHome ?? join(options.home, '.codex');
  const copilot = options.copilotHome ?? join(options.home, '.copilot');
  switch (options.agent) {
    case 'codex':
      return {
        files: [join(codex, 'AGENTS.md'), join(codex, 'AGENTS.override.md')],
        folders: [join(codex, 'skills'), join(options.home, '.agents', 'skills'), join(codex, 'memories')],
      };
    case 'cursor':
      return { files: [], folders: [join(options.home, '.cursor', 'rules')] };
    case 'antigravity':
      return {
        files: [join(options.home, '.gemini', 'GEMINI.md')],
        folders: [join(options.home, '.gemini', 'antigravity', 'knowledge')],
      };
    case 'copilot':
      return {
        files: [join(copilot, 'copilot-instructions.md')],
        folders: [join(copilot, 'instructions'), join(copilot, 'skills')],
      };
  }
}

function readBounded(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    const text = readFileSync(path, 'utf8');
    return text.length > MAX_FILE ? text.slice(0, MAX_FILE) : text;
  } catch {
    return undefined;
  }
}

/** Markdown-ish files in a folder and its direct subfolders (skills keep a SKILL.md per folder). */
function filesIn(folder: string): string[] {
  const out: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isFile() && /\.(md|mdc|txt|instructions\.md)$/i.test(entry.name)) out.push(path);
    else if (entry.isDirectory()) {
      try {
        for (const inner of readdirSync(path, { withFileTypes: true })) {
          if (inner.isFile() && /\.(md|mdc)$/i.test(inner.name)) out.push(join(path, inner.name));
        }
      } catch {
        // unreadable subfolder: skipped
      }
    }
  }
  return out;
}

/** Scans the rules and memory files this agent loads for this project and this user. */
export function scanRulesFiles(
  options: StartScanOptions,
): Pick<StartScanResult, 'checked' | 'found' | 'poisonedRules'> {
  const user = userFiles(options);
  const candidates = [
    ...PROJECT_FILES.map((file) => join(options.projectRoot, file)),
    ...PROJECT_FOLDERS.flatMap((folder) => filesIn(join(options.projectRoot, folder))),
    ...user.files,
    ...user.folders.flatMap(filesIn),
  ].slice(0, MAX_FILES);
  const checked: string[] = [];
  const found: string[] = [];
  for (const path of candidates) {
    const text = readBounded(path);
    if (text === undefined) continue;
    const name = displayPath(path, options);
    checked.push(name);
    const signs = rulesFileSigns(text);
    if (signs.length > 0) found.push(`${name}: ${signs.join(', ')}`);
  }
  return { checked, found, poisonedRules: found.length > 0 };
}

function displayPath(path: string, options: StartScanOptions): string {
  if (path.startsWith(`${options.projectRoot}/`)) return relative(options.projectRoot, path);
  if (path.startsWith(`${options.home}/`)) return `~/${relative(options.home, path)}`;
  return path;
}

/** A locally started MCP server as an agent's user-level config declares it. */
export interface McpServer {
  readonly name: string;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Remote (URL) servers are never contacted. */
  readonly url?: string;
  /** The agent marks it as disabled or needing approval: not started. */
  readonly skip?: string;
}

/** The MCP servers configured for this agent at user level (project-level servers need the person's approval first and are never started). */
export async function configuredServers(
  options: StartScanOptions,
): Promise<{ servers: McpServer[]; problems: string[] }> {
  const problems: string[] = [];
  const servers: McpServer[] = [];
  const fromJson = (path: string, key: 'mcpServers' | 'servers'): void => {
    const text = readBounded(path);
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const table = parsed[key] ?? parsed.mcpServers;
      if (table && typeof table === 'object')
        for (const [name, value] of Object.entries(table)) servers.push(serverFrom(name, value));
    } catch {
      problems.push(`${displayPath(path, options)}: not valid JSON, its servers were not checked`);
    }
  };
  switch (options.agent) {
    case 'codex': {
      const path = join(options.codexHome ?? join(options.home, '.codex'), 'config.toml');
      const text = readBounded(path);
      // a config with no MCP server (most) needs no TOML parser loaded: the name is in every form of the key
      if (text?.includes('mcp_servers') === true) {
        try {
          const { parse } = await import('smol-toml');
          const table = (parse(text) as Record<string, unknown>).mcp_servers;
          if (table && typeof table === 'object')
            for (const [name, value] of Object.entries(table)) servers.push(serverFrom(name, value));
        } catch {
          problems.push(`${displayPath(path, options)}: not valid TOML, its MCP servers were not checked`);
        }
      }
      break;
    }
    case 'cursor':
      fromJson(join(options.home, '.cursor', 'mcp.json'), 'mcpServers');
      break;
    case 'antigravity':
      fromJson(join(options.home, '.gemini', 'antigravity', 'mcp_config.json'), 'mcpServers');
      break;
    case 'copilot':
      fromJson(join(options.copilotHome ?? join(options.home, '.copilot'), 'mcp-config.json'), 'mcpServers');
      break;
  }
  return { servers, problems };
}

function serverFrom(name: string, value: unknown): McpServer {
  const entry = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  const env: Record<string, string> = {};
  if (entry.env && typeof entry.env === 'object') {
    for (const [key, val] of Object.entries(entry.env)) if (typeof val === 'string') env[key] = val;
  }
  const skip = entry.disabled === true || entry.enabled === false ? 'disabled in the agent' : undefined;
  return {
    name,
    ...(typeof entry.command === 'string' ? { command: entry.command } : {}),
    args,
    env,
    ...(typeof entry.url === 'string'
      ? { url: entry.url }
      : typeof entry.serverUrl === 'string'
        ? { url: entry.serverUrl }
        : {}),
    ...(skip ? { skip } : {}),
  };
}

/**
 * Asks each local MCP server for its tools, all at once, within `timeoutMs` in total, and scans
 * every description, parameter and instruction text. Every process is killed afterwards.
 */
export async function scanServers(
  servers: readonly McpServer[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  timeoutMs: number,
): Promise<Pick<StartScanResult, 'checked' | 'found' | 'unchecked' | 'poisonedServers'>> {
  const checked: string[] = [];
  const found: string[] = [];
  const unchecked: string[] = [];
  const poisoned: string[] = [];
  const local = servers.filter((server) => {
    if (server.skip) unchecked.push(`MCP server ${server.name}: ${server.skip}`);
    else if (server.url !== undefined || server.command === undefined)
      unchecked.push(`MCP server ${server.name}: remote, not contacted`);
    else return true;
    return false;
  });
  if (local.length === 0) return { checked, found, unchecked, poisonedServers: poisoned };
  const problem = folderProblem(cwd);
  if (problem !== undefined) {
    for (const server of local) unchecked.push(`MCP server ${server.name}: not started, ${problem}`);
    return { checked, found, unchecked, poisonedServers: poisoned };
  }
  const { execa } = await import('execa');
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    local.map(async (server) => {
      const texts = await listTools(execa, server, env, cwd, deadline);
      if (typeof texts === 'string') {
        unchecked.push(`MCP server ${server.name}: ${texts}`);
        return;
      }
      checked.push(`MCP server ${server.name}`);
      const signs = new Set<string>();
      for (const text of texts) for (const sign of scanInjection(text).signs) signs.add(sign);
      if (signs.size > 0) {
        poisoned.push(server.name);
        found.push(`MCP server ${server.name}: ${[...signs].join(', ')}`);
      }
    }),
  );
  return { checked, found, unchecked, poisonedServers: poisoned };
}

type Execa = typeof import('execa').execa;

/** The texts of a server's initialize instructions and tool list, or why they could not be read. */
async function listTools(
  execa: Execa,
  server: McpServer,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  deadline: number,
): Promise<string[] | string> {
  const child = execa(server.command ?? '', [...server.args], {
    cwd,
    env: { ...env, ...server.env },
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'ignore',
    reject: false,
    buffer: false,
    forceKillAfterDelay: 200,
  });
  const texts: string[] = [];
  let settle: (value: string[] | string) => void = () => {};
  const done = new Promise<string[] | string>((resolve) => (settle = resolve));
  const timer = setTimeout(() => settle('did not answer within the time limit'), Math.max(0, deadline - Date.now()));
  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > 4 * 1024 * 1024) return settle('answered too much');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      let message: { id?: unknown; result?: Record<string, unknown>; error?: unknown };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue;
      }
      if (message.id === 1) {
        if (!message.result) return settle('refused to start (initialize failed)');
        if (typeof message.result.instructions === 'string') texts.push(message.result.instructions);
        child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
        child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`);
      } else if (message.id === 2) {
        if (!message.result) return settle('did not list its tools');
        collectStrings(message.result.tools, texts);
        return settle(texts);
      }
    }
  });
  child.on('error', () => settle('could not be started'));
  void child.then(() => settle('exited before answering'));
  child.stdin?.on('error', () => {});
  child.stdin?.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'guard-scan', version: '1' } } })}\n`,
  );
  const outcome = await done;
  clearTimeout(timer);
  child.kill('SIGKILL');
  return outcome;
}

/** Every string in a JSON value (descriptions, titles, parameter descriptions, enum values), bounded. */
function collectStrings(value: unknown, out: string[], depth = 0): void {
  if (out.length > 5000 || depth > 20) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out, depth + 1);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      collectStrings(item, out, depth + 1);
    }
}

/** The whole chat-start scan: rules files and local MCP servers (at most `timeoutMs` for the servers). */
export async function scanChatStart(options: StartScanOptions): Promise<StartScanResult> {
  const files = scanRulesFiles(options);
  const { servers, problems } = await configuredServers(options);
  const mcp = await scanServers(servers, options.env, options.projectRoot, options.timeoutMs ?? 5000);
  return {
    checked: [...files.checked, ...mcp.checked],
    found: [...files.found, ...mcp.found],
    unchecked: [...problems, ...mcp.unchecked],
    poisonedRules: files.poisonedRules,
    poisonedServers: mcp.poisonedServers,
  };
}
