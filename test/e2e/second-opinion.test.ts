import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { startFakeModel } from '../../packages/cli/test/fake-model.js';
import type { FakeModel as Judge } from '../../packages/cli/test/fake-model.js';
import { codexExec, writeCodexConfig } from './harness/agents.js';
import { fakeResponsesModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { guardOk, makeWorld } from './harness/world.js';
import type { World } from './harness/world.js';

// The second opinion through the real Codex CLI (`codex exec`) and the built hook: the agent's
// model is a fake Responses API, the second opinion a fake chat/completions server on 127.0.0.1.
// A command no rule knows, irreversible and off-task by the judge's say, is held (and the agent
// told why) while the second opinion is on; with it off, the same command runs.

const OFF_TASK = 'node tools/migrate_down_all.js';
const REQUEST = 'fix the typo in README.md';

let world: World;
let judge: Judge;
const models: FakeModel[] = [];

beforeAll(() => requireInstalled('codex'));

beforeEach(async () => {
  world = makeWorld();
  writeCodexConfig(world);
  expect(await setupGuard(world, 'codex')).toMatch(/Codex already trusts/);
  // a stand-in migration that leaves a mark when it runs
  mkdirSync(join(world.project, 'tools'), { recursive: true });
  writeFileSync(
    join(world.project, 'tools', 'migrate_down_all.js'),
    "require('node:fs').writeFileSync('migrated-down.txt', 'all tables dropped\\n');\n",
  );
  judge = await startFakeModel('high');
});

afterEach(async () => {
  await closeAll(models);
  await judge.close();
  world.cleanup();
});

async function runOffTask(): Promise<FakeModel> {
  const fake = await fakeResponsesModel({ script: [{ shell: OFF_TASK }] });
  models.push(fake);
  const result = await codexExec(world, fake, REQUEST);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  return fake;
}

describe('the second opinion with the real Codex', { timeout: scaled(120_000) }, () => {
  it('on, the judge saying "high": the off-task command is held and the agent is told why', async () => {
    await guardOk(world, ['second-opinion', 'on', '--url', judge.url, '--model', 'fake-judge', '--timeout-ms', '1500']);
    const fake = await runOffTask();
    expect(inProject(world, 'migrated-down.txt')).toBe(false);
    const told = fake.toolOutputs()[0] ?? '';
    expect(told).toMatch(/^Command blocked by PreToolUse hook: /);
    expect(told).toContain("guard's second opinion");
    expect(told).toContain(SAYS.away);
    // the judge was sent the person's request and the command, once
    expect(judge.bodies).toHaveLength(1);
    const sent = JSON.stringify(judge.bodies[0]);
    expect(sent).toContain(REQUEST);
    expect(sent).toContain(OFF_TASK);
    expect(entriesFor(world, OFF_TASK)).toMatchObject([
      { decision: 'ask', rules: ['second-opinion'], opinion: { outcome: 'raised' } },
    ]);
  });

  it('off: the same command runs and nothing is sent', async () => {
    const fake = await runOffTask();
    expect(inProject(world, 'migrated-down.txt')).toBe(true);
    expect(fake.toolOutputs()[0]).toMatch(/Process exited with code 0/);
    expect(judge.bodies).toHaveLength(0);
    expect(entriesFor(world, OFF_TASK)).toMatchObject([{ decision: 'allow', how: 'rules' }]);
    expect(entriesFor(world, OFF_TASK)[0]?.opinion).toBeUndefined();
  });
});
