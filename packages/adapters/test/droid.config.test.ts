import { describe, expect, it } from 'vitest';
import type { Locations } from '../src/adapter.js';
import { droid } from '../src/droid/index.js';
import { parseJson, toValue } from '../src/json-text.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook droid';
const options = { hookCommand: CMD, failClosed: false };

// Droid's timeout is in seconds
const handler = { type: 'command', command: CMD, timeout: 10 };
const entries = {
  PreToolUse: { matcher: '*', hooks: [handler] },
  PostToolUse: { matcher: '*', hooks: [handler] },
  SessionStart: { hooks: [handler] },
  UserPromptSubmit: { hooks: [handler] },
};
// the events are the root keys of Droid's hooks.json
const spec: AgentSpec = {
  adapter: droid,
  options,
  eventMap: (parsed) => parsed,
  entries,
  commands: [CMD],
  comments: true,
};

// hooks.json as a Droid user keeps it, comments included: their own hooks and Droid's own switches
const USER = `// my Droid hooks
{
  "PreToolUse": [
    {
      "matcher": "Create|Edit",
      "hooks": [{ "type": "command", "command": "npm run lint --silent", "timeout": 30 }]
    }
  ],
  /* a sound when it stops */
  "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye >> ~/droid.log" }] }],
  "showHookOutput": true
}
`;

const NO_HOOKS = `{
  "showHookOutput": false
}
`;

describeRoundTrip('droid: install then uninstall gives hooks.json back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'switches without hooks', before: NO_HOOKS },
  { name: 'comments and the user’s own hooks', before: USER },
  { name: 'CRLF newlines with comments', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: NO_HOOKS.replaceAll('  ', '\t'), reject: [/\n +"/] },
  { name: 'minified, no newline', before: '{"Stop":[],"hooksDisabled":false}', reject: [/\n/] },
  { name: 'byte order mark', before: `\uFEFF${NO_HOOKS}` },
]);

describe('droid: what setup writes', () => {
  it("a fresh file is guard's hooks alone, the events at its root (no `hooks` key)", () => {
    const text = droid.install('', options);
    expect(JSON.parse(text)).toEqual(
      Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]])),
    );
  });

  it('comments stay exactly where they were', () => {
    const text = droid.install(USER, options);
    for (const comment of ['// my Droid hooks\n{', '  /* a sound when it stops */\n']) expect(text).toContain(comment);
  });

  it('Droid has no fail-closed switch: fail-closed writes the same file', () => {
    expect(droid.install(USER, { hookCommand: CMD, failClosed: true })).toBe(droid.install(USER, options));
  });

  it("guard's hooks are found at the root; Claude Code's or Qwen Code's guard entries, or guard's under `hooks`, are not Droid's", () => {
    expect(droid.installedCommands(droid.install(USER, options))).toEqual([CMD]);
    expect(droid.installedCommand(droid.install(USER, options), 'SessionStart')).toBe(CMD);
    expect(droid.installedCommand(droid.install(USER, options), 'Stop')).toBeUndefined();
    for (const agent of ['claude-code', 'qwen']) {
      const other = `{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/n /s hook ${agent}"}]}]}`;
      expect(droid.installedCommands(other)).toEqual([]);
      expect(droid.uninstall(other)).toBe(other);
    }
    // settings.json's layout: Droid reads it there only when there is no hooks.json
    const nested = `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/n /s hook droid"}]}]}}`;
    expect(droid.installedCommands(nested)).toEqual([]);
  });

  it('the parsed file is what Droid reads: guard after the user’s own PreToolUse hook, its switches kept', () => {
    const value = toValue(parseJson(droid.install(USER, options), { comments: true })) as Record<
      string,
      { hooks: { command: string }[] }[] | boolean
    >;
    expect(Object.keys(value)).toEqual([
      'PreToolUse',
      'Stop',
      'showHookOutput',
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    const pre = value['PreToolUse'] as { hooks: { command: string }[] }[];
    expect(pre.map((group) => group.hooks[0]?.command)).toEqual(['npm run lint --silent', CMD]);
    expect(value['showHookOutput']).toBe(true);
  });

  it.for<{ level: 'user' | 'project'; env: Record<string, string>; path: string }>([
    { level: 'user', env: {}, path: '/home/dev/.factory/hooks.json' },
    { level: 'user', env: { FACTORY_HOME_OVERRIDE: '/srv/fh' }, path: '/srv/fh/.factory/hooks.json' },
    { level: 'user', env: { FACTORY_HOME_OVERRIDE: '' }, path: '/home/dev/.factory/hooks.json' },
    { level: 'project', env: { FACTORY_HOME_OVERRIDE: '/srv/fh' }, path: '/work/app/.factory/hooks.json' },
  ])('configPath($level) with $env', ({ level, env, path }) => {
    const where: Locations = { home: '/home/dev', env, projectRoot: '/work/app' };
    expect(droid.configPath(level, where)).toBe(path);
  });
});

