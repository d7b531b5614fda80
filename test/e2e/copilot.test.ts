import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { copilotPrompt } from './harness/agents.js';
import { fakeChatModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, setupGuard, stepsOfKind } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { git, guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Copilot CLI (`copilot -p`, offline, bring-your-own-provider) against a fake
// chat-completions API, with guard set up by the built `guard setup copilot`. Copilot exits 0 even
// when a tool call is denied, so every test looks at what really happened: files, the bare remote,
// what the model was told next, and guard's log.

let world: World;
const models: FakeModel[] = [];
// Copilot unpacks itself (about 235 MB) into its cache folder on first run: once per suite.
const cache = mkdtempSync(join(tmpdir(), 'guard-e2e-copilot-cache-'));

/** Runs one scripted `copilot -p` and checks that Copilot itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  const fake = await fakeChatModel({ script });
  models.push(fake);
  const result = await copilotPrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  return fake;
}

beforeAll(() => requireInstalled('copilot'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

beforeEach(async () => {
  world = makeWorld({ cacheHome: cache });
  expect(await setupGuard(world, 'copilot')).toMatch(/^Created .*guard\.json/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

const DENIED = /^Denied by preToolUse hook: guard: /;

describe('Copilot (copilot -p) with guard', { timeout: scaled(120_000) }, () => {
  // One run proves what four did, one story per chat (STORY, then the files): each step's answer is
  // read from its own log entries and tool output.
  it('runs a harmless command (the log shows it went ahead); blocks git push --force to a bare remote (the remote keeps its commit, the model reads why); answers an asked push with "safer way, or leave it out", and flagged again in the chat it is left undone and reported; blocks creating .env (the file never appears), while .env.example goes ahead', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const create = (file: string): Turn => ({
      create: { path: join(world.project, file), text: 'API_KEY=changeme\n' },
    });
    const fake = await run([...STORY, create('.env.example'), create('.env')]);
    const [ran, told, first, second, , created] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(ran).toMatch(/completed with exit code 0/);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'copilot', event: 'preToolUse', decision: 'allow', rules: [] },
    ]);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    for (const answer of [told, first, second]) expect(answer).toMatch(DENIED);
    await expectAskedTwice(world, first, second);

    expect(inProject(world, '.env.example')).toBe(true);
    expect(inProject(world, '.env')).toBe(false);
    const writes = stepsOfKind(world, 'write');
    expect(writes.map((entry) => entry.decision)).toEqual(['allow', 'block']);
    expect(writes[1]?.rules).toContain('secrets.read');
    expect(created).toMatch(/^Denied by preToolUse hook: guard: blocked \(secrets\.read/);
  });

  it('lets the force push through while guard is off, and blocks it again once guard is on', async () => {
    const origin = remote(world, 'diverged');
    await guardOk(world, ['off']);
    await run([{ shell: 'git push --force origin main' }]);
    const local = (): string => git(world, world.project, ['rev-parse', 'HEAD']).trim();
    expect(origin.head('main')).toBe(local());
    expect(entriesFor(world, 'git push --force origin main')).toMatchObject([{ decision: 'allow', how: 'off' }]);

    await guardOk(world, ['on']);
    git(world, world.project, ['commit', '--quiet', '--amend', '--allow-empty', '-m', 'rewritten again']);
    const before = origin.head('main');
    await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(entriesFor(world, 'git push --force origin main').map((entry) => entry.how)).toEqual(['off', 'rules']);
  });

  it.for([
    { failClosed: true, runs: false },
    { failClosed: false, runs: true },
  ])(
    'with fail-closed $failClosed, a hook that cannot read its state lets a harmless step run: $runs',
    async ({ failClosed, runs }) => {
      if (failClosed) await guardOk(world, ['fail-closed', 'on']);
      // the chats folder is a file: no chat state can be read or written
      writeFileSync(join(world.guardHome, 'chats'), 'not a folder');
      const fake = await run([{ shell: 'touch made-by-agent.txt' }]);
      expect(inProject(world, 'made-by-agent.txt')).toBe(runs);
      // fail-open judges the step as the first of a fresh chat (every rule that needs no memory
      // applies), and logs why; fail-closed blocks it as a failure
      expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
        runs
          ? { how: 'rules', decision: 'allow', error: expect.stringContaining("chat's memory could not be read") }
          : { how: 'failure', decision: 'block' },
      ]);
      expect(fake.toolOutputs()[0]).toMatch(runs ? /completed with exit code 0/ : DENIED);
    },
  );
});
