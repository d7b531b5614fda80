import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { AGENT_IDS, AGENTS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import type { Io } from '../io.js';
import { findOnPath } from './codex-app-server.js';
import { adapterFor, locationsFrom } from './config-io.js';

/** An agent this machine has, and what showed it. */
export interface FoundAgent {
  readonly agent: AgentId;
  /** `codex on PATH` or `~/.codex` (the folder its user settings live in). */
  readonly why: string;
}

/**
 * The agents installed here, as the adapters declare them: the agent's program on PATH, or the folder
 * its user-level hook file lives in (an editor's agent has no program on PATH).
 */
export function foundAgents(io: Io): FoundAgent[] {
  const where = locationsFrom(io);
  const found: FoundAgent[] = [];
  for (const agent of AGENT_IDS) {
    const program = AGENTS[agent].files.program?.names.find((name) => findOnPath(name, io.env) !== undefined);
    if (program !== undefined) {
      found.push({ agent, why: `${program} on PATH` });
      continue;
    }
    let folder = dirname(adapterFor(agent).configPath('user', where));
    while (basename(folder) === 'hooks') folder = dirname(folder);
    if (existsSync(folder)) found.push({ agent, why: tilde(folder, where.home) });
  }
  return found;
}

/** A path in the home as `~/…`; any other as it is. */
export function tilde(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
