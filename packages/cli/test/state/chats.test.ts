import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  changesDir,
  chatFile,
  COMPACT_AT,
  compactChat,
  freshChat,
  loadChat,
  lockOwner,
  recordChange,
  StateError,
  sweepChats,
  sweepChatsNow,
  updateChat,
  waitingChanges,
} from '../../src/state/chats.js';
import { atOnce } from '../at-once.js';
import { scaled } from '../../../../test/machine.js';

const DAY = 86_400_000;
const home = (): string => mkdtempSync(join(tmpdir(), 'guard-state-'));

/** A PID no process has now: a child that ran and was reaped. */
const deadPid = (): number =>
  Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
/** Where a process's start time can be read (Linux), a PID handed on to another process is told apart. */
const startTimes = existsSync('/proc/self/stat');

describe('chat state', () => {
  it('starts fresh, remembers an update, and forgets after the idle time', () => {
    const dir = home();
    expect(loadChat(dir, 'codex', 'c1', 1000, DAY)).toEqual(freshChat('codex', 'c1', 1000));
    updateChat(dir, 'codex', 'c1', 2000, DAY, (s) => void s.approved.push('git.push:origin/main'));
    expect(loadChat(dir, 'codex', 'c1', 3000, DAY).approved).toEqual(['git.push:origin/main']);
    expect(loadChat(dir, 'codex', 'c1', 2000 + DAY + 1, DAY).approved).toEqual([]);
  });

  it('keeps chats apart by agent and chat id, and never uses the id as a file name', () => {
    const dir = home();
    updateChat(dir, 'codex', '../../etc/passwd', 1, DAY, (s) => void s.approved.push('a'));
    updateChat(dir, 'cursor', '../../etc/passwd', 1, DAY, (s) => void s.approved.push('b'));
    expect(loadChat(dir, 'codex', '../../etc/passwd', 2, DAY).approved).toEqual(['a']);
    expect(loadChat(dir, 'cursor', '../../etc/passwd', 2, DAY).approved).toEqual(['b']);
    expect(readdirSync(join(dir, 'chats')).every((name) => /^[a-z]+-[0-9a-f]{24}\.json$/.test(name))).toBe(true);
  });

  it('stays bounded however long the chat runs', () => {
    const dir = home();
    for (let i = 0; i < 30; i++) {
      updateChat(dir, 'codex', 'c', i, DAY, (s) => {
        for (let j = 0; j < 100; j++) s.createdFiles.push(`/p/${i}-${j}`);
        s.approved.push(`k${i}`);
      });
    }
    const state = loadChat(dir, 'codex', 'c', 31, DAY);
    expect(state.createdFiles.length).toBe(2000);
    expect(state.createdFiles.at(-1)).toBe('/p/29-99');
  });

  it('reports a state it cannot read as a StateError (the hook then applies its failure policy)', () => {
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, () => {});
    writeFileSync(chatFile(dir, 'codex', 'c'), '{"torn');
    expect(() => loadChat(dir, 'codex', 'c', 2, DAY)).toThrow(StateError);
    const notADir = join(home(), 'file');
    writeFileSync(notADir, 'x');
    expect(() => updateChat(notADir, 'codex', 'c', 1, DAY, () => {})).toThrow(StateError);
  });

  it('breaks a lock left behind by a dead process, and times out on a live one', () => {
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, () => {});
    const lock = `${chatFile(dir, 'codex', 'c')}.lock`;
    // this test's own process: alive, and the one that started when the lock says
    writeFileSync(lock, lockOwner(process.pid));
    expect(() => updateChat(dir, 'codex', 'c', 2, DAY, () => {}, { timeoutMs: 30, staleMs: 60_000 })).toThrow(
      /timed out/,
    );
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(lock, old, old);
    updateChat(dir, 'codex', 'c', 3, DAY, (s) => void s.approved.push('after'), { timeoutMs: 200, staleMs: 60_000 });
    expect(loadChat(dir, 'codex', 'c', 4, DAY).approved).toEqual(['after']);
    expect(existsSync(lock)).toBe(false);
  });

  it.for([
    { holder: 'a process that is gone', owner: () => String(deadPid()) },
    { holder: 'a PID another process has now', owner: () => `${process.pid} 1`, proc: true },
    { holder: 'nobody, long ago (an empty lock)', owner: () => '', age: 60_000 },
  ])('a fresh lock held by $holder is broken at once, not waited out', ({ owner, age = 0, proc }, { skip }) => {
    if (proc === true && !startTimes) skip('no process start times on this system');
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, () => {});
    const lock = `${chatFile(dir, 'codex', 'c')}.lock`;
    writeFileSync(lock, owner());
    const at = (Date.now() - age) / 1000;
    utimesSync(lock, at, at);
    // a wait would time out: the lock is far from stale by its age
    updateChat(dir, 'codex', 'c', 2, DAY, (s) => void s.approved.push('broken'), { timeoutMs: 30, staleMs: 600_000 });
    expect(loadChat(dir, 'codex', 'c', 3, DAY).approved).toEqual(['broken']);
    expect(existsSync(lock)).toBe(false);
  });

  it('by default waits for a lock until it turns stale rather than give up and lose the update', () => {
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, () => {});
    const lock = `${chatFile(dir, 'codex', 'c')}.lock`;
    writeFileSync(lock, lockOwner(process.pid));
    // left 3.5 s ago: stale 1.5 s from now
    const left = (Date.now() - 3_500) / 1000;
    utimesSync(lock, left, left);
    updateChat(dir, 'codex', 'c', 2, DAY, (s) => void s.approved.push('waited'));
    expect(loadChat(dir, 'codex', 'c', 3, DAY).approved).toEqual(['waited']);
  });

  it('sweeps idle chats', () => {
    const dir = home();
    updateChat(dir, 'codex', 'old', 1, DAY, () => {});
    updateChat(dir, 'codex', 'new', 1, DAY, () => {});
    const old = (Date.now() - 10 * DAY) / 1000;
    utimesSync(chatFile(dir, 'codex', 'old'), old, old);
    expect(sweepChats(dir, Date.now(), 7 * DAY)).toBe(1);
    expect(existsSync(chatFile(dir, 'codex', 'new'))).toBe(true);
  });
});

