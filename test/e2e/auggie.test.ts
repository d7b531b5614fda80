import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { AUGGIE_SETTINGS, auggiePrompt, writeAuggieSettings } from './harness/agents.js';
import { fakeAuggieModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Augment Auggie (`auggie --print`, offline) against a fake Augment service on loopback,
// given to it as the tenant URL of a made-up session, with guard set up by the built `guard setup
// auggie` into a home that already holds the person's settings.json, comments and all. --print runs
// every tool of Auggie's own, so guard is the only gate. Auggie exits 0 whether or not a step was
// denied, so every test looks at what really happened: files, the bare remote, what the model was
// told next, and guard's log.

let world: World;
let settings: string;
const models: FakeModel[] = [];

/** Runs one scripted `auggie --print` and checks that Auggie itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  const fake = await fakeAuggieModel({ script });
  models.push(fake);
  const result = await auggiePrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

beforeAll(() => requireInstalled('auggie'));

beforeEach(async () => {
  world = makeWorld();
  settings = writeAuggieSettings(world);
  expect(await setupGuard(world, 'auggie')).toMatch(/^Updated .*settings\.json: added guard's hook/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

describe('Augment Auggie (auggie --print) with guard', { timeout: scaled(180_000) }, () => {
  // One run proves what two did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); an asked push under --print goes back as "safer way, or leave it out", and flagged again it is left undone and reported; uninstall gives settings.json back byte for byte', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await run(STORY);
    const [ran, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'auggie', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);
    expect(ran).toMatch(/<return-code>\s*0\s*<\/return-code>/);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    // Auggie hands the deny's reason to the model as the tool's error, with a line of its own
    expect(told).toMatch(/^guard: blocked \(git\.rewrite-shared-history/);
    expect(told).toMatch(/PreToolUse:launch-process hook returned blocking error$/);
    expect(first).toMatch(/^guard: blocked, because no one can approve this step here \(git\.push\)/);
    await expectAskedTwice(world, first, second);

    // the chat's start, the prompt and the results reached guard too
    expect(readLog(world).flatMap((line) => (line.decision === undefined ? [] : [line.event]))).toEqual(
      STORY.map(() => 'PreToolUse'),
    );
    expect(readLog(world).map((line) => line.event)).toEqual(
      expect.arrayContaining(['SessionStart', 'PromptSubmit', 'PostToolUse']),
    );

    expect(await guardOk(world, ['uninstall', 'auggie'])).toContain('Restored');
    expect(readFileSync(settings, 'utf8')).toBe(AUGGIE_SETTINGS);
  });

  it("fail-closed, and guard's hook script gone (the checkout moved): the command answers by itself, the step is blocked and the model told why", async () => {
    expect(await guardOk(world, ['fail-closed', 'on'])).toMatch(/fail-closed/);
    writeFileSync(settings, readFileSync(settings, 'utf8').replaceAll('hook-entry.cjs', 'moved-away.cjs'));
    const fake = await run([{ shell: 'touch made-by-agent.txt' }]);
    expect(inProject(world, 'made-by-agent.txt')).toBe(false);
    expect(fake.toolOutputs()[0]).toMatch(/^guard: blocked\. This step was not checked: guard's files are gone/);
    expect(readLog(world).flatMap((line) => line.event ?? [])).toEqual([]);
  });
});

// `guard setup auggie --project` writes the project's .augment/settings.json, which Auggie reads as well
describe('Augment Auggie: guard set up at project level', { timeout: scaled(180_000) }, () => {
  it('a project .augment/settings.json is read by auggie --print too: the force push is blocked', async () => {
    await guardOk(world, ['uninstall', 'auggie']);
    expect(readFileSync(settings, 'utf8')).toBe(AUGGIE_SETTINGS);
    expect(await guardOk(world, ['setup', 'auggie', '--project'])).toMatch(/\.augment\/settings\.json/);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(fake.toolOutputs()[0]).toContain(SAYS.forcePush);
    expect(readFileSync(join(world.project, '.augment', 'settings.json'), 'utf8')).toContain('hook auggie');
  });
});
