import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AgentId, ExtensionParts, Locations, McpServer } from '@guard/adapters';
import type { ServerScan } from '@guard/core';
import { AGENTS } from '@guard/adapters/agents';
import { McpConfigError, PROJECT_RULES } from '@guard/adapters/scan';
import { checkServers, rulesFileSigns, scanInjection } from '@guard/core';
import { folderProblem } from '../fsx.js';
import { keepServers, knownServers } from '../state/servers.js';

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
  /** MCP servers new or changed since guard last let their tools run: name → print (see core's `checkServers`). */
  readonly newServers?: Readonly<Record<string, string>>;
  /**
   * Local MCP servers whose tools could not be read (out of time, not started, no tool list): name →
   * why. Their tools ask until a later scan reads them (core's `onServerScan`). Remote servers and
   * those guard never starts are not among them: guard did not try.
   */
  readonly uncheckedServers?: Readonly<Record<string, string>>;
  /** MCP servers whose tools were read (clean or not). */
  readonly serversChecked?: readonly string[];
}

export interface StartScanOptions {
  readonly agent: AgentId;
  readonly projectRoot: string;
  readonly home: string;
  /** The environment: where the agent keeps its files (e.g. CODEX_HOME), and what MCP servers start with. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** For all MCP servers together. */
  readonly timeoutMs?: number;
  /** guard's folder, where the prints of known servers are kept; without it no server is fingerprinted. */
  readonly guardHome?: string;
}

const MAX_FILE = 256 * 1024;
const MAX_FILES = 60;

