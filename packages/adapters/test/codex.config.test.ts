import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import { codex } from '../src/codex/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook.js" hook codex';
const OLD_CMD = '"/opt/node-18/bin/node" "/home/dev/my tools/guard/hook.js" hook codex';
const options = { hookCommand: CMD, failClosed: false };

const handler = { type: 'command', command: CMD, timeout: 30 };
const spec: AgentSpec = {
  adapter: codex,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  // tool events match every tool ("*" includes MCP); SessionStart and UserPromptSubmit take no matcher
  entries: {
    PreToolUse: { matcher: '*', hooks: [handler] },
    PostToolUse: { matcher: '*', hooks: [handler] },
    SessionStart: { hooks: [handler] },
    UserPromptSubmit: { hooks: [handler] },
  },
  commands: [CMD],
  checkFile: (parsed) =>
    expect(Object.keys(parsed).every((key) => key === 'description' || key === 'hooks')).toBe(true),
};

const USER = `{
  "description": "team hooks",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "/home/dev/bin/audit.sh", "timeout": 5 } ] }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "/home/dev/bin/notify.sh" } ] }
    ],
    "UserPromptSubmit": [
      { "hooks": [ { "type": "command", "command": "/home/dev/bin/log-prompt.sh" } ] }
    ]
  }
}
`;

const NEWER = `{
  "hooks": {
    "PreModelRequest": [
      { "hooks": [ { "type": "command", "command": "/home/dev/bin/count.sh", "async": true } ] }
    ],
    "PreToolUse": [
      {
        "matcher": "^mcp__.*",
        "priority": 3,
        "hooks": [
          { "type": "mcp_tool", "server": "audit", "tool": "record", "statusMessage": "auditing", "additionalContextLimit": 0 }
        ]
      }
    ]
  }
}
`;

const TABS = `{
\t"hooks": {
\t\t"Stop": [
\t\t\t{
\t\t\t\t"hooks": [
\t\t\t\t\t{ "type": "command", "command": "/home/dev/bin/notify.sh" }
\t\t\t\t]
\t\t\t}
\t\t]
\t}
}
`;

const FOUR = `{
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "/home/dev/bin/audit.sh"}]
            }
        ]
    }
}
`;

const MINIFIED =
  '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/home/dev/bin/audit.sh"}]}],"Stop":[]}}';

describeRoundTrip('codex: install then uninstall gives the file back', spec, [
  { name: 'missing file', before: '' },
  // the CLI deletes the file when uninstall returns ''
  { name: 'whitespace only (comes back as no file)', before: ' \n\n', restored: '' },
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'empty hooks object (comes back as no file)', before: '{\n  "hooks": {}\n}\n', restored: '' },
  {
    name: 'an empty list guard filled is removed with guard (documented)',
    before: '{\n  "hooks": {\n    "PreToolUse": [],\n    "Stop": []\n  }\n}\n',
    restored: '{\n  "hooks": {\n    "Stop": []\n  }\n}\n',
  },
  { name: "user's hooks in the same and other events, before and after guard's", before: USER },
  { name: 'keys from a newer Codex', before: NEWER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: TABS, reject: [/\n +"/] },
  { name: 'four-space indentation', before: FOUR, reject: [/\n {2}"matcher": "\*"/] },
  { name: 'minified on one line, no newline', before: MINIFIED, reject: [/\n/] },
  { name: 'no trailing newline', before: USER.trimEnd() },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
  { name: 'description only', before: '{\n  "description": "mine"\n}\n' },
]);

describe('codex: guard already installed', () => {
  const installedUser = codex.install(USER, options);
  const json = (command: string): string => JSON.stringify(command).slice(1, -1);

  it('same command: the text is returned unchanged', () => {
    expect(codex.install(installedUser, options)).toBe(installedUser);
  });

  it('node moved: the command is updated in place, nothing else changes', () => {
    const old = codex.install(USER, { hookCommand: OLD_CMD, failClosed: false });
    expect(codex.install(old, options)).toBe(installedUser);
  });

  it('a guard group written by hand with the same values in another key order is left as it is', () => {
    const group = `{"hooks":[{"command":"${json(CMD)}","timeout":30,"type":"command"}],"matcher":"*"}`;
    const after = codex.install(`{"hooks":{"PreToolUse":[${group}]}}`, options);
    expect(after.startsWith(`{"hooks":{"PreToolUse":[${group}],"PostToolUse":`)).toBe(true);
    expect(codex.install(after, options)).toBe(after);
  });

  it('node moved: the old command text is replaced and nothing else', () => {
    const old = codex.install(USER, { hookCommand: OLD_CMD, failClosed: false });
    expect(codex.install(old, options)).toBe(old.replaceAll(json(OLD_CMD), json(CMD)));
  });

  it.for([
    {
      name: 'an old timeout is put back to guard’s constant in place',
      before: `{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "*", "hooks": [ { "type": "command", "command": "${json(CMD)}", "timeout": 600 } ] },\n      { "matcher": "Bash", "hooks": [] }\n    ]\n  }\n}\n`,
      group: 0,
    },
    {
      name: 'a second guard group is removed, the first keeps its place',
      before: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${json(CMD)}","timeout":30}]},{"matcher":"Bash","hooks":[]},{"matcher":"*","hooks":[{"type":"command","command":"${json(OLD_CMD)}","timeout":30}]}]}}`,
      group: 0,
    },
    {
      name: "a guard handler inside the user's group is taken out; guard gets its own group at the end",
      before: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/home/dev/bin/audit.sh"},{"type":"command","command":"${json(OLD_CMD)}"}]}]}}`,
      group: 1,
    },
  ])('$name', ({ before, group }) => {
    const after = codex.install(before, options);
    const pre = (JSON.parse(after) as { hooks: { PreToolUse: unknown[] } }).hooks.PreToolUse;
    expect(pre[group]).toEqual(spec.entries['PreToolUse']);
    expect(pre.filter((item) => JSON.stringify(item).includes('hook codex'))).toHaveLength(1);
    expect(codex.install(after, options)).toBe(after);
    expect(codex.installedCommands(after)).toEqual([CMD]);
  });

  it('guard entries under an event guard no longer registers are removed', () => {
    const stale = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/home/dev/bin/notify.sh"}]}],"PermissionRequest":[{"hooks":[{"type":"command","command":"${json(CMD)}"}]}]}}`;
    const after = codex.install(stale, options);
    expect(Object.keys((JSON.parse(after) as { hooks: object }).hooks)).toEqual([
      'Stop',
      'PreToolUse',
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    expect(codex.uninstall(after)).toBe(
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/home/dev/bin/notify.sh"}]}]}}',
    );
  });
});

describe('codex: uninstall removes only guard', () => {
  it.for([
    { name: 'no file', before: '', after: '' },
    { name: 'no guard entries: unchanged', before: USER, after: USER },
    {
      name: "the user's group added after guard's stays where it is",
      before: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"guard hook codex"}]},{"matcher":"Bash","hooks":[]}]}}`,
      after: '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}]}}',
    },
    {
      name: 'a hand-written guard handler in a user group goes, the group stays',
      before: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/bin/true"},{"type":"command","command":"node /x/hook.js hook codex"}]}]}}`,
      after: '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/bin/true"}]}]}}',
    },
    {
      name: "another agent's guard command is not Codex's",
      before: '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"node /x/hook.js hook cursor"}]}]}}',
      after: '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"node /x/hook.js hook cursor"}]}]}}',
    },
  ])('$name', ({ before, after }) => {
    expect(codex.uninstall(before)).toBe(after);
  });
});

