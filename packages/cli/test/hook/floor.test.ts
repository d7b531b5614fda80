import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '@guard/adapters/agents';
import { asksEachTime, EMPTY_POLICY, notKeptForProject } from '@guard/core';
import type { Policy } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookDeps } from '../../src/hook/call.js';
import { readStep } from '../../src/hook/step.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { readAllowed } from '../../src/state/allowed.js';
import { AGENT_CASES, fixture } from '../hook-cases.js';
import { hookReply, stageCall } from './stage-call.js';
import { writeSystemSettings } from '../system-root.js';

// The system settings floor in the hook, under a scratch system root: every floor field against
// every way a user's files could loosen it (settings.yaml; a project's allow list, a yes kept for
// the project and the mode for a locked rule) stays in force; near misses tighten or touch another
// rule; no system file answers as today.

let guardHome: string;
let root: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-floor-'));
  root = join(guardHome, 'system-root');
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const writeUser = (text: string): void => writeFileSync(join(guardHome, 'settings.yaml'), text);

async function settingsRead(): Promise<Awaited<ReturnType<typeof readStep>> & { err: string[] }> {
  const payload = JSON.stringify({ ...fixture('codex/synth-pre-tool-use-interactive'), tool_input: { command: 'ls' } });
  const { call, err } = await stageCall(['codex'], guardHome, { stdin: payload, deps: { systemRoot: root } });
  return { ...(await readStep(call)), err };
}

describe('readStep: the user settings held to the system floor', () => {
  it.for([
    {
      name: 'fail-closed off below fail-closed',
      system: 'failClosed: true\n',
      user: 'failClosed: false\n',
      want: { failClosed: true },
    },
    {
      name: 'guard off where off is not allowed',
      system: 'offAllowed: false\n',
      user: 'enabled: false\n',
      want: { enabled: true },
    },
    {
      name: 'mode full above extended',
      system: 'mostPermissiveMode: extended\n',
      user: 'mode: full\n',
      want: { mode: 'extended' },
    },
    {
      name: 'mode extended above standard',
      system: 'mostPermissiveMode: standard\n',
      user: 'mode: extended\n',
      want: { mode: 'standard' },
    },
    { name: 'strict off below strict', system: 'strict: true\n', user: 'strict: false\n', want: { strict: true } },
    {
      name: 'the second opinion off below one set',
      system: 'secondOpinion: true\nsecondOpinionUrl: https://judge.example/v1\nsecondOpinionModel: judge-1\n',
      user: 'secondOpinion: false\n',
      want: { secondOpinion: { on: true, config: { model: 'judge-1' } } },
    },
    // near misses: tightening is kept, a floor that does not govern the setting leaves it
    {
      name: 'near miss: fail-closed on with no floor for it',
      system: 'strict: true\n',
      user: 'failClosed: true\n',
      want: { failClosed: true, strict: true },
    },
    {
      name: 'near miss: mode standard under extended',
      system: 'mostPermissiveMode: extended\n',
      user: 'mode: standard\n',
      want: { mode: 'standard' },
    },
    {
      name: 'near miss: guard off where allowed',
      system: 'failClosed: true\n',
      user: 'enabled: false\n',
      want: { enabled: false, failClosed: true },
    },
    // no system file: the user's settings as they are
    {
      name: 'no system file: guard off',
      system: undefined,
      user: 'enabled: false\nmode: full\n',
      want: { enabled: false, mode: 'full', failClosed: false },
    },
    // a system file that cannot be used: the strictest, whatever the user's say
    {
      name: 'a broken system file',
      system: 'failClosed: [\n',
      user: 'enabled: false\nmode: full\n',
      want: { enabled: true, failClosed: true, strict: true, mode: 'standard' },
    },
  ])('$name', async ({ system, user, want }) => {
    if (system !== undefined) writeSystemSettings(root, system);
    writeUser(user);
    const { settings, err } = await settingsRead();
    expect(settings).toMatchObject(want);
    expect(err.some((line) => line.includes('system settings'))).toBe(system === 'failClosed: [\n');
  });

  it('the locked rules reach the decision; a broken file locks every rule', async () => {
    writeSystemSettings(root, 'lockedRules: git.push\n');
    expect((await settingsRead()).lockedRules).toEqual(['git.push']);
    writeSystemSettings(root, 'lockedRules: [\n');
    expect((await settingsRead()).lockedRules).toEqual(['*']);
    rmSync(root, { recursive: true });
    expect((await settingsRead()).lockedRules).toEqual([]);
  });
});

