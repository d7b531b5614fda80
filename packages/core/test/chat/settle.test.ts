import { describe, expect, it } from 'vitest';
import type { Call, Chat, Outside } from '../../src/chat/index.js';
import { approvalCode, fingerprint, settle } from '../../src/chat/index.js';
import type { Decision } from '../../src/types.js';
import { PROJECT } from '../rule-tester.js';
import {
  CHAT,
  CODEX,
  CODEX_AWAY,
  EMPTY_DISK,
  fresh,
  judge,
  NATIVE,
  NATIVE_AWAY,
  NOW,
  rulesOn,
  step,
} from './harness.js';

const HARMLESS = 'git status';
const ASKED = 'git push origin main';
const ASKED_KEY = 'git.push:origin/main';
const BLOCKED = 'git push --force origin main';
const LEFT_UNDONE = /left undone: leave it out and say so in your final reply/;
const printOf = (command: string): string => fingerprint(step(command));
const codeFor = (command: string): string => approvalCode(CHAT, printOf(command), NOW);

interface Row {
  readonly name: string;
  /** What the chat holds before the step (default: a fresh chat); `null`: the payload names no chat. */
  readonly chat?: ((chat: Chat) => Chat) | null;
  readonly command: string;
  readonly call: Call;
  readonly decision: Decision;
  readonly how: string;
  /** The approval code the answer carries (default: none). */
  readonly code?: string;
  readonly notice?: RegExp;
  /** What the answer changes in the chat (exactly). */
  readonly change: object;
}

const question = (command: string, code: string) => ({
  asked: { code, step: printOf(command), keys: [ASKED_KEY], rules: ['git.push'], time: NOW },
});

