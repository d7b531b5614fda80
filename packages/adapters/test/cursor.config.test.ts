import { describe, expect, it } from 'vitest';
import { cursor } from '../src/cursor/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec, RoundTripRow } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook cursor';
const OLD_CMD = '"/opt/node-18/bin/node" "/home/dev/.local/share/guard/hook.js" hook cursor';

// Events that stop a step before it runs: the only ones marked failClosed.
const GATES = ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];

const specFor = (failClosed: boolean): AgentSpec => ({
  adapter: cursor,
  options: { hookCommand: CMD, failClosed },
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  entries: Object.fromEntries(
    cursor.capabilities.events.map((event) => [
      event,
      { command: CMD, timeout: 10, ...(failClosed && GATES.includes(event) ? { failClosed: true } : {}) },
    ]),
  ),
  commands: [CMD],
  checkFile: (parsed) => {
    if ('version' in parsed) expect(parsed['version']).toBe(1);
  },
});
const spec = specFor(false);

const USER = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      { "command": "./scripts/approve-network.sh", "timeout": 30, "matcher": "curl|wget|nc" }
    ],
    "stop": [
      { "command": "/home/dev/bin/notify.sh", "loop_limit": 3 }
    ],
    "sessionStart": [
      { "command": "/home/dev/bin/hello.sh" }
    ]
  }
}
`;

const NEWER = `{
  "version": 1,
  "defaults": { "shell": "zsh" },
  "hooks": {
    "workspaceOpen": [
      { "command": "/home/dev/bin/open.sh", "sandbox": "strict" }
    ],
    "preToolUse": [
      { "type": "prompt", "prompt": "Is this safe?", "model": "fast", "matcher": "MCP:.*" }
    ]
  }
}
`;

const TABS =
  '{\n\t"version": 1,\n\t"hooks": {\n\t\t"afterFileEdit": [\n\t\t\t{ "command": "/home/dev/bin/format.sh" }\n\t\t]\n\t}\n}\n';
const MINIFIED = '{"version":1,"hooks":{"beforeReadFile":[{"command":"/home/dev/bin/read-log.sh"}]}}';

const rows: RoundTripRow[] = [
  { name: 'missing file', before: '' },
  { name: 'whitespace only (comes back as no file)', before: '\n', restored: '' },
  {
    name: 'version and empty hooks only (comes back as no file)',
    before: '{\n  "version": 1,\n  "hooks": {}\n}\n',
    restored: '',
  },
  {
    name: 'no version key: none is added',
    before: '{\n  "hooks": {\n    "stop": [\n      { "command": "/home/dev/bin/notify.sh" }\n    ]\n  }\n}\n',
  },
  { name: "user's hooks in the same and other events, before and after guard's", before: USER },
  { name: 'keys and events from a newer Cursor', before: NEWER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: TABS, reject: [/\n +"/] },
  { name: 'minified on one line, no newline', before: MINIFIED, reject: [/\n/] },
  { name: 'no trailing newline', before: USER.trimEnd() },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
  {
    name: 'an empty list guard filled is removed with guard (documented)',
    before: '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [],\n    "stop": []\n  }\n}\n',
    restored: '{\n  "version": 1,\n  "hooks": {\n    "stop": []\n  }\n}\n',
  },
];

describeRoundTrip('cursor: install then uninstall gives the file back', spec, rows);
describeRoundTrip('cursor: the same with fail-closed on', specFor(true), rows);

describe('cursor: guard already installed', () => {
  const open = cursor.install(USER, { hookCommand: CMD, failClosed: false });
  const closed = cursor.install(USER, { hookCommand: CMD, failClosed: true });
  const json = (command: string): string => JSON.stringify(command).slice(1, -1);

  it.for([
    { name: 'same command and options: unchanged', before: open, failClosed: false, after: open },
    { name: 'fail-closed turned on: updated in place', before: open, failClosed: true, after: closed },
    { name: 'fail-closed turned off: back to the same bytes', before: closed, failClosed: false, after: open },
    {
      name: 'node moved: only the command text changes',
      before: cursor.install(USER, { hookCommand: OLD_CMD, failClosed: true }),
      failClosed: true,
      after: closed,
    },
  ])('$name', ({ before, failClosed, after }) => {
    expect(cursor.install(before, { hookCommand: CMD, failClosed })).toBe(after);
    expect(cursor.uninstall(after)).toBe(USER);
  });

  it('node moved: the old command text is replaced and nothing else', () => {
    const old = cursor.install(USER, { hookCommand: OLD_CMD, failClosed: false });
    expect(cursor.install(old, { hookCommand: CMD, failClosed: false })).toBe(old.replaceAll(json(OLD_CMD), json(CMD)));
  });

  it('fail-closed marks the step events only', () => {
    const hooks = (JSON.parse(closed) as { hooks: Record<string, { failClosed?: boolean }[]> }).hooks;
    const marked = Object.keys(hooks).filter((event) => hooks[event]?.some((entry) => entry.failClosed === true));
    expect(marked.sort()).toEqual([...GATES].sort());
  });

  it('a duplicate guard entry and a guard entry under a stale event are removed', () => {
    const messy = `{"version":1,"hooks":{"stop":[{"command":"${json(CMD)}"}],"preToolUse":[{"command":"${json(OLD_CMD)}"},{"command":"/home/dev/bin/x.sh"},{"command":"${json(CMD)}","timeout":10}]}}`;
    const after = cursor.install(messy, { hookCommand: CMD, failClosed: false });
    const hooks = (JSON.parse(after) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks['stop']).toBeUndefined();
    expect(hooks['preToolUse']).toEqual([{ command: CMD, timeout: 10 }, { command: '/home/dev/bin/x.sh' }]);
    expect(cursor.install(after, { hookCommand: CMD, failClosed: false })).toBe(after);
  });
});

describe('cursor: uninstall removes only guard', () => {
  it.for([
    { name: 'no file', before: '', after: '' },
    { name: 'no guard entries: unchanged', before: USER, after: USER },
    {
      name: "the user's entry after guard's stays",
      before: '{"version":1,"hooks":{"preToolUse":[{"command":"guard hook cursor"},{"command":"/home/dev/bin/x.sh"}]}}',
      after: '{"version":1,"hooks":{"preToolUse":[{"command":"/home/dev/bin/x.sh"}]}}',
    },
    {
      name: "a Codex guard command is not Cursor's",
      before: '{"version":1,"hooks":{"preToolUse":[{"command":"guard hook codex"}]}}',
      after: '{"version":1,"hooks":{"preToolUse":[{"command":"guard hook codex"}]}}',
    },
  ])('$name', ({ before, after }) => {
    expect(cursor.uninstall(before)).toBe(after);
  });
});

describeRefusals('cursor: files guard will not edit', spec, [
  {
    name: 'version 2',
    text: '{\n  "version": 2,\n  "hooks": {}\n}\n',
    line: 2,
    message: /"version" is not 1/,
    uninstall: 'unchanged',
  },
  {
    name: 'version as a string',
    text: '{\n  "hooks": {},\n  "version": "1"\n}\n',
    line: 3,
    message: /"version" is not 1/,
    uninstall: 'unchanged',
  },
  {
    name: 'missing comma',
    text: '{\n  "version": 1\n  "hooks": {}\n}\n',
    line: 3,
    message: /expected ',' or '}'/,
    uninstall: 'throws',
  },
  {
    name: 'a block comment',
    text: '{\n  "version": 1,\n  /* mine */ "hooks": {}\n}\n',
    line: 3,
    message: /comments are not allowed/,
    uninstall: 'throws',
  },
  {
    name: 'a trailing comma in a list',
    text: '{\n  "hooks": {\n    "stop": [\n      { "command": "x" },\n    ]\n  }\n}\n',
    line: 5,
    message: /trailing comma before '\]'/,
    uninstall: 'throws',
  },
  { name: 'root is a string', text: '"hooks"\n', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
  {
    name: 'hooks is a string',
    text: '{\n  "version": 1,\n  "hooks": "none"\n}\n',
    line: 3,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  {
    name: 'an event is not a list',
    text: '{\n  "hooks": {\n    "preToolUse": { "command": "x" }\n  }\n}\n',
    line: 3,
    message: /"hooks.preToolUse" must be a list/,
    uninstall: 'unchanged',
  },
  {
    name: 'an event twice',
    text: '{\n  "hooks": {\n    "preToolUse": [],\n    "preToolUse": []\n  }\n}\n',
    line: 4,
    message: /"preToolUse" appears more than once/,
    uninstall: 'unchanged',
  },
]);

describe('cursor: events written', () => {
  // Cursor's documented agent events; one unknown name voids the whole file.
  const CONFIRMED = [
    'sessionStart',
    'sessionEnd',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'subagentStart',
    'subagentStop',
    'beforeShellExecution',
    'afterShellExecution',
    'beforeMCPExecution',
    'afterMCPExecution',
    'beforeReadFile',
    'afterFileEdit',
    'beforeSubmitPrompt',
    'preCompact',
    'stop',
    'afterAgentResponse',
    'afterAgentThought',
  ];
  const written = Object.keys((JSON.parse(cursor.install('', spec.options)) as { hooks: object }).hooks);

  it('are the events the payload reader handles, in that order', () => {
    expect(written).toEqual(cursor.capabilities.events);
  });
  it.for(written)('%s is a Cursor event', (event) => {
    expect(CONFIRMED).toContain(event);
  });
});

describe('cursor: config path', () => {
  const where = { home: '/home/dev', env: {}, projectRoot: '/home/dev/project' };
  it.for([
    { level: 'user', path: '/home/dev/.cursor/hooks.json' },
    { level: 'project', path: '/home/dev/project/.cursor/hooks.json' },
  ] as const)('$level', ({ level, path }) => {
    expect(cursor.configPath(level, where)).toBe(path);
  });
});
