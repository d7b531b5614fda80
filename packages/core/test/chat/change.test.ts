import { describe, expect, it } from 'vitest';
import type { Change, Chat, Pending, Recorded } from '../../src/chat/index.js';
import {
  ANY_SERVER,
  apply,
  asChange,
  withinLimits,
  changesNothing,
  CHAT_LIMITS,
  NO_CHANGE,
  printToAsk,
  replay,
  viewOf,
  withoutLoosening,
} from '../../src/chat/index.js';
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

describe('replay: recorded changes folded in, as saving each in turn would have left the chat', () => {
  const recorded = (time: number, change: Change): Recorded => ({ time, change });
  const DAY = 86_400_000;
  /** Saving one after the other: each applied to what the one before left, dated when it was saved. */
  const sequential = (chat: Chat, changes: readonly Recorded[]): Chat =>
    changes.reduce<Chat>((state, { time, change }) => ({ ...apply(state, change), updated: time }), chat);

  const HISTORIES: readonly { name: string; changes: readonly Recorded[] }[] = [
    {
      name: 'a raised bar, then more steps',
      changes: [
        recorded(NOW + 1, { untrusted: true }),
        recorded(NOW + 2, { asked: question('s1', 'c1') }),
        recorded(NOW + 3, { flaggedAway: 's2' }),
      ],
    },
    {
      name: 'the person lowers the bar, a result raises it again',
      changes: [
        recorded(NOW + 1, { untrusted: true, injection: true }),
        recorded(NOW + 2, { untrusted: false, injection: false, answered: 'all' }),
        recorded(NOW + 3, { injection: true }),
      ],
    },
    {
      name: 'a failing command counted to its third try',
      changes: [
        recorded(NOW + 1, { failed: 'cmd' }),
        recorded(NOW + 2, { failed: 'cmd' }),
        recorded(NOW + 3, { newAttempt: 'other' }),
        recorded(NOW + 4, { failed: 'cmd' }),
      ],
    },
    {
      name: 'a yes, used once, and kept',
      changes: [
        recorded(NOW + 1, { approved: ['git.push:origin/main'], approvedOnce: 's1' }),
        recorded(NOW + 2, { usedOnce: 's1' }),
        recorded(NOW + 3, { approved: ['npm.install:left-pad'] }),
      ],
    },
  ];
  it.for(HISTORIES)('$name: the same chat as saving them one by one', ({ changes }) => {
    expect(replay(fresh(), changes, { idleMs: DAY })).toEqual(sequential(fresh(), changes));
  });

  it('a chat idle when a change comes starts over from that change', () => {
    const chat = { ...fresh(), approved: ['git.push:origin/main'] };
    const later = NOW + 2 * DAY;
    const state = replay(chat, [recorded(later, { keySeen: true })], { idleMs: DAY });
    expect(state).toMatchObject({ approved: [], keySeen: true, created: later, updated: later });
  });

  it('a change that came late (dated before what was folded in) cannot lower the bar or restart a count', () => {
    const chat: Chat = { ...fresh(), untrusted: true, injection: true, failure: { command: 'cmd', count: 2 } };
    const late = recorded(NOW - 5, {
      untrusted: false,
      injection: false,
      newAttempt: 'any',
      approved: ['k'],
      usedOnce: 's1',
    });
    const state = replay({ ...chat, allowOnce: ['s1'] }, [late], { idleMs: DAY, through: NOW });
    expect(state).toMatchObject({ untrusted: true, injection: true, failure: { command: 'cmd', count: 2 } });
    // what tightens, or is a yes, still counts
    expect(state.approved).toEqual(['k']);
    expect(state.allowOnce).toEqual([]);
    // on time, the same change does lower the bar (the person's message)
    expect(replay(chat, [late], { idleMs: DAY, through: NOW - 10 })).toMatchObject({
      untrusted: false,
      injection: false,
    });
  });
});

describe('late failures and a full list of new servers never make a step ask less', () => {
  const recorded = (time: number, change: Change): Recorded => ({ time, change });
  const DAY = 86_400_000;
  it.for([
    // a late failure of another command: the current one keeps its count
    { row: 'another command', late: 'other', expected: { command: 'cmd', count: 2 } },
    // the near miss: a late failure of the same command still counts
    { row: 'the same command', late: 'cmd', expected: { command: 'cmd', count: 3 } },
  ])('a late failure of $row', ({ late, expected }) => {
    const chat: Chat = { ...fresh(), failure: { command: 'cmd', count: 2 } };
    const state = replay(chat, [recorded(NOW - 5, { failed: late })], { idleMs: DAY, through: NOW });
    expect(state.failure).toEqual(expected);
    // on time, a failure of another command is the one now failing
    expect(replay(chat, [recorded(NOW + 5, { failed: late })], { idleMs: DAY, through: NOW }).failure).toEqual(
      late === 'cmd' ? { command: 'cmd', count: 3 } : { command: 'other', count: 1 },
    );
  });

  it.for([
    { count: CHAT_LIMITS.list, every: false },
    { count: CHAT_LIMITS.list + 5, every: true },
  ])('$count new servers: each still asks, by name or all at once ($every)', ({ count, every }) => {
    const servers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, `p${i}`]));
    const state = apply(fresh(), { newServers: servers });
    expect(Object.keys(state.newServers ?? {}).length).toBeLessThanOrEqual(CHAT_LIMITS.list);
    for (let i = 0; i < count; i++) expect(printToAsk(state.newServers, `s${i}`), `s${i}`).toBeDefined();
    expect(Object.hasOwn(state.newServers ?? {}, ANY_SERVER)).toBe(every);
    // the newest keep their own print
    expect(printToAsk(state.newServers, `s${count - 1}`)).toBe(`p${count - 1}`);
  });
});

