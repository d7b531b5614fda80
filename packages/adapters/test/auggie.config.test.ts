import { describe, expect, it } from 'vitest';
import { auggie } from '../src/auggie/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/my tools/guard/hook-entry.cjs" hook auggie';
const options = { hookCommand: CMD, failClosed: false };

// Auggie's timeout is in milliseconds; its matcher is a regular expression, so guard's groups have
// none (every tool): a `*` would match no tool at all
const handler = { type: 'command', command: CMD, timeout: 10_000 };
const entries = {
  PreToolUse: { hooks: [handler] },
  PostToolUse: { hooks: [handler] },
  SessionStart: { hooks: [handler] },
  PromptSubmit: { hooks: [handler] },
};
const spec: AgentSpec = {
  adapter: auggie,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  entries,
  commands: [CMD],
  comments: true,
};

// settings.json as an Auggie user keeps it, comments included: a model, MCP servers, their own hooks
const USER = `// my Auggie settings
{
  "model": "sonnet4.5", // the one I pay for
  /* servers I use */
  "mcpServers": { "tracker": { "command": "/home/dev/bin/tracker-mcp" } },
  "hooks": {
    "PreToolUse": [
      { "matcher": "save-file|str-replace-editor", "hooks": [{ "type": "command", "command": "npm run lint", "timeout": 30000 }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]
  }
}
`;

const NO_HOOKS = `{
  "model": "sonnet4.5"
}
`;

describeRoundTrip('auggie: install then uninstall gives settings.json back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}\n', restored: '' },
  { name: 'settings without hooks', before: NO_HOOKS },
  { name: 'comments and the user’s own hooks', before: USER },
  { name: 'CRLF newlines with comments', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'tab indentation', before: NO_HOOKS.replaceAll('  ', '\t'), reject: [/\n +"/] },
  { name: 'minified, no newline', before: '{"model":"sonnet4.5","hooks":{"Stop":[]}}', reject: [/\n/] },
  { name: 'byte order mark', before: `\uFEFF${NO_HOOKS}` },
]);

describe('auggie: what setup writes', () => {
  it("a fresh file is guard's hooks alone under `hooks`, with no matcher and the timeout in milliseconds", () => {
    expect(JSON.parse(auggie.install('', options))).toEqual({
      hooks: Object.fromEntries(Object.entries(entries).map(([event, entry]) => [event, [entry]])),
    });
  });

  it('Auggie has no fail-closed switch: fail-closed writes the same file', () => {
    expect(auggie.install(USER, { hookCommand: CMD, failClosed: true })).toBe(auggie.install(USER, options));
  });

  it("the person's own PreToolUse group stays first and untouched; guard's comes after it", () => {
    const groups = (
      JSON.parse(
        auggie.install(
          USER.replace(/^\/\/.*\n/, '')
            .replace(/ \/\/.*$/m, '')
            .replace(/\/\*.*\*\/\n/, ''),
          options,
        ),
      ) as {
        hooks: Record<string, unknown[]>;
      }
    ).hooks['PreToolUse'];
    expect(groups).toEqual([
      {
        matcher: 'save-file|str-replace-editor',
        hooks: [{ type: 'command', command: 'npm run lint', timeout: 30000 }],
      },
      entries.PreToolUse,
    ]);
  });

  it("another agent's guard entry (Claude Code's, Droid's at the root) is not Auggie's", () => {
    const claude = `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/n /s hook claude-code"}]}]}}`;
    const droidRoot = `{"PreToolUse":[{"hooks":[{"type":"command","command":"/n /s hook auggie"}]}]}`;
    for (const text of [claude, droidRoot]) {
      expect(auggie.installedCommands(text)).toEqual([]);
      expect(auggie.uninstall(text)).toBe(text);
    }
  });
});

describeRefusals('auggie: a file Auggie would not read is refused with its line', spec, [
  {
    name: 'a comment left open',
    text: '{\n  "model": "x" /* no end\n}\n',
    line: 2,
    message: /comment is not closed/,
    uninstall: 'throws',
  },
  {
    name: 'hooks that are not an object',
    text: '{\n  /* mine */\n  "hooks": []\n}\n',
    line: 3,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
]);