/** A Codex chat: a shell step and the person's message in it, and whether guard's answer asks. */
const SHELL = fixture('codex/synth-pre-tool-use-interactive');
const PROMPT = fixture('codex/user-prompt-submit');
const inChat = (chat: string, command: string) => ({ ...SHELL, session_id: chat, tool_input: { command } });
const say = (chat: string, prompt: string) => ({ ...PROMPT, session_id: chat, prompt });
const asks = (stdout: string): boolean => stdout.includes("person's approval first");

describe('guard hook: a locked rule stays asked, whatever would let it go ahead', () => {
  const allowAll = (rule: string): Policy => ({ ...EMPTY_POLICY, allow: [{ rule, paths: [] }] });

  async function hook(payload: unknown, deps: HookDeps = {}): Promise<string> {
    const { code, stdout } = await hookReply(['codex'], guardHome, payload, { systemRoot: root, ...deps });
    expect(code).toBe(0);
    return stdout;
  }

  /** Each way to let a step go ahead unasked: sets it up, and runs the step in a fresh chat. */
  const WAYS: Readonly<Record<string, (command: string, rule: string) => Promise<string>>> = {
    'mode full': async (command) => {
      writeUser('mode: full\n');
      return hook(inChat('c-mode', command));
    },
    "the project's allow list": async (command, rule) =>
      hook(inChat('c-policy', command), { policy: async () => ({ policy: allowAll(rule) }) }),
    'a yes kept for the project': async (command) => {
      // the person's "yes, for this project" in one chat is the project's yes in the next
      await hook(inChat('c-yes', command));
      await hook(say('c-yes', 'yes, for this project'));
      return hook(inChat('c-next', command));
    },
  };

  const ROWS: readonly { command: string; rule: string; ways: readonly string[] }[] = [
    {
      command: 'pnpm add zod',
      rule: 'pkg.install',
      ways: ['mode full', "the project's allow list", 'a yes kept for the project'],
    },
    { command: 'git push origin feature', rule: 'git.push', ways: ['mode full', "the project's allow list"] },
  ];

  it.for(
    ROWS.flatMap(({ command, rule, ways }) =>
      ways.flatMap((way) => [
        { name: `${rule} locked, ${way}`, command, rule, way, system: `lockedRules: ${rule}\n`, asked: true },
        { name: `every rule locked, ${rule}, ${way}`, command, rule, way, system: "lockedRules: '*'\n", asked: true },
        { name: `a broken system file, ${rule}, ${way}`, command, rule, way, system: 'lockedRules: [\n', asked: true },
        // near misses: another rule locked, or no system file at all, and the step goes ahead as today
        {
          name: `near miss: fs.delete locked, ${rule}, ${way}`,
          command,
          rule,
          way,
          system: 'lockedRules: fs.delete\n',
          asked: false,
        },
        { name: `near miss: no system file, ${rule}, ${way}`, command, rule, way, system: undefined, asked: false },
      ]),
    ),
  )('$name', async ({ command, rule, way, system, asked }) => {
    if (system !== undefined) writeSystemSettings(root, system);
    const stdout = await WAYS[way]?.(command, rule);
    expect(asks(stdout ?? '')).toBe(asked);
    if (!asked) expect(stdout).toBe('');
  });

  it('a yes in the chat still answers the ask of a locked rule (the rule asks; it is not turned off)', async () => {
    writeSystemSettings(root, 'lockedRules: git.push\n');
    expect(asks(await hook(inChat('c1', 'git push origin feature')))).toBe(true);
    await hook(say('c1', 'yes'));
    expect(await hook(inChat('c1', 'git push origin feature'))).toBe('');
  });

  it('guard off where the system settings do not allow it: the never list still blocks, and the log says checked', async () => {
    writeSystemSettings(root, 'offAllowed: false\n');
    writeUser('enabled: false\n');
    const stdout = await hook(inChat('c1', 'git push --force origin main'));
    expect(stdout).toContain('deny');
    const lines = readFileSync(join(guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1) ?? '{}') as LogEntry;
    expect(last.how).not.toBe('off');
    expect(last.project).toBeDefined();
  });
});

