import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { CLAUDE_SETTINGS, claudePrompt, writeClaudeSettings } from './harness/agents.js';
import { fakeMessagesModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { noScratchEtc, scratchEtc } from './harness/namespace.js';
import type { ScratchEtc } from './harness/namespace.js';
import { closeAll, entriesFor, requireInstalled } from './harness/scenario.js';
import { guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// guard in Claude Code's managed settings (/etc/claude-code/managed-settings.json), written by the
// built `guard setup claude-code --system` with the system root it really uses, and the real Claude
// Code run against it: both in a private mount namespace over a scratch /etc (./harness/namespace.ts),
// so the real /etc is never written. The user's settings hold no hook of guard's: only the managed
// one can stop the step. Where no such namespace can be had (not root, not Linux) the suite is
// skipped, and one skipped row says why: `npm run e2e` counts it as a failure, CI as a skip.
const CANNOT = noScratchEtc();
const MANAGED = '/etc/claude-code/managed-settings.json';
const STEP = 'git push --force origin main';

if (CANNOT !== undefined) it.skip(`Claude Code's managed settings suite cannot run here: ${CANNOT}`, () => {});

let world: World;
let etc: ScratchEtc;
const models: FakeModel[] = [];
const realBefore = existsSync(MANAGED) ? readFileSync(MANAGED, 'utf8') : undefined;

beforeAll(() => requireInstalled('claude-code'));
beforeEach(() => {
  world = makeWorld();
  etc = scratchEtc();
});
afterEach(async () => {
  await closeAll(models);
  world.cleanup();
  etc.cleanup();
  // the real managed file is as it was
  expect(existsSync(MANAGED) ? readFileSync(MANAGED, 'utf8') : undefined).toBe(realBefore);
});

/** The managed settings setup wrote, with `change` made to them (in the scratch /etc). */
async function managedWith(change: (settings: Record<string, unknown>) => void): Promise<void> {
  expect(await guardOk(world, ['setup', 'claude-code', '--system'], {}, etc)).toMatch(
    /^Created \/etc\/claude-code\/managed-settings\.json with guard's hook/,
  );
  const settings = JSON.parse(readFileSync(etc.at(MANAGED), 'utf8')) as Record<string, unknown>;
  change(settings);
  writeFileSync(etc.at(MANAGED), `${JSON.stringify(settings, null, 2)}\n`);
}

const userOff = CLAUDE_SETTINGS.replace('"model": "sonnet",', '"model": "sonnet",\n  "disableAllHooks": true,');

describe.skipIf(CANNOT !== undefined)(
  'Claude Code with guard in its managed settings',
  { timeout: scaled(180_000) },
  () => {
    it.each([
      { name: "the user's settings as they are", user: CLAUDE_SETTINGS, blocked: true },
      // a managed hook runs under a user's or a project's disableAllHooks
      { name: "the user's disableAllHooks true", user: userOff, blocked: true },
      { name: "the project's disableAllHooks true", user: CLAUDE_SETTINGS, project: true, blocked: true },
      // allowManagedHooksOnly leaves the managed hooks (guard's) running
      {
        name: 'allowManagedHooksOnly in the managed settings',
        user: CLAUDE_SETTINGS,
        managed: { allowManagedHooksOnly: true },
        blocked: true,
      },
      // the command line's ways to leave the user's settings out leave the managed ones in
      {
        name: '--setting-sources project',
        user: CLAUDE_SETTINGS,
        args: ['--setting-sources', 'project'],
        blocked: true,
      },
      {
        name: '--settings switching hooks off',
        user: CLAUDE_SETTINGS,
        args: ['--settings', '{"disableAllHooks":true}'],
        blocked: true,
      },
      { name: '--bare', user: CLAUDE_SETTINGS, args: ['--bare'], blocked: true },
      // near misses: the managed file's own switch, and no hooks in it, run nothing of guard's
      {
        name: 'disableAllHooks in the managed settings: NOT blocked',
        user: CLAUDE_SETTINGS,
        managed: { disableAllHooks: true },
        blocked: false,
      },
      {
        name: 'the managed file without its hooks: NOT blocked',
        user: userOff,
        managed: { hooks: {} },
        blocked: false,
      },
    ])(`${STEP} with $name, from the managed file alone`, async ({ user, project, managed, args, blocked }) => {
      await managedWith((settings) => Object.assign(settings, managed ?? {}));
      writeClaudeSettings(world, user);
      if (project === true) {
        mkdirSync(join(world.project, '.claude'), { recursive: true });
        writeFileSync(join(world.project, '.claude', 'settings.json'), '{ "disableAllHooks": true }\n');
      }
      const origin = remote(world, 'diverged');
      const before = origin.head('main');
      const fake = await fakeMessagesModel({ script: [{ shell: STEP }] });
      models.push(fake);
      const result = await claudePrompt(world, fake, 'do the task', { etc, args: args ?? [] });
      expect(result.timedOut, result.stderr).toBe(false);
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
      if (!blocked) {
        expect(origin.head('main')).not.toBe(before);
        expect(entriesFor(world, STEP)).toEqual([]);
        return;
      }
      expect(origin.head('main')).toBe(before);
      expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'claude-code', decision: 'block' }]);
      expect(fake.toolOutputs()[0]).toMatch(/guard: blocked/);
    });
  },
);
