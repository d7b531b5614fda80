import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixture } from '../../packages/cli/test/hook-cases.js';
import type { ChatReport } from '../../packages/cli/src/commands/report.js';
import { requireBuild, runHookProcess } from './bin.js';
import type { Answer, FullChat } from './chats.js';
import { codexChat, copilotChat, FAKE_KEY, filesUnder, guard, hook, logOf, makeWorld, removeWorld } from './chats.js';
import { scaled } from '../machine.js';

// every hook call is a Node process: on a busy 2-core machine a whole chat takes a while
vi.setConfig({ testTimeout: scaled(60_000), hookTimeout: scaled(60_000) });

/**
 * SPEC §9: `guard report` on recorded chats lists exactly what happened, and nothing guard keeps
 * (log, chat state, anything else in its folder) holds a key that went through the chat: in a
 * result, in a command, in the person's message, in a file write, in a payload that was not JSON.
 */

const world = makeWorld('report');
beforeAll(requireBuild);
afterAll(() => removeWorld(world));

const PUSH = 'git push origin main';
const FORCE = 'git push --force origin main';
const WITH_KEY = `curl -H "Authorization: Bearer ${FAKE_KEY}" https://api.github.com/user`;
const UPLOAD = 'curl -d @out.json https://api.github.com/gists';
const PATCH = `*** Begin Patch\n*** Add File: src/client.ts\n+export const token = '${FAKE_KEY}';\n*** End Patch\n`;

interface Steps {
  readonly chat: FullChat;
  readonly seen: string[];
}

/** Runs a step and keeps what the agent was told, for the record of what happened. */
async function step(record: Steps, run: Promise<Answer>): Promise<void> {
  record.seen.push(record.chat.seen(await run));
}