describe('change files: recorded without the lock, folded in by the next read', () => {
  const changeFiles = (dir: string, chat = 'c'): string[] =>
    existsSync(changesDir(dir, 'codex', chat)) ? readdirSync(changesDir(dir, 'codex', chat)) : [];

  it('a read folds the recorded changes in, in the order they were recorded, while a live lock is held', () => {
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, (s) => void s.approved.push('first'));
    // a live process holds the lock for minutes: recording and reading never wait on it
    writeFileSync(`${chatFile(dir, 'codex', 'c')}.lock`, lockOwner(process.pid));
    recordChange(dir, 'codex', 'c', 2, { untrusted: true, approved: ['second'] });
    recordChange(dir, 'codex', 'c', 3, { flaggedAway: 's1' });
    recordChange(dir, 'codex', 'c', 4, { flaggedAway: 's1', failed: 'cmd' });
    recordChange(dir, 'codex', 'c', 5, {});
    expect(loadChat(dir, 'codex', 'c', 6, DAY)).toMatchObject({
      approved: ['first', 'second'],
      untrusted: true,
      away: { s1: 2 },
      failure: { command: 'cmd', count: 1 },
      updated: 4,
    });
    // a change that changes nothing is not written
    expect(changeFiles(dir)).toHaveLength(3);
    expect(waitingChanges(dir, 'codex', 'c')).toBe(3);
    // the live holder keeps its lock: no compaction, and the changes still count
    expect(compactChat(dir, 'codex', 'c', 7, DAY)).toBe(false);
    expect(loadChat(dir, 'codex', 'c', 8, DAY).away).toEqual({ s1: 2 });
  });

  it('a compaction folds them into the state file, names them there and removes them', () => {
    const dir = home();
    for (let i = 0; i < COMPACT_AT; i++)
      recordChange(dir, 'codex', 'c', 10 + i, { flaggedAway: 's', approved: [`k${i}`] });
    const before = loadChat(dir, 'codex', 'c', 100, DAY);
    const files = changeFiles(dir);
    expect(compactChat(dir, 'codex', 'c', 100, DAY)).toBe(true);
    expect(changeFiles(dir)).toEqual([]);
    const stored = JSON.parse(readFileSync(chatFile(dir, 'codex', 'c'), 'utf8')) as {
      folded: string[];
      through: number;
    };
    expect(stored.folded).toEqual(files);
    expect(stored.through).toBe(10 + COMPACT_AT - 1);
    expect(loadChat(dir, 'codex', 'c', 100, DAY)).toEqual(before);
    expect(before.away).toEqual({ s: COMPACT_AT });
  });

  it('change files a compaction folded in but could not remove are never counted twice, and go next time', () => {
    const dir = home();
    recordChange(dir, 'codex', 'c', 10, { flaggedAway: 's' });
    recordChange(dir, 'codex', 'c', 11, { flaggedAway: 's' });
    const saved = mkdtempSync(join(tmpdir(), 'guard-changes-'));
    cpSync(changesDir(dir, 'codex', 'c'), saved, { recursive: true });
    compactChat(dir, 'codex', 'c', 20, DAY);
    // as if the compaction had stopped after writing the state file
    cpSync(saved, changesDir(dir, 'codex', 'c'), { recursive: true });
    recordChange(dir, 'codex', 'c', 21, { flaggedAway: 's' });
    expect(loadChat(dir, 'codex', 'c', 30, DAY).away).toEqual({ s: 3 });
    compactChat(dir, 'codex', 'c', 30, DAY);
    expect(changeFiles(dir)).toEqual([]);
    expect(loadChat(dir, 'codex', 'c', 31, DAY).away).toEqual({ s: 3 });
  });

  it('a compaction breaks a lock whose holder is gone, rather than skip', () => {
    const dir = home();
    recordChange(dir, 'codex', 'c', 1, { keySeen: true });
    writeFileSync(`${chatFile(dir, 'codex', 'c')}.lock`, String(deadPid()));
    expect(compactChat(dir, 'codex', 'c', 2, DAY)).toBe(true);
    expect(existsSync(`${chatFile(dir, 'codex', 'c')}.lock`)).toBe(false);
    expect(changeFiles(dir)).toEqual([]);
  });

  it('a change recorded late (dated before what a compaction folded in) cannot lower the bar', () => {
    const dir = home();
    recordChange(dir, 'codex', 'c', 100, { untrusted: true });
    compactChat(dir, 'codex', 'c', 101, DAY);
    // the person's message, decided before the result that raised the bar, written after it was folded in
    recordChange(dir, 'codex', 'c', 99, { untrusted: false, injection: false, approved: ['k'] });
    expect(loadChat(dir, 'codex', 'c', 102, DAY)).toMatchObject({ untrusted: true, approved: ['k'] });
    compactChat(dir, 'codex', 'c', 103, DAY);
    expect(loadChat(dir, 'codex', 'c', 104, DAY)).toMatchObject({ untrusted: true, approved: ['k'] });
  });

  it('a chat idle before a change was recorded starts over from it', () => {
    const dir = home();
    updateChat(dir, 'codex', 'c', 1, DAY, (s) => void s.approved.push('old'));
    recordChange(dir, 'codex', 'c', 2 * DAY, { keySeen: true });
    expect(loadChat(dir, 'codex', 'c', 2 * DAY + 1, DAY)).toMatchObject({ approved: [], keySeen: true });
    expect(loadChat(dir, 'codex', 'c', 4 * DAY, DAY)).toEqual(freshChat('codex', 'c', 4 * DAY));
    // a chat that has only change files idles out too
    recordChange(dir, 'codex', 'only-changes', 1, { approved: ['old'] });
    expect(loadChat(dir, 'codex', 'only-changes', 2, DAY).approved).toEqual(['old']);
    expect(loadChat(dir, 'codex', 'only-changes', 2 * DAY, DAY)).toEqual(freshChat('codex', 'only-changes', 2 * DAY));
  });

  it('a state file of format 1 saved before change files existed reads as it is', () => {
    const dir = home();
    mkdirSync(join(dir, 'chats'));
    writeFileSync(
      chatFile(dir, 'codex', 'c'),
      '{"v":1,"agent":"codex","chat":"c","created":1,"updated":1,"approved":["k"],"allowOnce":[],"pending":[],"createdFiles":[],"untrusted":true,"injection":false,"keySeen":false,"poisonedServers":[],"away":{}}\n',
    );
    recordChange(dir, 'codex', 'c', 2, { approved: ['j'] });
    expect(loadChat(dir, 'codex', 'c', 3, DAY)).toMatchObject({ approved: ['k', 'j'], untrusted: true });
    // bookkeeping of the wrong shape is not a state guard wrote
    writeFileSync(
      chatFile(dir, 'codex', 'c'),
      '{"v":1,"agent":"codex","chat":"c","created":1,"updated":1,"approved":[],"allowOnce":[],"pending":[],"createdFiles":[],"untrusted":false,"injection":false,"keySeen":false,"poisonedServers":[],"away":{},"folded":"all"}\n',
    );
    expect(() => loadChat(dir, 'codex', 'c', 3, DAY)).toThrow(StateError);
  });

  const isRoot = process.getuid?.() === 0;
  it.for([
    { fault: 'a torn change file', arrange: (path: string) => writeFileSync(path, '{"v":1,"time":1,"change":{"untr') },
    { fault: 'a change file of the wrong shape', arrange: (path: string) => writeFileSync(path, '{"v":1}\n') },
    {
      fault: 'a change of another version',
      arrange: (path: string) => writeFileSync(path, '{"v":2,"time":1,"change":{}}\n'),
    },
    {
      fault: 'a change with a field guard does not know',
      arrange: (path: string) => writeFileSync(path, '{"v":1,"time":1,"change":{"lowerBar":true}}\n'),
    },
    { fault: 'a change file that is a folder', arrange: (path: string) => mkdirSync(path) },
    {
      fault: 'a change file larger than any guard writes',
      arrange: (path: string) => writeFileSync(path, ' '.repeat(300 * 1024)),
    },
    {
      fault: 'a change file nobody may read',
      skip: isRoot,
      arrange: (path: string) => (writeFileSync(path, '{"v":1,"time":1,"change":{}}\n'), chmodSync(path, 0)),
    },
  ])('$fault is a StateError, not a change left out', ({ arrange, skip }, { skip: skipTest }) => {
    if (skip === true) skipTest('running as root');
    const dir = home();
    recordChange(dir, 'codex', 'c', 1, { untrusted: true });
    arrange(join(changesDir(dir, 'codex', 'c'), '0000000000ff-1-0-0.json'));
    expect(() => loadChat(dir, 'codex', 'c', 2, DAY)).toThrow(StateError);
    // and the chat is not folded over it either
    expect(() => updateChat(dir, 'codex', 'c', 3, DAY, () => {})).toThrow(StateError);
  });

  it('a file where the changes folder should be is a StateError, for reading and recording', () => {
    const dir = home();
    mkdirSync(join(dir, 'chats'));
    writeFileSync(changesDir(dir, 'codex', 'c'), 'x');
    expect(() => loadChat(dir, 'codex', 'c', 1, DAY)).toThrow(StateError);
    expect(() => recordChange(dir, 'codex', 'c', 1, { keySeen: true })).toThrow(StateError);
  });

  it('files that are not change files (a temp file left by a crash) are not read', () => {
    const dir = home();
    recordChange(dir, 'codex', 'c', 1, { keySeen: true });
    writeFileSync(join(changesDir(dir, 'codex', 'c'), '.0000000000ff-1-0-0.json.tmp'), '{"v":1,"ti');
    expect(loadChat(dir, 'codex', 'c', 2, DAY).keySeen).toBe(true);
  });
});

