import { describe, expect, it } from 'vitest';
import type { SystemFloor, SystemRead, WantedChange } from '../../src/state/floor.js';
import { floorRefusal, NO_FLOOR, resolveSettings, STRICTEST_FLOOR } from '../../src/state/floor.js';
import type { Settings } from '../../src/state/settings.js';
import { DEFAULT_SETTINGS, SECOND_OPINION_OFF } from '../../src/state/settings.js';

// The system settings floor, as a pure function: every floor field against every user setting that
// would loosen it stays in force; a user setting that tightens is kept; no system file changes nothing.

const PATH = 'system/settings.yaml';
const read = (floor: Partial<SystemFloor>): SystemRead => ({
  state: 'read',
  path: PATH,
  floor: { ...NO_FLOOR, ...floor },
});
const NONE: SystemRead = { state: 'none', path: PATH };
const BROKEN: SystemRead = { state: 'unreadable', path: PATH, problem: 'it is not valid YAML' };
const OPINION = {
  on: true,
  config: {
    url: 'https://judge.example',
    endpoint: 'https://judge.example/chat/completions',
    model: 'm',
    timeoutMs: 500,
    bars: { irreversible: 0.5, outside: 0.5, irreversibleAlone: 0.9 },
  },
} as const;
const USER_OPINION = { on: true, config: { ...OPINION.config, url: 'http://127.0.0.1:1/v1', model: 'mine' } } as const;
const user = (settings: Partial<Settings>): Settings => ({ ...DEFAULT_SETTINGS, ...settings });

describe('resolveSettings: a loosening in the user settings stays below the floor', () => {
  it.for([
    {
      name: 'fail-closed off',
      floor: { failClosed: true },
      user: { failClosed: false },
      key: 'failClosed',
      want: true,
      noted: false,
    },
    {
      name: 'guard off',
      floor: { offAllowed: false },
      user: { enabled: false },
      key: 'enabled',
      want: true,
      noted: true,
    },
    { name: 'strict off', floor: { strict: true }, user: { strict: false }, key: 'strict', want: true, noted: false },
    {
      name: 'mode full, at most standard',
      floor: { mostPermissiveMode: 'standard' },
      user: { mode: 'full' },
      key: 'mode',
      want: 'standard',
      noted: true,
    },
    {
      name: 'mode extended, at most standard',
      floor: { mostPermissiveMode: 'standard' },
      user: { mode: 'extended' },
      key: 'mode',
      want: 'standard',
      noted: true,
    },
    {
      name: 'mode full, at most extended',
      floor: { mostPermissiveMode: 'extended' },
      user: { mode: 'full' },
      key: 'mode',
      want: 'extended',
      noted: true,
    },
    {
      name: 'second opinion off',
      floor: { secondOpinion: OPINION },
      user: { secondOpinion: SECOND_OPINION_OFF },
      key: 'secondOpinion',
      want: OPINION,
      noted: false,
    },
    {
      name: 'second opinion elsewhere',
      floor: { secondOpinion: OPINION },
      user: { secondOpinion: USER_OPINION },
      key: 'secondOpinion',
      want: OPINION,
      noted: true,
    },
  ] as const)('$name', ({ floor, user: mine, key, want, noted }) => {
    const resolved = resolveSettings(read(floor), user(mine), DEFAULT_SETTINGS);
    expect(resolved.settings[key]).toEqual(want);
    expect(resolved.from[key]).toBe('system');
    // a user value that only repeats the default is no loosening of the user's to report
    expect(resolved.ignored.length > 0).toBe(noted);
  });

  it('only what the user set is noted', () => {
    const resolved = resolveSettings(
      read({ failClosed: true, offAllowed: false }),
      user({ enabled: false }),
      DEFAULT_SETTINGS,
    );
    expect(resolved.ignored).toEqual(['guard off is not used: the system settings do not allow guard off']);
  });
});

describe('resolveSettings: near misses', () => {
  it.for([
    {
      name: 'fail-closed on under a floor that does not set it',
      floor: {},
      user: { failClosed: true },
      key: 'failClosed',
      want: true,
      from: 'user',
    },
    {
      name: 'fail-closed on under a floor that sets it',
      floor: { failClosed: true },
      user: { failClosed: true },
      key: 'failClosed',
      want: true,
      from: 'user',
    },
    {
      name: 'mode standard under at most extended',
      floor: { mostPermissiveMode: 'extended' },
      user: { mode: 'standard' },
      key: 'mode',
      want: 'standard',
      from: 'default',
    },
    {
      name: 'mode extended under at most extended',
      floor: { mostPermissiveMode: 'extended' },
      user: { mode: 'extended' },
      key: 'mode',
      want: 'extended',
      from: 'user',
    },
    {
      name: 'guard off where it is allowed',
      floor: { offAllowed: true },
      user: { enabled: false },
      key: 'enabled',
      want: false,
      from: 'user',
    },
    {
      name: 'the user second opinion with none in the floor',
      floor: {},
      user: { secondOpinion: USER_OPINION },
      key: 'secondOpinion',
      want: USER_OPINION,
      from: 'user',
    },
  ] as const)('$name', ({ floor, user: mine, key, want, from }) => {
    const resolved = resolveSettings(read(floor), user(mine), DEFAULT_SETTINGS);
    expect(resolved.settings[key]).toEqual(want);
    expect(resolved.from[key]).toBe(from);
    expect(resolved.ignored).toEqual([]);
  });
});

