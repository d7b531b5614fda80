import { describe, expect, it } from 'vitest';
import type { SettingsFile } from '../src/adapter.js';
import { claudeCode } from '../src/claude-code/agent.js';
import type { HookSwitch, SettingsHooks } from '../src/settings-hooks.js';
import { hooksOff, readSettings, settingsHooks, settingsSwitches, valueAt } from '../src/settings-hooks.js';

// The shared part of the adapters shaped like Claude Code, driven with a made-up agent: what one
// declaration writes, and what settings files say through a list of switches.

const CMD = '/usr/bin/node /opt/guard/hook-entry.cjs hook sample';
// the made-up agent's answers (only its id is read here: no entry below carries a fallback)
const SAMPLE = { ...claudeCode, id: 'sample' };
const PLAIN: SettingsHooks = {
  agent: SAMPLE,
  events: ['PreToolUse', 'Start'],
  matcherEvents: ['PreToolUse'],
  timeout: 5,
};

describe('settingsHooks: the handler one declaration writes', () => {
  it.for<{ name: string; settings: SettingsHooks; failClosed: boolean; guardHome?: string; want: object }>([
    {
      name: 'plain: a matcher on the tool event only',
      settings: PLAIN,
      failClosed: false,
      want: {
        PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: CMD, timeout: 5 }] }],
        Start: [{ hooks: [{ type: 'command', command: CMD, timeout: 5 }] }],
      },
    },
    {
      name: 'a name first, the fail-closed key and the env last',
      settings: { ...PLAIN, events: ['Start'], name: 'guard', failClosed: { onFailure: 'block' }, guardHomeEnv: true },
      failClosed: true,
      guardHome: '/srv/guard',
      want: {
        Start: [
          {
            hooks: [
              {
                name: 'guard',
                type: 'command',
                command: CMD,
                timeout: 5,
                onFailure: 'block',
                env: { GUARD_HOME: '/srv/guard' },
              },
            ],
          },
        ],
      },
    },
    // near misses: the fail-closed key only under fail-closed, the env only with a folder to name
    {
      name: 'fail-open: no fail-closed key; no folder: no env',
      settings: { ...PLAIN, events: ['Start'], failClosed: { onFailure: 'block' }, guardHomeEnv: true },
      failClosed: false,
      want: { Start: [{ hooks: [{ type: 'command', command: CMD, timeout: 5 }] }] },
    },
    {
      name: 'a folder, but an agent that keeps the environment',
      settings: { ...PLAIN, events: ['Start'] },
      failClosed: false,
      guardHome: '/srv/guard',
      want: { Start: [{ hooks: [{ type: 'command', command: CMD, timeout: 5 }] }] },
    },
  ])('$name', ({ settings, failClosed, guardHome, want }) => {
    const edit = settingsHooks(settings);
    const text = edit.install('', { hookCommand: CMD, failClosed, ...(guardHome === undefined ? {} : { guardHome }) });
    expect(JSON.parse(text)).toEqual({ hooks: want });
    expect(edit.installedCommands(text)).toEqual([CMD]);
    expect(edit.uninstall(text)).toBe('');
  });

  it.for([
    { comments: true, kept: true },
    { comments: false, kept: false },
  ])(
    'comments $comments: a commented file is edited with its comments kept ($kept), else refused',
    ({ comments, kept }) => {
      const before = '// mine\n{ "theme": "dark" /* yes */ }\n';
      const edit = settingsHooks({ ...PLAIN, comments });
      if (!kept) {
        expect(() => edit.install(before, { hookCommand: CMD, failClosed: false })).toThrow(/comments/);
        return;
      }
      const after = edit.install(before, { hookCommand: CMD, failClosed: false });
      expect(after).toContain('// mine');
      expect(after).toContain('/* yes */');
      expect(edit.uninstall(after)).toBe(before);
    },
  );
});

