import { describe, expect, it } from 'vitest';
import type { Change, Chat, Pending } from '../../src/chat/index.js';
import { apply, withinLimits, changesNothing, CHAT_LIMITS, NO_CHANGE } from '../../src/chat/index.js';
import { fresh, NOW } from './harness.js';

const question = (step: string, code = ''): Pending => ({ code, step, keys: [`k:${step}`], rules: ['r'], time: NOW });

describe('apply: one change at a time, onto the chat as it is when saved', () => {
  const ROWS: readonly {
    name: string;
    before: Partial<Chat>;
    change: Change;
    after: { [K in keyof Chat]?: Chat[K] | undefined };
  }[] = [
    { name: 'nothing', before: { approved: ['a'] }, change: {}, after: { approved: ['a'] } },
    { name: 'told guard is on', before: {}, change: { announced: true }, after: { announced: true } },
    {
      name: 'a one-time yes used up',
      before: { allowOnce: ['s1', 's2'] },
      change: { usedOnce: 's1' },
      after: { allowOnce: ['s2'] },
    },
    {
      name: 'a one-time yes given again moves to the end',
      before: { allowOnce: ['s1', 's2'] },
      change: { approvedOnce: 's1' },
      after: { allowOnce: ['s2', 's1'] },
    },
    {
      name: 'memory keys added once each',
      before: { approved: ['a'] },
      change: { approved: ['a', 'b', 'b'] },
      after: { approved: ['a', 'b'] },
    },
    {
      name: 'flagged away, counted',
      before: { away: { s1: 1 } },
      change: { flaggedAway: 's1' },
      after: { away: { s1: 2 } },
    },
    {
      name: 'a new question replaces one about the same step, at the end',
      before: { pending: [question('s1', 'AAAA'), question('s2')] },
      change: { asked: question('s1', 'BBBB') },
      after: { pending: [question('s2'), question('s1', 'BBBB')] },
    },
    {
      name: "the person's message closes every question",
      before: { pending: [question('s1', 'AAAA'), question('s2')] },
      change: { answered: 'all' },
      after: { pending: [] },
    },
    {
      name: "a step's result closes only its own question in the agent's prompt",
      before: { pending: [question('s1', 'AAAA'), question('s1'), question('s2')] },
      change: { answered: 's1' },
      after: { pending: [question('s1', 'AAAA'), question('s2')] },
    },
    {
      name: 'created files added once each',
      before: { createdFiles: ['/p/a'] },
      change: { created: ['/p/a', '/p/b'] },
      after: { createdFiles: ['/p/a', '/p/b'] },
    },
    {
      name: 'the bar raised and lowered',
      before: { untrusted: false, injection: true },
      change: { untrusted: true, injection: false, keySeen: true },
      after: { untrusted: true, injection: false, keySeen: true },
    },
    { name: 'a first failure', before: {}, change: { failed: 'c1' }, after: { failure: { command: 'c1', count: 1 } } },
    {
      name: 'the same command failing again',
      before: { failure: { command: 'c1', count: 1 } },
      change: { failed: 'c1' },
      after: { failure: { command: 'c1', count: 2 } },
    },
    {
      name: 'another command failing',
      before: { failure: { command: 'c1', count: 2 } },
      change: { failed: 'c2' },
      after: { failure: { command: 'c2', count: 1 } },
    },
    {
      name: 'the failing command worked',
      before: { failure: { command: 'c1', count: 2 } },
      change: { newAttempt: 'c1' },
      after: { failure: undefined },
    },
    {
      name: 'another command worked',
      before: { failure: { command: 'c1', count: 2 } },
      change: { newAttempt: 'c2' },
      after: { failure: { command: 'c1', count: 2 } },
    },
    {
      name: 'a file changed',
      before: { failure: { command: 'c1', count: 2 } },
      change: { newAttempt: 'any' },
      after: { failure: undefined },
    },
    {
      name: 'poisoned servers added once each',
      before: { poisonedServers: ['a'] },
      change: { poisonedServers: ['a', 'b'], poisonedRules: false },
      after: { poisonedServers: ['a', 'b'], poisonedRules: false },
    },
  ];

  it.for(ROWS)('$name', ({ before, change, after }) => {
    const chat: Chat = { ...fresh(), ...before };
    const frozen = structuredClone(chat);
    const next = apply(chat, change);
    expect(next).toEqual({ ...fresh(), ...before, ...after });
    // pure: the chat it was given is as it was
    expect(chat).toEqual(frozen);
  });

  it('a cleared failure leaves no field behind (the file is as a chat that never failed)', () => {
    const next = apply({ ...fresh(), failure: { command: 'c1', count: 1 } }, { newAttempt: 'any' });
    expect('failure' in next).toBe(false);
  });

  it('a change decided on an older read keeps what another process saved since', () => {
    const read = fresh();
    const change: Change = { flaggedAway: 's1', asked: question('s1'), approved: ['b'] };
    // meanwhile another hook process of the same chat saved its own answer
    const meanwhile = apply(read, { flaggedAway: 's1', asked: question('s2'), approved: ['a'], created: ['/p/x'] });
    expect(apply(meanwhile, change)).toMatchObject({
      away: { s1: 2 },
      pending: [question('s2'), question('s1')],
      approved: ['a', 'b'],
      createdFiles: ['/p/x'],
    });
  });

  it('{} is the change that changes nothing', () => {
    expect(changesNothing(NO_CHANGE)).toBe(true);
    expect(changesNothing({})).toBe(true);
    expect(changesNothing({ announced: true })).toBe(false);
    const chat = fresh();
    expect(apply(chat, {})).toBe(chat);
  });
});

describe('a chat stays withinLimits however long it runs', () => {
  it('keeps the newest entries of each list', () => {
    let chat = fresh();
    for (let i = 0; i < 30; i++) {
      chat = apply(chat, {
        created: Array.from({ length: 100 }, (_, j) => `/p/${i}-${j}`),
        approved: [`k${i}`],
        flaggedAway: `s${i}`,
      });
    }
    expect(chat.createdFiles.length).toBe(CHAT_LIMITS.createdFiles);
    expect(chat.createdFiles.at(-1)).toBe('/p/29-99');
    expect(chat.approved.length).toBe(30);
  });

  it('over every limit at once', () => {
    const many = (n: number, prefix: string): string[] => Array.from({ length: n + 5 }, (_, i) => `${prefix}${i}`);
    const chat = withinLimits({
      ...fresh(),
      approved: many(CHAT_LIMITS.approved, 'k'),
      allowOnce: many(CHAT_LIMITS.allowOnce, 's'),
      pending: many(CHAT_LIMITS.pending, 'p').map((step) => question(step)),
      createdFiles: many(CHAT_LIMITS.createdFiles, '/f'),
      poisonedServers: many(CHAT_LIMITS.list, 'm'),
      away: Object.fromEntries(many(CHAT_LIMITS.away, 'a').map((print) => [print, 1])),
    });
    expect(chat.approved[0]).toBe('k5');
    expect(chat.allowOnce.length).toBe(CHAT_LIMITS.allowOnce);
    expect(chat.pending[0]?.step).toBe('p5');
    expect(chat.createdFiles.length).toBe(CHAT_LIMITS.createdFiles);
    expect(chat.poisonedServers.length).toBe(CHAT_LIMITS.list);
    expect(Object.keys(chat.away)[0]).toBe('a5');
    expect(Object.keys(chat.away).length).toBe(CHAT_LIMITS.away);
  });

  it('a chat within its limits is returned as it is', () => {
    const chat = fresh();
    expect(withinLimits(chat)).toBe(chat);
  });
});