describe('withoutLoosening', () => {
  it.for([
    { change: { untrusted: false }, left: {} },
    { change: { untrusted: true }, left: { untrusted: true } },
    { change: { injection: false, keySeen: true }, left: { keySeen: true } },
    { change: { poisonedRules: false, poisonedServers: ['s'] }, left: { poisonedServers: ['s'] } },
    { change: { newAttempt: 'any', failed: 'x' }, left: { failed: 'x' } },
    { change: { approved: ['k'], approvedOnce: 'p' }, left: { approved: ['k'], approvedOnce: 'p' } },
    // a server read clean, late: a newer scan may have found it unread again
    { change: { serversChecked: ['s'] }, left: {} },
    { change: { serversChecked: ['s'], poisonedServers: ['s'] }, left: { poisonedServers: ['s'] } },
    { change: { uncheckedServers: { s: 'why' } }, left: { uncheckedServers: { s: 'why' } } },
  ] as { change: Change; left: Change }[])('$change → $left', ({ change, left }) => {
    expect(withoutLoosening(change)).toEqual(left);
  });
});

describe('asChange: a change read from a file', () => {
  const VALID: readonly unknown[] = [
    {},
    { announced: true },
    { asked: question('s1', 'c1') },
    { created: ['/p/a'], approved: ['k'], untrusted: true, injection: false, keySeen: true },
    { failed: 'c', newAttempt: 'any', usedOnce: 's', flaggedAway: 's', approvedOnce: 's', answered: 'all' },
    { scan: { time: NOW, checked: ['a'], found: [], unchecked: [] }, poisonedRules: true, poisonedServers: ['x'] },
    { uncheckedServers: { slow: 'did not answer within the time limit' }, serversChecked: ['docs'] },
    { opinion: { turn: 't' } },
    { opinion: { turn: 't', memo: { key: 'k', irreversible: 0.9, outside: 0.1 } } },
  ];
  const INVALID: readonly unknown[] = [
    null,
    [],
    'untrusted',
    { untrusted: 'yes' },
    { announced: false },
    { keySeen: 1 },
    { approved: 'k' },
    { approved: ['k', 1] },
    { created: [null] },
    { asked: { code: 'c', step: 's', keys: [], rules: [] } },
    { asked: { code: 'c', step: 's', keys: 'k', rules: [], time: NOW } },
    { scan: { time: NOW, checked: [], found: [] } },
    { uncheckedServers: ['slow'] },
    { uncheckedServers: { slow: 1 } },
    { serversChecked: 'docs' },
    { opinion: { memo: { key: 'k', irreversible: 1 } } },
    { opinion: { turn: 't', memo: { key: 'k', irreversible: '1' } } },
    // a field guard does not know: not a change this guard can apply whole
    { raisedBar: true },
    JSON.parse('{"untrusted":true,"__proto__":{"approved":["k"]}}'),
  ];
  it.for(VALID)('valid: %j', (value) => expect(asChange(value)).toBe(value));
  it.for(INVALID)('not valid: %j', (value) => expect(asChange(value)).toBeUndefined());
});

describe('the files a chat wrote', () => {
  it('are kept newest last, each once, within their limit', () => {
    let chat = apply(fresh(), { wrote: ['/p/a', '/p/b'] });
    chat = apply(chat, { wrote: ['/p/a'] });
    expect(chat.wroteFiles).toEqual(['/p/b', '/p/a']);
    for (let i = 0; i < CHAT_LIMITS.wroteFiles; i++) chat = apply(chat, { wrote: [`/p/f${i}`] });
    expect(chat.wroteFiles).toHaveLength(CHAT_LIMITS.wroteFiles);
    expect(chat.wroteFiles).not.toContain('/p/b');
    expect(viewOf(chat).wroteFiles?.has(`/p/f${CHAT_LIMITS.wroteFiles - 1}`)).toBe(true);
  });

  it('a change file that names them is read back; one of another shape is not', () => {
    expect(asChange({ wrote: ['/p/Makefile'] })).toEqual({ wrote: ['/p/Makefile'] });
    expect(asChange({ wrote: '/p/Makefile' })).toBeUndefined();
  });
});