describeRefusals('codex: files guard will not edit', spec, [
  {
    name: 'missing comma',
    text: '{\n  "hooks": {\n    "Stop": []\n    "PreToolUse": []\n  }\n}\n',
    line: 4,
    message: /expected ',' or '}'/,
    uninstall: 'throws',
  },
  {
    name: 'a comment',
    text: '{\n  // mine\n  "hooks": {}\n}\n',
    line: 2,
    message: /comments are not allowed/,
    uninstall: 'throws',
  },
  {
    name: 'a trailing comma',
    text: '{\n  "hooks": {\n    "Stop": [],\n  }\n}\n',
    line: 4,
    message: /trailing comma/,
    uninstall: 'throws',
  },
  {
    name: 'an unclosed string',
    text: '{\n  "hooks": {\n    "Stop\n  }\n}\n',
    line: 3,
    message: /not closed/,
    uninstall: 'throws',
  },
  { name: 'root is a list', text: '[\n  {}\n]\n', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
  {
    name: 'hooks is a list',
    text: '{\n  "hooks": []\n}\n',
    line: 2,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  {
    name: 'an event is not a list',
    text: '{\n  "hooks": {\n    "PreToolUse": {}\n  }\n}\n',
    line: 3,
    message: /"hooks.PreToolUse" must be a list/,
    uninstall: 'unchanged',
  },
  {
    name: 'a $schema key Codex would reject',
    text: '{\n  "$schema": "x",\n  "hooks": {}\n}\n',
    line: 2,
    message: /"\$schema"/,
    uninstall: 'unchanged',
  },
  {
    name: 'hooks twice',
    text: '{\n  "hooks": {},\n  "hooks": {}\n}\n',
    line: 3,
    message: /appears more than once/,
    uninstall: 'throws',
  },
]);

describe('codex: events written', () => {
  // Codex's event keys (hook_config.rs); a name outside this list is never written.
  const CONFIRMED = [
    'PreToolUse',
    'PermissionRequest',
    'PostToolUse',
    'PreCompact',
    'PostCompact',
    'SessionStart',
    'SessionEnd',
    'UserPromptSubmit',
    'SubagentStart',
    'SubagentStop',
    'Stop',
    'Interrupt',
  ];
  const written = Object.keys((JSON.parse(codex.install('', options)) as { hooks: object }).hooks);

  it('are the events the payload reader handles, in that order', () => {
    expect(written).toEqual(codex.capabilities.events);
    expect(Object.keys(spec.entries)).toEqual(written);
  });
  it.for(written)('%s is a Codex event', (event) => {
    expect(CONFIRMED).toContain(event);
  });
});

describe('codex: config path', () => {
  it.for([
    {
      name: 'user level',
      level: 'user',
      where: { home: '/home/dev', env: {}, projectRoot: '/home/dev/project' },
      path: '/home/dev/.codex/hooks.json',
    },
    {
      name: 'CODEX_HOME',
      level: 'user',
      where: { home: '/home/dev', env: { CODEX_HOME: '/srv/codex' }, projectRoot: '/home/dev/project' },
      path: '/srv/codex/hooks.json',
    },
    {
      name: 'project level ignores CODEX_HOME',
      level: 'project',
      where: { home: '/home/dev', env: { CODEX_HOME: '/srv/codex' }, projectRoot: '/home/dev/project' },
      path: '/home/dev/project/.codex/hooks.json',
    },
  ] as const)('$name', ({ level, where, path }) => {
    expect(codex.configPath(level, where)).toBe(path);
  });
});

describe('codex: hook command', () => {
  it.for([
    '"/usr/bin/node" "/x/hook.js" hook cursor',
    '"/usr/bin/node" "/x/hook.js" hook codex --event PreToolUse',
    'guard',
  ])('refuses %s', (hookCommand) => {
    expect(() => codex.install('', { hookCommand, failClosed: false })).toThrow(ConfigError);
  });
});