describe('sweeping idle chats', () => {
  const ago = (path: string, ms: number): void => {
    const at = (Date.now() - ms) / 1000;
    utimesSync(path, at, at);
  };

  it('removes idle change files and their emptied folder; keeps a state file whose chat recorded a change since', () => {
    const dir = home();
    const now = Date.now();
    // an old chat, all of it idle
    recordChange(dir, 'codex', 'old', now - 10 * DAY, { keySeen: true });
    const oldChanges = changesDir(dir, 'codex', 'old');
    for (const name of readdirSync(oldChanges)) ago(join(oldChanges, name), 10 * DAY);
    ago(oldChanges, 10 * DAY);
    // a chat whose state file is old, but that recorded a change today
    updateChat(dir, 'codex', 'busy', now - 10 * DAY, DAY * 30, (s) => void s.approved.push('k'));
    ago(chatFile(dir, 'codex', 'busy'), 10 * DAY);
    recordChange(dir, 'codex', 'busy', now, { untrusted: true });
    expect(sweepChats(dir, now, 7 * DAY)).toBe(0);
    expect(existsSync(oldChanges)).toBe(false);
    expect(existsSync(chatFile(dir, 'codex', 'busy'))).toBe(true);
    expect(loadChat(dir, 'codex', 'busy', now, 30 * DAY)).toMatchObject({ approved: ['k'], untrusted: true });
  });

  it('the hook sweeps at most once an hour (a marker says when it last did)', () => {
    const dir = home();
    const now = Date.now();
    updateChat(dir, 'codex', 'old', now, DAY, () => {});
    ago(chatFile(dir, 'codex', 'old'), 10 * DAY);
    expect(sweepChatsNow(dir, now, 7 * DAY)).toBe(true);
    expect(existsSync(chatFile(dir, 'codex', 'old'))).toBe(false);
    updateChat(dir, 'codex', 'old', now, DAY, () => {});
    ago(chatFile(dir, 'codex', 'old'), 10 * DAY);
    expect(sweepChatsNow(dir, now + 60_000, 7 * DAY)).toBe(false);
    expect(existsSync(chatFile(dir, 'codex', 'old'))).toBe(true);
    expect(sweepChatsNow(dir, now + 2 * 3_600_000, 7 * DAY)).toBe(true);
    expect(existsSync(chatFile(dir, 'codex', 'old'))).toBe(false);
  });
});

