import type { Adapter } from '@guard/adapters';
import type { AgentId } from '@guard/core';

/** The part of an adapter the hook uses: reading payloads and writing replies (no config editing). */
export type AgentPayload = Pick<Adapter, 'capabilities' | 'read' | 'toReply' | 'toEventReply'>;

// Each agent's payload module alone: the adapters' index would also load every agent's config
// editing (and its TOML parser), which the hook never needs.
const LOADERS: Readonly<Record<AgentId, () => Promise<AgentPayload>>> = {
  codex: () => import('@guard/adapters/codex/payload'),
  cursor: () => import('@guard/adapters/cursor/payload'),
  antigravity: () => import('@guard/adapters/antigravity/payload'),
  copilot: () => import('@guard/adapters/copilot/payload'),
};

/** Loads one agent's payload reader and reply writer. */
export function loadPayload(agent: AgentId): Promise<AgentPayload> {
  return LOADERS[agent]();
}

/**
 * The events that carry a step about to run, per agent, the main one first. Only a failure needs
 * this list (a payload that could be read says what it is): it picks the reply shape when the
 * payload could not be read.
 */
const STEP_EVENTS: Readonly<Record<AgentId, readonly [string, ...string[]]>> = {
  codex: ['PreToolUse'],
  cursor: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
  antigravity: ['PreToolUse'],
  copilot: ['preToolUse', 'PreToolUse'],
};

/** The event most hook calls of this agent are for (its pre-tool event). */
export function mainEvent(agent: AgentId): string {
  return STEP_EVENTS[agent][0];
}

/**
 * The step event to answer a failure on: `event` itself when it is a step event, undefined when
 * it is another event the agent registers (a start, a result: nothing to stop), and the main
 * step event when it is unknown or not known at all (it may be a step, so it is treated as one).
 */
export function stepEventFor(agent: AgentId, event: string | undefined, payload: AgentPayload): string | undefined {
  if (event === undefined) return mainEvent(agent);
  const events = STEP_EVENTS[agent];
  // an exact name first (Copilot answers preToolUse and PreToolUse differently); Antigravity
  // matches names without regard to case, and a wrong case must not turn a step into a non-step
  const lower = event.toLowerCase();
  const step = events.find((name) => name === event) ?? events.find((name) => name.toLowerCase() === lower);
  if (step !== undefined) return step;
  return payload.capabilities.events.some((name) => name.toLowerCase() === lower) ? undefined : mainEvent(agent);
}
