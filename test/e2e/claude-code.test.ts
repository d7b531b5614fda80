import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plainCommand } from '../../packages/adapters/src/index.js';
import { scaled } from '../machine.js';
import { CLAUDE_SETTINGS, claudePrompt, writeClaudeSettings } from './harness/agents.js';
import { fakeMessagesModel } from './harness/fake-model.js';
import type { FakeModel, Turn } from './harness/fake-model.js';
import { closeAll, entriesFor, inProject, requireInstalled, setupGuard } from './harness/scenario.js';
import { expectAskedTwice, expectForcePushBlocked, STORY } from './harness/story.js';
import { guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// The real Claude Code (its native binary, `claude -p --dangerously-skip-permissions`, offline)
// against a fake Anthropic Messages API, with guard set up by the built `guard setup claude-code`
// into a home that already holds the user's settings.json. Skipping permissions leaves guard as
// the only gate. Claude Code exits 0 whether or not a step was denied, so every test looks at what
// really happened: files, the bare remote, what the model was told next, and guard's log.

let world: World;
let settings: string;
const models: FakeModel[] = [];

/** What `claude -p --output-format json` prints: the tool calls that were refused, among others. */
interface ClaudeResult {
  readonly is_error: boolean;
  readonly permission_denials: readonly { readonly tool_name: string; readonly tool_input: unknown }[];
}

/** The part of settings.json these tests change: each event's groups of handlers. */
interface ClaudeSettings {
  readonly hooks: Readonly<Record<string, readonly { readonly hooks: { command: string; onFailure?: string }[] }[]>>;
}

/** Runs one scripted `claude -p` and checks that Claude Code itself finished normally. */
async function run(
  script: readonly Turn[],
  prompt = 'do the task',
): Promise<{ fake: FakeModel; result: ClaudeResult }> {
  const fake = await fakeMessagesModel({ script });
  models.push(fake);
  const result = await claudePrompt(world, fake, prompt);
  expect(result.timedOut, result.stderr).toBe(false);
  expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
  return { fake, result: JSON.parse(result.stdout) as ClaudeResult };
}

beforeAll(() => requireInstalled('claude-code'));

beforeEach(async () => {
  world = makeWorld();
  settings = writeClaudeSettings(world);
  expect(await setupGuard(world, 'claude-code')).toMatch(/^Updated .*settings\.json: added guard's hook/);
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

// how Claude Code hands a hook's deny to the model
const DENIED = /^PreToolUse:Bash hook error: guard: /;

describe('Claude Code (claude -p) with guard', { timeout: scaled(120_000) }, () => {
  // One run proves what three did, one story per chat (STORY): each step's answer is read from its
  // own log entries and tool output.
  it('runs a harmless command with the user\'s own hooks beside guard\'s; blocks git push --force to a bare remote (the remote keeps its commit, the model reads why); an asked push under -p (nobody there to say yes) goes back as "safer way, or leave it out", and flagged again it is left undone and reported; uninstall gives settings.json back byte for byte', async () => {
    const origin = remote(world, 'ahead');
    const before = origin.head('main');
    const { fake, result } = await run(STORY);
    const [ran, told, first, second] = fake.toolOutputs();

    expect(inProject(world, 'made-by-agent.txt')).toBe(true);
    expect(ran).toBe('(Bash completed with no output)');
    expect(entriesFor(world, 'touch made-by-agent.txt')).toMatchObject([
      { agent: 'claude-code', event: 'PreToolUse', decision: 'allow', rules: [] },
    ]);
    // the steps refused are the pushes, not the harmless command
    expect(result.permission_denials).toMatchObject(
      ['git push --force origin main', 'git push origin main', 'git push origin main'].map((command) => ({
        tool_name: 'Bash',
        tool_input: { command },
      })),
    );
    // the chat's start, the person's message and the result reached guard too
    expect(readLog(world).map((entry) => entry.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PreToolUse',
      'PreToolUse',
      'PreToolUse',
    ]);
    // and guard told the model it is on, at the start
    expect(JSON.stringify(fake.turnRequests()[0]?.body)).toContain('guard is on: it checks each tool step');

    // neither push reached the remote
    expect(origin.head('main')).toBe(before);
    expectForcePushBlocked(world, told);
    expect(told).toMatch(DENIED);
    expect(first).toMatch(DENIED);
    await expectAskedTwice(world, first, second);
    // the log names the step, the rule and why, for `guard log`
    const log = await guardOk(world, ['log', '--decision', 'block']);
    expect(log).toContain('git push --force origin main');
    expect(log).toContain('git.rewrite-shared-history');

    expect(await guardOk(world, ['uninstall', 'claude-code'])).toContain('Restored');
    expect(readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS);
  });

  it.for([
    // an older setup's plain command: Node exits 1 before guard runs, and Claude Code's own onFailure decides
    { form: 'plain', failClosed: true, runs: false, says: 'failed; blocking because onFailure is "block"' },
    { form: 'plain', failClosed: false, runs: true, says: undefined },
    // the command setup writes now answers by itself: blocked, or asked (which -p refuses), never run unchecked
    {
      form: 'own answer',
      failClosed: true,
      runs: false,
      says: "guard: blocked. This step was not checked: guard's files are gone",
    },
    { form: 'own answer', failClosed: false, runs: false, says: undefined },
  ])(
    'with fail-closed $failClosed, a PreToolUse command ($form) whose hook script is gone lets the step run: $runs',
    async ({ form, failClosed, runs, says }) => {
      // turning fail-closed on sets Claude Code's own switch on guard's entries where it is set up
      if (failClosed) expect(await guardOk(world, ['fail-closed', 'on'])).toMatch(/refreshed guard's hook/);
      const parsed = JSON.parse(readFileSync(settings, 'utf8')) as ClaudeSettings;
      const pre = parsed.hooks['PreToolUse']?.at(-1)?.hooks[0];
      expect(pre?.onFailure).toBe(failClosed ? 'block' : undefined);
      // guard's PreToolUse command names a script that is not there
      if (pre) {
        const command = form === 'plain' ? plainCommand(pre.command) : pre.command;
        pre.command = command.replaceAll('hook-entry.cjs', 'moved-away.cjs');
      }
      writeFileSync(settings, JSON.stringify(parsed, null, 2));
      const { fake, result } = await run([{ shell: 'touch made-by-agent.txt' }]);
      expect(inProject(world, 'made-by-agent.txt')).toBe(runs);
      if (says !== undefined) expect(fake.toolOutputs()[0]).toContain(says);
      if (form === 'own answer') expect(result.permission_denials).toHaveLength(1);
      // the other events still reached guard; the step never did
      expect(readLog(world).flatMap((entry) => entry.event ?? [])).toEqual(
        runs ? ['SessionStart', 'UserPromptSubmit', 'PostToolUse'] : ['SessionStart', 'UserPromptSubmit'],
      );
    },
  );

  it('fail-closed, and every hook command broken (the checkout moved): each answers by itself, the model is told why, the step is blocked', async () => {
    await guardOk(world, ['fail-closed', 'on']);
    writeFileSync(settings, readFileSync(settings, 'utf8').replaceAll('hook-entry.cjs', 'moved-away.cjs'));
    const { fake } = await run([{ shell: 'touch made-by-agent.txt' }]);
    expect(inProject(world, 'made-by-agent.txt')).toBe(false);
    expect(fake.toolOutputs()[0]).toMatch(/^PreToolUse:Bash hook error: guard: blocked\. This step was not checked/);
    // the start and the prompt carried the notice to the model (their own answer), and guard heard of nothing
    expect(JSON.stringify(fake.turnRequests()[0])).toContain('guard checks no step: its files are gone');
    expect(readLog(world).flatMap((entry) => entry.event ?? [])).toEqual([]);
  });
});

// `guard setup claude-code --project` writes the project's .claude/settings.json, which Claude Code
// reads as well (in -p without asking about the folder)
describe('Claude Code: guard set up at project level', { timeout: scaled(120_000) }, () => {
  it('a project .claude/settings.json is read by claude -p too: the force push is blocked', async () => {
    await guardOk(world, ['uninstall', 'claude-code']);
    expect(readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS);
    expect(await guardOk(world, ['setup', 'claude-code', '--project'])).toMatch(/\.claude\/settings\.json/);
    const origin = remote(world, 'diverged');
    const before = origin.head('main');
    const { result } = await run([{ shell: 'git push --force origin main' }]);
    expect(origin.head('main')).toBe(before);
    expect(result.permission_denials).toHaveLength(1);
    expect(readFileSync(join(world.project, '.claude', 'settings.json'), 'utf8')).toContain('hook claude-code');
  });
});
