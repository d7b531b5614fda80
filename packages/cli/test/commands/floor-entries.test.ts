import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { adapters } from '@guard/adapters';
import type { AgentId, InstallOptions } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusJson } from '../../src/agents/inspect.js';
import { systemFileOf, systemOptions } from '../../src/agents/system.js';
import type { SystemWorld } from '../../src/agents/system.js';
import { diagnose } from '../../src/commands/doctor.js';
import { setup } from '../../src/commands/setup.js';
import { status } from '../../src/commands/status.js';
import { uninstall } from '../../src/commands/uninstall.js';
import { captureIo } from '../capture-io.js';
import { writeSystemSettings } from '../system-root.js';
import { makeAgentHome, readIfThere, setupOptions } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

// A system settings floor that keeps fail-closed on, against guard's entries in the agents' own hook
// files: setup (the user's and --system) writes them as for fail-closed on, whatever the user's own
// setting; status and doctor name an entry written for fail-closed off as looser than the floor;
// uninstall gives every byte back. Near misses: a floor without fail-closed, no floor, and agents
// whose entries read the same either way.

/** Agents with a managed file, and one user file of their own for each (every byte must come back). */
const AGENTS: readonly { agent: AgentId; mine: string }[] = [
  { agent: 'claude-code', mine: '{\n  "permissions": { "deny": ["Bash(curl *)"] }\n}\n' },
  {
    agent: 'cursor',
    mine: '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "/opt/audit/stop.sh" }]\n  }\n}\n',
  },
  {
    agent: 'copilot',
    mine: '{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"/opt/audit/start.sh"}]}}',
  },
  { agent: 'codex', mine: '{\n  "hooks": {}\n}\n' },
  { agent: 'gemini', mine: '// mine\n{\n\t"hooks": {}\n}\n' },
];

let box: AgentHome;
let root: string;
beforeEach(() => {
  box = makeAgentHome();
  root = join(box.root, 'system-root');
});
afterEach(() => box.cleanup());

const world: () => SystemWorld = () => ({
  root,
  platform: 'linux',
  isAdmin: () => true,
  changeable: () => [],
  changeableAt: () => [],
});

/** The box's Io, under the scratch system root (the floor is read there). */
function boxIo() {
  const captured = captureIo({ cwd: box.cwd, home: box.home, systemRoot: root });
  return { ...captured, io: { ...captured.io, env: box.env, tmp: () => box.root } };
}
async function run(command: (io: ReturnType<typeof boxIo>['io']) => Promise<unknown>): Promise<string> {
  const captured = boxIo();
  await command(captured.io);
  return captured.stdout();
}

const userFile = (agent: AgentId): string =>
  adapters[agent].configPath('user', { home: box.home, env: box.env, projectRoot: box.project });
const systemFile = (agent: AgentId): string => systemFileOf(adapters[agent], world()) as string;
const put = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** What setup writes into `before` with fail-closed on or off, for the user or the system. */
function written(agent: AgentId, before: string, failClosed: boolean, system: boolean): string {
  const options: InstallOptions = setupOptions(agent, { guardHome: box.guardHome, failClosed });
  return adapters[agent].install(before, system ? systemOptions(options) : options);
}
/** Whether fail-closed changes what setup writes for this agent (its own switch, or its own answer). */
const differs = (agent: AgentId, system: boolean): boolean =>
  written(agent, '', true, system) !== written(agent, '', false, system);

