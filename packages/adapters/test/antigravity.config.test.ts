import { describe, expect, it } from 'vitest';
import { antigravity } from '../src/antigravity/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook antigravity';
const OLD_CMD = '"/opt/node-18/bin/node" "/home/dev/.local/share/guard/hook.js" hook antigravity';
const options = { hookCommand: CMD, failClosed: false };
const json = (command: string): string => JSON.stringify(command).slice(1, -1);

const spec: AgentSpec = {
  adapter: antigravity,
  options,
  eventMap: (parsed) => parsed['guard'] as Record<string, unknown>,
  // the payload names no event, so the command carries it; integer timeout
  entries: {
    PreToolUse: { matcher: '*', hooks: [{ type: 'command', command: `${CMD} --event PreToolUse`, timeout: 30 }] },
  },
  commands: [`${CMD} --event PreToolUse`],
  checkFile: (parsed) => {
    expect(parsed['hooks']).toBeUndefined();
    expect(parsed['guard']).toEqual({ PreToolUse: [spec.entries['PreToolUse']] });
  },
};

// The shape of the bundled hooks reference: top-level keys are hook names.
const USER = `{
  "lint-checker": {
    "PostToolUse": [
      { "matcher": "run_command",
        "hooks": [ { "type": "command", "command": "./scripts/lint.sh", "timeout": 10 } ] }
    ]
  },
  "safety-gate": {
    "enabled": false,
    "PreToolUse": [
      { "matcher": "run_command", "hooks": [ { "command": "./scripts/safety-check.sh" } ] }
    ]
  },
  "reminder": {
    "PreInvocation": [ { "type": "command", "command": "./scripts/reminder.sh" } ]
  }
}
`;

const NEWER = `{
  "audit": {
    "description": "added by a newer Antigravity",
    "PreToolUse": [
      { "matcher": "browser_.*", "hooks": [ { "type": "prompt", "prompt": "Safe?", "model": "flash", "env": { "A": "1" } } ] }
    ],
    "Stop": [ { "command": "/home/dev/bin/done.sh" } ]
  }
}
`;

