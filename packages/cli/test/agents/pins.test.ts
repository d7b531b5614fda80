import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapters, AGENT_IDS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { pinDrifts } from '../../src/agents/pins.js';
import { watchPins } from '../../src/hook/pins.js';
import { readRecords } from '../../src/state/installs.js';
import { guardParts, missingParts, readPins } from '../../src/state/pins.js';
import type { AgentHome } from '../commands/agent-home.js';
import { makeAgentHome } from '../commands/agent-home.js';

let machine: AgentHome;
beforeEach(() => {
  machine = makeAgentHome();
});
afterEach(() => machine.cleanup());

const where = (): { home: string; env: Record<string, string | undefined>; projectRoot: string } => ({
  home: machine.home,
  env: machine.env,
  projectRoot: machine.project,
});
const fileOf = (agent: AgentId): string => adapters[agent].configPath('user', where());
const read = (path: string): string => readFileSync(path, 'utf8');

// the hook's clock, two minutes on at each look (it looks at most once a minute)
let clock = Date.now();

/** What the hook finds now. */
function hookSees(): readonly string[] {
  clock += 120_000;
  watchPins(machine.guardHome, clock);
  return readPins(machine.guardHome).drifts.map((drift) => `${drift.agent} ${drift.kind}`);
}

/** What status and doctor find now. */
function statusSees(): readonly string[] {
  return pinDrifts(machine.guardHome, where()).map((drift) => `${drift.agent} ${drift.kind}`);
}

/** Kiro CLI's settings name guard's agent as the one a chat starts with (its hooks run only then). */
function makeGuardKirosDefault(): void {
  const settings = join(machine.home, '.kiro', 'settings', 'cli.json');
  mkdirSync(dirname(settings), { recursive: true });
  writeFileSync(settings, '{ "chat.defaultAgent": "guard" }\n');
}

type Change = (path: string, agent: AgentId) => void;

// each changes the agent's hook file as a step guard did not see would, and what it is reported as
const TAMPERS: readonly (readonly [string, Change, string])[] = [
  [
    "guard's entries taken out",
    (path, agent) => writeFileSync(path, adapters[agent].uninstall(read(path)) || '{}'),
    'removed',
  ],
  ['the file emptied', (path) => writeFileSync(path, '{}\n'), 'removed'],
  ['the file deleted', (path) => rmSync(path), 'gone'],
  ['not JSON any more', (path) => writeFileSync(path, `${read(path)} }}}`), 'unreadable'],
  [
    "guard's time limit changed",
    (path) => writeFileSync(path, read(path).replace(/"(timeout|timeoutSec|timeout_ms)": \d+/g, '"$1": 1')),
    'changed',
  ],
];

// the same files changed, guard's entries as setup wrote them
const NEAR_MISSES: readonly (readonly [string, Change])[] = [
  // Codex ignores a hooks.json with any other key at the top than these two (a tamper row below)
  [
    'a key the agent takes added',
    (path, agent) =>
      writeFileSync(
        path,
        JSON.stringify({ ...JSON.parse(read(path)), [agent === 'codex' ? 'description' : 'x']: '1' }),
      ),
  ],
  ['laid out with four spaces', (path) => writeFileSync(path, JSON.stringify(JSON.parse(read(path)), null, 4))],
  ['laid out on one line', (path) => writeFileSync(path, JSON.stringify(JSON.parse(read(path))))],
  ['its time touched', (path) => utimesSync(path, new Date(), new Date(Date.now() + 5000))],
  ['left alone', () => undefined],
];

// OpenCode's hook file is guard's plugin, JavaScript of guard's alone, and Cline's a shell script of
// guard's alone: the JSON rows above do not apply to them, their own rows are below
const JSON_AGENTS = AGENT_IDS.filter((agent) => agent !== 'opencode' && agent !== 'kilo' && agent !== 'cline');

