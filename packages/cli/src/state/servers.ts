import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../fsx.js';
import { withLock } from './lock.js';

/**
 * The MCP servers guard knows per agent (SPEC §6, mcp.changes): `mcp-servers.json` in guard's
 * folder keeps the print of each server whose tools guard let run (or that was there the first
 * time guard looked), never a command, argument or value. A server whose print is not here asks
 * before its first use in a chat. Changed under its lock: hooks of several chats keep prints at once.
 */

export const SERVERS_FILE = 'mcp-servers.json';

/** Most prints kept per agent; the oldest go first (a server dropped asks again: the safe side). */
export const MAX_PRINTS = 2_000;

interface ServersFile {
  readonly v: 1;
  readonly agents: Readonly<Record<string, readonly string[]>>;
  /**
   * Rebuilt after the file could not be read: an agent not in it may have had prints that were
   * lost, so it knows no server (never "never looked", which would take every server as known).
   */
  readonly strict?: true;
}

export function serversPath(guardHome: string): string {
  return join(guardHome, SERVERS_FILE);
}

/** The file as it is: undefined when there is none, 'broken' when it cannot be read as one. */
function readServers(guardHome: string): ServersFile | 'broken' | undefined {
  let text: string | undefined;
  try {
    text = readTextIfExists(serversPath(guardHome));
  } catch {
    return 'broken';
  }
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { v?: unknown; agents?: unknown; strict?: unknown } | null;
    if (parsed?.v !== 1 || typeof parsed.agents !== 'object' || parsed.agents === null || Array.isArray(parsed.agents))
      return 'broken';
    const agents: Record<string, readonly string[]> = {};
    for (const [agent, prints] of Object.entries(parsed.agents as Record<string, unknown>)) {
      if (!Array.isArray(prints) || !prints.every((print) => typeof print === 'string')) return 'broken';
      agents[agent] = prints;
    }
    return { v: 1, agents, ...(parsed.strict === true ? { strict: true as const } : {}) };
  } catch {
    return 'broken';
  }
}

/**
 * The prints guard knows for an agent; undefined only when guard never looked for it. A file that
 * cannot be read knows no server, so every server asks.
 */
export function knownServers(guardHome: string, agent: string): ReadonlySet<string> | undefined {
  const file = readServers(guardHome);
  if (file === undefined) return undefined;
  if (file === 'broken') return new Set();
  const prints = Object.hasOwn(file.agents, agent) ? file.agents[agent] : undefined;
  if (prints === undefined) return file.strict === true ? new Set() : undefined;
  return new Set(prints);
}

/** Adds prints to what guard knows for an agent (under the file's lock); the agent counts as looked at from then on. */
export function keepServers(guardHome: string, agent: string, prints: readonly string[]): void {
  mkdirSync(guardHome, { recursive: true, mode: 0o700 });
  withLock(`${serversPath(guardHome)}.lock`, () => {
    const read = readServers(guardHome);
    const file: ServersFile = read === 'broken' ? { v: 1, agents: {}, strict: true } : (read ?? { v: 1, agents: {} });
    const listed = Object.hasOwn(file.agents, agent);
    const before = listed ? (file.agents[agent] ?? []) : [];
    const added = prints.filter((print, i) => !before.includes(print) && prints.indexOf(print) === i);
    if (added.length === 0 && listed && read !== 'broken') return;
    const next: ServersFile = {
      ...file,
      agents: { ...file.agents, [agent]: [...before, ...added].slice(-MAX_PRINTS) },
    };
    writeFileAtomic(serversPath(guardHome), `${JSON.stringify(next, null, 1)}\n`, 0o600);
  });
}