describeRoundTrip('antigravity: install then uninstall gives the file back', spec, [
  { name: 'missing file', before: '' },
  { name: 'whitespace only (comes back as no file)', before: '\t\n', restored: '' },
  { name: 'empty object (comes back as no file)', before: '{}', restored: '' },
  { name: "the user's named hooks (guard's goes last)", before: USER },
  { name: 'keys from a newer Antigravity', before: NEWER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  {
    name: 'tab indentation',
    before: '{\n\t"reminder": {\n\t\t"Stop": [ { "command": "./stop.sh" } ]\n\t}\n}\n',
    reject: [/\n +"/],
  },
  {
    name: 'minified on one line, no newline',
    before: '{"reminder":{"Stop":[{"command":"./stop.sh"}]}}',
    reject: [/\n/],
  },
  { name: 'no trailing newline', before: USER.trimEnd() },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
]);

describe('antigravity: guard already installed', () => {
  const installed = antigravity.install(USER, options);

  it.for([
    { name: 'same command: unchanged', before: installed, after: installed },
    {
      name: 'node moved: only the command text changes',
      before: antigravity.install(USER, { hookCommand: OLD_CMD, failClosed: false }),
      after: installed,
    },
    {
      name: 'fail-closed makes no difference (Antigravity has no such switch)',
      before: antigravity.install(USER, { hookCommand: CMD, failClosed: true }),
      after: installed,
    },
  ])('$name', ({ before, after }) => {
    expect(antigravity.install(before, options)).toBe(after);
    expect(antigravity.uninstall(after)).toBe(USER);
  });

  it.for([
    { name: 'guard switched off by "enabled": false is switched on again', extra: '"enabled":false,' },
    {
      name: 'other events inside guard’s hook are dropped',
      extra: '"PostToolUse":[{"matcher":"*","hooks":[{"command":"./x.sh"}]}],',
    },
  ])('$name', ({ extra }) => {
    const before = `{"a":{"Stop":[]},"guard":{${extra}"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${json(CMD)} --event PreToolUse","timeout":30}]}]}}`;
    const after = antigravity.install(before, options);
    expect(after).toBe(before.replace(extra, ''));
    expect(antigravity.uninstall(after)).toBe('{"a":{"Stop":[]}}');
  });

  it('an empty "guard" object is filled', () => {
    const after = antigravity.install('{"guard":{}}', options);
    expect(JSON.parse(after)).toEqual({ guard: { PreToolUse: [spec.entries['PreToolUse']] } });
    expect(antigravity.uninstall(after)).toBe('');
  });
});

describe('antigravity: uninstall removes only guard', () => {
  it.for([
    { name: 'no file', before: '', after: '' },
    { name: 'no guard hook: unchanged', before: USER, after: USER },
    {
      name: "a hook the user added after guard's stays",
      before:
        '{"guard":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"guard hook antigravity --event PreToolUse"}]}]},"mine":{"Stop":[]}}',
      after: '{"mine":{"Stop":[]}}',
    },
    {
      name: 'a user hook named "guard" that does not run guard is left alone',
      before: '{"guard":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"/home/dev/bin/guard.sh"}]}]}}',
      after: '{"guard":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"/home/dev/bin/guard.sh"}]}]}}',
    },
    {
      name: "guard's command under another hook name is not guard's hook",
      before:
        '{"mine":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"guard hook antigravity --event PreToolUse"}]}]}}',
      after:
        '{"mine":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"guard hook antigravity --event PreToolUse"}]}]}}',
    },
  ])('$name', ({ before, after }) => {
    expect(antigravity.uninstall(before)).toBe(after);
  });
});

describeRefusals('antigravity: files guard will not edit', spec, [
  {
    name: 'a user hook named "guard"',
    text: '{\n  "guard": {\n    "PreToolUse": [ { "matcher": "*", "hooks": [ { "command": "/home/dev/bin/guard.sh" } ] } ]\n  }\n}\n',
    line: 2,
    message: /a hook named "guard" already exists/,
    uninstall: 'unchanged',
  },
  {
    name: '"guard" is not an object',
    text: '{\n  "guard": true\n}\n',
    line: 2,
    message: /"guard" must be an object/,
    uninstall: 'unchanged',
  },
  {
    name: 'a trailing comma',
    text: '{\n  "lint": {},\n}\n',
    line: 3,
    message: /trailing comma before '}'/,
    uninstall: 'throws',
  },
  {
    name: 'a comment at the end',
    text: '{\n  "lint": {}\n}\n// end\n',
    line: 4,
    message: /comments are not allowed/,
    uninstall: 'throws',
  },
  { name: 'single quotes', text: "{\n  'lint': {}\n}\n", line: 2, message: /double quotes/, uninstall: 'throws' },
  { name: 'root is a list', text: '[]', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
]);

describe('antigravity: events written', () => {
  // Antigravity's five hook events.
  const CONFIRMED = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'];
  const written = Object.keys((JSON.parse(antigravity.install('', options)) as { guard: object }).guard);

  it('are the events the payload reader handles', () => {
    expect(written).toEqual(antigravity.capabilities.events);
  });
  it.for(written)('%s is an Antigravity event', (event) => {
    expect(CONFIRMED).toContain(event);
  });
});

describe('antigravity: config path', () => {
  const where = { home: '/home/dev', env: {}, projectRoot: '/home/dev/project' };
  it.for([
    { level: 'user', path: '/home/dev/.gemini/config/hooks.json' },
    { level: 'project', path: '/home/dev/project/.agents/hooks.json' },
  ] as const)('$level', ({ level, path }) => {
    expect(antigravity.configPath(level, where)).toBe(path);
  });
});
