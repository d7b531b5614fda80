import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toggle } from '../../src/commands/toggle.js';
import { GuardError } from '../../src/errors.js';
import type { Io } from '../../src/io.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { readSettings } from '../../src/state/settings.js';
import { captureIo } from '../capture-io.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-toggle-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const settingsFile = (): string => join(guardHome, 'settings.yaml');

/** Runs a command with GUARD_HOME set to the temp folder; returns what it printed. */
async function withHome(home: string, command: (io: Io) => Promise<void>): Promise<string> {
  const { io, stdout } = captureIo();
  await command({ ...io, env: { GUARD_HOME: home } });
  return stdout();
}

function switches(): LogEntry[] {
  if (!existsSync(join(guardHome, 'log.jsonl'))) return [];
  return readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

describe('guard on / guard off', () => {
  it('off turns guard off, says so in the past tense, and logs the switch', async () => {
    const out = await withHome(guardHome, (io) => toggle('off', io));
    expect(out).toBe(
      "guard is now off: every step goes ahead and is logged as 'guard off'. Run `guard on` to turn it back on.\n",
    );
    expect((await readSettings(guardHome)).enabled).toBe(false);
    expect(switches()).toMatchObject([{ how: 'switch', changed: { enabled: false } }]);
  });

  it('off twice changes nothing the second time: same bytes, no second log line', async () => {
    await withHome(guardHome, (io) => toggle('off', io));
    const before = readFileSync(settingsFile(), 'utf8');
    const out = await withHome(guardHome, (io) => toggle('off', io));
    expect(out).toBe('guard was already off; nothing changed. Run `guard on` to turn it back on.\n');
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
    expect(switches()).toHaveLength(1);
  });

  it('on with no settings file writes nothing (on is the default)', async () => {
    const out = await withHome(guardHome, (io) => toggle('on', io));
    expect(out).toBe('guard was already on; nothing changed.\n');
    expect(existsSync(settingsFile())).toBe(false);
    expect(switches()).toEqual([]);
  });

  it("off then on keeps the person's comments and other keys", async () => {
    const mine = '# my guard settings\nstrict: true # whole chat\nfailClosed: false\n\n# the end\n';
    writeFileSync(settingsFile(), mine);
    await withHome(guardHome, (io) => toggle('off', io));
    const off = readFileSync(settingsFile(), 'utf8');
    expect(off).toContain('# my guard settings\n');
    expect(off).toContain('strict: true # whole chat\n');
    expect(off).toContain('# the end');
    expect(off).toMatch(/^enabled: false$/m);
    const out = await withHome(guardHome, (io) => toggle('on', io));
    expect(out).toBe('guard is now on: each step is checked again before it runs.\n');
    expect(await readSettings(guardHome)).toMatchObject({ enabled: true, strict: true, failClosed: false });
    expect(readFileSync(settingsFile(), 'utf8')).toContain('strict: true # whole chat\n');
    expect(switches().map((line) => line.changed)).toEqual([{ enabled: false }, { enabled: true }]);
  });

  it.for([
    { name: 'an invalid value', text: 'enabled: perhaps\n' },
    { name: 'broken YAML', text: 'enabled: [true\n' },
  ])('a settings file with $name is left alone with a clear error', async ({ text }) => {
    writeFileSync(settingsFile(), text);
    const error = await withHome(guardHome, (io) => toggle('off', io)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GuardError);
    expect((error as GuardError).message).toMatch(/settings\.yaml.*nothing was changed\.$/);
    expect((error as GuardError).hint).toMatch(/Fix or delete settings\.yaml/);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(text);
    expect(switches()).toEqual([]);
  });
});
