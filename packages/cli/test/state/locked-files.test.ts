import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetAllowed, keepForProject, readAllowed } from '../../src/state/allowed.js';
import { lockOwner, withLock } from '../../src/state/lock.js';
import { readHealth, updateHealth } from '../../src/state/opinion.js';
import { effectiveSettings, lastGoodPath, readSettings, settingsPath } from '../../src/state/settings.js';
import { atOnce } from '../at-once.js';
import { scaled } from '../../../../test/machine.js';

/**
 * The files in guard's folder that several processes change besides the chats (SPEC §5: no lost
 * updates, no torn files): the project yeses, the second opinion's health, and settings.yaml with
 * its last good copy. Each is changed by real processes at once, and every change must be there.
 */

const home = (): string => mkdtempSync(join(tmpdir(), 'guard-locked-'));
const dist = (file: string): string => new URL(`../../dist/state/${file}`, import.meta.url).href;

function runAll(count: number, script: (i: number) => string, dir: string): Promise<void> {
  return atOnce(count, script, () => [dir]);
}

describe('files changed by several processes at once', { timeout: scaled(120_000) }, () => {
  it('the built state modules are there', () => {
    expect(existsSync(new URL(dist('allowed.js'))), 'packages/cli/dist is missing: run `npm run build` first').toBe(
      true,
    );
  });

  it('16 processes keeping a project yes and 4 forgetting one, at once: every yes kept, every forgotten one gone', async () => {
    const dir = home();
    keepForProject(dir, '/p', ['old:0', 'old:1', 'old:2', 'old:3'], new Date(0));
    await runAll(
      20,
      (i) =>
        i < 16
          ? `import { keepForProject } from ${JSON.stringify(dist('allowed.js'))};
             keepForProject(process.argv[1], '/p', ['new:${i}'], new Date());`
          : `import { forgetAllowed } from ${JSON.stringify(dist('allowed.js'))};
             if (forgetAllowed(process.argv[1], (e) => e.key === 'old:${i - 16}').length !== 1) process.exit(3);`,
      dir,
    );
    const keys = readAllowed(dir)
      .map((entry) => entry.key)
      .sort();
    expect(keys).toEqual(Array.from({ length: 16 }, (_, i) => `new:${i}`).sort());
    // no lock or temp file left behind
    expect(readdirSync(dir)).toEqual(['allowed.json']);
  });

  it('12 processes counting a second-opinion failure at once: 12 counted', async () => {
    const dir = home();
    await runAll(
      12,
      () => `import { updateHealth } from ${JSON.stringify(dist('opinion.js'))};
             updateHealth(process.argv[1], (h) => ({ failures: h.failures + 1 }));`,
      dir,
    );
    expect(readHealth(dir).failures).toBe(12);
    expect(readdirSync(dir)).toEqual(['second-opinion.json']);
  });

  it('8 processes each changing a setting at once: every change is in settings.yaml and in its last good copy', async () => {
    const dir = home();
    writeFileSync(settingsPath(dir), '# mine\nenabled: true\n');
    const keys = ['failClosed', 'strict', 'enabled', 'mode', 'idleDays'] as const;
    const values: Record<(typeof keys)[number], string> = {
      failClosed: 'true',
      strict: 'true',
      enabled: 'true',
      mode: "'extended'",
      idleDays: '9',
    };
    await runAll(
      keys.length + 3,
      (i) => {
        const key = keys[i];
        return key === undefined
          ? // readers at the same time, as hooks would be, keeping the copy as they read
            `import { effectiveSettings } from ${JSON.stringify(dist('settings.js'))};
             for (let n = 0; n < 20; n++) await effectiveSettings(process.argv[1]);`
          : `import { updateSettings } from ${JSON.stringify(dist('settings.js'))};
             await updateSettings(process.argv[1], { ${key}: ${values[key]} });`;
      },
      dir,
    );
    const settings = await readSettings(dir);
    expect(settings).toMatchObject({ enabled: true, failClosed: true, strict: true, mode: 'extended', idleDays: 9 });
    expect(readFileSync(settingsPath(dir), 'utf8')).toMatch(/^# mine\n/);
    expect(JSON.parse(readFileSync(lastGoodPath(dir), 'utf8'))).toEqual(JSON.parse(JSON.stringify(settings)));
  });

  it('hooks reading settings while `guard fail-closed on` runs never leave an older copy behind', async () => {
    const dir = home();
    writeFileSync(settingsPath(dir), 'failClosed: false\n');
    await effectiveSettings(dir);
    await runAll(
      7,
      (i) =>
        i === 3
          ? `import { updateSettings } from ${JSON.stringify(dist('settings.js'))};
             await updateSettings(process.argv[1], { failClosed: true });`
          : `import { effectiveSettings } from ${JSON.stringify(dist('settings.js'))};
             for (let n = 0; n < 40; n++) await effectiveSettings(process.argv[1]);`,
      dir,
    );
    expect(JSON.parse(readFileSync(lastGoodPath(dir), 'utf8'))).toMatchObject({ failClosed: true });
  });
});

describe('the locks themselves', () => {
  it('a hook leaves the last good copy alone while another holds the settings lock, and keeps it once the lock is free', async () => {
    const dir = home();
    writeFileSync(settingsPath(dir), 'strict: true\n');
    writeFileSync(`${settingsPath(dir)}.lock`, lockOwner(process.pid));
    expect((await effectiveSettings(dir)).settings.strict).toBe(true);
    expect(existsSync(lastGoodPath(dir))).toBe(false);
    rmSync(`${settingsPath(dir)}.lock`);
    await effectiveSettings(dir);
    expect(JSON.parse(readFileSync(lastGoodPath(dir), 'utf8'))).toMatchObject({ strict: true });
  });

  it.each([
    { row: 'still its own: removed', successor: false },
    { row: 'broken as stale and taken by another meanwhile: left to that one', successor: true },
  ])('a lock let go of by its holder, $row', ({ successor }) => {
    const lock = join(home(), 'x.lock');
    const other = '999999999 1';
    withLock(lock, () => {
      expect(readFileSync(lock, 'utf8')).toBe(lockOwner(process.pid));
      if (successor) writeFileSync(lock, other);
    });
    expect(existsSync(lock) ? readFileSync(lock, 'utf8') : undefined).toBe(successor ? other : undefined);
  });

  it('a lock left by a process that is gone is broken, and the change is made', () => {
    const dir = home();
    // a PID no process has (above the largest Linux allows)
    writeFileSync(join(dir, 'allowed.json.lock'), '4194305 1');
    expect(keepForProject(dir, '/p', ['k:1'], new Date(0)).map((entry) => entry.key)).toEqual(['k:1']);
    writeFileSync(join(dir, 'second-opinion.json.lock'), '4194305 1');
    expect(updateHealth(dir, (h) => ({ failures: h.failures + 1 })).failures).toBe(1);
  });

  it.each([
    { row: 'no breaker has its turn: broken at once', turn: undefined, broken: true },
    { row: 'the breaker holding its turn is gone: its turn and the lock are broken', turn: '4194305 1', broken: true },
    { row: 'a live breaker holds its turn: waited for, not broken', turn: 'self', broken: false },
  ])('a lock left by a process that is gone, $row', ({ turn, broken }) => {
    const lock = join(home(), 'x.lock');
    writeFileSync(lock, '4194305 1');
    if (turn !== undefined) writeFileSync(`${lock}.break`, turn === 'self' ? lockOwner(process.pid) : turn);
    const ran = (): boolean => withLock(lock, () => true, { timeoutMs: 100 });
    if (broken) expect(ran()).toBe(true);
    else expect(ran).toThrow(/timed out/);
    // the lock is the holder's while held and nobody's after; a turn is left only where a live breaker holds it
    expect(existsSync(lock)).toBe(!broken);
    expect(existsSync(`${lock}.break`)).toBe(!broken);
  });

  it('a lock is never seen without the name of its holder, and leaves nothing behind', () => {
    const dir = home();
    const lock = join(dir, 'x.lock');
    const seen = withLock(lock, () => readFileSync(lock, 'utf8'));
    expect(seen).toBe(lockOwner(process.pid));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('forgetting from a guard folder that does not exist makes no folder and takes no lock', () => {
    const dir = join(home(), 'none');
    expect(forgetAllowed(dir, () => true)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});