describeRefusals('droid: a file Droid would not read is refused with its line', spec, [
  {
    name: 'a comment left open',
    text: '{\n  "Stop": [] /* no end\n}\n',
    line: 2,
    message: /comment is not closed/,
    uninstall: 'throws',
  },
  {
    name: 'an event that is not a list',
    text: '{\n  /* mine */\n  "PreToolUse": {}\n}\n',
    line: 3,
    message: /"PreToolUse" must be a list/,
    uninstall: 'unchanged',
  },
  {
    name: 'a list, not an object',
    text: '[\n]\n',
    line: 1,
    message: /must hold one JSON object/,
    uninstall: 'unchanged',
  },
]);

// the machine's managed settings (`guard setup droid --system`): a settings file, the events under `hooks`
const SYSTEM = { ...options, system: true as const };
const MANAGED = `// managed by IT
{
  "model": "custom:team-model", /* for everyone */
  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "/opt/audit/done.sh" }] }] }
}
`;

describe('droid: what setup --system writes into the managed settings', () => {
  it.for([
    { name: 'no file', before: '' },
    { name: "an administrator's file, comments and hooks of its own", before: MANAGED },
  ])('$name: guard under `hooks` with hooksDisabled false; uninstall gives every byte back', ({ before }) => {
    const text = droid.install(before, SYSTEM);
    const value = toValue(parseJson(text, { comments: true })) as { hooks: Record<string, unknown> };
    expect(Object.keys(value.hooks)).toEqual([
      ...(before === '' ? [] : ['Stop']),
      ...Object.keys(entries),
      'hooksDisabled',
    ]);
    expect(value.hooks['PreToolUse']).toEqual([entries.PreToolUse]);
    expect(value.hooks['hooksDisabled']).toBe(false);
    expect(droid.install(text, SYSTEM)).toBe(text);
    expect(droid.uninstall(text, { system: true })).toBe(before);
    expect(droid.installedCommands(text, { system: true })).toEqual([CMD]);
    expect(droid.installedCommand(text, 'PreToolUse', { system: true })).toBe(CMD);
  });

  // near misses: the layouts are not each other's
  it("guard's entries in the managed file are not a hooks.json's, nor a hooks.json's the managed file's", () => {
    const managed = droid.install('', SYSTEM);
    expect(droid.installedCommands(managed)).toEqual([]);
    expect(droid.installedCommand(managed, 'PreToolUse')).toBeUndefined();
    const user = droid.install('', options);
    expect(droid.installedCommands(user, { system: true })).toEqual([]);
    expect(user).not.toContain('hooksDisabled');
  });
});

// the person's own hooks that guard's hooks.json keeps Droid from running (seen on 0.215.0)
describe("droid: setup says which of the person's own hooks guard's hooks.json shadows", () => {
  const FILE = '/home/dev/.factory/hooks.json';
  const SETTINGS_JSON = '/home/dev/.factory/settings.json';
  const OLDER = '/home/dev/.factory/hooks/hooks.json';
  const group = '[{ "matcher": "*", "hooks": [{ "type": "command", "command": "npm run lint" }] }]';
  const shadows = droid.shadows;
  if (shadows === undefined) throw new Error('droid has no shadows');

  it("reads the same folder's settings.json and older hooks/hooks.json", () => {
    expect(shadows.files(FILE)).toEqual([SETTINGS_JSON, OLDER]);
  });

  it.for<{ name: string; before?: string; settings?: string; older?: string; says: RegExp[] }>([
    {
      name: "settings.json's own PreToolUse and Stop, hooks.json made now",
      settings: `// mine\n{ "hooks": { "PreToolUse": ${group}, "Stop": ${group} } }`,
      says: [
        /^\/home\/dev\/\.factory\/settings\.json has hooks of your own for PreToolUse, which Factory Droid no longer runs: .* Move those groups into hooks\.json/,
      ],
    },
    {
      name: 'an older hooks/hooks.json, hooks.json made now',
      older: `{ "PreToolUse": ${group} }`,
      says: [
        /^\/home\/dev\/\.factory\/hooks\/hooks\.json has hooks of your own, which Factory Droid no longer reads now that hooks\.json exists/,
      ],
    },
    // near misses
    {
      name: "settings.json's own Stop alone (guard lists no Stop)",
      settings: `{ "hooks": { "Stop": ${group} } }`,
      says: [],
    },
    {
      name: 'hooks.json already listed PreToolUse (settings.json was shadowed before guard)',
      before: '{ "PreToolUse": [], "PostToolUse": [], "SessionStart": [], "UserPromptSubmit": [] }',
      settings: `{ "hooks": { "PreToolUse": ${group} } }`,
      says: [],
    },
    { name: "settings.json's empty list", settings: '{ "hooks": { "PreToolUse": [] } }', says: [] },
    { name: "settings.json's hooksDisabled alone", settings: '{ "hooks": { "hooksDisabled": false } }', says: [] },
    {
      name: 'an older hooks/hooks.json beside a hooks.json there before',
      before: '{}',
      older: `{ "PreToolUse": ${group} }`,
      says: [],
    },
    { name: 'an older hooks/hooks.json with no hooks', older: '{ "showHookOutput": true }', says: [] },
    { name: 'no other files', says: [] },
  ])('$name', ({ before = '', settings, older, says }) => {
    const after = droid.install(before, options);
    const found = shadows.check(before, after, [
      { path: SETTINGS_JSON, text: settings },
      { path: OLDER, text: older },
    ]);
    expect(found).toEqual(says.map((pattern): unknown => expect.stringMatching(pattern)));
  });
});
