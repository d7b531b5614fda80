import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { codexExec, writeCodexConfig } from './harness/agents.js';
import { fakeResponsesModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { git, guardOk, makeWorld, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// Modes (SPEC §12) with the real Codex CLI (`codex exec`, nobody at the chat) against a fake
// Responses API: what the person's mode lets through really runs, the never list blocks in every
// mode, and the agent cannot change the mode.

let world: World;
const models: FakeModel[] = [];

async function run(script: readonly Turn[]): Promise<FakeModel> {
  const fake = await fakeResponsesModel({ script });
  models.push(fake);
  const result = await codexExec(world, fake, 'do the task');
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  return fake;
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

describe('Codex (codex exec) in each mode', { timeout: scaled(120_000) }, () => {
  it('full: a push runs unasked, and the log says the mode let it through', async () => {
    await guardOk(world, ['mode', 'full']);
    const origin = remote(world, 'ahead');
    await run([{ shell: 'git push origin main' }]);
    expect(origin.head('main')).toBe(git(world, world.project, ['rev-parse', 'HEAD']).trim());
    expect(entriesFor(world, 'git push origin main')).toMatchObject([
      { decision: 'ask', answer: 'allow', how: 'mode', mode: 'full', rules: ['git.push'] },
    ]);
  });

  // Where one chat can prove two points it does (a run of Codex each is most of this file's time):
  // the remote is only ahead where a push is asked, so any push that got through would move it.
  it('extended: a push is still asked (nobody here can answer, so it does not run), and a force push is blocked', async () => {
    await guardOk(world, ['mode', 'extended']);
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push origin main' }, { shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    const [asked, forced] = fake.toolOutputs();
    expect(asked).toContain(SAYS.away);
    expect(forced).toContain(SAYS.forcePush);
  });

  it('full: a force push is blocked', async () => {
    await guardOk(world, ['mode', 'full']);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(fake.toolOutputs()[0]).toContain(SAYS.forcePush);
  });

  it("standard: a force push is blocked; the agent's own guard mode full is blocked, and the mode stays as the person set it", async () => {
    writeFileSync(join(world.guardHome, 'settings.yaml'), '# mine\nmode: standard\n');
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const fake = await run([{ shell: 'git push --force origin main' }, { shell: 'guard mode full' }]);
    expect(origin.head('main')).toBe(before);
    const [forced, tampered] = fake.toolOutputs();
    expect(forced).toContain(SAYS.forcePush);
    expect(tampered).toMatch(/^Command blocked by PreToolUse hook: guard: blocked \(guard\.tamper/);
    expect(readFileSync(join(world.guardHome, 'settings.yaml'), 'utf8')).toBe('# mine\nmode: standard\n');
    expect(JSON.parse(await guardOk(world, ['mode', '--json']))).toEqual({ mode: 'standard', changed: false });
  });
});
