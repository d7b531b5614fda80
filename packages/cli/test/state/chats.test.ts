import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chatFile, freshChat, loadChat, lockOwner, StateError, sweepChats, updateChat } from '../../src/state/chats.js';

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

describe('chat state under concurrent processes', () => {
  const dist = new URL('../../dist/state/chats.js', import.meta.url);

  it('50 processes adding to one chat at once lose no update and leave a file that parses', async () => {
    expect(existsSync(dist), 'packages/cli/dist is missing: run `npm run build` first').toBe(true);
    const dir = home();
    const script = `import { updateChat } from ${JSON.stringify(dist.href)};
      updateChat(process.argv[1], 'codex', 'shared', Date.now(), 86400000, (s) => void s.approved.push('k' + process.argv[2]));`;
    const run = promisify(execFile);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run(process.execPath, ['--input-type=module', '-e', script, dir, String(i)]),
      ),
    );
    const state = JSON.parse(readFileSync(chatFile(dir, 'codex', 'shared'), 'utf8')) as { approved: string[] };
    expect([...state.approved].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `k${i}`).sort());
    expect(readdirSync(join(dir, 'chats'))).toEqual([`codex-${chatFile(dir, 'codex', 'shared').split('codex-')[1]}`]);
  }, 60_000);
});
