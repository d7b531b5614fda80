import { describe, expect, it } from 'vitest';
import { copilot } from '../src/copilot/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook copilot';
const OLD_CMD = '"/opt/node-18/bin/node" "/home/dev/.local/share/guard/hook.js" hook copilot';
const options = { hookCommand: CMD, failClosed: false };
const json = (command: string): string => JSON.stringify(command).slice(1, -1);

const events = copilot.capabilities.events;
const spec: AgentSpec = {
  adapter: copilot,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  // camelCase payloads do not name their event: the command does; PowerShell needs `&` before a quoted program
  entries: Object.fromEntries(
    events.map((event) => [
      event,
      { type: 'command', bash: `${CMD} --event ${event}`, powershell: `& ${CMD} --event ${event}`, timeoutSec: 10 },
    ]),
  ),
  commands: events.map((event) => `${CMD} --event ${event}`),
  checkFile: (parsed) => {
    if ('version' in parsed) expect(parsed['version']).toBe(1);
  },
};

const USER = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "type": "command", "command": "/home/dev/bin/log-tool.sh", "matcher": "bash|create", "timeoutSec": 5 }
    ],
    "agentStop": [
      { "type": "command", "bash": "/home/dev/bin/notify.sh", "cwd": "scripts", "env": { "LEVEL": "info" } }
    ],
    "sessionStart": [
      { "type": "command", "exec": "/home/dev/bin/hello", "args": ["--quiet"] }
    ]
  }
}
`;

const NEWER = `{
  "version": 1,
  "disableAllHooks": false,
  "hooks": {
    "preMcpToolCall": [
      { "type": "http", "url": "https://hooks.example.test/mcp", "headers": { "X-Team": "dev" } }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "/home/dev/bin/claude-style.sh" } ] }
    ]
  }
}
`;

describeRoundTrip('copilot: install then uninstall gives the file back', spec, [
  { name: 'missing file', before: '' },
  { name: 'whitespace only (comes back as no file)', before: '\r\n', restored: '' },
  {
    name: 'version and empty hooks only (comes back as no file)',
    before: '{ "version": 1, "hooks": {} }\n',
    restored: '',
  },
  { name: "the user's own entries in guard's file, same and other events", before: USER },
  { name: 'keys from a newer Copilot and a Claude-style entry', before: NEWER },
  {
    name: 'no version key: none is added',
    before: '{\n  "hooks": {\n    "agentStop": [ { "bash": "./stop.sh" } ]\n  }\n}\n',
  },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  {
    name: 'tab indentation',
    before: '{\n\t"version": 1,\n\t"hooks": {\n\t\t"agentStop": [ { "bash": "./stop.sh" } ]\n\t}\n}\n',
    reject: [/\n +"/],
  },
  {
    name: 'minified on one line, no newline',
    before: '{"version":1,"hooks":{"agentStop":[{"bash":"./stop.sh"}]}}',
    reject: [/\n/],
  },
  { name: 'no trailing newline', before: USER.trimEnd() },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
]);

describe('copilot: guard already installed', () => {
  const installed = copilot.install(USER, options);

  it.for([
    { name: 'same command: unchanged', before: installed },
    {
      name: 'node moved: only the command texts change',
      before: copilot.install(USER, { hookCommand: OLD_CMD, failClosed: false }),
    },
    {
      name: 'fail-closed makes no difference (Copilot has no such switch)',
      before: copilot.install(USER, { hookCommand: CMD, failClosed: true }),
    },
  ])('$name', ({ before }) => {
    expect(copilot.install(before, options)).toBe(installed);
    expect(copilot.uninstall(installed)).toBe(USER);
  });

  it('node moved: the old command text is replaced and nothing else', () => {
    const old = copilot.install(USER, { hookCommand: OLD_CMD, failClosed: false });
    expect(copilot.install(old, options)).toBe(old.replaceAll(json(OLD_CMD), json(CMD)));
  });

  it('a hand-written guard entry using the `command` field is replaced by the full entry in place', () => {
    const before = `{"hooks":{"preToolUse":[{"command":"guard hook copilot --event preToolUse"},{"bash":"./mine.sh"}]}}`;
    const after = copilot.install(before, options);
    const pre = (JSON.parse(after) as { hooks: { preToolUse: unknown[] } }).hooks.preToolUse;
    expect(pre).toEqual([spec.entries['preToolUse'], { bash: './mine.sh' }]);
  });
});

describe('copilot: uninstall removes only guard', () => {
  it.for([
    { name: 'no file', before: '', after: '' },
    { name: 'no guard entries: unchanged', before: USER, after: USER },
    {
      name: "the user's entry after guard's stays",
      before:
        '{"version":1,"hooks":{"postToolUse":[{"bash":"guard hook copilot --event postToolUse"},{"bash":"./mine.sh"}]}}',
      after: '{"version":1,"hooks":{"postToolUse":[{"bash":"./mine.sh"}]}}',
    },
    {
      name: 'a guard entry with only a powershell command is recognised',
      before:
        '{"hooks":{"agentStop":[],"preToolUse":[{"powershell":"& C:\\\\guard\\\\node.exe C:\\\\guard\\\\hook.js hook copilot --event preToolUse"}]}}',
      after: '{"hooks":{"agentStop":[]}}',
    },
    {
      name: 'a command that only mentions guard is not guard',
      before: '{"hooks":{"preToolUse":[{"bash":"echo hook copilot >> log.txt"}]}}',
      after: '{"hooks":{"preToolUse":[{"bash":"echo hook copilot >> log.txt"}]}}',
    },
  ])('$name', ({ before, after }) => {
    expect(copilot.uninstall(before)).toBe(after);
  });
});

describeRefusals('copilot: files guard will not edit', spec, [
  {
    name: 'version 2',
    text: '{\n  "version": 2,\n  "hooks": {}\n}\n',
    line: 2,
    message: /"version" is not 1/,
    uninstall: 'unchanged',
  },
  {
    name: 'invalid JSON',
    text: '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [ { "bash": "x" } }\n  }\n}\n',
    line: 4,
    message: /expected ',' or '\]'/,
    uninstall: 'throws',
  },
  {
    name: 'a trailing comma',
    text: '{"version":1,"hooks":{"preToolUse":[],}}',
    line: 1,
    message: /trailing comma before '}'/,
    uninstall: 'throws',
  },
  {
    name: 'a line comment',
    text: '{\n  "version": 1, // one\n  "hooks": {}\n}\n',
    line: 2,
    message: /comments are not allowed/,
    uninstall: 'throws',
  },
  {
    name: 'hooks is a list',
    text: '{\n  "version": 1,\n  "hooks": [\n  ]\n}\n',
    line: 3,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  {
    name: 'an event is not a list',
    text: '{"hooks":{"postToolUse":"x"}}',
    line: 1,
    message: /"hooks.postToolUse" must be a list/,
    uninstall: 'unchanged',
  },
  {
    name: 'empty text after a BOM is still a file with no value',
    text: '\uFEFF{',
    line: 1,
    message: /expected a quoted key/,
    uninstall: 'throws',
  },
]);

describe('copilot: events written', () => {
  // Copilot's camelCase hook events.
  const CONFIRMED = [
    'sessionStart',
    'sessionEnd',
    'userPromptSubmitted',
    'userPromptTransformed',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'permissionRequest',
    'preMcpToolCall',
    'agentStop',
    'subagentStart',
    'subagentStop',
    'errorOccurred',
    'preCompact',
    'notification',
  ];
  const written = Object.keys((JSON.parse(copilot.install('', options)) as { hooks: object }).hooks);

  it('are the events the payload reader handles, in that order', () => {
    expect(written).toEqual(events);
  });
  it.for(written)('%s is a Copilot event', (event) => {
    expect(CONFIRMED).toContain(event);
  });
});

describe('copilot: config path', () => {
  it.for([
    {
      name: 'user level',
      level: 'user',
      where: { home: '/home/dev', env: {}, projectRoot: '/home/dev/project' },
      path: '/home/dev/.copilot/hooks/guard.json',
    },
    {
      name: 'COPILOT_HOME',
      level: 'user',
      where: { home: '/home/dev', env: { COPILOT_HOME: '/srv/copilot' }, projectRoot: '/home/dev/project' },
      path: '/srv/copilot/hooks/guard.json',
    },
    {
      name: 'project level ignores COPILOT_HOME',
      level: 'project',
      where: { home: '/home/dev', env: { COPILOT_HOME: '/srv/copilot' }, projectRoot: '/home/dev/project' },
      path: '/home/dev/project/.github/hooks/guard.json',
    },
  ] as const)('$name', ({ level, where, path }) => {
    expect(copilot.configPath(level, where)).toBe(path);
  });
});