function locations(options: StartScanOptions): Locations {
  return { home: options.home, env: options.env, projectRoot: options.projectRoot };
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

/** An extension the agent loads: what it adds, or why its manifest could not be read (and its text). */
export type Extension =
  | { readonly path: string; readonly parts: ExtensionParts }
  | {
      readonly path: string;
      readonly rules: ExtensionParts['rules'];
      readonly problem: string;
      readonly text: string;
    };

const MAX_EXTENSIONS = 50;

/** The agent's extensions, each read from its manifest (none when the agent has none, or the folder is missing). */
export function extensionsOf(options: StartScanOptions): Extension[] {
  const where = locations(options);
  const spec = AGENTS[options.agent].chatStart.extensions?.(where);
  if (spec === undefined) return [];
  let names: string[];
  try {
    names = readdirSync(spec.folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  const out: Extension[] = [];
  for (const name of names.slice(0, MAX_EXTENSIONS)) {
    const dir = join(spec.folder, name);
    const path = join(dir, spec.manifest);
    const text = readBounded(path);
    // a folder with no manifest is no extension to the agent
    if (text === undefined) continue;
    try {
      out.push({ path, parts: spec.read(text, dir, where) });
    } catch (error) {
      const why = error instanceof McpConfigError ? error.message : `could not be read (${String(error)})`;
      out.push({ path, rules: spec.fallback(dir), problem: why, text });
    }
  }
  return out;
}

/** Scans the rules and memory files this agent loads for this project and this user. */
export function scanRulesFiles(
  options: StartScanOptions,
  extensions: readonly Extension[] = extensionsOf(options),
): Pick<StartScanResult, 'checked' | 'found' | 'poisonedRules'> {
  const user = AGENTS[options.agent].chatStart.rules(locations(options));
  const added = extensions.map((extension) => ('parts' in extension ? extension.parts.rules : extension.rules));
  const candidates = [
    ...PROJECT_RULES.files.map((file) => join(options.projectRoot, file)),
    ...PROJECT_RULES.folders.flatMap((folder) => filesIn(join(options.projectRoot, folder))),
    ...user.files,
    ...user.folders.flatMap(filesIn),
    ...added.flatMap((rules) => [...rules.files, ...rules.folders.flatMap(filesIn)]),
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

/** An MCP server as the scan read it: `project` set when the project's own files declare it. */
export type ServerRead = McpServer & { readonly project?: string };

/**
 * The MCP servers configured for this agent: the person's, its extensions', and the project's own
 * (which are marked, and never started: the agent asks the person before it starts them, or runs
 * them only in a folder the person trusted). `unreadable` holds the text of each file that exists
 * but could not be read: what it declares is unknown.
 */
export async function configuredServers(
  options: StartScanOptions,
  extensions: readonly Extension[] = extensionsOf(options),
): Promise<{ servers: ServerRead[]; problems: string[]; unreadable: string[] }> {
  const problems: string[] = [];
  const unreadable: string[] = [];
  const servers: ServerRead[] = [];
  for (const config of AGENTS[options.agent].chatStart.mcp(locations(options))) {
    const text = readBounded(config.path);
    if (text === undefined) {
      // there, but not to be read (no permission, not a file): what it declares is unknown
      if (existsSync(config.path)) {
        problems.push(`${displayPath(config.path, options)}: could not be read, its servers were not checked`);
        unreadable.push(`${config.path}\u0000unreadable`);
      }
      continue;
    }
    try {
      const declared = await config.servers(text);
      servers.push(
        ...(config.project === true
          ? declared.map((server) => ({
              ...server,
              project: options.projectRoot,
              skip: server.skip ?? "the project's own server, not started by guard",
            }))
          : declared),
      );
    } catch (error) {
      const why = error instanceof McpConfigError ? error.message : `could not be read (${String(error)})`;
      problems.push(`${displayPath(config.path, options)}: ${why}`);
      unreadable.push(`${config.path}\u0000${text}`);
    }
  }
  for (const extension of extensions) {
    if ('parts' in extension) servers.push(...extension.parts.servers);
    else {
      problems.push(`${displayPath(extension.path, options)}: ${extension.problem}`);
      unreadable.push(`${extension.path}\u0000${extension.text}`);
    }
  }
  return { servers, problems, unreadable };
}

/**
 * Why the scan does not ask a server for its tools, by design: a remote one is never contacted (no
 * network unasked), and one the agent starts only after the person's yes or in a trusted folder is
 * not started by guard. Their calls go ahead with their arguments judged (`mcpArgSteps()` in core);
 * undefined for a local server the scan starts.
 */
export function notScanned(server: McpServer): string | undefined {
  if (server.skip) return server.skip;
  if (server.url !== undefined || server.command === undefined) return 'remote, not contacted';
  return undefined;
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
): Promise<
  Pick<StartScanResult, 'checked' | 'found' | 'unchecked' | 'poisonedServers' | 'uncheckedServers' | 'serversChecked'>
> {
  const checked: string[] = [];
  const found: string[] = [];
  const unchecked: string[] = [];
  const poisoned: string[] = [];
  const unread: Record<string, string> = {};
  const read: string[] = [];
  const result = () => ({
    checked,
    found,
    unchecked,
    poisonedServers: poisoned,
    ...(Object.keys(unread).length === 0 ? {} : { uncheckedServers: unread }),
    ...(read.length === 0 ? {} : { serversChecked: read }),
  });
  const local = servers.filter((server) => {
    const why = notScanned(server);
    if (why !== undefined) unchecked.push(`MCP server ${server.name}: ${why}`);
    return why === undefined;
  });
  if (local.length === 0) return result();
  const problem = folderProblem(cwd);
  if (problem !== undefined) {
    for (const server of local) {
      unchecked.push(`MCP server ${server.name}: not started, ${problem}`);
      unread[server.name] = `not started, ${problem}`;
    }
    return result();
  }
  const { execa } = await import('execa');
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    local.map(async (server) => {
      const texts = await listTools(execa, server, env, cwd, deadline);
      if (typeof texts === 'string') {
        unchecked.push(`MCP server ${server.name}: ${texts}`);
        unread[server.name] = texts;
        return;
      }
      checked.push(`MCP server ${server.name}`);
      read.push(server.name);
      const signs = new Set<string>();
      for (const text of texts) for (const sign of scanInjection(text).signs) signs.add(sign);
      if (signs.size > 0) {
        poisoned.push(server.name);
        found.push(`MCP server ${server.name}: ${[...signs].join(', ')}`);
      }
    }),
  );
  return result();
}

/**
 * Scans one local MCP server again (a tool of it was called after the chat-start scan could not
 * read its tools), as the agent's files declare it now, within `timeoutMs`.
 */
export async function rescanServer(options: StartScanOptions, name: string): Promise<ServerScan> {
  const { servers } = await configuredServers(options);
  const server = servers.find((declared) => declared.name === name);
  if (server === undefined) return { why: "no longer declared in the agent's files" };
  const mcp = await scanServers([server], options.env, options.projectRoot, options.timeoutMs ?? 5000);
  if (mcp.serversChecked !== undefined) return { signs: mcp.found };
  // not read: why (a server declared remote or not to be started since is not tried, and stays unread)
  return { why: mcp.uncheckedServers?.[name] ?? mcp.unchecked.join('; ').replace(/^MCP server [^:]*: /, '') };
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
    cwd: server.cwd ?? cwd,
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

/**
 * Which servers are new or changed since guard last let their tools run (core's `checkServers`
 * against the prints kept in guard's folder); the first look ever keeps the person's own servers
 * as known. Prints that cannot be kept are kept the next time.
 */
function newServersOf(
  options: StartScanOptions,
  servers: readonly ServerRead[],
  unreadable: readonly string[],
): { newServers: Readonly<Record<string, string>>; unchecked: string[] } {
  if (options.guardHome === undefined) return { newServers: {}, unchecked: [] };
  const known = knownServers(options.guardHome, options.agent);
  const { newServers, baseline } = checkServers(known, servers, unreadable);
  const unchecked: string[] = [];
  // the first look is kept even when there is no server: a server added later is new
  if (known === undefined || baseline.length > 0) {
    try {
      keepServers(options.guardHome, options.agent, baseline);
    } catch (error) {
      unchecked.push(`the MCP servers' prints could not be kept (${String(error)})`);
    }
  }
  return { newServers, unchecked };
}

/** The whole chat-start scan: rules files and local MCP servers (at most `timeoutMs` for the servers). */
export async function scanChatStart(options: StartScanOptions): Promise<StartScanResult> {
  const extensions = extensionsOf(options);
  const files = scanRulesFiles(options, extensions);
  const { servers, problems, unreadable } = await configuredServers(options, extensions);
  const prints = newServersOf(options, servers, unreadable);
  const mcp = await scanServers(servers, options.env, options.projectRoot, options.timeoutMs ?? 5000);
  return {
    checked: [...files.checked, ...mcp.checked],
    found: [...files.found, ...mcp.found],
    unchecked: [...problems, ...prints.unchecked, ...mcp.unchecked],
    poisonedRules: files.poisonedRules,
    poisonedServers: mcp.poisonedServers,
    ...(Object.keys(prints.newServers).length === 0 ? {} : { newServers: prints.newServers }),
    ...(mcp.uncheckedServers === undefined ? {} : { uncheckedServers: mcp.uncheckedServers }),
    ...(mcp.serversChecked === undefined ? {} : { serversChecked: mcp.serversChecked }),
  };
}
