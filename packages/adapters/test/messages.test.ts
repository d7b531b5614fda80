import type { Verdict } from '@guard/core';
import { describe, expect, it } from 'vitest';
import { askInChatMessage, askMessage, awayMessage, blockMessage, GUARD_ON_NOTICE } from '../src/messages.js';
import { asked, blocked, finding, verdict } from './helpers.js';

const texts = {
  block: (v: Verdict) => blockMessage(v),
  ask: (v: Verdict) => askMessage(v),
  chat: (v: Verdict) => askInChatMessage(v, 'K7P2'),
  away: (v: Verdict) => awayMessage(v),
};

const many = verdict(
  ...['a.one', 'b.two', 'c.three', 'd.four', 'e.five', 'f.six'].map((id) => finding(id, 'ask', `Reason of ${id}`)),
);
const long = verdict(finding('net.new-site', 'ask', `${'word '.repeat(200)}end`));
const bare: Verdict = {
  decision: 'block',
  findings: [],
  agentMessage: 'guard: the payload could not be read',
  userMessage: '',
};
const silent: Verdict = { decision: 'block', findings: [], agentMessage: '', userMessage: '' };

describe('every text', () => {
  const cases = Object.entries(texts).flatMap(([kind, text]) =>
    [blocked, asked, many, long, bare, silent].map((v, i) => ({ name: `${kind} #${i}`, text: text(v) })),
  );
  it.for(cases)('$name starts with "guard:", is one line and stays short', ({ text }) => {
    expect(text.startsWith('guard: ')).toBe(true);
    expect(text).not.toMatch(/[\n\r\t]/);
    expect(text).not.toMatch(/ {2}|\.\./);
    expect(text.length).toBeLessThanOrEqual(700);
  });
});

describe('what the texts say', () => {
  it.for([
    {
      name: 'block names every rule',
      text: blockMessage(blocked),
      has: ['(secrets.read, fs.delete)', 'Reading a stored secret', 'Use the example file instead.'],
    },
    { name: 'block quotes only the top reason', text: blockMessage(blocked), hasNot: ['Deleting files'] },
    {
      name: 'ask asks the person',
      text: askMessage(asked),
      has: ['needs your approval (git.push)', 'A push publishes commits to a shared remote.'],
    },
    { name: 'ask is no block', text: askMessage(asked), hasNot: ['blocked', 'final reply'] },
    {
      name: 'chat: stop, ask in the chat, retry after yes, with the code',
      text: askInChatMessage(asked, 'K7P2'),
      has: ['(git.push)', 'Stop here', 'ask them in the chat', '(approval code K7P2)', 'only after they say yes'],
    },
    { name: 'chat without a code mentions none', text: askInChatMessage(asked), hasNot: ['approval code'] },
    {
      name: 'away: a safer way, or leave it out and say so',
      text: awayMessage(asked),
      has: ['no one can approve', '(git.push)', 'safer way', 'leave it out and say so in your final reply'],
    },
    { name: 'away is no request to ask', text: awayMessage(asked), hasNot: ['in the chat', 'approval code'] },
    {
      name: 'more than four rules are counted',
      text: blockMessage(many),
      has: ['(a.one, b.two, c.three, d.four +2 more)', 'Reason of a.one.'],
      hasNot: ['e.five', 'Reason of b.two'],
    },
    {
      name: 'a long reason is cut, the instructions are not',
      text: awayMessage(long),
      has: ['…', 'final reply.'],
      hasNot: ['end.'],
    },
    {
      name: 'no findings: the engine message without its own prefix',
      text: blockMessage(bare),
      has: ['guard: blocked. The payload could not be read.'],
      hasNot: ['guard: guard'],
    },
    { name: 'no findings and no message: the head alone', text: blockMessage(silent), has: ['guard: blocked.'] },
    { name: 'a notice is added last', text: blockMessage(asked, GUARD_ON_NOTICE), has: [`remote. ${GUARD_ON_NOTICE}`] },
  ])('$name', ({ text, has = [], hasNot = [] }) => {
    for (const part of has) expect(text).toContain(part);
    for (const part of hasNot) expect(text).not.toContain(part);
  });

  it('a finding reason that already ends a sentence gets no second full stop', () => {
    expect(blockMessage(verdict(finding('env.print', 'block', 'Printing the environment shows keys.')))).toBe(
      'guard: blocked (env.print). Printing the environment shows keys.',
    );
  });
});
