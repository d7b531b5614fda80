import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failClosed } from '../../src/commands/fail-closed.js';
import type { Io } from '../../src/io.js';
import { readSettings } from '../../src/state/settings.js';
import { captureIo } from '../capture-io.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-fail-closed-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

async function withHome(home: string, command: (io: Io) => Promise<void>): Promise<string> {
  const { io, stdout } = captureIo();
  await command({ ...io, env: { GUARD_HOME: home } });
  return stdout();
}

const logLines = (): string[] =>
  readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe('guard fail-closed on|off', () => {
  it('on: saved, said in the past tense, logged', async () => {
    const out = await withHome(guardHome, (io) => failClosed('on', io));
    expect(out).toMatch(/^fail-closed is now on: a step guard could not check .* is blocked\.\n$/);
    expect(await readSettings(guardHome)).toMatchObject({ failClosed: true, enabled: true });
    expect(logLines().map((line) => JSON.parse(line) as unknown)).toMatchObject([
      { how: 'switch', changed: { failClosed: true } },
    ]);
  });

  it('on twice: nothing changes the second time', async () => {
    await withHome(guardHome, (io) => failClosed('on', io));
    const before = readFileSync(join(guardHome, 'settings.yaml'), 'utf8');
    expect(await withHome(guardHome, (io) => failClosed('on', io))).toBe(
      'fail-closed was already on; nothing changed.\n',
    );
    expect(readFileSync(join(guardHome, 'settings.yaml'), 'utf8')).toBe(before);
    expect(logLines()).toHaveLength(1);
  });

  it('off when it is on: saved, comments kept, the on/off switch untouched', async () => {
    writeFileSync(join(guardHome, 'settings.yaml'), '# keep me\nenabled: false\nfailClosed: true # was on\n');
    const out = await withHome(guardHome, (io) => failClosed('off', io));
    expect(out).toBe(
      'fail-closed is now off: a step guard could not check is asked (blocked where nobody can answer); the never list still blocks what could be read.\n',
    );
    const text = readFileSync(join(guardHome, 'settings.yaml'), 'utf8');
    expect(text).toContain('# keep me\n');
    expect(text).toMatch(/^failClosed: false/m);
    expect(await readSettings(guardHome)).toMatchObject({ failClosed: false, enabled: false });
  });

  it('off when it is already off (the default) writes nothing', async () => {
    expect(await withHome(guardHome, (io) => failClosed('off', io))).toBe(
      'fail-closed was already off; nothing changed.\n',
    );
    expect(() => readFileSync(join(guardHome, 'settings.yaml'))).toThrow();
  });
});

describe("Cursor's own fail-closed mark follows the setting", () => {
  const cursorWorld = (): { io: Io; stdout: () => string; file: string; home: string } => {
    const home = mkdtempSync(join(tmpdir(), 'guard-fc-home-'));
    const captured = captureIo({ home, cwd: home });
    return {
      io: { ...captured.io, env: { GUARD_HOME: guardHome } },
      stdout: captured.stdout,
      file: join(home, '.cursor', 'hooks.json'),
      home,
    };
  };

  it('where guard is set up in Cursor, on marks its entries failClosed and off takes the mark away', async () => {
    const w = cursorWorld();
    const { setup } = await import('../../src/commands/setup.js');
    await setup('cursor', { project: false, dryRun: false }, w.io);
    const marked = (): boolean => (readFileSync(w.file, 'utf8').match(/"failClosed": true/g) ?? []).length > 0;
    expect(marked()).toBe(false);
    await failClosed('on', w.io);
    expect(marked()).toBe(true);
    expect(w.stdout()).toContain(`guard is set up in Cursor (${w.file})`);
    await failClosed('off', w.io);
    expect(marked()).toBe(false);
    rmSync(w.home, { recursive: true, force: true });
  });

  it('where Cursor has no guard hook, nothing is written', async () => {
    const w = cursorWorld();
    await failClosed('on', w.io);
    expect(() => readFileSync(w.file)).toThrow();
    expect(w.stdout()).not.toContain('Cursor');
    rmSync(w.home, { recursive: true, force: true });
  });
});
