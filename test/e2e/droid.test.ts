import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { DROID_HOOKS, droidPrompt, writeDroidHooks } from './harness/agents.js';
import { fakeDroidModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Factory Droid (`droid exec --auto high`, offline) against a fake OpenAI-compatible chat
// API given to it as a model of the person's own, with guard set up by the built `guard setup droid`
// into a home that already holds the person's hooks.json, comments and all. High autonomy runs every
// command, so guard is the only gate. Droid exits 0 whether or not a step was denied, so every test
// looks at what really happened: files, the bare remote, what the model was told next, and guard's
// log. A run takes some seconds (a large binary to start): the tests are few, each a whole story.

let world: World;
let hooks: string;
const models: FakeModel[] = [];

/** Runs one scripted `droid exec` and checks that Droid itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  const fake = await fakeDroidModel({ script });
  models.push(fake);
  const result = await droidPrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

beforeAll(() => requireInstalled('droid'));

beforeEach(async () => {
  world = makeWorld();
  hooks = writeDroidHooks(world);
  expect(await setupGuard(world, 'droid')).toMatch(/^Updated .*hooks\.json: added guard's hook/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

describe('Factory Droid (droid exec --auto high) with guard', { timeout: scaled(180_000) }, () => {
  // One run proves what two did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); an asked push under droid exec goes back as "safer way, or leave it out", and flagged again it is left undone and reported; uninstall gives hooks.json back byte for byte', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await run(STORY);
    const [ran, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'droid', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);
    expect(ran).toMatch(/\[Process exited with code 0\]$/);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    // Droid hands the deny's reason to the model as the tool's error
    expect(told).toMatch(/^Error: guard: blocked \(git\.rewrite-shared-history/);
    expect(first).toMatch(/^Error: guard: blocked, because no one can approve this step here \(git\.push\)/);
    await expectAskedTwice(world, first, second);

    // the chat's start and the results reached guard (droid exec sends no UserPromptSubmit)
    expect(readLog(world).flatMap((line) => (line.decision === undefined ? [] : [line.event]))).toEqual(
      STORY.map(() => 'PreToolUse'),
    );
    expect(readLog(world).map((line) => line.event)).toEqual(expect.arrayContaining(['SessionStart', 'PostToolUse']));
    // and the model was told at the start that guard is on
    expect(JSON.stringify(fake.turnRequests()[0]?.body)).toContain('guard is on: it checks each tool step');

    expect(await guardOk(world, ['uninstall', 'droid'])).toContain('Restored');
    expect(readFileSync(hooks, 'utf8')).toBe(DROID_HOOKS);
  });

  it("fail-closed, and guard's hook script gone (the checkout moved): the command answers by itself, the step is blocked and the model told why", async () => {
    expect(await guardOk(world, ['fail-closed', 'on'])).toMatch(/fail-closed/);
    writeFileSync(hooks, readFileSync(hooks, 'utf8').replaceAll('hook-entry.cjs', 'moved-away.cjs'));
    const fake = await run([{ shell: 'touch made-by-agent.txt' }]);
    expect(inProject(world, 'made-by-agent.txt')).toBe(false);
    expect(fake.toolOutputs()[0]).toMatch(/^Error: guard: blocked\. This step was not checked: guard's files are gone/);
    expect(readLog(world).flatMap((line) => line.event ?? [])).toEqual([]);
  });
});

// `guard setup droid --project` writes the project's .factory/hooks.json, which Droid reads as well
describe('Factory Droid: guard set up at project level', { timeout: scaled(180_000) }, () => {
  it('a project .factory/hooks.json is read by droid exec too: the force push is blocked', async () => {
    await guardOk(world, ['uninstall', 'droid']);
    expect(readFileSync(hooks, 'utf8')).toBe(DROID_HOOKS);
    expect(await guardOk(world, ['setup', 'droid', '--project'])).toMatch(/\.factory\/hooks\.json/);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(fake.toolOutputs()[0]).toContain(SAYS.forcePush);
    expect(readFileSync(join(world.project, '.factory', 'hooks.json'), 'utf8')).toContain('hook droid');
  });
});

// One folder's hooks.json and settings.json (seen on 0.215.0): Droid takes an event's list from
// hooks.json over settings.json's. guard's setup writes hooks.json, the file that wins; a group of
// guard's in settings.json (put there by hand) runs only while hooks.json lists no such event.
describe("Factory Droid: the user's hooks.json over settings.json", { timeout: scaled(180_000) }, () => {
  const STEP = 'git push --force origin main';
  const OWN = [{ matcher: '*', hooks: [{ type: 'command', command: 'true' }] }];

  it("guard's hooks.json runs beside the person's own PreToolUse group in settings.json, and setup says theirs stops", async () => {
    await guardOk(world, ['uninstall', 'droid']);
    writeFileSync(join(world.home, '.factory', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: OWN } }));
    expect(await setupGuard(world, 'droid')).toMatch(
      /Warning: .*settings\.json has hooks of your own for PreToolUse, which Factory Droid no longer runs/,
    );
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await fakeDroidModel({ script: [{ shell: STEP }] });
    models.push(fake);
    const result = await droidPrompt(world, fake, 'do the task', { settings: { hooks: { PreToolUse: OWN } } });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    expect(origin.head('main')).toBe(before);
    expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'droid', decision: 'block' }]);
  });

  it.each([
    { name: 'no hooks.json', hooksJson: undefined, blocked: true },
    { name: 'a hooks.json with a Stop list alone', hooksJson: '{ "Stop": [] }\n', blocked: true },
    // an empty file does not parse: Droid reads no hooks from it, and keeps settings.json's
    { name: 'an empty hooks.json', hooksJson: '', blocked: true },
    {
      name: 'a hooks.json with a PreToolUse group of its own: NOT blocked',
      hooksJson: `${JSON.stringify({ PreToolUse: OWN })}\n`,
      blocked: false,
    },
    {
      name: 'a hooks.json with an empty PreToolUse list: NOT blocked',
      hooksJson: '{ "PreToolUse": [] }\n',
      blocked: false,
    },
  ])("guard's groups in settings.json, with $name", async ({ hooksJson, blocked }) => {
    // guard's groups as setup writes them, moved into settings.json's hooks
    await guardOk(world, ['uninstall', 'droid']);
    writeFileSync(hooks, '{}\n');
    await setupGuard(world, 'droid');
    const guardHooks = JSON.parse(readFileSync(hooks, 'utf8')) as Record<string, unknown>;
    if (hooksJson === undefined) rmSync(hooks);
    else writeFileSync(hooks, hooksJson);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await fakeDroidModel({ script: [{ shell: STEP }] });
    models.push(fake);
    const result = await droidPrompt(world, fake, 'do the task', { settings: { hooks: guardHooks } });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    if (blocked) {
      expect(origin.head('main')).toBe(before);
      expect(entriesFor(world, STEP)).toMatchObject([{ agent: 'droid', decision: 'block' }]);
    } else {
      expect(origin.head('main')).not.toBe(before);
      expect(entriesFor(world, STEP)).toEqual([]);
    }
  });
});
