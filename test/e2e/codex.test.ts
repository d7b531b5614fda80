import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { codexChat, codexExec, writeCodexConfig } from './harness/agents.js';
import { fakeResponsesModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import {
  closeAll,
  entriesFor,
  inProject,
  requireInstalled,
  SAYS,
  setupGuard,
  stepsOfKind,
} from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { git, guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Codex CLI (`codex exec`, stdin from /dev/null) against a fake Responses API, with guard
// set up by the built `guard setup codex` and trusted through `codex app-server` by that setup.
// Codex exits 0 whether or not a step was denied, so every test looks at what really happened:
// files, the bare remote, what the model was told next, and guard's log.

let world: World;
const models: FakeModel[] = [];

async function model(script: readonly Turn[]): Promise<FakeModel> {
  const started = await fakeResponsesModel({ script });
  models.push(started);
  return started;
}

/** Runs one scripted `codex exec` and checks that Codex itself finished normally. */
async function run(
  script: readonly Turn[],
  prompt = 'do the task',
): Promise<{ model: FakeModel; threadId: string | undefined }> {
  const fake = await model(script);
  const result = await codexExec(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  return { model: fake, threadId: result.threadId };
}

beforeAll(() => requireInstalled('codex'));

beforeEach(async () => {
  world = makeWorld();
  writeCodexConfig(world);
  expect(await setupGuard(world, 'codex')).toMatch(/Codex already trusts/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

describe('Codex (codex exec) with guard', { timeout: scaled(120_000) }, () => {
  // One run proves what four did, one story per chat (STORY, then the patches): each step's answer
  // is read from its own log entries and tool output.
  it('runs a harmless command (the log shows it went ahead); blocks git push --force to a bare remote (the remote keeps its commit, the model reads why); answers an asked push with "safer way, or leave it out", and flagged again in the chat it is left undone and reported; blocks an apply_patch that adds .env (the file never appears), while .env.example goes ahead', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const add = (file: string): Turn => ({
      patch: `*** Begin Patch\n*** Add File: ${file}\n+API_KEY=changeme\n*** End Patch\n`,
    });
    const { model: fake } = await run([...STORY, add('.env.example'), add('.env')]);
    const [ran, told, first, second, , patched] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(ran).toMatch(/Process exited with code 0/);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'codex', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    expect(told).toMatch(/^Command blocked by PreToolUse hook: /);
    expect(second).toMatch(/^Command blocked by PreToolUse hook: guard: /);
    await expectAskedTwice(world, first, second);

    expect(inProject(world, '.env.example')).toBe(true);
    expect(inProject(world, '.env')).toBe(false);
    const patches = stepsOfKind(world, 'patch');
    expect(patches.map((entry) => entry.decision)).toEqual(['allow', 'block']);
    expect(patches[1]?.rules).toContain('secrets.read');
    expect(patched).toMatch(/^Command blocked by PreToolUse hook: guard: blocked \(secrets\.read/);
  });

  it('block-then-chat (a person at the chat, through codex app-server): an asked push waits for a plain yes, runs once, and another destination is asked again', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await model([
      { shell: 'git push origin main' },
      { say: 'guard wants your approval before I push; may I?' },
      { shell: 'git push origin main' },
      { say: 'it publishes your commit; may I?' },
      { shell: 'git push origin main' },
      { shell: 'git push origin main:other' },
      { say: 'pushed main; the push to other needs your approval' },
    ]);
    // a reply that is not a yes approves nothing (and closes the question); a plain yes does
    expect(await codexChat(world, fake, ['push my work', 'why does it ask?', 'yes, go ahead'])).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    const [asked, askedAgain, pushed, other] = fake.toolOutputs();
    expect(asked).toContain(SAYS.askInChat);
    expect(askedAgain).toContain(SAYS.askInChat);
    expect(pushed).toMatch(/Process exited with code 0/);
    expect(other).toContain(SAYS.askInChat);
    expect(origin.head('main')).not.toBe(before);
    expect(origin.head('main')).toBe(git(world, world.project, ['rev-parse', 'HEAD']).trim());
    expect(origin.head('other')).toBeUndefined();
    const decisions = entriesFor(world, 'git push origin main').map((entry) => [entry.decision, entry.how]);
    expect(decisions).toEqual([
      ['ask', 'rules'],
      ['ask', 'rules'],
      ['allow', 'memory'],
    ]);
    expect(entriesFor(world, 'git push origin main:other').map((entry) => entry.decision)).toEqual(['ask']);
  });

  // The issue's own block-then-chat scenario: exec has nobody to ask, so the push comes back with the
  // away answer, which also carries an approval code; the person resumes the chat with a yes, and
  // the retried push runs once; another destination is asked again.
  it('block-then-chat in codex exec: the asked push is left out, and a yes in `codex exec resume` runs it once', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const first = await run([{ shell: 'git push origin main' }]);
    expect(origin.head('main')).toBe(before);
    // exec has nobody to ask: the away answer (SPEC §6), not the ask-in-chat one
    expect(first.model.toolOutputs()[0]).toContain(SAYS.away);
    expect(first.model.toolOutputs()[0]).toMatch(/approves it \(approval code [A-Z2-9]{4}\)/);
    expect(first.threadId).toBeDefined();

    const fake = await model([{ shell: 'git push origin main' }, { shell: 'git push origin main:other' }]);
    const resumed = await codexExec(world, fake, 'yes, go ahead', { resume: first.threadId ?? '' });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [pushed, other] = fake.toolOutputs().slice(-2);
    expect(pushed).toMatch(/Process exited with code 0/);
    expect(origin.head('main')).toBe(git(world, world.project, ['rev-parse', 'HEAD']).trim());
    expect(other).toMatch(/^Command blocked by PreToolUse hook: guard: /);
    expect(origin.head('other')).toBeUndefined();
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
      const { model: fake } = await run([{ shell: 'touch made-by-agent.txt' }]);
      expect(inProject(world, 'made-by-agent.txt')).toBe(runs);
      // fail-open judges the step as the first of a fresh chat (every rule that needs no memory
      // applies), and logs why; fail-closed blocks it as a failure
      expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
        runs
          ? { how: 'rules', decision: 'allow', error: expect.stringContaining("chat's memory could not be read") }
          : { how: 'failure', decision: 'block' },
      ]);
      expect(fake.toolOutputs()[0]).toMatch(
        runs ? /Process exited with code 0/ : /^Command blocked by PreToolUse hook: /,
      );
    },
  );
});
