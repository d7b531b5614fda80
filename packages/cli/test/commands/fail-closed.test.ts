import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failClosed } from '../../src/commands/fail-closed.js';
import type { Io } from '../../src/io.js';
import { readSettings } from '../../src/settings.js';
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

const logLines = (): string[] => readFileSync(join(guardHome, 'log.jsonl'), 'utf8').split('\n').filter((line) => line !== '');

describe('guard fail-closed on|off', () => {
  it('on: saved, said in the past tense with what to do for Cursor, logged', async () => {
    const out = await withHome(guardHome, (io) => failClosed('on', io));
    expect(out).toMatch(/^fail-closed is now on: when guard itself fails .*, the step is blocked\.\n/);
    expect(out).toContain('`guard setup cursor`');
    expect(await readSettings(guardHome)).toMatchObject({ failClosed: true, enabled: true });
    expect(logLines().map((line) => JSON.parse(line) as unknown)).toMatchObject([{ how: 'switch', changed: { failClosed: true } }]);
  });

  it('on twice: nothing changes the second time', async () => {
    await withHome(guardHome, (io) => failClosed('on', io));
    const before = readFileSync(join(guardHome, 'settings.yaml'), 'utf8');
    expect(await withHome(guardHome, (io) => failClosed('on', io))).toBe('fail-closed was already on; nothing changed.\n');
    expect(readFileSync(join(guardHome, 'settings.yaml'), 'utf8')).toBe(before);
    expect(logLines()).toHaveLength(1);
  });

  it('off when it is on: saved, comments kept, the on/off switch untouched', async () => {
    writeFileSync(join(guardHome, 'settings.yaml'), '# keep me\nenabled: false\nfailClosed: true # was on\n');
    const out = await withHome(guardHome, (io) => failClosed('off', io));
    expect(out).toBe('fail-closed is now off: when guard itself fails, only the never list still applies and other steps go ahead.\n');
    const text = readFileSync(join(guardHome, 'settings.yaml'), 'utf8');
    expect(text).toContain('# keep me\n');
    expect(text).toMatch(/^failClosed: false/m);
    expect(await readSettings(guardHome)).toMatchObject({ failClosed: false, enabled: false });
  });

  it('off when it is already off (the default) writes nothing', async () => {
    expect(await withHome(guardHome, (io) => failClosed('off', io))).toBe('fail-closed was already off; nothing changed.\n');
    expect(() => readFileSync(join(guardHome, 'settings.yaml'))).toThrow();
  });
});
