import type { HookInput } from '@guard/adapters';
import type { AgentId, SessionView, ToolStep, Verdict } from '@guard/core';
import { FRESH_SESSION } from '@guard/core';

/**
 * The seam where per-chat memory (SPEC §5) plugs into the hook runtime. The runtime asks for a
 * chat's memory before it judges a step, and tells it what was decided after the reply is out;
 * events that are not steps (results, chat starts, the person's messages) go to `onEvent`, whose
 * answer is a notice for the agent. Today nothing is remembered: every chat is fresh.
 */
export interface SessionLayer {
  /** What this chat remembers, for one step. */
  forStep(agent: AgentId, step: ToolStep, guardHome: string): ChatMemory | Promise<ChatMemory>;
  /** A result, chat start, message or ignored event: updates memory, may return a notice. */
  onEvent(agent: AgentId, input: Exclude<HookInput, { type: 'step' }>, guardHome: string): string | undefined | Promise<string | undefined>;
}

/** One chat's memory, as one step sees it. */
export interface ChatMemory {
  readonly view: SessionView;
  /** Whether the person already said yes to this memory key in this chat. */
  remembered(memoryKey: string): boolean;
  /** Called once the reply has been written, with the verdict the agent was answered by. */
  record(step: ToolStep, verdict: Verdict): void | Promise<void>;
}

const FRESH_CHAT: ChatMemory = { view: FRESH_SESSION, remembered: () => false, record: () => undefined };

/** No memory at all: every step is judged as the first of a fresh chat. */
export const NO_SESSION: SessionLayer = {
  forStep: () => FRESH_CHAT,
  onEvent: () => undefined,
};