const ROWS: readonly Row[] = [
  // the rules decide alone where the chat has nothing to say
  {
    name: 'a harmless step goes ahead, leaving nothing',
    command: HARMLESS,
    call: CODEX,
    decision: 'allow',
    how: 'rules',
    change: {},
  },
  {
    name: 'a block stays a block and leaves nothing to answer',
    command: BLOCKED,
    call: CODEX,
    decision: 'block',
    how: 'rules',
    change: {},
  },
  // asking
  {
    name: 'block-then-chat: an ask carries a code, and the question waits with it',
    command: ASKED,
    call: CODEX,
    decision: 'ask',
    how: 'rules',
    code: codeFor(ASKED),
    change: question(ASKED, codeFor(ASKED)),
  },
  {
    name: "the agent's own prompt: an ask has no code; the question waits for the step's result",
    command: ASKED,
    call: NATIVE,
    decision: 'ask',
    how: 'rules',
    change: question(ASKED, ''),
  },
  // ask once: a yes is remembered per memory key
  {
    name: 'a yes remembered for this destination lets the step through',
    chat: (c) => ({ ...c, approved: [ASKED_KEY] }),
    command: ASKED,
    call: CODEX,
    decision: 'allow',
    how: 'memory',
    change: {},
  },
  {
    name: 'a yes for another destination does not',
    chat: (c) => ({ ...c, approved: ['git.push:origin/release'] }),
    command: ASKED,
    call: CODEX,
    decision: 'ask',
    how: 'rules',
    code: codeFor(ASKED),
    change: question(ASKED, codeFor(ASKED)),
  },
  {
    name: "the person's yes in the chat lets that step through once, and is used up",
    chat: (c) => ({ ...c, allowOnce: [printOf(ASKED)] }),
    command: ASKED,
    call: CODEX,
    decision: 'allow',
    how: 'memory',
    change: { usedOnce: printOf(ASKED) },
  },
  {
    name: 'a one-time yes for another step is kept',
    chat: (c) => ({ ...c, allowOnce: [printOf('git push origin release')] }),
    command: HARMLESS,
    call: CODEX,
    decision: 'allow',
    how: 'rules',
    change: {},
  },
  // blocks are never remembered as allowed
  {
    name: 'a one-time yes never lets a block through',
    chat: (c) => ({ ...c, allowOnce: [printOf(BLOCKED)], approved: [ASKED_KEY] }),
    command: BLOCKED,
    call: CODEX,
    decision: 'block',
    how: 'rules',
    change: {},
  },
  // away: nobody can answer
  {
    name: 'away, first flag (block-then-chat): sent back with a code, counted',
    command: ASKED,
    call: CODEX_AWAY,
    decision: 'ask',
    how: 'away',
    code: codeFor(ASKED),
    change: { flaggedAway: printOf(ASKED), ...question(ASKED, codeFor(ASKED)) },
  },
  {
    name: "away, first flag (agent's own prompt): sent back without a code, counted",
    command: ASKED,
    call: NATIVE_AWAY,
    decision: 'ask',
    how: 'away',
    change: { flaggedAway: printOf(ASKED), ...question(ASKED, '') },
  },
  {
    name: 'away, flagged again: left undone (a block), counted, no new question',
    chat: (c) => ({ ...c, away: { [printOf(ASKED)]: 1 } }),
    command: ASKED,
    call: CODEX_AWAY,
    decision: 'block',
    how: 'away-undone',
    notice: LEFT_UNDONE,
    change: { flaggedAway: printOf(ASKED) },
  },
  {
    name: 'away, another step flagged before: this one gets its first chance',
    chat: (c) => ({ ...c, away: { [printOf('git push origin release')]: 3 } }),
    command: ASKED,
    call: NATIVE_AWAY,
    decision: 'ask',
    how: 'away',
    change: { flaggedAway: printOf(ASKED), ...question(ASKED, '') },
  },
  {
    name: 'away, with a person there again: a step flagged before is asked',
    chat: (c) => ({ ...c, away: { [printOf(ASKED)]: 1 } }),
    command: ASKED,
    call: NATIVE,
    decision: 'ask',
    how: 'rules',
    change: question(ASKED, ''),
  },
  {
    name: 'away never counts a block',
    chat: (c) => ({ ...c, away: { [printOf(BLOCKED)]: 1 } }),
    command: BLOCKED,
    call: CODEX_AWAY,
    decision: 'block',
    how: 'rules',
    change: {},
  },
  {
    name: 'away: a one-time yes from the resumed chat lets the step run once',
    chat: (c) => ({ ...c, allowOnce: [printOf(ASKED)], away: { [printOf(ASKED)]: 1 } }),
    command: ASKED,
    call: CODEX_AWAY,
    decision: 'allow',
    how: 'memory',
    change: { usedOnce: printOf(ASKED) },
  },
  // the bar the chat raised
  {
    name: 'injection seen: an ask becomes a block, and nothing waits for a yes',
    chat: (c) => ({ ...c, injection: true }),
    command: 'rm README.md',
    call: CODEX,
    decision: 'block',
    how: 'rules',
    change: {},
  },
  {
    name: 'a poisoned rules file at chat start: the same',
    chat: (c) => ({ ...c, poisonedRules: true }),
    command: 'rm README.md',
    call: NATIVE,
    decision: 'block',
    how: 'rules',
    change: {},
  },
  // a step that names no chat: nothing is remembered, no code (no message could quote it)
  {
    name: 'no chat: the rules decide, nothing to save',
    chat: null,
    command: ASKED,
    call: CODEX,
    decision: 'ask',
    how: 'rules',
    change: {},
  },
  {
    name: 'no chat, away: still no count',
    chat: null,
    command: ASKED,
    call: CODEX_AWAY,
    decision: 'ask',
    how: 'rules',
    change: {},
  },
];

describe('settle: what the chat makes of the rules verdict', () => {
  it.for(ROWS)('$name', (row) => {
    const chat = row.chat === null ? undefined : (row.chat ?? ((c: Chat) => c))(fresh());
    const settled = judge(chat, step(row.command), row.call);
    expect(settled.verdict.decision).toBe(row.decision);
    expect(settled.how).toBe(row.how);
    expect(settled.approvalCode).toBe(row.code);
    if (row.notice) expect(settled.notice).toMatch(row.notice);
    else expect(settled.notice).toBeUndefined();
    expect(settled.change).toEqual(row.change);
  });

  it('the rules verdict is kept whole: the asked findings and their text reach the reply', () => {
    const settled = judge(fresh(), step(ASKED), CODEX);
    expect(settled.verdict.findings.map((f) => f.ruleId)).toEqual(['git.push']);
    expect(settled.verdict.agentMessage).toMatch(/\[git\.push\]/);
  });

  it('the code differs per step and per moment, and is easy to type', () => {
    const codes = new Set(
      [ASKED, 'git push origin release'].flatMap((command) =>
        [NOW, NOW + 1].map((now) => judge(fresh(), step(command), CODEX, { ...EMPTY_DISK, now }).approvalCode),
      ),
    );
    expect(codes.size).toBe(4);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}$/);
  });
});

describe('deferred: the agent asks the person on a later event of the same call', () => {
  it.for([
    { command: HARMLESS, decision: 'allow', how: 'deferred' },
    { command: ASKED, decision: 'allow', how: 'deferred' },
    { command: BLOCKED, decision: 'block', how: 'rules' },
  ] as const)('$command: $decision ($how), nothing saved', ({ command, decision, how }) => {
    const settled = judge(fresh(), step(command), { ...NATIVE, deferred: true });
    expect(settled).toMatchObject({ verdict: { decision }, how, change: {} });
  });
});