describe('a locked rule: the ask offers only the yes the hook will honour', () => {
  const PUSH = 'git push origin feature';
  // a yes kept for the push, not for stopping programs by name
  const BOTH = 'git push origin feature; pkill node';
  const answer = async (agentCase: (typeof AGENT_CASES)[number], command: string): Promise<string> => {
    const result = await hookReply(agentCase.args, guardHome, agentCase.shell(command), { systemRoot: root });
    expect(agentCase.wellFormed(result)).toBe(true);
    return result.stdout;
  };
  // (quoted inside a JSON reply, or as it is in a plain one)
  const PROJECT_OFFER = /\\?"yes, for this project\\?"/;

  it.for(
    AGENT_CASES.flatMap((agentCase) => [
      { name: `${agentCase.agent}, git.push locked`, agentCase, system: 'lockedRules: git.push\n', locked: true },
      { name: `${agentCase.agent}, every rule locked`, agentCase, system: "lockedRules: '*'\n", locked: true },
      // near miss: another rule locked, the push's yes may be kept for the project
      {
        name: `${agentCase.agent}, near miss: pkg.install locked`,
        agentCase,
        system: 'lockedRules: pkg.install\n',
        locked: false,
      },
    ]),
  )('$name', async ({ agentCase, system, locked }) => {
    writeSystemSettings(root, system);
    // where the ask says how long a yes lasts: outside standard
    writeUser('mode: extended\n');
    const push = await answer(agentCase, PUSH);
    const both = await answer(agentCase, BOTH);
    const capabilities = AGENTS[agentCase.agent].capabilities;
    if (capabilities.askEvents.length === 0 || capabilities.ask !== 'block-then-chat') {
      // the agent's own prompt (or nobody) answers: no yes for the project is offered either way
      for (const text of [push, both]) {
        expect(text).not.toMatch(PROJECT_OFFER);
        expect(text).not.toContain('system settings lock');
      }
      return;
    }
    const notKept = notKeptForProject(['git.push']);
    expect(PROJECT_OFFER.test(push)).toBe(!locked);
    expect(push.includes(notKept)).toBe(locked);
    expect(PROJECT_OFFER.test(both)).toBe(!locked);
    expect(both.includes(notKept)).toBe(locked);
    // what asks each time is still said beside it
    expect(both).toContain(asksEachTime(['process.kill-by-name']));
    // a plain yes for the chat is offered either way
    expect(push).toContain('a plain yes for this chat');
  });

  describe('Codex: "yes, for this project" to a locked rule is kept for the chat only, and says so', () => {
    const hook = async (payload: unknown): Promise<string> =>
      (await hookReply(['codex'], guardHome, payload, { systemRoot: root })).stdout;

    it.for([
      { system: 'lockedRules: git.push\n', locked: true },
      { system: "lockedRules: '*'\n", locked: true },
      // near misses: another rule locked, no system file
      { system: 'lockedRules: pkg.install\n', locked: false },
      { system: undefined, locked: false },
    ])('$system', async ({ system, locked }) => {
      if (system !== undefined) writeSystemSettings(root, system);
      expect(asks(await hook(inChat('c1', PUSH)))).toBe(true);
      const told = await hook(say('c1', 'yes, for this project'));
      expect(told.includes(notKeptForProject(['git.push']))).toBe(locked);
      expect(told.includes('in later chats of this project')).toBe(!locked);
      expect(readAllowed(guardHome).map((entry) => entry.key)).toEqual(locked ? [] : ['git.push:origin/feature']);
      // this chat: the yes holds
      expect(await hook(inChat('c1', PUSH))).toBe('');
      // a later chat asks again where the rule is locked
      expect(asks(await hook(inChat('c2', PUSH)))).toBe(locked);
    });
  });
});
