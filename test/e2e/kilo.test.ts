import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { KILO_CONFIG, kiloRun, writeKiloConfig } from './harness/agents.js';
import { fakeChatModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guard, guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Kilo Code CLI (`kilo run`, offline: its platform package's binary) against a fake
// chat-completions model, with guard set up by the built `guard setup kilo` (OpenCode's plugin
// file, in Kilo's folder) in a home that already holds the user's kilo.jsonc. Kilo's permissions
// let every tool run, so guard's plugin is the only gate; `kilo run` exits 0 either way, so every
// test looks at what really happened: files, the bare remote, what the model was told, guard's log.

let world: World;
const models: FakeModel[] = [];

beforeAll(() => requireInstalled('kilo'));

beforeEach(() => {
  world = makeWorld();
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

/** A fake model with this script, the user's config pointing at it, and guard set up. */
async function setUp(script: readonly Turn[]): Promise<{ fake: FakeModel; config: string; plugin: string }> {
  const fake = await fakeChatModel({ script });
  models.push(fake);
  const config = writeKiloConfig(world, fake);
  expect(await setupGuard(world, 'kilo')).toMatch(/^Created .*kilo\/plugins\/guard\.js with guard's hook/);
  return { fake, config, plugin: join(world.home, '.config', 'kilo', 'plugins', 'guard.js') };
}

/** One `kilo run` that must end normally. */
async function run(prompt: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<void> {
  const result = await kiloRun(world, prompt, { args, env });
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
}

describe('Kilo Code CLI (kilo run) with guard', { timeout: scaled(180_000) }, () => {
  // One run proves what two did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); an asked push under kilo run (nobody reads the chat) is stopped with an approval code, and flagged again it is left undone; uninstall removes the plugin and leaves the config byte for byte', async () => {
    const { fake, config, plugin } = await setUp([...STORY, { say: 'I left the push out.' }]);
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    // KILO_DISABLE_DEFAULT_PLUGINS leaves out Kilo's own plugins, not guard's
    await run('do the task', [], { KILO_DISABLE_DEFAULT_PLUGINS: '1' });
    const [, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'kilo', event: 'tool.execute.before', decision: 'allow', rules: [] },
    ]);
    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expect(expectForcePushBlocked(world, told)).toMatchObject({ agent: 'kilo' });
    // the plugin's throw reaches the model as the tool's error, word for word
    expect(told).toMatch(/^guard: blocked \(git\.rewrite-shared-history/);
    expect(first).toMatch(/approval code [A-Z2-9]{4}/);
    await expectAskedTwice(world, first, second);
    expect(readLog(world).map((line) => line.event)).toEqual([
      'chat.message',
      ...STORY.map(() => 'tool.execute.before'),
    ]);

    // the switch that keeps every plugin from loading is found by doctor
    const doctor = await guard(world, ['doctor'], { KILO_PURE: '1' });
    expect(doctor.stdout).toContain(
      "KILO_PURE is set in this environment, so Kilo Code CLI runs none of guard's hooks",
    );

    // Kilo left the user's config as it was, and so does guard's uninstall
    expect(readFileSync(config, 'utf8')).toBe(KILO_CONFIG.replace('@BASE_URL@', fake.baseUrl));
    expect(await guardOk(world, ['uninstall', 'kilo'])).toContain('Removed');
    expect(existsSync(plugin)).toBe(false);
    expect(readFileSync(config, 'utf8')).toBe(KILO_CONFIG.replace('@BASE_URL@', fake.baseUrl));
  });
});
