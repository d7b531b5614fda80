import type { Agent } from './adapter.js';
import { antigravity } from './antigravity/agent.js';
import { auggie } from './auggie/agent.js';
import { claudeCode } from './claude-code/agent.js';
import { cline } from './cline/agent.js';
import { codex } from './codex/agent.js';
import { copilot } from './copilot/agent.js';
import { crush } from './crush/agent.js';
import { cursor } from './cursor/agent.js';
import { droid } from './droid/agent.js';
import { gemini } from './gemini/agent.js';
import { kilo } from './kilo/agent.js';
import { kiro } from './kiro/agent.js';
import { opencode } from './opencode/agent.js';
import { qwen } from './qwen/agent.js';
import { windsurf } from './windsurf/agent.js';
import { AGENT_IDS, type AgentId } from './ids.js';

export { agentKnowledge, homeFolder, placedPath, systemHookFile, systemSettings, variablesOff } from './files.js';
export { AGENT_IDS, type AgentId };

/**
 * The agents guard can be set up in, one for each id of `AGENT_IDS` (ids.ts), in its order. Adding
 * an agent is a folder next to these (see codex/), its id there and one line here. This is what
 * the hook loads: each agent's payloads, replies and chat-start scan. What setup, status and
 * doctor need besides is in each folder's index.ts, which `adapters` (index.ts) loads by the
 * folder's name.
 */
export const AGENTS = {
  codex,
  cursor,
  antigravity,
  copilot,
  'claude-code': claudeCode,
  gemini,
  opencode,
  qwen,
  windsurf,
  droid,
  cline,
  kilo,
  crush,
  auggie,
  kiro,
} as const satisfies Readonly<Record<AgentId, Agent>>;

/** The id, when it names an agent. */
export function agentId(name: string): AgentId | undefined {
  return Object.hasOwn(AGENTS, name) ? (name as AgentId) : undefined;
}

/**
 * The agent that sent a payload to `agent`'s hook command. For an agent whose hook files other
 * agents run: the first of those hosts that takes the payload for its own, else `agent` when it
 * does, else undefined (no agent guard knows sent it: it must not go ahead unchecked). For any
 * other agent: `agent`, whose reader says what it cannot read.
 */
export function hostOf(agent: AgentId, payload: unknown): AgentId | undefined {
  const own: Agent = AGENTS[agent];
  if (own.hosts === undefined) return agent;
  for (const name of own.hosts) {
    const host = agentId(name);
    if (host !== undefined && AGENTS[host].owns?.(payload) === true) return host;
  }
  return own.owns?.(payload) === false ? undefined : agent;
}