describe('agents with no chat-start event: the first flagged step says guard is on', () => {
  const ON = 'guard is on.';
  it.for([
    { name: 'an allowed step says nothing', command: HARMLESS, call: NATIVE, notice: undefined, announced: false },
    { name: 'a block says it', command: BLOCKED, call: NATIVE, notice: ON, announced: true },
    { name: 'an ask says it', command: ASKED, call: NATIVE, notice: ON, announced: true },
    {
      name: 'a step left undone says it before why',
      command: ASKED,
      call: NATIVE_AWAY,
      chat: (c: Chat): Chat => ({ ...c, away: { [printOf(ASKED)]: 1 } }),
      notice: new RegExp(`^guard is on\\. guard flagged this step before`),
      announced: true,
    },
    {
      name: 'a chat already told says nothing more',
      command: BLOCKED,
      call: NATIVE,
      chat: (c: Chat): Chat => ({ ...c, announced: true }),
      notice: undefined,
      announced: false,
    },
  ])('$name', ({ command, call, chat, notice, announced }) => {
    const settled = judge((chat ?? ((c: Chat) => c))(fresh()), step(command), { ...call, announce: ON });
    if (notice instanceof RegExp) expect(settled.notice).toMatch(notice);
    else expect(settled.notice).toBe(notice);
    expect(settled.change.announced === true).toBe(announced);
  });
});

describe('files the step creates', () => {
  const disk = (...present: string[]): Outside => ({ now: NOW, exists: (path) => present.includes(path) });
  it.for([
    { name: 'a new file', command: 'touch scratch.txt', disk: disk(), created: [`${PROJECT}/scratch.txt`] },
    {
      name: 'a redirection to a new file',
      command: 'echo hi > out.log',
      disk: disk(),
      created: [`${PROJECT}/out.log`],
    },
    {
      name: 'a file that exists already',
      command: 'touch README.md',
      disk: disk(`${PROJECT}/README.md`),
      created: undefined,
    },
    { name: 'a read', command: 'cat notes.txt', disk: disk(), created: undefined },
  ])('$name', ({ command, disk: outside, created }) => {
    expect(judge(fresh(), step(command), CODEX, outside).change.created).toEqual(created);
  });

  it('a write tool creating a file', () => {
    const settled = judge(fresh(), step({ kind: 'write', path: 'src/new.ts', mode: 'create', content: 'x' }), NATIVE);
    expect(settled.change.created).toEqual([`${PROJECT}/src/new.ts`]);
  });

  it('a step that does not go ahead creates nothing', () => {
    const outside = step({ kind: 'write', path: '/etc/hosts.new', mode: 'create', content: 'x' });
    const settled = settle(fresh(), outside, rulesOn(fresh(), outside), NATIVE, EMPTY_DISK);
    expect(settled.verdict.decision).not.toBe('allow');
    expect(settled.change.created).toBeUndefined();
  });
});

describe('files the step writes (kept so that running their code later reads it)', () => {
  it.for([
    {
      name: 'a heredoc into package.json',
      command: "cat > package.json <<'EOF'\n{}\nEOF",
      wrote: [`${PROJECT}/package.json`],
    },
    { name: 'an edit in place', command: "sed -i 's/a/b/' Makefile", wrote: [`${PROJECT}/Makefile`] },
    { name: 'a copy over a script', command: 'cp /tmp/x.sh run.sh', wrote: [`${PROJECT}/run.sh`] },
    { name: 'an asked step may still run', command: `${ASKED} && echo x > ci.sh`, wrote: [`${PROJECT}/ci.sh`] },
    // near misses
    { name: 'a folder made', command: 'mkdir -p scripts', wrote: undefined },
    { name: 'an empty file made', command: 'touch conftest.py', wrote: undefined },
    { name: 'a read', command: 'cat package.json', wrote: undefined },
    { name: 'a blocked step', command: `${BLOCKED}; echo x > ci.sh`, wrote: undefined },
  ])('$name', ({ command, wrote }) => {
    expect(judge(fresh(), step(command), CODEX).change.wrote).toEqual(wrote);
  });

  it('a write tool', () => {
    const settled = judge(fresh(), step({ kind: 'write', path: 'Makefile', mode: 'overwrite', content: 'x' }), NATIVE);
    expect(settled.change.wrote).toEqual([`${PROJECT}/Makefile`]);
  });
});