describe('resolveSettings: no system file is today exactly; one that cannot be used is the strictest', () => {
  const USERS: readonly Settings[] = [
    DEFAULT_SETTINGS,
    user({ enabled: false }),
    user({ failClosed: true, mode: 'full', strict: true, idleDays: 3 }),
    user({ mode: 'extended', secondOpinion: USER_OPINION }),
  ];
  it.for(USERS)('no file: %j', (mine) => {
    const resolved = resolveSettings(NONE, mine, DEFAULT_SETTINGS);
    expect(resolved.settings).toEqual(mine);
    expect(resolved.ignored).toEqual([]);
    expect(resolved.lockedRules).toEqual([]);
  });
  it.for(USERS)('unreadable: %j', (mine) => {
    const resolved = resolveSettings(BROKEN, mine, DEFAULT_SETTINGS);
    expect(resolved.settings).toMatchObject({ enabled: true, failClosed: true, strict: true, mode: 'standard' });
    expect(resolved.lockedRules).toEqual(STRICTEST_FLOOR.lockedRules);
    expect(resolved.ignored[0]).toContain('it is not valid YAML');
  });
});

describe('floorRefusal: a command that would loosen below the floor is refused; one that tightens is not', () => {
  const EXPORT = {
    endpoint: 'https://collector.example/v1/logs',
    headers: {},
    command: true,
    projectPath: false,
    encoding: 'json' as const,
  };
  it.for([
    {
      name: 'guard off, not allowed',
      floor: { offAllowed: false },
      change: { enabled: false },
      refused: 'do not allow `guard off`',
    },
    { name: 'guard on, off not allowed', floor: { offAllowed: false }, change: { enabled: true }, refused: undefined },
    { name: 'guard off, allowed', floor: {}, change: { enabled: false }, refused: undefined },
    {
      name: 'fail-closed off',
      floor: { failClosed: true },
      change: { failClosed: false },
      refused: 'keep fail-closed on',
    },
    { name: 'fail-closed on', floor: { failClosed: true }, change: { failClosed: true }, refused: undefined },
    { name: 'fail-closed off, no floor', floor: {}, change: { failClosed: false }, refused: undefined },
    {
      name: 'mode full over extended',
      floor: { mostPermissiveMode: 'extended' },
      change: { mode: 'full' },
      refused: 'at most mode extended',
    },
    {
      name: 'mode extended over standard',
      floor: { mostPermissiveMode: 'standard' },
      change: { mode: 'extended' },
      refused: 'at most mode standard',
    },
    {
      name: 'mode extended at extended',
      floor: { mostPermissiveMode: 'extended' },
      change: { mode: 'extended' },
      refused: undefined,
    },
    {
      name: 'mode standard under standard',
      floor: { mostPermissiveMode: 'standard' },
      change: { mode: 'standard' },
      refused: undefined,
    },
    {
      name: 'second opinion off',
      floor: { secondOpinion: OPINION },
      change: { secondOpinion: false },
      refused: 'set the second opinion',
    },
    {
      name: 'second opinion elsewhere',
      floor: { secondOpinion: OPINION },
      change: { secondOpinion: true },
      refused: 'set the second opinion',
    },
    { name: 'second opinion off, none set', floor: {}, change: { secondOpinion: false }, refused: undefined },
    { name: 'export off', floor: { export: EXPORT }, change: { export: false }, refused: 'send every decision to' },
    {
      name: 'export elsewhere',
      floor: { export: EXPORT },
      change: { export: true },
      refused: 'send every decision to',
    },
    { name: 'export off, none set', floor: {}, change: { export: false }, refused: undefined },
  ] as const)('$name', ({ floor, change, refused }) => {
    const refusal = floorRefusal(read(floor), change);
    if (refused === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toContain(refused);
  });

  it.for([
    [{ enabled: false }, true],
    [{ failClosed: false }, true],
    [{ mode: 'extended' }, true],
    [{ mode: 'standard' }, false],
    [{ enabled: true, failClosed: true }, false],
  ] as const)('a system file that cannot be read refuses %j: %s', ([change, refused]) => {
    expect(floorRefusal(BROKEN, change as WantedChange) !== undefined).toBe(refused);
    expect(floorRefusal(NONE, change as WantedChange)).toBeUndefined();
  });
});
