import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { copilotPrompt } from './harness/agents.js';
import { fakeChatModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { noScratchEtc, scratchEtc } from './harness/namespace.js';
import type { ScratchEtc } from './harness/namespace.js';
import { closeAll, entriesFor, requireInstalled } from './harness/scenario.js';
import { guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// guard as a Copilot CLI policy hook (/etc/github-copilot/policy.d/guard.json), written by the built
// `guard setup copilot --system` with the system root it really uses, and the real Copilot run
// against it: both in a private mount namespace over a scratch /etc (./harness/namespace.ts), so the
// real /etc is never written. The user's folders hold no hook of guard's: only the policy can stop
// the step. Where no such namespace can be had the suite is skipped, and one skipped row says why.
const CANNOT = noScratchEtc();
const POLICY = '/etc/github-copilot/policy.d/guard.json';
const STEP = 'git push --force origin main';

if (CANNOT !== undefined) it.skip(`Copilot's policy hooks suite cannot run here: ${CANNOT}`, () => {});

let world: World;
let etc: ScratchEtc;
const models: FakeModel[] = [];
// Copilot unpacks itself into its cache folder on first run: once per suite
const cache = mkdtempSync(join(tmpdir(), 'guard-e2e-copilot-cache-'));
const realBefore = existsSync('/etc/github-copilot') ? readdirSync('/etc/github-copilot') : undefined;

beforeAll(() => requireInstalled('copilot'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
beforeEach(() => {
  world = makeWorld({ cacheHome: cache });
  etc = scratchEtc();
});
afterEach(async () => {
  await closeAll(models);
  world.cleanup();
  etc.cleanup();
  // the real policy folder is as it was
  expect(existsSync('/etc/github-copilot') ? readdirSync('/etc/github-copilot') : undefined).toEqual(realBefore);
});

const SWITCH_OFF = '{ "disableAllHooks": true }\n';

describe.skipIf(CANNOT !== undefined)('Copilot with guard as a policy hook', { timeout: scaled(180_000) }, () => {
  it.each([
    // the world's folder is not trusted: a policy hook runs all the same
    { name: 'a folder nobody trusted', blocked: true },
    // (in 1.0.102 the user's settings.json switch did not turn off guard's user hook either)
    { name: "the user's disableAllHooks true", user: SWITCH_OFF, blocked: true },
    { name: "a trusted project's disableAllHooks true", project: SWITCH_OFF, blocked: true },
    // near misses: the project's switch turns off guard set up for the user alone; Copilot skips a
    // policy file a group may write
    {
      name: "guard for the user alone, a trusted project's disableAllHooks true: NOT blocked",
      alone: true,
      project: SWITCH_OFF,
      blocked: false,
    },
    { name: 'the policy file group-writable: NOT blocked', mode: 0o664, blocked: false },
  ])(`${STEP} with $name, from the policy alone`, async ({ alone, user, project, mode, blocked }) => {
    if (alone === true) await guardOk(world, ['setup', 'copilot'], {}, etc);
    else
      expect(await guardOk(world, ['setup', 'copilot', '--system'], {}, etc)).toMatch(
        /^Created \/etc\/github-copilot\/policy\.d\/guard\.json with guard's hook/,
      );
    if (mode !== undefined) chmodSync(etc.at(POLICY), mode);
    if (user !== undefined) writeFileSync(join(world.copilotHome, 'settings.json'), user);
    if (project !== undefined) {
      mkdirSync(join(world.project, '.github', 'copilot'), { recursive: true });
      writeFileSync(join(world.project, '.github', 'copilot', 'settings.json'), project);
      writeFileSync(join(world.copilotHome, 'config.json'), `${JSON.stringify({ trustedFolders: [world.project] })}\n`);
    }
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await fakeChatModel({ script: [{ shell: STEP }] });
    models.push(fake);
    const result = await copilotPrompt(world, fake, 'do the task', { etc });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    if (!blocked) {
      expect(origin.head('main')).not.toBe(before);
      expect(entriesFor(world, STEP)).toEqual([]);
      return;
    }
    expect(origin.head('main')).toBe(before);
    expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'copilot', decision: 'block' }]);
    expect(fake.toolOutputs()[0]).toMatch(/^Denied by preToolUse hook: guard: /);
  });
});