describe('a pinned hook file changed past guard is found by status (and doctor) and by the hook', () => {
  for (const agent of JSON_AGENTS)
    for (const [name, change, kind] of TAMPERS) {
      // Windsurf's and Crush's entries carry no time limit (their documentation names none)
      if ((agent === 'windsurf' || agent === 'crush') && name === "guard's time limit changed") continue;
      it(`${agent}: ${name}`, async () => {
        // Kiro CLI runs guard's hooks once guard's agent is the one its chats start with
        if (agent === 'kiro') makeGuardKirosDefault();
        expect((await machine.guard('setup', agent)).code).toBe(0);
        expect(hookSees()).toEqual([]);
        change(fileOf(agent), agent);
        expect(statusSees()).toEqual([`${agent} ${kind}`]);
        expect(hookSees()).toEqual([`${agent} ${kind}`]);
        // setup again puts it right, and neither reports it any longer
        if (kind === 'unreadable') rmSync(fileOf(agent));
        expect((await machine.guard('setup', agent)).code).toBe(0);
        expect(statusSees()).toEqual([]);
        expect(hookSees()).toEqual([]);
      });
    }
});

it('codex: a key Codex refuses at the top of hooks.json makes it skip the file, guard entries and all', async () => {
  expect((await machine.guard('setup', 'codex')).code).toBe(0);
  writeFileSync(fileOf('codex'), JSON.stringify({ ...JSON.parse(read(fileOf('codex'))), x: 1 }));
  expect(statusSees()).toEqual(['codex unreadable']);
});

// Kilo Code CLI runs the same plugin file
describe.for(['opencode', 'kilo'] as const)("guard's %s plugin changed past guard", (agent) => {
  const PLUGIN_TAMPERS: readonly (readonly [string, (path: string) => void, string])[] = [
    ['the file emptied', (path) => writeFileSync(path, ''), 'removed'],
    [
      'its time limit cut',
      (path) => writeFileSync(path, read(path).replace(/TIMEOUT_MS = \d+/, 'TIMEOUT_MS = 1')),
      'changed',
    ],
    [
      'its throw taken out',
      (path) => writeFileSync(path, read(path).replace('throw new Error(reason)', 'void reason')),
      'changed',
    ],
    ['the file deleted', (path) => rmSync(path), 'gone'],
    // guard's parts all still there, but the code no longer loads (or runs code of its own)
    ['text added after it', (path) => writeFileSync(path, `${read(path)}\n}}} not code`), 'changed'],
  ];
  for (const [name, change, kind] of PLUGIN_TAMPERS)
    it(`${agent}: ${name}`, async () => {
      expect((await machine.guard('setup', agent)).code).toBe(0);
      change(fileOf(agent));
      expect(statusSees()).toEqual([`${agent} ${kind}`]);
      expect(hookSees()).toEqual([`${agent} ${kind}`]);
      expect((await machine.guard('setup', agent)).code).toBe(0);
      expect(statusSees()).toEqual([]);
      expect(hookSees()).toEqual([]);
    });

  it(`${agent}: replaced by a plugin that checks nothing (status cannot read it as guard's; the hook finds guard's parts gone)`, async () => {
    expect((await machine.guard('setup', agent)).code).toBe(0);
    writeFileSync(fileOf(agent), 'export default { id: "guard", server: async () => ({}) };\n');
    expect(statusSees()).toEqual([`${agent} unreadable`]);
    expect(hookSees()).toEqual([`${agent} removed`]);
  });

  it.for(['its time touched', 'left alone'])(`${agent}: %s is no change`, async (name) => {
    expect((await machine.guard('setup', agent)).code).toBe(0);
    if (name === 'its time touched') utimesSync(fileOf(agent), new Date(), new Date(Date.now() + 5000));
    expect(statusSees()).toEqual([]);
    expect(hookSees()).toEqual([]);
  });
});

