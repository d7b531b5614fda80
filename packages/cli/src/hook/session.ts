import type { HookInput } from '@guard/adapters';
import type { AgentId, ToolStep } from '@guard/core';
import type { ChatMemory } from '../state/memory.js';
import { NO_MEMORY } from '../state/memory.js';

export type { ChatMemory } from '../state/memory.js';

/**
 * The seam where per-chat memory (SPEC §5) plugs into the hook runtime. Before it judges a step,
 * the runtime asks for the chat as it stands; core's `settle` decides on it, and after the reply is
 * out the runtime hands the chat memory what that answer changes, then lets it tidy up. Events that are not steps
 * (results, chat starts, the person's messages) go to `onEvent`, whose answer is a notice.
 */
export interface SessionLayer {
  /** The chat a step is judged in. */
  forStep(agent: AgentId, step: ToolStep, guardHome: string): ChatMemory | Promise<ChatMemory>;
  /** A result, chat start, message or ignored event: updates memory, may return a notice. */
  onEvent(
    agent: AgentId,
    input: Exclude<HookInput, { type: 'step' }>,
    guardHome: string,
  ): string | undefined | Promise<string | undefined>;
  /** Housekeeping the memory left for after the answer (the runtime calls it once the reply is out). */
  tidy?(): void;
}

/** No memory at all: every step is judged as the first of a fresh chat. */
export const NO_SESSION: SessionLayer = {
  forStep: () => NO_MEMORY,
  onEvent: () => undefined,
};
