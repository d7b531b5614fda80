import { describe, expect, it } from 'vitest';
import type { Locations } from '../src/adapter.js';
import { claudeCode } from '../src/claude-code/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook claude-code';
const OLD_CMD = '"/opt/node-18/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook claude-code';
const options = { hookCommand: CMD, failClosed: false };

const handler = { type: 'command', command: CMD, timeout: 10 };
const entries = {
  // tool events match every tool ("*" includes MCP); SessionStart and UserPromptSubmit take no matcher
  PreToolUse: { matcher: '*', hooks: [handler] },
  PostToolUse: { matcher: '*', hooks: [handler] },
  PostToolUseFailure: { matcher: '*', hooks: [handler] },
  SessionStart: { hooks: [handler] },
  UserPromptSubmit: { hooks: [handler] },
};
const spec: AgentSpec = {
  adapter: claudeCode,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  entries,
  commands: [CMD],
};

// A settings.json as people keep it: permissions, environment, a model, a status line, their own
// hooks (a formatter after edits, a notifier), and keys of a newer Claude Code guard does not know.
const USER = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)", "WebFetch"],
    "defaultMode": "acceptEdits"
  },
  "env": { "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh" },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [{ "type": "command", "command": "npx prettier --write \\"$CLAUDE_FILE_PATHS\\"", "timeout": 30 }]
      }
    ],
    "Notification": [
      { "hooks": [{ "type": "command", "command": "notify-send 'Claude Code' 'needs you'" }] }
    ]
  },
  "includeCoAuthoredBy": false,
  "futureSetting": { "nested": [1, 2, { "deep": true }] }
}
`;

const NO_HOOKS = `{
  "permissions": {
    "allow": ["Bash(git status)"]
  },
  "theme": "dark"
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
\t},
\t"model": "sonnet"
}
`;

const FOUR = `{
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "/home/dev/bin/audit.sh", "onFailure": "block"}]
            }
        ]
    }
}
`;

const MINIFIED =
  '{"permissions":{"allow":[]},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/home/dev/bin/audit.sh"}]}],"Stop":[]}}';

describeRoundTrip('claude-code: install then uninstall gives settings.json back', spec, [
  { name: 'missing file', before: '' },
  // the CLI deletes the file when uninstall returns '' (or gives back the exact original from its copy)
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'empty hooks object (comes back as no file)', before: '{\n  "hooks": {}\n}\n', restored: '' },
  { name: 'settings without hooks: guard adds the key at the end', before: NO_HOOKS },
  { name: "the user's keys, their own hooks in the same and other events, unknown keys", before: USER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: TABS, reject: [/\n +"/] },
  { name: 'four-space indentation', before: FOUR, reject: [/\n {2}"matcher": "\*"/] },
  { name: 'minified on one line, no newline', before: MINIFIED, reject: [/\n/] },
  { name: 'no trailing newline', before: USER.trimEnd() },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
  {
    name: 'an empty list guard filled is removed with guard (documented)',
    before: '{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [],\n    "Stop": []\n  }\n}\n',
    restored: '{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n',
  },
]);

describe('claude-code: what setup writes', () => {
  it('a fresh file is guard’s hooks alone, two-space JSON with a newline', () => {
    const text = claudeCode.install('', options);
    expect(JSON.parse(text)).toEqual({
      hooks: Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]])),
    });
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('under fail-closed every entry carries Claude Code’s own switch, onFailure "block"', () => {
    const text = claudeCode.install(USER, { hookCommand: CMD, failClosed: true });
    const hooks = (JSON.parse(text) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> }).hooks;
    for (const event of Object.keys(entries)) {
      expect(hooks[event]?.at(-1)?.hooks).toEqual([{ ...handler, onFailure: 'block' }]);
    }
    // the user's own hooks are not touched
    expect(text).toContain('"timeout": 30 }]');
    // and turning it off again takes only the switch away
    expect(claudeCode.install(text, options)).toBe(claudeCode.install(USER, options));
    expect(claudeCode.uninstall(text)).toBe(USER);
  });

  it('node moved: the command is updated in place, nothing else changes', () => {
    const old = claudeCode.install(USER, { hookCommand: OLD_CMD, failClosed: false });
    const json = (command: string): string => JSON.stringify(command).slice(1, -1);
    expect(claudeCode.install(old, options)).toBe(old.replaceAll(json(OLD_CMD), json(CMD)));
  });

  it("another agent's guard entry (hook codex) is not guard's for Claude Code", () => {
    const codexEntry = `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/n /s hook codex"}]}]}}`;
    expect(claudeCode.installedCommands(codexEntry)).toEqual([]);
    expect(claudeCode.uninstall(codexEntry)).toBe(codexEntry);
  });

  it.for<{ level: 'user' | 'project'; env: Record<string, string>; path: string }>([
    { level: 'user', env: {}, path: '/home/dev/.claude/settings.json' },
    { level: 'user', env: { CLAUDE_CONFIG_DIR: '/srv/claude' }, path: '/srv/claude/settings.json' },
    { level: 'user', env: { CLAUDE_CONFIG_DIR: '' }, path: '/home/dev/.claude/settings.json' },
    { level: 'project', env: { CLAUDE_CONFIG_DIR: '/srv/claude' }, path: '/work/app/.claude/settings.json' },
  ])('configPath($level) with $env', ({ level, env, path }) => {
    const where: Locations = { home: '/home/dev', env, projectRoot: '/work/app' };
    expect(claudeCode.configPath(level, where)).toBe(path);
  });
});

describeRefusals('claude-code: a file Claude Code would not read is refused with its line', spec, [
  // Claude Code reads strict JSON: a comment makes it ignore the whole file (seen with 2.1.328)
  {
    name: 'a line comment',
    text: '{\n  "model": "opus", // mine\n  "hooks": {}\n}\n',
    line: 2,
    message: /comments are not allowed/,
    uninstall: 'throws',
  },
  {
    name: 'a trailing comma',
    text: '{\n  "model": "opus",\n  "theme": "dark",\n}\n',
    line: 4,
    message: /trailing comma/,
    uninstall: 'throws',
  },
  { name: 'not closed', text: '{\n  "model": "opus"\n', line: 3, message: /expected ',' or '}'/, uninstall: 'throws' },
  { name: 'a list at the top', text: '[\n]\n', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
  {
    name: 'hooks that are a list',
    text: '{\n  "hooks": []\n}\n',
    line: 2,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  {
    name: 'an event that is not a list',
    text: '{\n  "hooks": {\n    "PreToolUse": {}\n  }\n}\n',
    line: 3,
    message: /"hooks.PreToolUse" must be a list/,
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