describe("guard's Cline hook file changed past guard", () => {
  const FILE_TAMPERS: readonly (readonly [string, (path: string) => void, string])[] = [
    ['the file emptied', (path) => writeFileSync(path, ''), 'removed'],
    // its own cancel on a silent failure taken out: Cline would run the step
    ['its cancel taken out', (path) => writeFileSync(path, read(path).replace(/elif .*; fi$/m, 'fi')), 'changed'],
    // guard's answer never printed: Cline would run every step
    ['its answer dropped', (path) => writeFileSync(path, read(path).replace(`printf '%s\\n' "$o"`, ':')), 'changed'],
    ['the file deleted', (path) => rmSync(path), 'gone'],
  ];
  for (const [name, change, kind] of FILE_TAMPERS)
    it(`cline: ${name}`, async () => {
      expect((await machine.guard('setup', 'cline')).code).toBe(0);
      change(fileOf('cline'));
      expect(statusSees()).toEqual([`cline ${kind}`]);
      expect(hookSees()).toEqual([`cline ${kind}`]);
      expect((await machine.guard('setup', 'cline')).code).toBe(0);
      expect(statusSees()).toEqual([]);
      expect(hookSees()).toEqual([]);
    });

  it.for(['its time touched', 'left alone'])('cline: %s is no change', async (name) => {
    expect((await machine.guard('setup', 'cline')).code).toBe(0);
    if (name === 'its time touched') utimesSync(fileOf('cline'), new Date(), new Date(Date.now() + 5000));
    expect(statusSees()).toEqual([]);
    expect(hookSees()).toEqual([]);
  });
});

describe('near misses: nothing reported', () => {
  for (const agent of JSON_AGENTS)
    for (const [name, change] of NEAR_MISSES)
      it(`${agent}: ${name}`, async () => {
        // Kiro CLI runs guard's hooks once guard's agent is the one its chats start with
        if (agent === 'kiro') makeGuardKirosDefault();
        expect((await machine.guard('setup', agent)).code).toBe(0);
        change(fileOf(agent), agent);
        expect(statusSees()).toEqual([]);
        expect(hookSees()).toEqual([]);
      });

  it('a setup from before pins (no pin in its record) is not judged, and setup run again pins it', async () => {
    expect((await machine.guard('setup', 'cursor')).code).toBe(0);
    const records = JSON.parse(read(`${machine.guardHome}/installs.json`)) as Record<string, Record<string, unknown>>;
    for (const record of Object.values(records)) delete record['pin'];
    writeFileSync(`${machine.guardHome}/installs.json`, JSON.stringify(records));
    writeFileSync(fileOf('cursor'), '{}\n');
    expect(statusSees()).toEqual([]);
    expect((await machine.guard('setup', 'cursor')).code).toBe(0);
    expect(readRecords(machine.guardHome)[fileOf('cursor')]?.pin?.agent).toBe('cursor');
  });

  it('a dry run pins nothing', async () => {
    expect((await machine.guard('setup', 'cursor', '--dry-run')).code).toBe(0);
    expect(readRecords(machine.guardHome)).toEqual({});
  });
});

describe("guard's parts of a file, as the hook compares them", () => {
  const rest = '{\n  "theme": "dark",\n  "hooks": {}\n}\n';
  const after =
    '{\n  "theme": "dark",\n  "hooks": {\n    "pre": [{ "command": "guard hook x", "timeout": 5 }]\n  }\n}\n';
  it.for([
    ['as written', after, []],
    ['laid out anew', after.replace(/\n\s*/g, ''), []],
    ['the command gone', after.replace('guard hook x', 'true'), ['"pre":[{"command":"guardhookx","timeout":5}]']],
    ['the theme changed (not a part of guard)', after.replace('dark', 'light'), []],
  ] as const)('%s', ([, text, missing]) => {
    expect(missingParts(text, guardParts(after, rest))).toEqual(missing);
  });
});
