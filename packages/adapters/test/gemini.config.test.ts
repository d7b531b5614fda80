import { describe, expect, it } from 'vitest';
import type { Locations } from '../src/adapter.js';
import { gemini } from '../src/gemini/index.js';
import { parseJson, toValue } from '../src/json-text.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook gemini';
const options = { hookCommand: CMD, failClosed: false };

// Gemini CLI names hooks (its /hooks menu and hooksConfig.disabled go by name); timeout in ms
const handler = { name: 'guard', type: 'command', command: CMD, timeout: 10_000 };
const entries = {
  BeforeTool: { matcher: '*', hooks: [handler] },
  AfterTool: { matcher: '*', hooks: [handler] },
  BeforeAgent: { hooks: [handler] },
  SessionStart: { hooks: [handler] },
};
const spec: AgentSpec = {
  adapter: gemini,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  entries,
  commands: [CMD],
  comments: true,
};

// settings.json as a Gemini CLI user keeps it, comments included (Gemini CLI strips them when it
// reads the file): auth, a theme, MCP servers, hook settings, their own hooks.
const USER = `// my Gemini CLI settings
{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "ui": { "theme": "GitHub" }, // dark themes hurt
  /* servers I use every day */
  "mcpServers": {
    "tracker": { "command": "/home/dev/bin/tracker-mcp", "args": ["--team", "web"] }
  },
  "hooksConfig": { "notifications": true },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [{ "name": "lint", "type": "command", "command": "npm run lint --silent", "timeout": 30000 }]
      }
    ],
    "SessionEnd": [
      { "hooks": [{ "name": "bye", "type": "command", "command": "echo bye >> ~/gemini.log" }] }
    ]
  }
}
`;

const COMMENT_AT_THE_END = `{
  "general": { "vimMode": true },
  "hooks": {
    "AfterAgent": [{ "hooks": [{ "type": "command", "command": "/home/dev/bin/done.sh" }] }] // mine
  } // hooks
}
// end
`;

const NO_HOOKS = `{
  "general": { "disableAutoUpdate": true },
  "privacy": { "usageStatisticsEnabled": false }
}
`;

describeRoundTrip('gemini: install then uninstall gives settings.json back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'settings without hooks', before: NO_HOOKS },
  { name: 'comments, hook settings, MCP servers and the user’s own hooks', before: USER },
  { name: 'comments after the last member and after the file', before: COMMENT_AT_THE_END },
  { name: 'CRLF newlines with comments', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: NO_HOOKS.replaceAll('  ', '\t'), reject: [/\n +"/] },
  { name: 'minified, no newline', before: '{"ui":{"theme":"GitHub"},"hooks":{"SessionEnd":[]}}', reject: [/\n/] },
  { name: 'byte order mark', before: `\uFEFF${NO_HOOKS}` },
]);

describe('gemini: what setup writes', () => {
  it("a fresh file is guard's hooks alone", () => {
    const text = gemini.install('', options);
    expect(JSON.parse(text)).toEqual({
      hooks: Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]])),
    });
  });

  it('comments stay exactly where they were', () => {
    const text = gemini.install(USER, options);
    for (const comment of [
      '// my Gemini CLI settings\n{',
      '}, // dark themes hurt\n',
      '  /* servers I use every day */\n',
    ])
      expect(text).toContain(comment);
  });

  it('Gemini CLI has no fail-closed switch: fail-closed writes the same file', () => {
    expect(gemini.install(USER, { hookCommand: CMD, failClosed: true })).toBe(gemini.install(USER, options));
  });

  it("guard's hooks are found in a file with comments, and Antigravity's or Codex's are not guard's here", () => {
    const text = gemini.install(USER, options);
    expect(gemini.installedCommands(text)).toEqual([CMD]);
    const other = `{"hooks":{"BeforeTool":[{"matcher":"*","hooks":[{"name":"guard","type":"command","command":"/n /s hook antigravity"}]}]}}`;
    expect(gemini.installedCommands(other)).toEqual([]);
    expect(gemini.uninstall(other)).toBe(other);
  });

  it('the parsed file is what Gemini CLI reads (comments as white space)', () => {
    const value = toValue(parseJson(gemini.install(USER, options), { comments: true })) as Record<string, unknown>;
    expect(value['ui']).toEqual({ theme: 'GitHub' });
    expect(Object.keys(value['hooks'] as object)).toEqual([
      'BeforeTool',
      'SessionEnd',
      'AfterTool',
      'BeforeAgent',
      'SessionStart',
    ]);
  });

  it.for<{ level: 'user' | 'project'; env: Record<string, string>; path: string }>([
    { level: 'user', env: {}, path: '/home/dev/.gemini/settings.json' },
    { level: 'user', env: { GEMINI_CLI_HOME: '/srv/gem' }, path: '/srv/gem/.gemini/settings.json' },
    { level: 'project', env: { GEMINI_CLI_HOME: '/srv/gem' }, path: '/work/app/.gemini/settings.json' },
  ])('configPath($level) with $env', ({ level, env, path }) => {
    const where: Locations = { home: '/home/dev', env, projectRoot: '/work/app' };
    expect(gemini.configPath(level, where)).toBe(path);
  });

  it("is not Antigravity's hook file", () => {
    const where: Locations = { home: '/home/dev', env: {}, projectRoot: '/work/app' };
    expect(gemini.configPath('user', where)).not.toContain('config/hooks.json');
  });
});

