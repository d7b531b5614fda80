import { describe, expect, it } from 'vitest';
import { windsurf } from '../src/windsurf/index.js';
import { fixture } from './helpers.js';
import { describeRefusals, describeRoundTrip } from './config-table.js';
import type { AgentSpec } from './config-table.js';

const CMD = '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook windsurf';
const options = { hookCommand: CMD, failClosed: false };
const EVENTS = [
  'pre_run_command',
  'pre_write_code',
  'pre_read_code',
  'pre_mcp_tool_use',
  'pre_user_prompt',
  'post_mcp_tool_use',
];

const spec: AgentSpec = {
  adapter: windsurf,
  options,
  eventMap: (parsed) => parsed['hooks'] as Record<string, unknown>,
  // the payload names its event (agent_action_name), so one command serves all; no timeout field
  entries: Object.fromEntries(EVENTS.map((event) => [event, { command: CMD, show_output: true }])),
  commands: [CMD],
  checkFile: (parsed) => expect(Object.keys(parsed)).toEqual(['hooks']),
};

// The documented example file (doc-hooks.json, never observed on a binary) and a person's own.
const DOC = `${JSON.stringify(fixture('windsurf', 'doc-hooks'), null, 2)}\n`;
const USER = `{
  "hooks": {
    "pre_run_command": [
      { "command": "python3 ./check.py", "show_output": true, "working_directory": "/srv/tools" }
    ],
    "post_cascade_response": [ { "command": "./notify.sh" } ]
  }
}
`;

describeRoundTrip('windsurf: install then uninstall gives the file back', spec, [
  { name: 'missing file', before: '' },
  { name: 'empty object (comes back as no file)', before: '{}', restored: '' },
  { name: 'the documented example', before: DOC },
  { name: "the person's own hooks (guard's go last)", before: USER },
  { name: 'CRLF newlines', before: USER.replaceAll('\n', '\r\n'), reject: [/[^\r]\n/] },
  {
    name: 'minified on one line, no newline',
    before: '{"hooks":{"post_cascade_response":[{"command":"x"}]}}',
    reject: [/\n/],
  },
  { name: 'byte order mark', before: `\uFEFF${USER}` },
]);

describe('windsurf: where guard writes, and what it finds', () => {
  const where = { home: '/home/dev', env: {}, projectRoot: '/work/app' };
  it('the user file and the workspace file; never the system one', () => {
    expect(windsurf.configPath('user', where)).toBe('/home/dev/.codeium/windsurf/hooks.json');
    expect(windsurf.configPath('project', where)).toBe('/work/app/.windsurf/hooks.json');
  });
  it("finds guard's command on each event it registered, and none on others (near miss)", () => {
    const installed = windsurf.install(USER, options);
    for (const event of EVENTS) expect(windsurf.installedCommand(installed, event), event).toBe(CMD);
    expect(windsurf.installedCommand(installed, 'post_cascade_response')).toBeUndefined();
    expect(windsurf.installedCommands(USER)).toEqual([]);
    // installing twice changes nothing
    expect(windsurf.install(installed, options)).toBe(installed);
  });
});

describeRefusals('windsurf: files guard will not edit', spec, [
  {
    name: 'missing comma',
    text: '{\n  "hooks": {}\n  "x": 1\n}\n',
    line: 3,
    message: /expected ',' or '}'/,
    uninstall: 'throws',
  },
  {
    name: 'hooks is a string',
    text: '{\n  "hooks": "none"\n}\n',
    line: 2,
    message: /"hooks" must be an object/,
    uninstall: 'unchanged',
  },
  { name: 'root is a string', text: '"hooks"\n', line: 1, message: /one JSON object/, uninstall: 'unchanged' },
]);
