import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adapters } from '../../packages/adapters/src/index.js';
import { changeableFiles, systemFileOf } from '../../packages/cli/src/agents/system.js';
import type { SystemWorld } from '../../packages/cli/src/agents/system.js';
import { setup } from '../../packages/cli/src/commands/setup.js';
import type { Io } from '../../packages/cli/src/io.js';
import { scaled } from '../machine.js';
import {
  GEMINI_SETTINGS,
  geminiPrompt,
  QWEN_SETTINGS,
  qwenPrompt,
  writeGeminiSettings,
  writeQwenSettings,
} from './harness/agents.js';
import { fakeGeminiModel, fakeQwenModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, requireInstalled } from './harness/scenario.js';
import { makeWorld, remote, REPO } from './harness/world.js';
import type { World } from './harness/world.js';

// guard set up for the whole machine (`guard setup gemini --system`, through the API against a
// scratch system root, as no test writes a real system folder), and the real Gemini CLI pointed at
// that system settings file by its own GEMINI_CLI_SYSTEM_SETTINGS_PATH. The user's settings hold
// no hook of guard's: only the system's can stop the step. (Copilot's policy.d, the most valuable
// layer, has no such variable: its folder cannot be moved without root, so it has no e2e here.)
// Setup also writes "hooksConfig": {"enabled": true} there, so a user's own switch does not turn
// the system's hooks off.
// Gemini CLI skips a system settings file with a folder above it that is not root's or that a group
// or everyone may write (the temp folder is one), so its scratch root is in the checkout's .agents
// folder, where the agents are installed; on a checkout below such a folder (or not root's) the
// Gemini suite cannot run, and is reported as skipped: a CI runner that is not root can never give
// it such a folder, so its absence cannot be a failure. Qwen Code checks no
// owner: its scratch root is under the world, and it runs everywhere.
const SCRATCH = join(REPO, '.agents');
const SECURE = process.platform !== 'win32' && changeableFiles([SCRATCH], process.platform).length === 0;

let world: World;
let root: string;
const models: FakeModel[] = [];

beforeAll(() => {
  requireInstalled('gemini');
  requireInstalled('qwen');
});
beforeEach(() => {
  world = makeWorld();
  mkdirSync(SCRATCH, { recursive: true });
  root = mkdtempSync(join(SCRATCH, 'system-e2e-'));
});
afterEach(async () => {
  await closeAll(models);
  world.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** A scratch machine with administrator rights and a guard no user can change (as the test says). */
function scratchSystem(): SystemWorld {
  return {
    root,
    platform: 'linux',
    isAdmin: () => true,
    changeable: () => [],
    changeableAt: () => [],
  };
}

/** `guard setup <agent> --system`, in process, with the world's home and environment. */
async function setUpSystem(system: SystemWorld, agent: 'gemini' | 'qwen' = 'gemini'): Promise<string> {
  let said = '';
  const io: Io = {
    out: (text) => void (said += text),
    err: (text) => void (said += text),
    readStdin: async () => '',
    async *stdinLines() {},
    env: world.env(),
    cwd: () => world.project,
    home: () => world.home,
    tmp: () => world.root,
    systemRoot: root,
  };
  await setup(agent, { project: false, dryRun: false, system }, io);
  return said;
}

async function run(script: readonly Turn[], systemFile: string): Promise<FakeModel> {
  const fake = await fakeGeminiModel({ script });
  models.push(fake);
  const result = await geminiPrompt(world, fake, 'do the task', {
    env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemFile },
  });
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

describe.runIf(SECURE)('Gemini CLI with guard in its system settings', { timeout: scaled(180_000) }, () => {
  const userOff = GEMINI_SETTINGS.replace('"telemetry"', '"hooksConfig": { "enabled": false },\n  "telemetry"');
  it.each([
    { name: "the user's settings as they are", user: GEMINI_SETTINGS, keepOn: true, blocked: true },
    // the system settings are merged last: the hooksConfig.enabled true setup wrote there wins
    {
      name: "the user's settings switching hooks off (hooksConfig.enabled false)",
      user: userOff,
      keepOn: true,
      blocked: true,
    },
    // near miss: the same system file without that switch, and the user's switch turns it off too
    {
      name: "the user's hooksConfig.enabled false, the system file without setup's switch: NOT blocked",
      user: userOff,
      keepOn: false,
      blocked: false,
    },
    // hooksConfig.disabled is the union of every file's: no system setting takes guard's name out
    // of it (a gap, which status names as guard not running)
    {
      name: "the user's hooksConfig.disabled listing guard: NOT blocked, a gap",
      user: GEMINI_SETTINGS.replace('"telemetry"', '"hooksConfig": { "disabled": ["guard"] },\n  "telemetry"'),
      keepOn: true,
      blocked: false,
    },
  ])('git push --force with $name, from the system file alone', async ({ user, keepOn, blocked }) => {
    const system = scratchSystem();
    expect(await setUpSystem(system)).toMatch(/Created .*settings\.json with guard's hook/);
    const file = systemFileOf(adapters.gemini, system) as string;
    const written = readFileSync(file, 'utf8');
    expect(written.replace(/\s+/g, '')).toContain('"hooksConfig":{"enabled":true}');
    if (!keepOn) writeFileSync(file, written.replace(/,\s*"hooksConfig": \{\s*"enabled": true\s*\}/, ''));
    expect(readFileSync(file, 'utf8').includes('hooksConfig')).toBe(keepOn);
    const userFile = writeGeminiSettings(world, user);
    expect(adapters.gemini.installedCommands(readFileSync(userFile, 'utf8'))).toEqual([]);

    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }], file);
    if (!blocked) {
      expect(origin.head('main')).not.toBe(before);
      expect(entriesFor(world, 'git push --force origin main')).toEqual([]);
      return;
    }
    expect(origin.head('main')).toBe(before);
    expect(entriesFor(world, 'git push --force origin main')).toMatchObject([{ agent: 'gemini', decision: 'block' }]);
    expect(fake.toolOutputs()[0]).toMatch(/^Tool execution blocked: guard: /);
  });

  it('near miss: the same run with the system file moved away goes ahead unchecked', async () => {
    const system = scratchSystem();
    await setUpSystem(system);
    writeGeminiSettings(world, GEMINI_SETTINGS);
    const elsewhere = join(world.root, 'other-system-settings.json');
    writeFileSync(elsewhere, '{}\n');
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    await run([{ shell: 'git push --force origin main' }], elsewhere);
    expect(origin.head('main')).not.toBe(before);
    expect(entriesFor(world, 'git push --force origin main')).toEqual([]);
  });
});

