import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '@guard/adapters/agents';
import type { Mode } from '@guard/core';
import { asksEachTime } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forget } from '../../src/commands/allowed.js';
import type { ChatReport } from '../../src/commands/report.js';
import { report } from '../../src/commands/report.js';
import { readAllowed } from '../../src/state/allowed.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { captureIo } from '../capture-io.js';
import type { AgentCase, Answer, Said } from '../hook-cases.js';
import { AGENT_CASES, ASKED, BLOCKED, HARMLESS, fixture, said as reads } from '../hook-cases.js';
import { hookReply } from './stage-call.js';

/**
 * Modes and how long a yes lasts (SPEC §12), through the hook runtime with each agent's recorded
 * payloads: what each mode answers, what no mode lets through, and a yes for the project kept in
 * guard's folder across chats.
 */

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-modes-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

async function hook(args: readonly string[], payload: unknown): Promise<string> {
  const { code, stdout } = await hookReply(args, guardHome, payload);
  expect(code).toBe(0);
  return stdout;
}

/** The hook's whole answer to `agentCase`'s shell step running `command`, in the form that agent reads. */
async function answer(agentCase: AgentCase, command: string): Promise<Answer> {
  const result = await hookReply(agentCase.args, guardHome, agentCase.shell(command));
  expect(agentCase.wellFormed(result)).toBe(true);
  return result;
}

function setMode(mode: Mode): void {
  writeFileSync(join(guardHome, 'settings.yaml'), `# mine\nmode: ${mode}\n`);
}

