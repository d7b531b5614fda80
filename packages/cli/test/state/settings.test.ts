import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/state/settings.js';
import { movedGuardHome, SECOND_OPINION_OFF } from '../../src/state/settings.js';
import {
  DEFAULT_SETTINGS,
  effectiveSettings,
  lastGoodPath,
  readSettings,
  STRICTEST_SETTINGS,
  updateSettings,
} from '../../src/state/settings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'guard-settings-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const settingsFile = (): string => join(home, 'settings.yaml');
const GOOD: Settings = {
  enabled: true,
  failClosed: true,
  strict: false,
  idleDays: 3,
  mode: 'standard',
  secondOpinion: SECOND_OPINION_OFF,
};

const hasMkfifo = ((): boolean => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Ways settings.yaml goes bad after it was good (fail-closed on, idle 3 days). */
const BROKEN: readonly { readonly name: string; readonly skip?: string | false; break(): void }[] = [
  { name: 'a bad value', break: () => writeFileSync(settingsFile(), 'failClosed: maybe\n') },
  { name: 'a stray indented line', break: () => writeFileSync(settingsFile(), 'failClosed: true\n   - stray\n') },
  { name: 'two colons', break: () => writeFileSync(settingsFile(), 'failClosed: is: wrong\n') },
  { name: 'not UTF-8', break: () => writeFileSync(settingsFile(), Buffer.from([0x66, 0xff, 0xfe, 0x0a])) },
  { name: 'cut off', break: () => writeFileSync(settingsFile(), 'enabled: true\nfailCl') },
  { name: 'a list', break: () => writeFileSync(settingsFile(), '- enabled\n') },
  { name: 'failClosed with no value', break: () => writeFileSync(settingsFile(), 'failClosed:\n') },
  { name: 'failClosed: ~', break: () => writeFileSync(settingsFile(), 'failClosed: ~\n') },
  { name: 'failClosed as a map', break: () => writeFileSync(settingsFile(), 'failClosed:\n  on: true\n') },
  // issue 25: read loosely these were unknown keys, which meant the defaults (fail-closed off)
  { name: 'only `this: is: wrong`', break: () => writeFileSync(settingsFile(), 'this: is: wrong\n') },
  { name: 'only unknown keys', break: () => writeFileSync(settingsFile(), 'failclosed: true\nenable: yes\n') },
  { name: 'empty', break: () => writeFileSync(settingsFile(), '') },
  { name: 'only a comment', break: () => writeFileSync(settingsFile(), '# nothing here\n') },
  { name: 'a key given twice', break: () => writeFileSync(settingsFile(), 'failClosed: true\nfailClosed: false\n') },
  { name: 'an unknown tag', break: () => writeFileSync(settingsFile(), 'failClosed: !off true\n') },
  { name: 'a flow map of unknown keys', break: () => writeFileSync(settingsFile(), '{this: wrong}\n') },
  { name: 'a folder', break: () => (rmSync(settingsFile()), mkdirSync(settingsFile())) },
  { name: 'gone', break: () => rmSync(settingsFile()) },
  {
    name: 'a named pipe',
    skip: !hasMkfifo && 'no mkfifo',
    break: () => (rmSync(settingsFile()), execFileSync('mkfifo', [settingsFile()])),
  },
  {
    name: 'a device that never ends',
    skip: !existsSync('/dev/zero') && 'no /dev/zero',
    break: () => (rmSync(settingsFile()), symlinkSync('/dev/zero', settingsFile())),
  },
];

describe('effective settings (SPEC §7: unreadable settings never loosen)', () => {
  it('a good settings.yaml is used as it is, and a copy of it is kept', async () => {
    writeFileSync(settingsFile(), 'failClosed: true\nidleDays: 3\n');
    expect(await effectiveSettings(home)).toEqual({ settings: GOOD });
    expect(JSON.parse(readFileSync(lastGoodPath(home), 'utf8'))).toEqual(GOOD);
  });

  it('no settings.yaml and no copy: the defaults, and no copy is made', async () => {
    expect(await effectiveSettings(home)).toEqual({ settings: DEFAULT_SETTINGS });
    expect(existsSync(lastGoodPath(home))).toBe(false);
  });

  it('updateSettings keeps the copy too', async () => {
    await updateSettings(home, { failClosed: true });
    expect(JSON.parse(readFileSync(lastGoodPath(home), 'utf8'))).toMatchObject({ failClosed: true });
  });

  it.for(BROKEN)('$name: the last good settings are kept', async (broken, { skip }) => {
    if (broken.skip) skip(broken.skip);
    writeFileSync(settingsFile(), 'failClosed: true\nidleDays: 3\n');
    await effectiveSettings(home);
    broken.break();
    const got = await effectiveSettings(home);
    expect(got.settings).toEqual(GOOD);
    expect(got.problem).toMatch(/last good settings/);
    // the copy is not overwritten by what could not be read
    expect(JSON.parse(readFileSync(lastGoodPath(home), 'utf8'))).toEqual(GOOD);
  });

  // a removed or emptied file with no copy is the defaults, as before guard ever kept one
  it.for(BROKEN.filter((broken) => !['gone', 'empty', 'only a comment'].includes(broken.name)))(
    '$name, no copy ever kept: the strictest settings, never the defaults',
    async (broken, { skip }) => {
      if (broken.skip) skip(broken.skip);
      writeFileSync(settingsFile(), 'enabled: true\n');
      broken.break();
      const got = await effectiveSettings(home);
      expect(got.settings).toEqual(STRICTEST_SETTINGS);
      expect(got.problem).toMatch(/fail-closed and strict/);
      await expect(readSettings(home)).rejects.toThrow(/settings\.yaml/);
    },
  );

  // near misses of the strict read: files that are guard's settings, however they are written
  it.for(['', '# nothing here\n', '---\n\n'])(
    'an empty settings.yaml (%j) is the defaults to a command, as a removed one is',
    async (text) => {
      writeFileSync(settingsFile(), text);
      expect(await readSettings(home)).toEqual(DEFAULT_SETTINGS);
    },
  );

  it.for([
    ['a known key beside unknown ones', 'failClosed: true\nidleDays: 3\nnote: mine\n'],
    ['a quoted value', 'failClosed: "true"\nidleDays: 3\n'],
    ['a flow map', '{failClosed: true, idleDays: 3}\n'],
    ['a value with a colon and no space', 'failClosed: true\nidleDays: 3\nnote: a:b\n'],
    ['a document marker and comments', '---\n# mine\nfailClosed: true # on\nidleDays: 3\n'],
  ] as const)('%s: read as it says', async ([, text]) => {
    writeFileSync(settingsFile(), text);
    expect(await effectiveSettings(home)).toEqual({ settings: GOOD });
    expect(await readSettings(home)).toEqual(GOOD);
  });

  it('a torn copy and a broken settings.yaml: the strictest', async () => {
    writeFileSync(settingsFile(), 'failClosed: nope\n');
    writeFileSync(lastGoodPath(home), '{"enabled":fa');
    expect((await effectiveSettings(home)).settings).toEqual(STRICTEST_SETTINGS);
  });

  it('a copy that turns guard off is kept as it is (the person turned it off)', async () => {
    writeFileSync(settingsFile(), 'enabled: false\n');
    await effectiveSettings(home);
    writeFileSync(settingsFile(), 'enabled: nah\n');
    expect((await effectiveSettings(home)).settings.enabled).toBe(false);
  });
});

describe("guard's folder as the home folder alone would not give it (written into entries of agents that clean their hooks' environment)", () => {
  it.each([
    { row: 'nothing set', env: {}, platform: 'linux', moved: undefined },
    { row: 'GUARD_HOME', env: { GUARD_HOME: '/srv/g' }, platform: 'linux', moved: '/srv/g' },
    { row: 'XDG_STATE_HOME', env: { XDG_STATE_HOME: '/srv/state' }, platform: 'linux', moved: '/srv/state/guard' },
    {
      row: 'GUARD_HOME set to the default',
      env: { GUARD_HOME: '/h/.local/state/guard' },
      platform: 'linux',
      moved: undefined,
    },
    { row: 'an empty GUARD_HOME', env: { GUARD_HOME: '' }, platform: 'linux', moved: undefined },
    {
      row: "Windows' LOCALAPPDATA elsewhere",
      env: { LOCALAPPDATA: 'D:/local' },
      platform: 'win32',
      moved: join('D:/local', 'guard'),
    },
  ])('$row', ({ env, platform, moved }) => {
    expect(movedGuardHome(env, '/h', platform)).toBe(moved);
  });
});
