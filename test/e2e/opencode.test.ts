import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { OPENCODE_CONFIG, opencodeRun, writeOpencodeConfig } from './harness/agents.js';
import { fakeChatModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guard, guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real OpenCode (`opencode run`, offline) against a fake chat-completions model, with guard set
// up by the built `guard setup opencode` (its plugin file) in a home that already holds the user's
// opencode.jsonc, comments and all. OpenCode's permissions let every tool run, so guard's plugin is
// the only gate. `opencode run` exits 0 whether or not a step was stopped, so every test looks at
// what really happened: files, the bare remote, what the model was told next, and guard's log.

let world: World;
const models: FakeModel[] = [];

beforeAll(() => requireInstalled('opencode'));

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
  const config = writeOpencodeConfig(world, fake);
  expect(await setupGuard(world, 'opencode')).toMatch(/^Created .*plugins\/guard\.js with guard's hook/);
  return { fake, config, plugin: join(world.home, '.config', 'opencode', 'plugins', 'guard.js') };
}

/** One `opencode run` that must end normally. */
async function run(prompt: string, args: readonly string[] = []): Promise<void> {
  const result = await opencodeRun(world, prompt, { args });
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
}

describe('OpenCode (opencode run) with guard', { timeout: scaled(180_000) }, () => {
  // One run proves what two did, one story per chat (STORY), and the person resumes that chat: each
  // step's answer is read from its own log entries and tool output.
  it('runs a harmless command and blocks git push --force (the remote keeps its commit, the model reads why); an asked push under opencode run (nobody reads the chat) is stopped with an approval code, and flagged again it is left undone; resumed with the person’s yes, it runs once; uninstall removes the plugin and leaves the config byte for byte', async () => {
    const { fake, config, plugin } = await setUp([
      ...STORY,
      { say: 'I left the push out.' },
      { shell: 'git push origin main' },
    ]);
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    await run('do the task');
    const [ran, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'opencode', event: 'tool.execute.before', decision: 'allow', rules: [] },
    ]);
    expect(ran).toBe('(no output)');
    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    // the plugin's throw reaches the model as the tool's error, word for word
    expect(told).toMatch(/^guard: blocked \(git\.rewrite-shared-history/);
    const code = /approval code ([A-Z2-9]{4})/.exec(first ?? '')?.[1];
    expect(code).toBeDefined();
    await expectAskedTwice(world, first, second);
    // the person's message reached guard first (where a yes would be read)
    expect(readLog(world).map((line) => line.event)).toEqual([
      'chat.message',
      ...STORY.map(() => 'tool.execute.before'),
    ]);

    // the person resumes the chat and approves it by its code: the next push goes ahead
    await run(`yes, ${code ?? ''}`, ['--continue']);
    expect(origin.head('main')).not.toBe(before);
    expect(entriesFor(world, 'git push origin main').map((entry) => entry.decision)).toEqual(['ask', 'ask', 'allow']);

    // the switch that keeps every plugin from loading is found by doctor
    const doctor = await guard(world, ['doctor'], { OPENCODE_PURE: '1' });
    expect(doctor.stdout).toContain("OPENCODE_PURE is set in this environment, so OpenCode runs none of guard's hooks");

    expect(await guardOk(world, ['uninstall', 'opencode'])).toContain('Removed');
    expect(existsSync(plugin)).toBe(false);
    expect(readFileSync(config, 'utf8')).toBe(OPENCODE_CONFIG.replace('@BASE_URL@', fake.baseUrl));
  });
});
