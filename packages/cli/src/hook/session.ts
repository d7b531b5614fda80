import type { HookInput } from '@guard/adapters';
import type { AgentId, ToolStep } from '@guard/core';
import type { ChatMemory } from '../memory.js';
import { NO_MEMORY } from '../memory.js';

export type { CallContext, ChatMemory, Settled } from '../memory.js';

/**
 * The seam where per-chat memory (SPEC §5) plugs into the hook runtime. The runtime asks for a
 * chat's memory before it judges a step, lets it settle the verdict (a one-time yes, the away rule,
 * an approval code), and tells it what was answered after the reply is out; events that are not
 * steps (results, chat starts, the person's messages) go to `onEvent`, whose answer is a notice.
 */
export interface SessionLayer {
  /** What this chat remembers, for one step. */
  forStep(agent: AgentId, step: ToolStep, guardHome: string): ChatMemory | Promise<ChatMemory>;
  /** A result, chat start, message or ignored event: updates memory, may return a notice. */
  onEvent(
    agent: AgentId,
    input: Exclude<HookInput, { type: 'step' }>,
    guardHome: string,
  ): string | undefined | Promise<string | undefined>;
}

/** No memory at all: every step is judged as the first of a fresh chat. */
export const NO_SESSION: SessionLayer = {
  forStep: () => NO_MEMORY,
  onEvent: () => undefined,
};