describe('Qwen Code with guard in its system settings', { timeout: scaled(180_000) }, () => {
  // Qwen Code checks no owner: a scratch root under the world, wherever the checkout is
  beforeEach(() => {
    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(join(world.root, 'system-e2e-'));
  });

  const userOff = QWEN_SETTINGS.replace('"$version": 4,', '"$version": 4,\n  "disableAllHooks": true,');
  it.each([
    { name: "the user's settings as they are", user: QWEN_SETTINGS, keepOn: true, blocked: true },
    // the system settings are merged last: the disableAllHooks false setup wrote there wins
    {
      name: "the user's settings switching hooks off (disableAllHooks true)",
      user: userOff,
      keepOn: true,
      blocked: true,
    },
    // near miss: the same system file without that switch, and the user's switch turns it off too
    {
      name: "the user's disableAllHooks true, the system file without setup's switch: NOT blocked",
      user: userOff,
      keepOn: false,
      blocked: false,
    },
  ])('git push --force with $name, from the system file alone', async ({ user, keepOn, blocked }) => {
    const system = scratchSystem();
    expect(await setUpSystem(system, 'qwen')).toMatch(/Created .*settings\.json with guard's hook/);
    const file = systemFileOf(adapters.qwen, system) as string;
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('"disableAllHooks": false');
    if (!keepOn) writeFileSync(file, written.replace(/,\s*"disableAllHooks": false/, ''));
    expect(readFileSync(file, 'utf8').includes('disableAllHooks')).toBe(keepOn);
    const userFile = writeQwenSettings(world, user);
    expect(adapters.qwen.installedCommands(readFileSync(userFile, 'utf8'))).toEqual([]);

    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await fakeQwenModel({ script: [{ shell: 'git push --force origin main' }] });
    models.push(fake);
    const result = await qwenPrompt(world, fake, 'do the task', { env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: file } });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    if (!blocked) {
      expect(origin.head('main')).not.toBe(before);
      expect(entriesFor(world, 'git push --force origin main')).toEqual([]);
      return;
    }
    expect(origin.head('main')).toBe(before);
    expect(entriesFor(world, 'git push --force origin main')).toMatchObject([{ agent: 'qwen', decision: 'block' }]);
  });
});
