import { describe, expect, it } from 'vitest';
import type { HooksOff, Locations } from '../src/adapter.js';
import { kiro } from '../src/kiro/index.js';
import { AGENT_HEADER } from '../src/kiro/config.js';
import { fixture } from './helpers.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook kiro';
const options = { hookCommand: CMD, failClosed: false };
const EVENTS = ['preToolUse', 'postToolUse', 'agentSpawn', 'userPromptSubmit'];

const spec: AgentSpec = {
  adapter: kiro,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  // the payload names its event (hook_event_name), so one command serves all; no matcher: every tool
  entries: Object.fromEntries(EVENTS.map((event) => [event, { command: CMD, timeout_ms: 30_000 }])),
  commands: [CMD],
};

// The documented example agent (doc-agent.json, never observed on a binary) and a person's own.
const DOC = `${JSON.stringify(fixture('kiro', 'doc-agent'), null, 2)}\n`;
const USER = `{
  "name": "guard",
  "tools": ["read", "shell"],
  "hooks": {
    "preToolUse": [
      { "matcher": "execute_bash", "command": "./audit.sh", "timeout_ms": 5000 }
    ],
    "stop": [ { "command": "npm run format" } ]
  }
}
`;

describeRoundTrip('kiro: install then uninstall gives the agent file back', spec, [
  { name: 'missing file (guard writes its whole agent)', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}', restored: '' },
  { name: 'the documented example agent', before: DOC },
  { name: "the person's own guard agent (guard's entries go last)", before: USER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  {
    name: 'minified on one line, no newline',
    before: '{"name":"guard","hooks":{"stop":[{"command":"x"}]}}',
    reject: [/\n/],
  },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
]);

describe('kiro: the agent guard writes, and where', () => {
  const where = { home: '/home/dev', env: {}, projectRoot: '/work/app' };
  it("guard's agent file in the user's agents folder, or the project's", () => {
    expect(kiro.configPath('user', where)).toBe('/home/dev/.kiro/agents/guard.json');
    expect(kiro.configPath('project', where)).toBe('/work/app/.kiro/agents/guard.json');
  });
  it("a new file is Kiro's default agent named guard, with guard's hooks; uninstall takes it all away", () => {
    const written = JSON.parse(kiro.install('', options)) as Record<string, unknown>;
    expect(written).toMatchObject({ ...AGENT_HEADER, name: 'guard', tools: ['*'] });
    expect(Object.keys(written)).toEqual([...Object.keys(AGENT_HEADER), 'hooks']);
    expect(kiro.uninstall(kiro.install('', options))).toBe('');
  });
  it("a person's change to guard's agent beside its header keys is kept on uninstall (near miss)", () => {
    const edited = kiro.install('', options).replace('"tools"', '"model": "claude-sonnet-4",\n  "tools"');
    expect(kiro.uninstall(edited)).toContain('"model": "claude-sonnet-4"');
  });
  it("finds guard's command on each event it registered, and none on others (near miss)", () => {
    const installed = kiro.install(USER, options);
    for (const event of EVENTS) expect(kiro.installedCommand(installed, event), event).toBe(CMD);
    expect(kiro.installedCommand(installed, 'stop')).toBeUndefined();
    expect(kiro.installedCommands(USER)).toEqual([]);
    expect(kiro.install(installed, options)).toBe(installed);
  });
});

describeRefusals('kiro: files guard will not edit', spec, [
  {
    name: 'missing comma',
    text: '{\n  "hooks": {}\n  "x": 1\n}\n',
    line: 3,
    message: /expected ',' or '}'/,
    uninstall: 'throws',
  },
  {
    name: 'hooks is a list',
    text: '{\n  "hooks": []\n}\n',
    line: 2,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  { name: 'root is a list', text: '[]\n', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
]);

describe('kiro: the agents that run without guard (status and doctor)', () => {
  const HOME = '/home/dev';
  const where: Locations = { home: HOME, env: {}, projectRoot: '/work/app' };
  const SETTINGS = `${HOME}/.kiro/settings/cli.json`;
  const USER_AGENT = (name: string): string => `${HOME}/.kiro/agents/${name}.json`;
  const PROJECT_AGENT = (name: string): string => `/work/app/.kiro/agents/${name}.json`;
  const guarded = kiro.install('', options);
  const bare = '{ "name": "x", "tools": ["*"] }';
  const named = (name: string, text: string): string => text.replace('"name": "guard"', `"name": "${name}"`);
  const switches = kiro.hookSwitches;
  if (switches === undefined) throw new Error('kiro has hook switches');

  /** The check over the settings file and the agent files given (path → text; the folders list them). */
  const check = (texts: Record<string, string>): readonly HooksOff[] => {
    expect(switches.files(where)).toEqual([SETTINGS]);
    expect(switches.folders?.(where)).toEqual([`${HOME}/.kiro/agents`, '/work/app/.kiro/agents']);
    const listed = Object.keys(texts).filter((path) => path !== SETTINGS);
    return switches.check(
      [{ path: SETTINGS, text: texts[SETTINGS] }, ...listed.map((path) => ({ path, text: texts[path] }))],
      where,
    );
  };

  it.for<{ name: string; texts: Record<string, string>; want: [HooksOff['scope'], RegExp][] }>([
    {
      name: 'guard is the default agent and has its hooks: nothing',
      texts: { [SETTINGS]: '{ "chat.defaultAgent": "guard" }', [USER_AGENT('guard')]: guarded },
      want: [],
    },
    {
      name: "no default set: Kiro's built-in agent, which runs no hooks",
      texts: { [USER_AGENT('guard')]: guarded },
      want: [['everywhere', /built-in default agent.*only a chat started with `kiro-cli chat --agent guard`/]],
    },
    {
      name: 'a settings file that does not parse sets no default',
      texts: { [SETTINGS]: '{ "chat.defaultAgent": "guard"', [USER_AGENT('guard')]: guarded },
      want: [['everywhere', /built-in default agent/]],
    },
    {
      name: "the default is the person's own agent without guard's hook; it is not said twice",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "mine" }',
        [USER_AGENT('guard')]: guarded,
        [USER_AGENT('mine')]: bare.replace('"x"', '"mine"'),
      },
      want: [
        [
          'everywhere',
          /cli\.json makes "mine" the agent a chat starts with \(.*mine\.json\), and it has no guard hook/,
        ],
      ],
    },
    {
      name: "near miss: the person's default agent has guard's hook (added by hand): nothing",
      texts: { [SETTINGS]: '{ "chat.defaultAgent": "mine" }', [USER_AGENT('mine')]: named('mine', guarded) },
      want: [],
    },
    {
      // guard's own file gone, or its entries taken out: the pins on it say so, not this
      name: "near miss: guard's agent is the default and its file is gone",
      texts: { [SETTINGS]: '{ "chat.defaultAgent": "guard" }' },
      want: [],
    },
    {
      name: "the default agent with guard's hook on a matcher of one tool is not guarded",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "mine" }',
        [USER_AGENT('mine')]:
          `{ "hooks": { "preToolUse": [{ "matcher": "fs_write", "command": "${CMD.replaceAll('"', '\\"')}" }] } }`,
      },
      want: [['everywhere', /makes "mine" the agent a chat starts with \(.*\), and it has no guard hook/]],
    },
    {
      name: "a project's agent of the default's name takes the place of the person's in this folder",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "mine" }',
        [USER_AGENT('mine')]: named('mine', guarded),
        [PROJECT_AGENT('mine')]: bare.replace('"x"', '"mine"'),
      },
      want: [
        [
          'here',
          /makes "mine" the agent a chat starts with \(\/work\/app\/\.kiro\/agents\/mine\.json\), and it has no guard hook/,
        ],
      ],
    },
    {
      name: "a project's agent named guard takes the place of guard's in this folder",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "guard" }',
        [USER_AGENT('guard')]: guarded,
        [PROJECT_AGENT('guard')]: bare.replace('"x"', '"guard"'),
      },
      want: [['here', /\/work\/app\/\.kiro\/agents\/guard\.json takes the place of guard's agent in this folder/]],
    },
    {
      name: "a project's guard agent while the default is another: chats here with --agent guard",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "mine" }',
        [USER_AGENT('guard')]: guarded,
        [USER_AGENT('mine')]: named('mine', guarded),
        [PROJECT_AGENT('guard')]: '{}',
      },
      want: [['here', /\/work\/app\/\.kiro\/agents\/guard\.json takes the place of guard's agent in this folder/]],
    },
    {
      name: "other agents without guard's hook are named, whoever's they are; a file that does not parse is none",
      texts: {
        [SETTINGS]: '{ "chat.defaultAgent": "guard" }',
        [USER_AGENT('guard')]: guarded,
        [USER_AGENT('review')]: bare,
        [USER_AGENT('broken')]: '{',
        [PROJECT_AGENT('ops')]: named('ops', guarded),
        [PROJECT_AGENT('deploy')]: '{ "hooks": { "preToolUse": [{ "command": "./audit.sh" }] } }',
      },
      want: [
        ['partly', /review\.json \(the agent "x"\) has no guard hook: a chat with it \(`--agent x`/],
        ['partly', /deploy\.json \(the agent "deploy"\) has no guard hook/],
      ],
    },
  ])('$name', ({ texts, want }) => {
    const off = check(texts);
    expect(off.map((one) => one.scope)).toEqual(want.map(([scope]) => scope));
    want.forEach(([, message], index) => expect(off[index]?.message).toMatch(message));
  });
});