describe('hooksOff: what settings files say through a list of switches', () => {
  const SWITCHES: readonly HookSwitch[] = [
    { key: ['disableAll'], off: true, counts: 'any', so: 'so none run.' },
    { key: ['hooks', 'enabled'], off: false, counts: 'last', so: 'so none run either.' },
    { key: ['hooks', 'disabled'], off: { listed: 'guard' }, counts: 'any', so: 'so guard is skipped.' },
  ];
  const files = (...texts: (string | undefined)[]): SettingsFile[] =>
    texts.map((text, index) => ({ path: `/s/${index}.json`, text }));

  it.for<{ name: string; texts: (string | undefined)[]; comments?: boolean; want: string[] }>([
    { name: 'a flag', texts: ['{"disableAll": true}'], want: ['/s/0.json sets "disableAll": true, so none run.'] },
    {
      name: 'a flag in two files: both said',
      texts: ['{"disableAll": true}', '{"disableAll": true}'],
      want: ['/s/0.json sets "disableAll": true, so none run.', '/s/1.json sets "disableAll": true, so none run.'],
    },
    {
      name: 'a nested flag in the file that wins',
      texts: ['{"hooks": {"enabled": true}}', '{"hooks": {"enabled": false}}'],
      want: ['/s/1.json sets "hooks": {"enabled": false}, so none run either.'],
    },
    {
      name: 'a name in a list',
      texts: ['{"hooks": {"disabled": ["lint", "guard"]}}'],
      want: ['/s/0.json lists "guard" in "hooks.disabled", so guard is skipped.'],
    },
    {
      name: 'with comments and a BOM, where the agent allows comments',
      texts: ['\uFEFF// x\n{"disableAll": /* y */ true}'],
      comments: true,
      want: ['/s/0.json sets "disableAll": true, so none run.'],
    },
    // near misses
    { name: 'the flag false', texts: ['{"disableAll": false}'], want: [] },
    { name: 'the flag as a string', texts: ['{"disableAll": "true"}'], want: [] },
    { name: 'the flag nested elsewhere', texts: ['{"env": {"disableAll": true}}'], want: [] },
    {
      name: 'off in one file, on again in a later one (the later wins)',
      texts: ['{"hooks": {"enabled": false}}', '{"hooks": {"enabled": true}}', '{"hooks": {}}'],
      want: [],
    },
    { name: 'a nested flag at the top', texts: ['{"enabled": false}'], want: [] },
    { name: 'another name in the list', texts: ['{"hooks": {"disabled": ["guard-rails"]}}'], want: [] },
    {
      name: 'comments where the agent reads strict JSON (it sets nothing)',
      texts: ['// x\n{"disableAll": true}'],
      want: [],
    },
    { name: 'a file that is not an object', texts: ['[true]'], want: [] },
    { name: 'no files', texts: [undefined, undefined], want: [] },
  ])('$name', ({ texts, comments, want }) => {
    const found = hooksOff({ ...PLAIN, comments: comments === true }, files(...texts), SWITCHES);
    expect(found.map((off) => off.message)).toEqual(want);
    expect(found.every((off) => off.scope === 'everywhere')).toBe(true);
  });

  it('settingsSwitches reads the files it names, in their order', () => {
    const switches = settingsSwitches(PLAIN, { files: (where) => [`${where.home}/a.json`], switches: SWITCHES });
    expect(switches.files({ home: '/h', env: {}, projectRoot: '/p' })).toEqual(['/h/a.json']);
    const where = { home: '/h', env: {}, projectRoot: '/p' };
    expect(switches.check([{ path: '/h/a.json', text: '{"disableAll": true}' }], where)).toHaveLength(1);
  });
});

describe('readSettings and valueAt', () => {
  it.for<[string, string | undefined, boolean, readonly string[], unknown]>([
    ['a nested value', '{"a": {"b": 1}}', false, ['a', 'b'], 1],
    ['a missing key', '{"a": {}}', false, ['a', 'b'], undefined],
    ['through a list (not an object)', '{"a": [{"b": 1}]}', false, ['a', 'b'], undefined],
    ['a missing file', undefined, false, ['a'], undefined],
    ['broken JSON', '{"a": 1,}', true, ['a'], undefined],
  ])('%s', ([, text, comments, key, want]) => {
    expect(valueAt(readSettings({ ...PLAIN, comments }, { path: '/s.json', text }), key)).toEqual(want);
  });
});
