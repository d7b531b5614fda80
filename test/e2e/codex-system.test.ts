import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { CODEX_CONFIG, codexExec, writeCodexConfig } from './harness/agents.js';
import { fakeResponsesModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { noScratchEtc, scratchEtc } from './harness/namespace.js';
import type { ScratchEtc } from './harness/namespace.js';
import { closeAll, entriesFor, requireInstalled } from './harness/scenario.js';
import { guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// guard in Codex's system config layer (/etc/codex/hooks.json), written by the built
// `guard setup codex --system` with the system root it really uses, and the real Codex run against
// it: both in a private mount namespace over a scratch /etc (./harness/namespace.ts), so the real
// /etc is never written. The user's config holds no hook of guard's and trusts none: only the
// system layer's hook can stop the step. Where no such namespace can be had the suite is skipped,
// and one skipped row says why.
const CANNOT = noScratchEtc();
const STEP = 'git push --force origin main';
// what an administrator writes in /etc/codex/requirements.toml to keep the hooks feature on
const PIN_HOOKS = '[features]\nhooks = true\n';
const OFF_BY_C = ['-c', 'features.hooks=false'];

if (CANNOT !== undefined) it.skip(`Codex's system layer suite cannot run here: ${CANNOT}`, () => {});

let world: World;
let etc: ScratchEtc;
const models: FakeModel[] = [];
const realBefore = existsSync('/etc/codex') ? readdirSync('/etc/codex') : undefined;

beforeAll(() => requireInstalled('codex'));
beforeEach(() => {
  world = makeWorld();
  etc = scratchEtc();
});
afterEach(async () => {
  await closeAll(models);
  world.cleanup();
  etc.cleanup();
  // the real /etc/codex is as it was
  expect(existsSync('/etc/codex') ? readdirSync('/etc/codex') : undefined).toEqual(realBefore);
});

describe.skipIf(CANNOT !== undefined)(
  "Codex with guard in its system layer's hooks",
  { timeout: scaled(180_000) },
  () => {
    const userOff = `${CODEX_CONFIG}\n[features]\nhooks = false\n`;
    it.each([
      // the system layer's hook runs though the user's config trusts no hook
      { name: "the user's config as it is", config: CODEX_CONFIG, blocked: true },
      // a gap: the hooks feature switched off by the user (config or command line) takes the system
      // layer's hooks with it
      { name: "the user's [features] hooks = false: NOT blocked", config: userOff, blocked: false },
      { name: '-c features.hooks=false: NOT blocked', config: CODEX_CONFIG, args: OFF_BY_C, blocked: false },
      { name: '--disable hooks: NOT blocked', config: CODEX_CONFIG, args: ['--disable', 'hooks'], blocked: false },
      // unless the machine's requirements.toml pins the feature on
      { name: "the user's [features] hooks = false, hooks pinned on", config: userOff, pinned: true, blocked: true },
      {
        name: '-c features.hooks=false, hooks pinned on',
        config: CODEX_CONFIG,
        args: OFF_BY_C,
        pinned: true,
        blocked: true,
      },
      {
        name: '--disable hooks, hooks pinned on',
        config: CODEX_CONFIG,
        args: ['--disable', 'hooks'],
        pinned: true,
        blocked: true,
      },
    ])(`${STEP} with $name, from the system layer alone`, async ({ config, args, pinned, blocked }) => {
      writeCodexConfig(world, config);
      const said = await guardOk(world, ['setup', 'codex', '--system'], {}, etc);
      expect(said).toMatch(/^Created \/etc\/codex\/hooks\.json with guard's hook/);
      if (pinned === true) writeFileSync(etc.at('/etc/codex/requirements.toml'), PIN_HOOKS);
      const origin = remote(world, 'diverged');
      const before = origin.head('main');
      const fake = await fakeResponsesModel({ script: [{ shell: STEP }] });
      models.push(fake);
      const result = await codexExec(world, fake, 'do the task', { etc, args: args ?? [] });
      expect(result.timedOut, result.stderr).toBe(false);
      expect(result.code, result.stderr).toBe(0);
      if (!blocked) {
        expect(origin.head('main')).not.toBe(before);
        expect(entriesFor(world, STEP)).toEqual([]);
        return;
      }
      expect(origin.head('main')).toBe(before);
      expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'codex', decision: 'block' }]);
    });
  },
);
