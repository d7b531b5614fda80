import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { clinePrompt } from './harness/agents.js';
import { fakeClineModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Cline CLI (`cline --json`, headless, offline) against a fake OpenAI-compatible chat API,
// with guard set up by the built `guard setup cline` into a home whose hooks folder already holds
// a PreToolUse hook of the person's own (it records each step it sees). A headless task approves
// every tool by itself, so guard is the only gate. Cline exits 0 whether or not a step was stopped,
// so every test looks at what really happened: files, the bare remote, what the model was told
// next, guard's log, and the person's hook, which must still run beside guard's.

/** The person's own hook: it notes each tool it sees and says nothing (so the step may run). */
const MINE = '#!/bin/sh\ncat >> "$HOME/mine-saw.jsonl"\necho >> "$HOME/mine-saw.jsonl"\n';

let world: World;
let hooks: string;
const models: FakeModel[] = [];

/** Runs one scripted `cline --json` task and checks that Cline itself finished normally. */
async function run(script: readonly Turn[], prompt = 'do the task'): Promise<FakeModel> {
  const fake = await fakeClineModel({ script });
  models.push(fake);
  const result = await clinePrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return fake;
}

/** The folder's files and their texts, to compare before and after. */
function folder(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

/** How many steps the person's own hook saw. */
function mineSaw(): number {
  const file = join(world.home, 'mine-saw.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '').length
    : 0;
}

beforeAll(() => requireInstalled('cline'));

beforeEach(async () => {
  world = makeWorld();
  hooks = join(world.home, '.cline', 'hooks');
  mkdirSync(hooks, { recursive: true });
  writeFileSync(join(hooks, 'PreToolUse'), MINE, { mode: 0o755 });
  expect(await guardOk(world, ['setup', 'cline'])).toMatch(/^Created .*PreToolUse\.bash/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

describe('Cline CLI (cline --json) with guard', { timeout: scaled(240_000) }, () => {
  // One run proves what two did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command, and a force push never reaches the remote: its command is replaced by one that tells the model why; an asked push with nobody there to say yes goes back as "safer way, or leave it out", and flagged again it is left undone and reported; the person\'s hook runs beside guard\'s; uninstall gives the folder back byte for byte', async () => {
    const mine = folder(hooks);
    delete mine['PreToolUse.bash'];
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await run(STORY);
    const [, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'cline', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    // the replacement printed guard's reason and failed: Cline hands that to the model as the result
    expect(told).toMatch(/Command exited with code 1/);
    expect(told).toContain('guard: blocked (git.rewrite-shared-history');
    expectForcePushBlocked(world, told);
    expect(first).toContain('guard: blocked, because no one can approve this step here (git.push)');
    await expectAskedTwice(world, first, second);
    // the person's hook saw every step: guard's file runs beside it, never instead of it
    expect(mineSaw()).toBe(STORY.length);

    expect(await guardOk(world, ['uninstall', 'cline'])).toMatch(/Removed/);
    expect(folder(hooks)).toEqual(mine);
  });

  it("a blocked file write is cancelled (the file is never written, the task ends); guard's hook script gone: the file answers by itself with a cancel", async () => {
    const fake = await run([
      { create: { path: join(world.home, '.cline', 'hooks', 'PreToolUse.sh'), text: 'exit 0\n' } },
    ]);
    expect(existsSync(join(hooks, 'PreToolUse.sh'))).toBe(false);
    expect(fake.toolOutputs()).toEqual([]);
    expect(readLog(world).some((line) => line.decision === 'block' && line.agent === 'cline')).toBe(true);

    const file = join(hooks, 'PreToolUse.bash');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('hook-entry.cjs', 'moved-away.cjs'));
    const lines = readLog(world).length;
    await run([{ shell: 'touch made-by-agent.txt' }]);
    expect(inProject(world, 'made-by-agent.txt')).toBe(false);
    expect(readLog(world)).toHaveLength(lines);
  });
});

// `guard setup cline --project` writes the workspace's .clinerules/hooks/PreToolUse.bash, which a
// headless task runs with no trust question
describe('Cline CLI: guard set up at project level', { timeout: scaled(240_000) }, () => {
  it('the force push is blocked by the project hook file; uninstall removes the folders guard made', async () => {
    await guardOk(world, ['uninstall', 'cline']);
    expect(await guardOk(world, ['setup', 'cline', '--project'])).toMatch(/\.clinerules\/hooks\/PreToolUse\.bash/);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(fake.toolOutputs()[0]).toContain(SAYS.forcePush);
    expect(await guardOk(world, ['uninstall', 'cline', '--project'])).toMatch(/Removed/);
    expect(existsSync(join(world.project, '.clinerules'))).toBe(false);
  });
});
