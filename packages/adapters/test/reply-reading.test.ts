import type { Verdict } from '@guard/core';
import { describe, expect, it } from 'vitest';
import type { AgentId, Effect, ReplyContext } from '../src/index.js';
import { adapters } from '../src/index.js';
import { AGENT_IDS } from '../src/agents.js';
import { askInChatMessage, askMessage, awayMessage, blockMessage } from '../src/messages.js';
import { allowed, asked, blocked } from './helpers.js';

/**
 * Each agent's reply builder (`toReply`) and its reading of a reply (`doctor.readReply` and
 * `doctor.replyText`, which the tests across the repository read guard's answers with) agree: every
 * verdict goes out through the one and comes back through the other as what the agent does with
 * it, carrying guard's words. The readers' own rows, with near misses, are in doctor.test.ts.
 */

type Way = 'native' | 'in chat' | 'nobody';

/** How an agent carries an ask that a person can answer, from its declaration. */
function wayOf(agent: AgentId): Way {
  const { capabilities } = adapters[agent];
  if (capabilities.askEvents.length === 0) return 'nobody';
  return capabilities.ask === 'native' ? 'native' : 'in chat';
}

const MESSAGE: Record<Way, (verdict: Verdict) => string> = {
  native: (verdict) => askMessage(verdict),
  'in chat': (verdict) => askInChatMessage(verdict),
  nobody: (verdict) => awayMessage(verdict),
};

interface Row {
  readonly name: string;
  readonly verdict: Verdict;
  readonly context: Partial<ReplyContext>;
  readonly effect: (agent: AgentId) => Effect;
  /** The words the agent gets, at the start of what it reads ('' for none at all). */
  readonly text: (agent: AgentId) => string;
}

const ROWS: readonly Row[] = [
  { name: 'allow', verdict: allowed, context: {}, effect: () => 'no-objection', text: () => '' },
  {
    name: 'allow, fail-closed on',
    verdict: allowed,
    context: { failClosed: true },
    effect: () => 'no-objection',
    text: () => '',
  },
  { name: 'block', verdict: blocked, context: {}, effect: () => 'block', text: () => blockMessage(blocked) },
  {
    name: 'block where nobody can ask',
    verdict: blocked,
    context: { canAsk: false },
    effect: () => 'block',
    text: () => blockMessage(blocked),
  },
  {
    name: 'ask',
    verdict: asked,
    context: {},
    effect: (agent) => (wayOf(agent) === 'native' ? 'ask' : 'block'),
    text: (agent) => MESSAGE[wayOf(agent)](asked),
  },
  {
    name: 'ask where nobody can answer',
    verdict: asked,
    context: { canAsk: false },
    effect: () => 'block',
    text: () => awayMessage(asked),
  },
];

describe.for(AGENT_IDS)('%s: a reply read back as the agent reads it', (agent) => {
  const adapter = adapters[agent];
  it.for(ROWS)('$name', ({ verdict, context, effect, text }) => {
    // (on an event where the agent can ask: Cursor's preToolUse leaves the ask to the next one)
    const reply = adapter.toReply(verdict, {
      event: adapter.capabilities.askEvents[0] ?? adapter.stepEvents[0],
      canAsk: true,
      failClosed: false,
      ...context,
    });
    const read = adapter.doctor.readReply(reply.stdout, reply.exitCode, false);
    expect(read.effect, read.why).toBe(effect(agent));
    const words = adapter.doctor.replyText(reply.stdout, reply.stderr ?? '', reply.exitCode);
    // (Codex adds a full stop of its own)
    const want = text(agent).replace(/\.$/, '');
    if (want === '') expect(words).toBe('');
    else expect(words.startsWith(want), words).toBe(true);
  });
});
