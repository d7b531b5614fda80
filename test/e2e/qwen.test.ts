import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { QWEN_SETTINGS, qwenPrompt, writeQwenSettings } from './harness/agents.js';
import { fakeQwenModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Qwen Code (`qwen -p --yolo`, offline) against a fake OpenAI-compatible chat API, with
// guard set up by the built `guard setup qwen` into a home that already holds the user's
// settings.json, comments and all. YOLO approves every tool, so guard is the only gate. Qwen Code
// exits 0 whether or not a step was denied, so every test looks at what really happened: files,
// the bare remote, what the model was told next, and guard's log. A run takes several seconds (a
// large bundle to load): the tests are few, each with a whole story.

let world: World;
let settings: string;
const models: FakeModel[] = [];

/** Runs one scripted `qwen -p` and checks that Qwen Code itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  const fake = await fakeQwenModel({ script });
  models.push(fake);
  const result = await qwenPrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

beforeAll(() => requireInstalled('qwen'));

beforeEach(async () => {
  world = makeWorld();
  settings = writeQwenSettings(world);
  expect(await setupGuard(world, 'qwen')).toMatch(/^Updated .*settings\.json: added guard's hook/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

describe('Qwen Code (qwen -p --yolo) with guard', { timeout: scaled(180_000) }, () => {
  // One run proves what two did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); an asked push under -p (Qwen Code refuses an ask it cannot show) goes back as "safer way, or leave it out", and flagged again it is left undone and reported; uninstall gives settings.json back byte for byte', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await run(STORY);
    const [ran, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'qwen', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);
    expect(ran).toMatch(/^Command: touch made-by-agent\.txt\n/);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    // Qwen Code hands the deny's reason to the model as the tool's result, word for word
    expect(told).toMatch(/^guard: blocked \(git\.rewrite-shared-history/);
    expect(first).toMatch(/^guard: blocked, because no one can approve this step here \(git\.push\)/);
    await expectAskedTwice(world, first, second);

    // the chat's start, the person's message and the results reached guard; the prompts of no words
    // Qwen Code sends when it goes on after a result are not the person speaking
    expect(readLog(world).flatMap((line) => (line.decision === undefined ? [] : [line.event]))).toEqual(
      STORY.map(() => 'PreToolUse'),
    );
    expect(readLog(world).map((line) => line.event)).toEqual(
      expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PostToolUse']),
    );
    // and the model was told at the start that guard is on
    expect(JSON.stringify(fake.turnRequests()[0]?.body)).toContain('guard is on: it checks each tool step');
    const log = await guardOk(world, ['log', '--decision', 'block']);
    expect(log).toContain('git push --force origin main');

    expect(await guardOk(world, ['uninstall', 'qwen'])).toContain('Restored');
    expect(readFileSync(settings, 'utf8')).toBe(QWEN_SETTINGS);
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

// `guard setup qwen --project` writes the project's .qwen/settings.json, which Qwen Code reads as
// well (folder trust is off unless the person turns it on)
describe('Qwen Code: guard set up at project level', { timeout: scaled(180_000) }, () => {
  it('a project .qwen/settings.json is read by qwen -p too: the force push is blocked', async () => {
    await guardOk(world, ['uninstall', 'qwen']);
    expect(readFileSync(settings, 'utf8')).toBe(QWEN_SETTINGS);
    expect(await guardOk(world, ['setup', 'qwen', '--project'])).toMatch(/\.qwen\/settings\.json/);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(fake.toolOutputs()[0]).toContain(SAYS.forcePush);
    expect(readFileSync(join(world.project, '.qwen', 'settings.json'), 'utf8')).toContain('hook qwen');
  });
});