describe('chat state under concurrent processes', { timeout: scaled(120_000) }, () => {
  const dist = new URL('../../dist/state/chats.js', import.meta.url);

  it('50 processes adding to one chat at once lose no update and leave a file that parses', async () => {
    expect(existsSync(dist), 'packages/cli/dist is missing: run `npm run build` first').toBe(true);
    const dir = home();
    const script = `import { updateChat } from ${JSON.stringify(dist.href)};
      updateChat(process.argv[1], 'codex', 'shared', Date.now(), 86400000, (s) => void s.approved.push('k' + process.argv[2]));`;
    await atOnce(
      50,
      () => script,
      (i) => [dir, String(i)],
    );
    const state = JSON.parse(readFileSync(chatFile(dir, 'codex', 'shared'), 'utf8')) as { approved: string[] };
    expect([...state.approved].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`).sort());
    expect(readdirSync(join(dir, 'chats'))).toEqual([`codex-${chatFile(dir, 'codex', 'shared').split('codex-')[1]}`]);
    // 50 Node starts at once took 65 s at load 30 on 2 cores
  });

  it('24 processes that each raise the bar or read it, record and fold at once: the bar stays up, nothing is lost or counted twice', async () => {
    const dir = home();
    // the bar was raised before they start
    recordChange(dir, 'codex', 'shared', Date.now(), { untrusted: true });
    const script = `import { COMPACT_AT, compactChat, loadChat, recordChange, waitingChanges } from ${JSON.stringify(dist.href)};
      const [home, i] = [process.argv[1], Number(process.argv[2])];
      const read = () => loadChat(home, 'codex', 'shared', Date.now(), 86400000);
      if (!read().untrusted) process.exit(3);
      // every third raises the bar again; every one records its own key and a count
      recordChange(home, 'codex', 'shared', Date.now(), { approved: ['k' + i], flaggedAway: 'step', ...(i % 3 === 0 ? { injection: true } : {}) });
      const after = read();
      if (!after.untrusted || !after.approved.includes('k' + i)) process.exit(4);
      if (waitingChanges(home, 'codex', 'shared') >= COMPACT_AT) compactChat(home, 'codex', 'shared', Date.now(), 86400000);
      const last = read();
      if (!last.untrusted || !last.approved.includes('k' + i)) process.exit(5);`;
    await atOnce(
      24,
      () => script,
      (i) => [dir, String(i)],
    );
    const state = loadChat(dir, 'codex', 'shared', Date.now(), DAY);
    expect(state.untrusted).toBe(true);
    expect(state.injection).toBe(true);
    expect([...state.approved].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `k${i}`).sort());
    expect(state.away).toEqual({ step: 24 });
    // some process folded the changes in
    expect(existsSync(chatFile(dir, 'codex', 'shared'))).toBe(true);
    updateChat(dir, 'codex', 'shared', Date.now(), DAY, () => {});
    expect(readdirSync(changesDir(dir, 'codex', 'shared'))).toEqual([]);
    expect(loadChat(dir, 'codex', 'shared', Date.now(), DAY)).toMatchObject({ untrusted: true, away: { step: 24 } });
  });
});
