import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { droidPrompt, writeDroidHooks } from './harness/agents.js';
import { fakeDroidModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { noScratchEtc, scratchEtc } from './harness/namespace.js';
import type { ScratchEtc } from './harness/namespace.js';
import { closeAll, entriesFor, requireInstalled } from './harness/scenario.js';
import { guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// guard in Factory Droid's managed settings (/etc/factory/settings.json, read as the organisation's
// settings), written by the built `guard setup droid --system` with the system root it really uses,
// and the real Droid (`droid exec --auto high`, offline) run against it: both in a private mount
// namespace over a scratch /etc (./harness/namespace.ts), so the real /etc is never written. The
// user's files hold no hook of guard's: only the managed one can stop the step. Where no such
// namespace can be had the suite is skipped, and one skipped row says why.
const CANNOT = noScratchEtc();
const MANAGED = '/etc/factory/settings.json';
const STEP = 'git push --force origin main';
// an organisation's own managed settings: comments, a key of its own, a hook of its own
const ORG = `// managed by IT
{
  "includeCoAuthoredByDroid": false, /* for everyone */
  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }] }
}
`;
const OFF = '{ "hooksDisabled": true }\n';
const OWN_PRE = '{ "PreToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "true" }] }] }\n';

if (CANNOT !== undefined) it.skip(`Factory Droid's managed settings suite cannot run here: ${CANNOT}`, () => {});

let world: World;
let etc: ScratchEtc;
const models: FakeModel[] = [];
const realBefore = existsSync('/etc/factory') ? readdirSync('/etc/factory') : undefined;

beforeAll(() => requireInstalled('droid'));
beforeEach(() => {
  world = makeWorld();
  etc = scratchEtc();
});
afterEach(async () => {
  await closeAll(models);
  world.cleanup();
  etc.cleanup();
  // the real /etc/factory is as it was
  expect(existsSync('/etc/factory') ? readdirSync('/etc/factory') : undefined).toEqual(realBefore);
});

/** A file of the project's `.factory` folder. */
function writeProject(name: string, text: string): void {
  mkdirSync(join(world.project, '.factory'), { recursive: true });
  writeFileSync(join(world.project, '.factory', name), text);
}

describe.skipIf(CANNOT !== undefined)(
  "Factory Droid with guard in the machine's managed settings",
  { timeout: scaled(180_000) },
  () => {
    it.each<{
      name: string;
      org?: string;
      managed?: (text: string) => string;
      userHooks?: string;
      userSettings?: Record<string, unknown>;
      project?: [string, string];
      runtime?: string;
      blocked: boolean;
    }>([
      { name: "the user's files as they are", blocked: true },
      { name: "an organisation's own managed settings, comments and all", org: ORG, blocked: true },
      // the hooksDisabled false setup writes beside guard's entries wins over every other file's true
      { name: "the user's hooks.json hooksDisabled true", userHooks: OFF, blocked: true },
      {
        name: "the user's settings.json hooks.hooksDisabled true",
        userSettings: { hooks: { hooksDisabled: true } },
        blocked: true,
      },
      { name: "the project's hooks.json hooksDisabled true", project: ['hooks.json', OFF], blocked: true },
      {
        name: "the project's settings.json hooks.hooksDisabled true",
        project: ['settings.json', `{ "hooks": ${OFF} }`],
        blocked: true,
      },
      { name: 'a --settings file with hooks.hooksDisabled true', runtime: `{ "hooks": ${OFF} }`, blocked: true },
      // a user's hooks.json list of the same event is run beside the managed one, not instead of it
      { name: "the user's hooks.json with a PreToolUse hook of its own", userHooks: OWN_PRE, blocked: true },
      // near misses: without setup's false a user's switch turns the managed hook off; the managed
      // file's own switch, and the managed file emptied, run nothing of guard's
      {
        name: "the user's hooks.json hooksDisabled true, the managed false taken out: NOT blocked",
        managed: (text) => text.replace(/,\s*"hooksDisabled": false/, ''),
        userHooks: OFF,
        blocked: false,
      },
      {
        name: "the project's hooks.json hooksDisabled true, the managed false taken out: NOT blocked",
        managed: (text) => text.replace(/,\s*"hooksDisabled": false/, ''),
        project: ['hooks.json', OFF],
        blocked: false,
      },
      {
        name: 'a --settings file with hooks.hooksDisabled true, the managed false taken out: NOT blocked',
        managed: (text) => text.replace(/,\s*"hooksDisabled": false/, ''),
        runtime: `{ "hooks": ${OFF} }`,
        blocked: false,
      },
      {
        name: 'the managed hooksDisabled true: NOT blocked',
        managed: (text) => text.replace('"hooksDisabled": false', '"hooksDisabled": true'),
        blocked: false,
      },
      { name: 'the managed file emptied: NOT blocked', managed: () => '{}\n', blocked: false },
    ])(`${STEP} with $name, from the managed file alone`, async (row) => {
      if (row.org !== undefined) {
        mkdirSync(etc.at('/etc/factory'), { recursive: true });
        writeFileSync(etc.at(MANAGED), row.org);
      }
      const said = await guardOk(world, ['setup', 'droid', '--system'], {}, etc);
      expect(said).toMatch(
        row.org === undefined
          ? /^Created \/etc\/factory\/settings\.json with guard's hook/
          : /^Updated \/etc\/factory\/settings\.json: added guard's hook/,
      );
      const text = readFileSync(etc.at(MANAGED), 'utf8');
      if (row.org !== undefined)
        expect(text.startsWith('// managed by IT\n{\n  "includeCoAuthoredByDroid": false, /* for everyone */')).toBe(
          true,
        );
      if (row.managed !== undefined) writeFileSync(etc.at(MANAGED), row.managed(text));
      if (row.userHooks !== undefined) writeDroidHooks(world, row.userHooks);
      if (row.project !== undefined) writeProject(...row.project);
      const args: string[] = [];
      if (row.runtime !== undefined) {
        const runtime = join(world.root, 'runtime-settings.json');
        writeFileSync(runtime, row.runtime);
        args.push('--settings', runtime);
      }
      const origin = remote(world, 'diverged');
      const before = origin.head('main');
      const fake = await fakeDroidModel({ script: [{ shell: STEP }] });
      models.push(fake);
      const result = await droidPrompt(world, fake, 'do the task', {
        etc,
        args,
        ...(row.userSettings === undefined ? {} : { settings: row.userSettings }),
      });
      expect(result.timedOut, result.stderr).toBe(false);
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
      if (!row.blocked) {
        expect(origin.head('main')).not.toBe(before);
        expect(entriesFor(world, STEP)).toEqual([]);
        return;
      }
      expect(origin.head('main')).toBe(before);
      expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'droid', decision: 'block' }]);
      expect(fake.toolOutputs()[0]).toMatch(/^Error: guard: blocked/);
    });
  },
);