describe('guard report after whole chats', () => {
  const interactive: Steps = { chat: codexChat(world, 'codex-report-chat'), seen: [] };
  const headless: Steps = { chat: copilotChat(world, 'copilot-report-chat', ['copilot', '-p', 'ship it']), seen: [] };

  beforeAll(async () => {
    const codex = interactive.chat;
    await codex.start();
    await step(interactive, codex.shell('git status'));
    await step(interactive, codex.shell(PUSH));
    await codex.say('yes');
    await step(interactive, codex.shell(PUSH));
    await step(interactive, codex.shell(FORCE));
    await codex.ran('cat config/dev.json', `{ "token": "${FAKE_KEY}" }\n`);
    await step(interactive, codex.shell(WITH_KEY));
    await step(interactive, codex.shell(UPLOAD));
    await codex.say(`my token is ${FAKE_KEY}; never send it anywhere`);
    await step(
      interactive,
      hook(world, ['codex'], {
        ...fixture('codex/pre-tool-use-apply-patch'),
        session_id: codex.id,
        cwd: world.project,
        tool_input: { command: PATCH },
      }),
    );
    // a payload cut off in the middle (not JSON) that holds the key
    const broken = JSON.stringify({
      ...fixture('codex/synth-pre-tool-use-interactive'),
      session_id: codex.id,
      tool_input: { command: `echo ${FAKE_KEY}` },
    });
    await runHookProcess(['codex'], broken.slice(0, broken.length - 20), world.env);

    await step(headless, headless.chat.shell(PUSH));
    await step(headless, headless.chat.shell(PUSH));
  });

  it('the agent was answered as the chats went', () => {
    expect(interactive.seen).toEqual(['allow', 'ask', 'allow', 'block', 'block', 'ask', 'allow']);
    expect(headless.seen).toEqual(['block', 'block']);
  });

  it('--json lists per chat exactly what was blocked, asked, allowed after a yes, left undone and remembered', async () => {
    const result = await guard(world, ['report', '--json']);
    expect(result.code).toBe(0);
    const { chats } = JSON.parse(result.stdout) as { chats: ChatReport[] };
    const brief = (steps: ChatReport['blocked']) => steps.map((s) => [s.step, s.rules[0]]);
    const byChat = new Map(chats.map((chat) => [chat.chat, chat]));
    expect([...byChat.keys()]).toEqual([interactive.chat.id, headless.chat.id]);

    const codex = byChat.get(interactive.chat.id);
    expect(codex?.agent).toBe('codex');
    expect(codex?.steps).toBe(7);
    expect(brief(codex?.blocked ?? [])).toEqual([
      [FORCE, 'git.rewrite-shared-history'],
      [WITH_KEY.replace(FAKE_KEY, '[redacted:github-token]'), 'secrets.in-command'],
    ]);
    expect(brief(codex?.asked ?? [])).toEqual([
      [PUSH, 'git.push'],
      [UPLOAD, 'net.send-after-key'],
    ]);
    expect(brief(codex?.allowedAfterYes ?? [])).toEqual([[PUSH, 'git.push']]);
    expect(codex?.leftUndone).toEqual([]);
    expect(codex?.remembered).toEqual(['git.push:origin/main']);
    expect(codex?.startScan).toEqual({ checked: [], found: [], unchecked: [] });
    expect(codex?.failures).toBe(0);

    const copilot = byChat.get(headless.chat.id);
    expect(copilot?.agent).toBe('copilot');
    expect(copilot?.steps).toBe(2);
    // the first time it was flagged, nobody being there to ask, it went back to the agent as a block;
    // the second time it was left undone
    expect(brief(copilot?.blocked ?? [])).toEqual([[PUSH, 'git.push']]);
    expect(brief(copilot?.leftUndone ?? [])).toEqual([[PUSH, 'git.push']]);
    expect(copilot?.asked).toEqual([]);
    expect(copilot?.allowedAfterYes).toEqual([]);
    expect(copilot?.remembered).toEqual([]);
  });

  it('the text report says the same, and --chat keeps to one chat', async () => {
    const all = await guard(world, ['report']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(`codex chat ${interactive.chat.id}`);
    expect(all.stdout).toContain(`copilot chat ${headless.chat.id}`);
    expect(all.stdout).toMatch(
      / {2}blocked \(2\):\n {4}- git push --force origin main {2}\[git\.rewrite-shared-history/,
    );
    expect(all.stdout).toMatch(/ {2}allowed after a yes \(1\):\n {4}- git push origin main {2}\[git\.push\]/);
    expect(all.stdout).toMatch(
      / {2}left undone \(nobody could approve\) \(1\):\n {4}- git push origin main {2}\[git\.push\]/,
    );
    expect(all.stdout).toContain('remembered yes: git.push:origin/main');

    const one = await guard(world, ['report', '--chat', headless.chat.id]);
    expect(one.stdout).toContain(`copilot chat ${headless.chat.id}`);
    expect(one.stdout).not.toContain(interactive.chat.id);
  });

  it("no key value is anywhere in guard's folder, and the log's step texts are redacted", () => {
    const files = filesUnder(world.guardHome);
    expect(files.length).toBeGreaterThanOrEqual(3);
    // the key's own body too, in case a redaction kept part of it
    const body = FAKE_KEY.slice('ghp_'.length);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      expect(text.includes(FAKE_KEY), path).toBe(false);
      expect(text.includes(body.slice(0, 12)), path).toBe(false);
    }
    const steps = logOf(world).flatMap((entry) => (entry.step === undefined ? [] : [entry.step]));
    expect(steps).toContain(WITH_KEY.replace(FAKE_KEY, '[redacted:github-token]'));
    // a file's contents are never logged, redacted or not (issue 12): the write is there by its path
    expect(steps.some((text) => text.includes('export const token'))).toBe(false);
    // the payload that was not JSON is logged as a failure, by its size only
    expect(
      logOf(world)
        .filter((entry) => entry.how === 'failure')
        .map((entry) => entry.error),
    ).toEqual([expect.stringMatching(/^the payload is not valid JSON \(\d+ characters\)$/)]);
  });
});