describe.each(AGENTS)('$agent: setup under the system floor', ({ agent, mine }) => {
  it.each([
    { floor: 'failClosed: true\n', closed: true },
    { floor: "failClosed: true\nlockedRules: '*'\n", closed: true },
    // near misses: a floor that leaves fail-closed to the user, and no floor
    { floor: 'strict: true\n', closed: false },
    { floor: undefined, closed: false },
  ])('$floor: written for fail-closed $closed; uninstall gives every byte back', async ({ floor, closed }) => {
    if (floor !== undefined) writeSystemSettings(root, floor);
    // the user's own setting says fail-closed off
    put(join(box.guardHome, 'settings.yaml'), 'failClosed: false\n');
    put(userFile(agent), mine);
    put(systemFile(agent), mine);
    await run((io) => setup(agent, { project: false, dryRun: false }, io));
    await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
    expect(readIfThere(userFile(agent))).toBe(written(agent, mine, closed, false));
    expect(readIfThere(systemFile(agent))).toBe(written(agent, mine, closed, true));
    // what status and doctor read back: not looser than the floor
    const json = JSON.parse(await run((io) => status({ json: true, system: world() }, io))) as StatusJson;
    // and where fail-closed came from: the floor where it keeps it on, else the user's (the default's words)
    expect(json.settingsFrom.from.failClosed).toBe(closed ? 'system' : 'default');
    expect(json.failClosed).toBe(closed);
    const levels = json.agents.find((entry) => entry.agent === agent)?.levels ?? [];
    expect(
      levels.filter((level) => level.installed).map((level) => [level.level, level.upToDate, level.belowFloor]),
    ).toEqual([
      ['user', true, undefined],
      ['system', true, undefined],
    ]);
    await run((io) => uninstall(agent, { project: false }, io));
    await run((io) => uninstall(agent, { project: false, system: world() }, io));
    expect(readIfThere(userFile(agent))).toBe(mine);
    expect(readIfThere(systemFile(agent))).toBe(mine);
  });

  it.each([
    { floor: 'failClosed: true\n', looser: true },
    { floor: 'failClosed: [\n', looser: true },
    // near misses: a floor that leaves fail-closed to the user, and no floor
    { floor: 'mostPermissiveMode: standard\n', looser: false },
    { floor: undefined, looser: false },
  ])(
    'entries set up before $floor: status and doctor say they are looser than the floor',
    async ({ floor, looser }) => {
      await run((io) => setup(agent, { project: false, dryRun: false }, io));
      await run((io) => setup(agent, { project: false, dryRun: false, system: world() }, io));
      if (floor !== undefined) writeSystemSettings(root, floor);
      const json = JSON.parse(await run((io) => status({ json: true, system: world() }, io))) as StatusJson;
      const levels = json.agents.find((entry) => entry.agent === agent)?.levels ?? [];
      const below = (level: string) => levels.find((entry) => entry.level === level)?.belowFloor;
      // an agent whose entries read the same either way (Codex: its own answer blocks anyway) is never looser
      expect(below('user')).toBe(looser && differs(agent, false) ? 'failClosed' : undefined);
      expect(below('system')).toBe(looser && differs(agent, true) ? 'failClosed' : undefined);
      const text = await run((io) => status({ json: false, system: world() }, io));
      expect(text.includes('LOOSER than the system settings')).toBe(looser && differs(agent, false));
      const report = await diagnose(boxIo().io, NOT_RUN, () => {}, world());
      const failed = report.agents
        .filter((entry) => entry.agent === agent)
        .flatMap((entry) => entry.checks.filter((check) => check.name === 'entries as strict as the system settings'))
        .map((check) => check.ok);
      expect(failed).toEqual([
        ...(looser && differs(agent, false) ? [false] : []),
        ...(looser && differs(agent, true) ? [false] : []),
      ]);
      // setup again writes the floor's form, and then it is not looser
      await run((io) => setup(agent, { project: false, dryRun: false }, io));
      const again = JSON.parse(await run((io) => status({ json: true, system: world() }, io))) as StatusJson;
      expect(
        again.agents.find((entry) => entry.agent === agent)?.levels.find((l) => l.level === 'user')?.belowFloor,
      ).toBeUndefined();
    },
  );
});

/** doctor's hook runs are not what these rows are about: each one is refused at once. */
const NOT_RUN = async () => ({
  stdout: '',
  stderr: '',
  exitCode: 1,
  ms: 0,
  timedOut: false,
  startError: 'not run here',
});
