import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { copilotPrompt } from './harness/agents.js';
import { fakeChatModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, SAYS, setupGuard } from './harness/scenario.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Copilot CLI running a repository's .claude/settings.json hooks (it reads them in a
// folder the person trusted) beside guard's own Copilot hook: `guard setup claude-code --project`
// writes guard's Claude Code hook into the repository, `guard setup copilot` guard's Copilot hook
// into the person's Copilot folder. Both fire for each tool call; guard decides the call once.

let world: World;
const models: FakeModel[] = [];
// Copilot unpacks itself (about 235 MB) into its cache folder on first run: once per suite.
const cache = mkdtempSync(join(tmpdir(), 'guard-e2e-copilot-cache-'));

async function run(script: readonly Turn[]): Promise<FakeModel> {
  const fake = await fakeChatModel({ script });
  models.push(fake);
  const result = await copilotPrompt(world, fake, 'do the task');
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  // Copilot read the repository's settings file (it says so on stderr when it cannot)
  expect(result.stderr).not.toMatch(/settings file .* could not be loaded/);
  return fake;
}

beforeAll(() => requireInstalled('copilot'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

beforeEach(() => {
  world = makeWorld({ cacheHome: cache });
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

/** guard's Claude Code hook in the repository, and the folder trusted in Copilot (or it reads no .claude file). */
async function claudeHookInRepository(): Promise<string> {
  await guardOk(world, ['setup', 'claude-code', '--project']);
  writeFileSync(join(world.copilotHome, 'config.json'), `${JSON.stringify({ trustedFolders: [world.project] })}\n`);
  return readFileSync(join(world.project, '.claude', 'settings.json'), 'utf8');
}

describe(
  "Copilot (copilot -p) running guard's Claude Code hook from the repository",
  { timeout: scaled(120_000) },
  () => {
    it('with only that hook: the force push is blocked, read and logged as Copilot’s', async () => {
      const origin = remote(world, 'diverged');
      await claudeHookInRepository();
      const before = origin.head('main');
      const fake = await run([{ shell: 'git push --force origin main' }]);
      expect(origin.head('main')).toBe(before);
      expect(fake.toolOutputs()[0]).toMatch(/^Denied by preToolUse hook: guard: blocked \(git\.rewrite-shared-history/);
      expect(entriesFor(world, 'git push --force origin main')).toMatchObject([
        { agent: 'copilot', event: 'PreToolUse', decision: 'block', how: 'rules' },
      ]);
    });

    // one run for both rows with both hooks (a Copilot start each was most of this file's time)
    it('with guard’s Copilot hook too: a harmless command runs, logged once as Copilot’s; the force push is blocked once: the remote keeps its commit, one log line, Copilot’s own words', async () => {
      expect(await setupGuard(world, 'copilot')).toMatch(/^Created .*guard\.json/);
      const origin = remote(world, 'diverged');
      const settings = await claudeHookInRepository();
      expect(settings).toContain('hook claude-code');
      const before = origin.head('main');
      const fake = await run([{ shell: 'touch made-by-agent.txt' }, { shell: 'git push --force origin main' }]);

      expect(inProject(world, 'made-by-agent.txt')).toBe(true);
      // both hooks ran (nothing denied); the second gave the first one's answer without a line of its
      // own (with each deciding alone, this run logged two lines: the same call's time in both payloads)
      expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
        { agent: 'copilot', event: 'preToolUse', decision: 'allow' },
      ]);

      expect(origin.head('main')).toBe(before);
      const told = fake.toolOutputs()[1] ?? '';
      expect(told).toMatch(/^Denied by preToolUse hook: guard: /);
      expect(told).toContain(SAYS.forcePush);
      // Copilot runs the person's hooks before the repository's and stops at the first deny: guard's
      // Copilot hook denied it, and the repository's Claude Code hook never ran
      const entries = entriesFor(world, 'git push --force origin main');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ agent: 'copilot', event: 'preToolUse', decision: 'block', how: 'rules' });
      expect(readLog(world).filter((entry) => entry.agent === 'claude-code')).toEqual([]);
    });
  },
);
