import type { Agent, AgentId } from '@guard/adapters';
import { AGENTS } from '@guard/adapters/agents';

/**
 * The part of an adapter the hook uses: reading payloads and writing replies. Only the registry of
 * these is loaded: the adapters' index would also load every agent's config editing (and its TOML
 * parser), which the hook never needs.
 */
export type AgentPayload = Agent;

/** One agent's payload reader and reply writer. */
export function loadPayload(agent: AgentId): Promise<AgentPayload> {
  return Promise.resolve(AGENTS[agent]);
}

/** The event most hook calls of this agent are for (its pre-tool event). */
export function mainEvent(agent: AgentId): string {
  return AGENTS[agent].stepEvents[0];
}

/**
 * The step event to answer a failure on: `event` itself when it is a step event, undefined when
 * it is another event the agent registers (a start, a result: nothing to stop), and the main
 * step event when it is unknown or not known at all (it may be a step, so it is treated as one).
 */
export function stepEventFor(agent: AgentId, event: string | undefined, payload: AgentPayload): string | undefined {
  if (event === undefined) return mainEvent(agent);
  const events = AGENTS[agent].stepEvents;
  // an exact name first (Copilot answers preToolUse and PreToolUse differently); Antigravity
  // matches names without regard to case, and a wrong case must not turn a step into a non-step
  const lower = event.toLowerCase();
  const step = events.find((name) => name === event) ?? events.find((name) => name.toLowerCase() === lower);
  if (step !== undefined) return step;
  return payload.capabilities.events.some((name) => name.toLowerCase() === lower) ? undefined : mainEvent(agent);
}