describeRefusals('gemini: a file Gemini CLI would not read is refused with its line', spec, [
  // Gemini CLI strips comments but not trailing commas: JSON.parse then fails and it reads nothing
  {
    name: 'a trailing comma',
    text: '{\n  "ui": { "theme": "GitHub" },\n}\n',
    line: 3,
    message: /trailing comma/,
    uninstall: 'throws',
  },
  {
    name: 'a comment left open',
    text: '{\n  "ui": {} /* no end\n}\n',
    line: 2,
    message: /comment is not closed/,
    uninstall: 'throws',
  },
  {
    name: 'single quotes',
    text: "{\n  // fine\n  'ui': {}\n}\n",
    line: 3,
    message: /keys must use double quotes/,
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

describe("guard's folder in its entries (Gemini CLI cleans a hook's environment in CI)", () => {
  const moved = { ...options, guardHome: '/srv/guard state' };
  const hooksOf = (text: string): Record<string, { hooks: Record<string, unknown>[] }[]> =>
    (toValue(parseJson(text, { comments: true })) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> })
      .hooks;

  it.each([
    {
      row: 'moved: every handler carries GUARD_HOME in its own env',
      given: moved,
      env: { GUARD_HOME: '/srv/guard state' },
    },
    { row: 'not moved: no env at all', given: options, env: undefined },
  ])('$row', ({ given, env }) => {
    const text = gemini.install(USER, given);
    for (const [event, list] of Object.entries(hooksOf(text))) {
      const ours = list.flatMap((group) => group.hooks).filter((hook) => hook['name'] === 'guard');
      if (ours.length === 0) continue;
      expect(
        ours.map((hook) => hook['env']),
        event,
      ).toEqual(ours.map(() => env));
    }
    expect(gemini.uninstall(text)).toBe(USER);
  });

  it('setup again with the folder moved, moved elsewhere or back changes only the env, and is then a no-op', () => {
    const plain = gemini.install(USER, options);
    const withEnv = gemini.install(plain, moved);
    expect(withEnv).not.toBe(plain);
    expect(gemini.install(withEnv, moved)).toBe(withEnv);
    const elsewhere = gemini.install(withEnv, { ...options, guardHome: '/other' });
    expect(elsewhere).toContain('"/other"');
    expect(elsewhere).not.toContain('/srv/guard state');
    expect(gemini.install(elsewhere, options)).toBe(plain);
    expect(gemini.installedCommands(withEnv)).toEqual([CMD]);
  });
});
