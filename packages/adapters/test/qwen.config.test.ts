import { describe, expect, it } from 'vitest';
import type { Locations } from '../src/adapter.js';
import { parseJson, toValue } from '../src/json-text.js';
import { qwen } from '../src/qwen/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook qwen';
const options = { hookCommand: CMD, failClosed: false };

// Qwen Code's timeout is in seconds below 1000 (milliseconds from 1000 on)
const handler = { type: 'command', command: CMD, timeout: 10 };
const entries = {
  PreToolUse: { matcher: '*', hooks: [handler] },
  PostToolUse: { matcher: '*', hooks: [handler] },
  PostToolUseFailure: { matcher: '*', hooks: [handler] },
  SessionStart: { hooks: [handler] },
  UserPromptSubmit: { hooks: [handler] },
};
const spec: AgentSpec = {
  adapter: qwen,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  entries,
  commands: [CMD],
  comments: true,
};

// settings.json as a Qwen Code user keeps it, comments included (Qwen Code strips them when it
// reads the file, and keeps them when it writes it): its version, a model provider, MCP servers,
// their own hooks.
const USER = `// my Qwen Code settings
{
  "$version": 4,
  "security": { "auth": { "selectedType": "openai" } }, // my own endpoint
  "model": { "name": "qwen3-coder-plus" },
  /* servers I use every day */
  "mcpServers": {
    "tracker": { "command": "/home/dev/bin/tracker-mcp", "args": ["--team", "web"] }
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "write_file|edit",
        "hooks": [{ "type": "command", "command": "npm run lint --silent", "timeout": 30 }]
      }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye >> ~/qwen.log" }] }]
  }
}
`;

const NO_HOOKS = `{
  "$version": 4,
  "general": { "disableAutoUpdate": true }
}
`;

describeRoundTrip('qwen: install then uninstall gives settings.json back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'settings without hooks', before: NO_HOOKS },
  { name: 'comments, MCP servers and the user’s own hooks', before: USER },
  { name: 'CRLF newlines with comments', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: NO_HOOKS.replaceAll('  ', '\t'), reject: [/\n +"/] },
  { name: 'minified, no newline', before: '{"$version":4,"hooks":{"Stop":[]}}', reject: [/\n/] },
  { name: 'byte order mark', before: `\uFEFF${NO_HOOKS}` },
]);

describe('qwen: what setup writes', () => {
  it("a fresh file is guard's hooks alone", () => {
    const text = qwen.install('', options);
    expect(JSON.parse(text)).toEqual({
      hooks: Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]])),
    });
  });

  it('comments stay exactly where they were', () => {
    const text = qwen.install(USER, options);
    for (const comment of [
      '// my Qwen Code settings\n{',
      '}, // my own endpoint\n',
      '  /* servers I use every day */\n',
    ])
      expect(text).toContain(comment);
  });

  it('Qwen Code has no fail-closed switch: fail-closed writes the same file', () => {
    expect(qwen.install(USER, { hookCommand: CMD, failClosed: true })).toBe(qwen.install(USER, options));
  });

  it("guard's hooks are found in a file with comments; Claude Code's or Gemini CLI's guard entries are not guard's here", () => {
    expect(qwen.installedCommands(qwen.install(USER, options))).toEqual([CMD]);
    for (const agent of ['claude-code', 'gemini']) {
      const other = `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/n /s hook ${agent}"}]}]}}`;
      expect(qwen.installedCommands(other)).toEqual([]);
      expect(qwen.uninstall(other)).toBe(other);
    }
  });

  it('the parsed file is what Qwen Code reads: guard after the user’s own PreToolUse hook', () => {
    const value = toValue(parseJson(qwen.install(USER, options), { comments: true })) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(Object.keys(value.hooks)).toEqual([
      'PreToolUse',
      'Stop',
      'PostToolUse',
      'PostToolUseFailure',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    expect(value.hooks['PreToolUse']?.map((group) => group.hooks[0]?.command)).toEqual(['npm run lint --silent', CMD]);
  });

  it.for<{ level: 'user' | 'project'; env: Record<string, string>; path: string }>([
    { level: 'user', env: {}, path: '/home/dev/.qwen/settings.json' },
    { level: 'user', env: { QWEN_HOME: '/srv/qwen' }, path: '/srv/qwen/settings.json' },
    { level: 'user', env: { QWEN_HOME: '' }, path: '/home/dev/.qwen/settings.json' },
    { level: 'project', env: { QWEN_HOME: '/srv/qwen' }, path: '/work/app/.qwen/settings.json' },
  ])('configPath($level) with $env', ({ level, env, path }) => {
    const where: Locations = { home: '/home/dev', env, projectRoot: '/work/app' };
    expect(qwen.configPath(level, where)).toBe(path);
  });
});

describeRefusals('qwen: a file Qwen Code would not read is refused with its line', spec, [
  // Qwen Code strips comments, then parses strict JSON: a trailing comma makes it read nothing
  {
    name: 'a trailing comma',
    text: '{\n  "model": { "name": "x" },\n}\n',
    line: 3,
    message: /trailing comma/,
    uninstall: 'throws',
  },
  {
    name: 'a comment left open',
    text: '{\n  "model": {} /* no end\n}\n',
    line: 2,
    message: /comment is not closed/,
    uninstall: 'throws',
  },
  {
    name: 'hooks that are a list',
    text: '{\n  /* mine */\n  "hooks": []\n}\n',
    line: 3,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
]);