function lastLog(): LogEntry {
  const lines = readFileSync(join(guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
  return JSON.parse(lines.at(-1) ?? '{}') as LogEntry;
}

/** A write outside the project (not into the temp folder, where the payloads' home is moved). */
const OUTSIDE = 'cp config.example.json /opt/other-app/config.json';
/** A destructive step that asks whatever is on disk. */
const DESTROY = 'terraform destroy';

/** Each step, and what each mode (standard, extended, full) answers. */
const ROWS: readonly [string, string, Said, Said, Said][] = [
  ['a harmless step', HARMLESS, 'no objection', 'no objection', 'no objection'],
  ['a write outside the project', OUTSIDE, 'asked', 'no objection', 'no objection'],
  ['a push', ASKED, 'asked', 'asked', 'no objection'],
  ['a force push', BLOCKED, 'denied', 'denied', 'denied'],
  ['a delete of an unset variable', 'rm -rf $DIR', 'denied', 'denied', 'denied'],
  ['a delete below an unset variable', 'rm -rf "$DIR/cache"', 'asked', 'asked', 'asked'],
  ["the agent's own guard mode full", 'guard mode full', 'denied', 'denied', 'denied'],
  ["the agent's own guard mode standard", 'guard mode standard', 'denied', 'denied', 'denied'],
];

const MODE_NAMES: readonly Mode[] = ['standard', 'extended', 'full'];

describe.for(AGENT_CASES)('guard hook $agent, in each mode', (agentCase) => {
  it.for(
    ROWS.flatMap(([name, command, ...said]) =>
      MODE_NAMES.map((mode, i) => [`${name} in ${mode}`, command, mode, said[i]] as const),
    ),
  )('%s', async ([, command, mode, said]) => {
    setMode(mode);
    const result = await answer(agentCase, command);
    const { stdout } = result;
    const got = reads(agentCase, result);
    // Codex has no prompt: an ask reaches it as a deny that tells it to ask in the chat
    const inChat = AGENTS[agentCase.agent].capabilities.ask === 'block-then-chat';
    // Cline can never put a step to the person (guard reads no message there): its ask says so
    const never = AGENTS[agentCase.agent].capabilities.askEvents.length === 0;
    const asks = never ? 'no one can approve this step here' : "person's approval first";
    const asked = inChat && got === 'denied' && stdout.includes(asks);
    expect(asked ? 'asked' : got).toBe(said);
    const line = lastLog();
    if (said === 'no objection' && command !== HARMLESS && mode !== 'standard') {
      expect(line).toMatchObject({ how: 'mode', mode, answer: 'allow' });
    }
    if (mode === 'standard') expect(line.mode).toBeUndefined();
    if (command.startsWith('guard mode')) expect(stdout).toContain('guard.tamper');
  });
});

describe('the ask says how long a yes lasts, where the agent carries it', () => {
  it.for(AGENT_CASES)('$agent: not in standard, where the ask reads as it always has', async (agentCase) => {
    for (const command of ['git push origin feature', DESTROY]) {
      const { stdout } = await answer(agentCase, command);
      expect(stdout).not.toContain('A yes');
      expect(stdout).not.toContain('Their yes');
      expect(stdout).not.toContain('for this project');
    }
  });

  it.for(AGENT_CASES)('$agent, in extended', async (agentCase) => {
    setMode('extended');
    const push = (await answer(agentCase, 'git push origin feature')).stdout;
    const remove = (await answer(agentCase, DESTROY)).stdout;
    // a yes kept for the push, not for stopping programs by name
    const both = (await answer(agentCase, 'git push origin feature; pkill node')).stdout;
    const partly = `${asksEachTime(['process.kill-by-name'])}`;
    if (AGENTS[agentCase.agent].capabilities.askEvents.length === 0) {
      // no yes can reach guard (Cline): the ask says nobody can approve it, and nothing of a yes
      for (const text of [push, remove, both]) {
        expect(text).toContain('no one can approve this step here');
        expect(text).not.toMatch(/A yes|Their yes|for this project/);
      }
      return;
    }
    if (AGENTS[agentCase.agent].capabilities.ask === 'block-then-chat') {
      // (quoted inside a JSON reply, or as it is in a plain one)
      expect(push).toMatch(/\\?"yes, for this project\\?" for later chats in this project too/);
      expect(push).not.toContain('again each time');
      expect(remove).toContain('Their yes counts for this step only');
      expect(both).toContain(`but whatever they say, ${partly}`);
      return;
    }
    // agents that prompt themselves: guard learns of the yes from the result, where it sees results
    if (AGENTS[agentCase.agent].capabilities.results) {
      expect(push).toContain('A yes also lets the same step go ahead again in this chat.');
      expect(remove).toContain('A yes counts for this step only.');
      expect(both).toContain(`A yes counts for this step; after it, ${partly}`);
      expect(both).not.toContain('A yes also lets the same step go ahead again in this chat.');
    } else {
      expect(push).not.toContain('A yes');
      expect(remove).not.toContain('A yes');
      expect(both).not.toContain('A yes');
    }
    expect(push).not.toContain('for this project');
  });
});

describe('Codex: a yes for the project, said in the chat', () => {
  const SHELL = fixture('codex/synth-pre-tool-use-interactive');
  const PROMPT = fixture('codex/user-prompt-submit');
  const inChat = (chat: string, command: string) => ({ ...SHELL, session_id: chat, tool_input: { command } });
  const say = (chat: string, prompt: string) => ({ ...PROMPT, session_id: chat, prompt });
  const asks = (stdout: string): boolean => stdout.includes("person's approval first");

  it('survives into a new chat of the same project, for the same package only, until forgotten', async () => {
    expect(asks(await hook(['codex'], inChat('chat-a', 'pnpm add zod')))).toBe(true);
    await hook(['codex'], say('chat-a', 'yes, for this project'));
    expect(await hook(['codex'], inChat('chat-a', 'pnpm add zod'))).toBe('');
    expect(readAllowed(guardHome).map((entry) => entry.key)).toEqual(['pkg.install:npm:zod']);
    // a new chat in the same project
    expect(await hook(['codex'], inChat('chat-b', 'pnpm add zod'))).toBe('');
    expect(lastLog()).toMatchObject({ how: 'project', decision: 'allow' });
    expect(asks(await hook(['codex'], inChat('chat-b', 'pnpm add zod-extra')))).toBe(true);
    // forgotten: it asks again
    const { io } = captureIo();
    forget(undefined, { project: false, all: true }, { ...io, env: { GUARD_HOME: guardHome } });
    expect(asks(await hook(['codex'], inChat('chat-c', 'pnpm add zod')))).toBe(true);
  });

  it('a plain yes lasts for the chat only, and "yes once" for the step only', async () => {
    expect(asks(await hook(['codex'], inChat('chat-a', 'git push origin feature')))).toBe(true);
    await hook(['codex'], say('chat-a', 'yes'));
    expect(await hook(['codex'], inChat('chat-a', 'git push origin feature'))).toBe('');
    expect(await hook(['codex'], inChat('chat-a', 'git push origin feature'))).toBe('');
    expect(asks(await hook(['codex'], inChat('chat-b', 'git push origin feature')))).toBe(true);
    await hook(['codex'], say('chat-b', 'yes once'));
    expect(await hook(['codex'], inChat('chat-b', 'git push origin feature'))).toBe('');
    expect(asks(await hook(['codex'], inChat('chat-b', 'git push origin feature')))).toBe(true);
    expect(readAllowed(guardHome)).toEqual([]);
  });

  it('keeps nothing for a destructive step, whatever the person says', async () => {
    expect(asks(await hook(['codex'], inChat('chat-a', DESTROY)))).toBe(true);
    await hook(['codex'], say('chat-a', 'yes always'));
    expect(await hook(['codex'], inChat('chat-a', DESTROY))).toBe('');
    expect(asks(await hook(['codex'], inChat('chat-a', DESTROY)))).toBe(true);
    expect(readAllowed(guardHome)).toEqual([]);
  });

  it('a yes for the project lapses while the chat has read untrusted content', async () => {
    await hook(['codex'], inChat('chat-a', 'pnpm add zod'));
    await hook(['codex'], say('chat-a', 'yes, for this project'));
    const fetched = {
      ...fixture('codex/post-tool-use-bash'),
      session_id: 'chat-b',
      tool_input: { command: 'curl -s https://example.com/page' },
      tool_response: 'some page',
    };
    await hook(['codex'], fetched);
    expect(asks(await hook(['codex'], inChat('chat-b', 'pnpm add zod')))).toBe(true);
  });
});

describe('Codex: a yes for the project to a step of several findings covers what the reply says', () => {
  const SHELL = fixture('codex/synth-pre-tool-use-interactive');
  const PROMPT = fixture('codex/user-prompt-submit');
  let project: string;
  beforeEach(() => {
    // a project that lists its packages, so a package it does not list asks (pkg.unlisted)
    project = join(guardHome, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ dependencies: { react: '^18.0.0' } }));
  });
  const inChat = (chat: string, command: string) => ({
    ...SHELL,
    session_id: chat,
    cwd: project,
    tool_input: { command },
  });
  const say = (chat: string, prompt: string) => ({ ...PROMPT, session_id: chat, cwd: project, prompt });
  /** The rules an ask in the chat names, or undefined when the step went ahead. */
  const asked = (stdout: string): string[] | undefined => {
    if (stdout === '') return undefined;
    const head = /this step needs the person's approval first \(([^)]*)\)/.exec(stdout);
    expect(head, stdout).not.toBeNull();
    return (head?.[1] ?? '').split(', ').sort();
  };

  // kept: the rules a yes for the project keeps; again: those that ask again each time
  it.for([
    { step: 'npm install left-pad', kept: ['pkg.install'], again: ['pkg.unlisted'] },
    {
      step: 'npm install left-pad && git push origin feature',
      kept: ['git.push', 'pkg.install'],
      again: ['pkg.unlisted'],
    },
    { step: 'git push origin feature; pkill node', kept: ['git.push'], again: ['process.kill-by-name'] },
    // near misses: every finding kept (a listed package), or none
    { step: 'npm install react && git push origin feature', kept: ['git.push', 'pkg.install'], again: [] },
    { step: 'pkill node', kept: [], again: ['process.kill-by-name'] },
  ])('$step', async ({ step, kept, again }) => {
    expect(asked(await hook(['codex'], inChat('chat-a', step)))).toEqual([...kept, ...again].sort());
    const reply = await hook(['codex'], say('chat-a', 'yes, for this project'));
    if (kept.length === 0) expect(reply).toContain('for this one time, not for the project');
    else if (again.length === 0)
      expect(reply).toContain('it will go ahead, in this chat and in later chats of this project');
    else expect(reply).toContain(`after that ${asksEachTime(again)}, and the rest of it goes ahead`);
    // this time, the whole step
    expect(await hook(['codex'], inChat('chat-a', step))).toBe('');
    // then, in this chat and in a new chat of the project, what the reply said
    const left = again.length === 0 ? undefined : [...again].sort();
    expect(asked(await hook(['codex'], inChat('chat-a', step))), 'again in the chat').toEqual(left);
    expect(asked(await hook(['codex'], inChat('chat-b', step))), 'in a new chat').toEqual(left);
    expect(
      readAllowed(guardHome)
        .map((entry) => entry.key.split(':')[0])
        .sort(),
    ).toEqual([...kept].sort());
  });
});

describe('guard report names the mode that let a step go ahead', () => {
  it('full: the push is listed under the mode, not as asked', async () => {
    setMode('full');
    const shell = fixture('codex/synth-pre-tool-use-interactive');
    expect(await hook(['codex'], { ...shell, session_id: 'chat-r', tool_input: { command: ASKED } })).toBe('');
    const c = captureIo();
    await report({ json: true }, { ...c.io, env: { GUARD_HOME: guardHome } });
    const [chat] = (JSON.parse(c.stdout()) as { chats: ChatReport[] }).chats;
    expect(chat?.allowedByMode).toEqual([expect.objectContaining({ step: ASKED, rules: ['git.push'], mode: 'full' })]);
    expect(chat?.asked).toEqual([]);
    const text = captureIo();
    await report({ json: false }, { ...text.io, env: { GUARD_HOME: guardHome } });
    expect(text.stdout()).toContain(`  went ahead by the mode (1):\n    - ${ASKED}  [git.push] (full)\n`);
  });
});
