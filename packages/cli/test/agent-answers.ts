import { adapters } from '@guard/adapters';
import type { AgentId, Effect } from '@guard/adapters';

/**
 * How an agent reads guard's answer to a step: the one reader the tables share (hook-cases.ts,
 * test/hook/chats.ts, the self-attack harness). What the agent does with an answer is its adapter's
 * own reading (`doctor.readReply`) and the words it is given its `doctor.replyText`, both held to the
 * adapter's `toReply` by packages/adapters/test/reply-reading.test.ts, so the tables and the
 * adapters cannot drift apart.
 */

/** A hook's whole answer: what it printed and its exit code (none when a signal ended it). */
export interface HookAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/**
 * What an answer stands for: the step goes ahead, is asked (in the agent's own prompt; in guard's
 * words that have the agent ask the person in the chat; or, where no ask ever reaches a person,
 * saying nobody here can approve it), is blocked, or is no answer of guard's the agent can read.
 */
export type Said = 'allow' | 'ask' | 'block' | 'failure';

export interface Heard {
  /** What the agent does with it (under an entry without the agent's own fail-closed switch). */
  readonly effect: Effect;
  readonly said: Said;
  /** The words the agent (or the person) is given with it; '' when none. */
  readonly text: string;
}

// the first words of guard's ask in the chat, and of an ask nobody can answer (messages.ts)
const IN_CHAT = /^guard: this step needs the person's approval first\b/m;
const NOBODY = /^guard: blocked, because no one can approve this step here\b/m;

/** How `agent` reads `answer`. */
export function heard(agent: AgentId, answer: HookAnswer): Heard {
  const { doctor, capabilities } = adapters[agent];
  const code = answer.code ?? -1;
  const { effect } = doctor.readReply(answer.stdout, code, false);
  const text = doctor.replyText(answer.stdout, answer.stderr, code);
  const noAsk = capabilities.askEvents.length === 0;
  const said: Said =
    effect === 'no-objection'
      ? 'allow'
      : effect === 'block' && (IN_CHAT.test(text) || (noAsk && NOBODY.test(text)))
        ? 'ask'
        : effect;
  return { effect, said, text };
}

/** True when `agent` stops the step on `answer` (a deny in its words, or its exit code) and is told why. */
export function denies(agent: AgentId, answer: HookAnswer): boolean {
  const { effect, text } = heard(agent, answer);
  return effect === 'block' && text !== '';
}

/** Whether the agent reads the exit code alone (2 stops a step) rather than a reply: its adapter's block says. */
export function readsExitCode(agent: AgentId): boolean {
  const adapter = adapters[agent];
  const verdict = { decision: 'block', findings: [], agentMessage: 'guard: no.', userMessage: 'guard: no.' } as const;
  return adapter.toReply(verdict, { event: adapter.stepEvents[0], canAsk: true, failClosed: false }).exitCode === 2;
}
