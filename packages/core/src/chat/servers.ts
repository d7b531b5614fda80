import { shortHash } from './ids.js';

/**
 * Which MCP servers a chat asks about before their first use (SPEC §6, `mcp.changes`): a server
 * guard has not seen run with a yes, or whose command, arguments, environment or address changed
 * since. A server is known by its print (a hash of what it runs, never the values themselves);
 * guard keeps the prints that were let through per agent, and the chat-start scan compares.
 */

/** An MCP server as an agent's files declare it. */
export interface ServerSeen {
  readonly name: string;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly url?: string;
  /** The folder it is started in, when its file names one (the same command elsewhere runs other code). */
  readonly cwd?: string;
  /**
   * The project root, when the project's own files declare it (a repository's `.mcp.json` or an
   * agent's settings in the project): known only for that project, and never taken as known unasked.
   */
  readonly project?: string;
}

/** The name under which a chat keeps "an MCP config could not be read: every server asks". */
export const ANY_SERVER = '*';

/** A server's print: what it runs and where it is declared, hashed (the env's values never kept as text). */
export function serverPrint(server: ServerSeen): string {
  const env = Object.keys(server.env)
    .sort()
    .map((key) => [key, server.env[key] ?? '']);
  const what = [server.project ?? '', server.name, server.command ?? '', server.args, env, server.url ?? ''];
  // (only when named, so the prints of servers that name no folder stay what they were)
  if (server.cwd !== undefined) what.push(server.cwd);
  return shortHash(JSON.stringify(what), 20);
}

/** What the chat-start scan makes of the servers it read. */
export interface ServerCheck {
  /** Servers to ask about before their first use in this chat: name → print (`ANY_SERVER` → the unreadable files' hash). */
  readonly newServers: Readonly<Record<string, string>>;
  /** Prints to keep as known without asking (only on the first scan guard ever makes for the agent). */
  readonly baseline: readonly string[];
}

/**
 * Compares the servers an agent's files declare now with the prints guard knows for the agent.
 * `known` undefined means guard never looked before (installed today, or before it kept prints):
 * the servers the person set up for themselves are taken as they are (the baseline), but a
 * project's own servers are new all the same. `unreadable` holds the text (or a stand-in) of each
 * MCP file that could not be read: guard cannot tell what is in it, so every server of the chat
 * asks before its first use (never looser because a file is broken).
 */
export function checkServers(
  known: ReadonlySet<string> | undefined,
  servers: readonly ServerSeen[],
  unreadable: readonly string[] = [],
): ServerCheck {
  const newServers: Record<string, string> = {};
  const baseline: string[] = [];
  for (const server of servers) {
    const print = serverPrint(server);
    if (known === undefined && server.project === undefined) baseline.push(print);
    else if (!(known?.has(print) ?? false)) newServers[server.name] = print;
  }
  if (unreadable.length > 0) newServers[ANY_SERVER] = shortHash(unreadable.join('\u0000'), 20);
  return { newServers, baseline };
}

/**
 * The print an MCP step's server must be asked about under, if any: its own when it is new or
 * changed, else the unreadable files' when one could not be read.
 */
export function printToAsk(
  newServers: Readonly<Record<string, string>> | undefined,
  server: string,
): string | undefined {
  if (newServers === undefined) return undefined;
  return (Object.hasOwn(newServers, server) ? newServers[server] : undefined) ?? newServers[ANY_SERVER];
}

/** Why a server's tools could not be checked, when they could not (`unchecked`: name → why). */
export function whyUnchecked(
  unchecked: Readonly<Record<string, string>> | undefined,
  server: string,
): string | undefined {
  return unchecked !== undefined && Object.hasOwn(unchecked, server) ? unchecked[server] : undefined;
}
