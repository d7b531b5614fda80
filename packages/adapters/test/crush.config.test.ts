import { describe, expect, it } from 'vitest';
import { crush } from '../src/crush/index.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook crush';
const options = { hookCommand: CMD, failClosed: false };

const spec: AgentSpec = {
  adapter: crush,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  // the payload names its event; no matcher (every tool) and no timeout (neither documented)
  entries: { PreToolUse: { command: CMD } },
  commands: [CMD],
};

// A person's crush.json with a provider, an MCP server and a hook of their own (the layout of the
// README's examples and of another guard's integration; never observed on a binary).
const USER = `{
  "$schema": "https://charm.land/crush.json",
  "providers": {
    "ollama": { "type": "openai-compat", "base_url": "http://localhost:11434/v1/" }
  },
  "mcp": {
    "files": { "type": "stdio", "command": "node", "args": ["/srv/mcp/files.js"] }
  },
  "hooks": {
    "PreToolUse": [ { "matcher": "bash", "command": "./check.sh" } ]
  }
}
`;

describeRoundTrip('crush: install then uninstall gives crush.json back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}', restored: '' },
  { name: "the person's own config and hook (guard's goes last)", before: USER },
  { name: 'no hooks yet', before: '{\n  "$schema": "https://charm.land/crush.json"\n}\n' },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  { name: 'minified on one line, no newline', before: '{"hooks":{"PreToolUse":[{"command":"x"}]}}', reject: [/\n/] },
  { name: 'tab indentation', before: USER.replaceAll('  ', '\t'), reject: [/\n {2}/] },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
]);

describe('crush: where guard writes, and what it finds', () => {
  const where = (env: Record<string, string> = {}) => ({ home: '/home/dev', env, projectRoot: '/work/app' });
  it.for<{ name: string; env?: Record<string, string>; level: 'user' | 'project'; path: string }>([
    { name: 'user', level: 'user', path: '/home/dev/.config/crush/crush.json' },
    { name: 'XDG_CONFIG_HOME', env: { XDG_CONFIG_HOME: '/srv/xdg' }, level: 'user', path: '/srv/xdg/crush/crush.json' },
    {
      name: 'CRUSH_GLOBAL_CONFIG over XDG_CONFIG_HOME',
      env: { XDG_CONFIG_HOME: '/srv/xdg', CRUSH_GLOBAL_CONFIG: '/srv/crush' },
      level: 'user',
      path: '/srv/crush/crush.json',
    },
    // near misses: an empty variable is unset; the data folder's crush.json is not where guard writes
    {
      name: 'empty CRUSH_GLOBAL_CONFIG',
      env: { CRUSH_GLOBAL_CONFIG: '' },
      level: 'user',
      path: '/home/dev/.config/crush/crush.json',
    },
    {
      name: 'CRUSH_GLOBAL_DATA',
      env: { CRUSH_GLOBAL_DATA: '/srv/data' },
      level: 'user',
      path: '/home/dev/.config/crush/crush.json',
    },
    { name: 'project', level: 'project', path: '/work/app/crush.json' },
  ])('$name → $path', ({ env, level, path }) => {
    expect(crush.configPath(level, where(env))).toBe(path);
  });

  it("finds guard's command on PreToolUse, and none on other events or in the person's own (near misses)", () => {
    const installed = crush.install(USER, options);
    expect(crush.installedCommand(installed, 'PreToolUse')).toBe(CMD);
    expect(crush.installedCommand(installed, 'PostToolUse')).toBeUndefined();
    expect(crush.installedCommands(USER)).toEqual([]);
    expect(crush.install(installed, options)).toBe(installed);
    // the person's hook stays first, untouched
    const list = (JSON.parse(installed) as { hooks: { PreToolUse: unknown[] } }).hooks.PreToolUse;
    expect(list).toEqual([{ matcher: 'bash', command: './check.sh' }, { command: CMD }]);
  });

  it("another agent's guard command is not guard's for Crush", () => {
    const other = USER.replace('./check.sh', CMD.replace('hook crush', 'hook claude-code'));
    expect(crush.installedCommands(other)).toEqual([]);
  });
});

describeRefusals('crush: files guard will not edit', spec, [
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
