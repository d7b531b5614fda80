import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { GEMINI_LEGACY_SETTINGS, GEMINI_SETTINGS, geminiPrompt, writeGeminiSettings } from './harness/agents.js';
import { withoutComments } from '../../packages/adapters/src/scan.js';
import { fakeGeminiModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Gemini CLI (`gemini -p --yolo`, offline) against a fake Gemini API, with guard set up by
// the built `guard setup gemini` into a home that already holds the user's settings.json, comments
// and all. YOLO approves every tool, so guard is the only gate. Gemini CLI exits 0 whether or not a
// step was denied, so every test looks at what really happened: files, the bare remote, what the
// model was told next, and guard's log. A Gemini CLI run takes several seconds (a 100 MB bundle to
// load): the tests are few, each with a whole story.

let world: World;
let settings: string;
const models: FakeModel[] = [];

/** Runs one scripted `gemini -p` and checks that Gemini CLI itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  return geminiRun(script, {}, prompt);
}

/** `run` with more environment for Gemini CLI. */
async function geminiRun(
  script: readonly Turn[],
  env: Readonly<Record<string, string>>,
  prompt = 'do the task',
): Promise<FakeModel> {
  const fake = await fakeGeminiModel({ script });
  models.push(fake);
  const result = await geminiPrompt(world, fake, prompt, { env });
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

beforeAll(() => requireInstalled('gemini'));

beforeEach(() => {
  world = makeWorld();
});

/** The user's settings, then `guard setup gemini` as a person runs it. */
async function setUp(text: string): Promise<void> {
  settings = writeGeminiSettings(world, text);
  expect(await setupGuard(world, 'gemini')).toMatch(/^Updated .*settings\.json: added guard's hook/);
}

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

// how Gemini CLI hands a hook's deny to the model
const DENIED = /^Tool execution blocked: guard: /;

describe('Gemini CLI (gemini -p --yolo) with guard', { timeout: scaled(180_000) }, () => {
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); uninstall gives settings.json back byte for byte', async () => {
    await setUp(GEMINI_SETTINGS);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'touch made-by-agent.txt' }, { shell: 'git push --force origin main' }]);

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'gemini', event: 'BeforeTool', decision: 'allow', rules: [] },
    ]);

    expect(origin.head('main')).toBe(before);
    const [entry] = entriesFor(world, 'git push --force origin main');
    expect(entry).toMatchObject({ decision: 'block', how: 'rules' });
    expect(entry?.rules).toContain('git.rewrite-shared-history');
    const [ran, told] = fake.toolOutputs();
    expect(ran).toContain('Output: (empty)');
    expect(told).toMatch(DENIED);
    expect(told).toContain(SAYS.forcePush);
    expect(told).toContain(entry?.reason);

    // the chat's start, the person's message and the result reached guard too, and the model was
    // told at the start that guard is on
    expect(readLog(world).map((entry) => entry.event)).toEqual([
      'SessionStart',
      'BeforeAgent',
      'BeforeTool',
      'AfterTool',
      'BeforeTool',
    ]);
    expect(JSON.stringify(fake.turnRequests()[0]?.body)).toContain('guard is on: it checks each tool step');
    const log = await guardOk(world, ['log', '--decision', 'block']);
    expect(log).toContain('git push --force origin main');

    expect(await guardOk(world, ['uninstall', 'gemini'])).toContain('Restored');
    expect(readFileSync(settings, 'utf8')).toBe(GEMINI_SETTINGS);
  });

  // One run for two rows: the asked push of a chat under CI (a Gemini CLI start each was most of this
  // file's time), against a remote that is only ahead, so any push that got through would move it.
  it('in CI (GITHUB_SHA set) Gemini CLI hands hooks a cleaned environment without GUARD_HOME: the folder reaches the hook through the env setup wrote into its entry, so the force push is blocked and logged there; an asked push under -p (nobody reads the chat now) goes back as "safer way, or leave it out", with a code for a resumed chat; flagged again it is left undone and reported', async () => {
    await setUp(GEMINI_LEGACY_SETTINGS);
    const written = JSON.parse(withoutComments(readFileSync(settings, 'utf8'))) as {
      hooks: Record<string, { hooks: { env?: Record<string, string> }[] }[]>;
    };
    expect(written.hooks['BeforeTool']?.[0]?.hooks[0]?.env).toEqual({ GUARD_HOME: world.guardHome });
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await geminiRun(STORY.slice(1), { GITHUB_SHA: '0123456789abcdef' });
    const [told, first, second] = fake.toolOutputs();
    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    expect(told).toMatch(DENIED);
    expect(first).toMatch(DENIED);
    expect(first).toMatch(/approval code [A-Z2-9]{4}/);
    await expectAskedTwice(world, first, second);

    // Gemini CLI rewrote its settings.json itself during the run (old key names moved to new ones):
    // its own change stays, only guard's hooks go, the person's comments and hook with them as they were
    const rewritten = readFileSync(settings, 'utf8');
    expect(rewritten).not.toBe(GEMINI_LEGACY_SETTINGS);
    expect(await guardOk(world, ['uninstall', 'gemini'])).toContain("Removed guard's hook from");
    const after = readFileSync(settings, 'utf8');
    expect(after).not.toContain('hook gemini');
    expect(after).toContain('"enableAutoUpdate": false');
    for (const kept of [
      '// my Gemini CLI settings\n',
      '}, // no statistics\n',
      '/* a hook of my own */',
      '"name": "bye"',
    ])
      expect(after).toContain(kept);
  });
});
