import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
// what setup --system writes in /etc/codex/requirements.toml to keep the hooks feature on
const PIN_HOOKS = '[features]\nhooks = true\n';
const REQUIREMENTS = '/etc/codex/requirements.toml';
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
    const INLINE_OFF = ['-c', 'features={hooks=false}'];
    it.each([
      // the system layer's hook runs though the user's config trusts no hook
      { name: "the user's config as it is", blocked: true },
      // the hooks feature switched off by the user (config or command line) would take the system
      // layer's hooks with it, but setup --system pinned it on in /etc/codex/requirements.toml
      { name: "the user's [features] hooks = false", config: userOff, blocked: true },
      { name: '-c features.hooks=false', args: OFF_BY_C, blocked: true },
      { name: '--disable hooks', args: ['--disable', 'hooks'], blocked: true },
      { name: "-c 'features={hooks=false}'", args: INLINE_OFF, blocked: true },
      { name: "a trusted project's .codex/config.toml [features] hooks = false", project: true, blocked: true },
      // near misses: the same with requirements.toml taken away after setup, so the gap is back
      { name: "the user's config as it is, requirements.toml gone", unpinned: true, blocked: true },
      {
        name: "the user's [features] hooks = false, requirements.toml gone: NOT blocked",
        config: userOff,
        unpinned: true,
        blocked: false,
      },
      {
        name: '-c features.hooks=false, requirements.toml gone: NOT blocked',
        args: OFF_BY_C,
        unpinned: true,
        blocked: false,
      },
      {
        name: '--disable hooks, requirements.toml gone: NOT blocked',
        args: ['--disable', 'hooks'],
        unpinned: true,
        blocked: false,
      },
      {
        name: "-c 'features={hooks=false}', requirements.toml gone: NOT blocked",
        args: INLINE_OFF,
        unpinned: true,
        blocked: false,
      },
      {
        name: "a trusted project's [features] hooks = false, requirements.toml gone: NOT blocked",
        project: true,
        unpinned: true,
        blocked: false,
      },
    ])(`${STEP} with $name, from the system layer alone`, async ({ config, args, project, unpinned, blocked }) => {
      writeCodexConfig(
        world,
        project === true
          ? `${CODEX_CONFIG}\n[projects.${JSON.stringify(world.project)}]\ntrust_level = "trusted"\n`
          : (config ?? CODEX_CONFIG),
      );
      if (project === true) {
        mkdirSync(join(world.project, '.codex'), { recursive: true });
        writeFileSync(join(world.project, '.codex', 'config.toml'), '[features]\nhooks = false\n');
      }
      const said = await guardOk(world, ['setup', 'codex', '--system'], {}, etc);
      expect(said).toMatch(/^Created \/etc\/codex\/hooks\.json with guard's hook/);
      expect(said).toContain("Created /etc/codex/requirements.toml: it keeps Codex's hooks feature on");
      expect(readFileSync(etc.at(REQUIREMENTS), 'utf8')).toBe(PIN_HOOKS);
      if (unpinned === true) rmSync(etc.at(REQUIREMENTS));
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

    it.each([
      { name: 'none', original: undefined },
      { name: "the administrator's own", original: '# IT\r\n[otel]\r\nenvironment = "prod"\r\n' },
    ])('uninstall --system gives requirements.toml back ($name) with the hook file', async ({ original }) => {
      if (original !== undefined) {
        mkdirSync(dirname(etc.at(REQUIREMENTS)), { recursive: true });
        writeFileSync(etc.at(REQUIREMENTS), original);
      }
      await guardOk(world, ['setup', 'codex', '--system'], {}, etc);
      const pinned = readFileSync(etc.at(REQUIREMENTS), 'utf8');
      expect(pinned).toContain('[features]');
      expect(pinned.startsWith(original ?? '')).toBe(true);
      const said = await guardOk(world, ['uninstall', 'codex', '--system'], {}, etc);
      expect(said).toContain(
        original === undefined
          ? 'Removed /etc/codex/requirements.toml (guard had created it).'
          : 'Restored /etc/codex/requirements.toml exactly',
      );
      expect(existsSync(etc.at('/etc/codex/hooks.json'))).toBe(false);
      if (original === undefined) expect(existsSync(etc.at(REQUIREMENTS))).toBe(false);
      else expect(readFileSync(etc.at(REQUIREMENTS), 'utf8')).toBe(original);
    });
  },
);
