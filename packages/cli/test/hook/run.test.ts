import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change, Rule } from '@guard/core';
import { AGENTS } from '@guard/adapters/agents';
import { GUARD_ON_NOTICE } from '@guard/adapters/messages';
import { newChat, rules } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookDeps, HookIo } from '../../src/hook/run.js';
import { runHook } from '../../src/hook/run.js';
import type { ChatMemory, SessionLayer } from '../../src/hook/session.js';
import { BROKEN_CODE } from '../../src/hook/failure.js';
import { MAX_INPUT_BYTES } from '../../src/hook/input.js';
import { NO_MEMORY } from '../../src/hook/session.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { NOWHERE } from '../capture-io.js';
import { AGENT_CASES, ASKED, BLOCKED, HARMLESS, fixture, fixtureText } from '../hook-cases.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-hook-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

type Stdin = string | Buffer | AsyncIterable<Uint8Array | string>;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** How many times the runtime wrote to stdout. */
  readonly writes: number;
  readonly stopped: boolean;
}

async function run(
  args: readonly string[],
  stdin: Stdin,
  deps: HookDeps = {},
  parentArgs: readonly string[] = ['node', 'agent'],
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  let writes = 0;
  let stopped = false;
  const io: HookIo = {
    stdin: typeof stdin === 'string' || Buffer.isBuffer(stdin) ? chunks(stdin) : stdin,
    stopInput: () => void (stopped = true),
    out: (text) => {
      writes += 1;
      stdout += text;
    },
    err: (text) => void (stderr += text),
    env: { GUARD_HOME: guardHome },
    home: () => NOWHERE,
    tmp: () => '/tmp',
    parentArgs: () => parentArgs,
  };
  const code = await runHook(args, io, deps);
  return { code, stdout, stderr, writes, stopped };
}

/** Stdin in small pieces, as a pipe delivers it (a multi-byte character may be split). */
async function* chunks(input: string | Buffer): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input);
  const size = Math.max(7, Math.ceil(bytes.length / 64));
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function logLines(): LogEntry[] {
  let text: string;
  try {
    text = readFileSync(join(guardHome, 'log.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

function onlyLogLine(): LogEntry {
  const lines = logLines();
  expect(lines).toHaveLength(1);
  return lines[0] as LogEntry;
}

function settings(text: string): void {
  writeFileSync(join(guardHome, 'settings.yaml'), text);
}

const json = (value: unknown): string => JSON.stringify(value);

/** Reply is exactly one JSON object on one line, or nothing. */
function parsedReply(stdout: string): Record<string, unknown> | undefined {
  if (stdout === '') return undefined;
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.indexOf('\n')).toBe(stdout.length - 1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

const byId = (id: string): Rule => {
  const rule = rules.find((candidate) => candidate.meta.id === id);
  if (!rule) throw new Error(`no rule ${id}`);
  return rule;
};

describe.for(AGENT_CASES)('guard hook $agent', (agentCase) => {
  const { args, noObjection } = agentCase;

  it('a harmless step goes ahead with the agent\'s own "no objection", and is logged', async () => {
    const result = await run(args, json(agentCase.shell(HARMLESS)));
    expect(result).toMatchObject({ code: 0, stdout: noObjection, stderr: '', writes: 1 });
    expect(onlyLogLine()).toMatchObject({
      agent: agentCase.agent,
      decision: 'allow',
      rules: [],
      how: 'rules',
      step: HARMLESS,
    });
  });

  it('a blocked step is denied, naming the rule, and logged with its reason', async () => {
    const result = await run(args, json(agentCase.shell(BLOCKED)));
    expect(agentCase.wellFormed(result)).toBe(true);
    expect(agentCase.denies(result)).toBe(true);
    expect(result.stdout).toContain('git.rewrite-shared-history');
    const line = onlyLogLine();
    expect(line).toMatchObject({
      decision: 'block',
      how: 'rules',
      reason: byId('git.rewrite-shared-history').meta.reason,
    });
    expect(line.rules?.[0]).toBe('git.rewrite-shared-history');
  });

  describe('failures', () => {
    const kinds = [
      { kind: 'invalid JSON', args, stdin: '{"hook_event_name": "PreToolUse", "tool_input": {' },
      { kind: 'empty stdin', args, stdin: '' },
      { kind: 'only whitespace', args, stdin: ' \r\n' },
      { kind: 'a JSON value that is not an object', args, stdin: '[1, 2]' },
      { kind: 'a field missing', args, stdin: fixtureText(agentCase.missing) },
      { kind: 'a field of the wrong type', args, stdin: fixtureText(agentCase.wrongType) },
      { kind: 'an unknown event', args: agentCase.unknownEvent.args, stdin: json(agentCase.unknownEvent.payload) },
      { kind: 'more than the size cap', args, stdin: Buffer.alloc(MAX_INPUT_BYTES + 1, 0x20) },
    ];

    // nothing read is nothing checked: asked (a deny where the agent asks in the chat, or where its
    // command line does not say someone can answer), saying what happened
    it.for(kinds)(
      'fail-open, $kind: not checked, so asked; the cause is logged and told on stderr',
      async ({ args: hookArgs, stdin }) => {
        const result = await run(hookArgs, stdin);
        expect(agentCase.wellFormed(result)).toBe(true);
        expect(result.stdout).not.toBe(noObjection);
        expect(result.stdout).toMatch(/guard could not read this step/i);
        expect(agentCase.notes(result)).toMatch(/^guard: [^\n]+\n$/);
        expect(onlyLogLine()).toMatchObject({ how: 'failure', decision: 'ask', error: expect.stringMatching(/\S/) });
      },
    );

    it.for(kinds)('fail-closed, $kind: the step is blocked', async ({ args: hookArgs, stdin }) => {
      settings('failClosed: true\n');
      const result = await run(hookArgs, stdin);
      expect(agentCase.wellFormed(result)).toBe(true);
      expect(agentCase.denies(result)).toBe(true);
      expect(agentCase.notes(result)).toMatch(/^guard: [^\n]+\n$/);
      expect(onlyLogLine()).toMatchObject({ how: 'failure', decision: 'block', error: expect.stringMatching(/\S/) });
    });

    // settings.yaml is broken and no good copy was ever kept: guard works at its strictest (SPEC §7),
    // so nothing is looser than it was; the step is judged in full and the cause is logged
    it.for([
      { command: BLOCKED, decision: 'block' },
      { command: ASKED, decision: 'ask' },
      { command: HARMLESS, decision: 'allow' },
    ])('unreadable settings, no good copy: $command is judged as ever ($decision)', async ({ command, decision }) => {
      settings('enabled: perhaps\n');
      const result = await run(args, json(agentCase.shell(command)));
      expect(agentCase.wellFormed(result)).toBe(true);
      // fail-closed is on now: an agent with a fail-closed switch may be told "allow" in its own words
      // (Codex's ask is a deny that has the agent ask in the chat)
      if (decision !== 'ask') expect(agentCase.denies(result)).toBe(decision === 'block');
      else expect(result.stdout).not.toBe(noObjection);
      expect(result.stderr).toMatch(/enabled must be true or false.*fail-closed and strict/);
      // (an agent where no ask reaches a person, Cline, logs the ask as left to nobody)
      const how = decision === 'ask' && AGENTS[agentCase.agent].capabilities.askEvents.length === 0 ? 'away' : 'rules';
      expect(onlyLogLine()).toMatchObject({ how, decision, error: expect.stringContaining('enabled') });
    });

    // the failure path judges the step by every rule that needs nothing else: an ask stays an ask,
    // and what those rules let through is asked too (guard did not finish checking it)
    it.for([
      { command: BLOCKED, decision: 'block', ruleIds: ['git.rewrite-shared-history', 'git.push'] },
      { command: ASKED, decision: 'ask', ruleIds: ['git.push'] },
      { command: HARMLESS, decision: 'ask', ruleIds: [] },
    ])(
      'fail-open when a rule throws: every rule judges $command by itself ($decision)',
      async ({ command, decision, ruleIds }) => {
        const result = await run(args, json(agentCase.shell(command)), { rules: [THROWING, ...rules] });
        if (decision === 'block') expect(agentCase.denies(result)).toBe(true);
        if (decision === 'allow') expect(result.stdout).toBe(noObjection);
        else expect(result.stdout).not.toBe(noObjection);
        const line = onlyLogLine();
        expect(line).toMatchObject({ how: 'failure', decision, error: 'the rule broke' });
        expect(line.rules).toEqual(ruleIds);
      },
    );

    // a part of guard's own code the loader could not load (a lazy chunk of the hook bundle, here the
    // project policy's reader) fails as a rule that throws does, and so does any other failure of
    // the policy: a step the rules alone let through is asked, and the reply says what happened
    const brokenPolicy = (): Promise<never> =>
      Promise.reject(
        Object.assign(new Error("guard's own file hook-lazy-policy-x.cjs could not be loaded (ENOENT)"), {
          code: BROKEN_CODE,
        }),
      );
    const failingPolicy = (): Promise<never> => Promise.reject(new Error('the policy broke'));
    it.for([
      { cause: 'a chunk not loaded', command: BLOCKED, policy: brokenPolicy, decision: 'block' },
      { cause: 'a chunk not loaded', command: ASKED, policy: brokenPolicy, decision: 'ask' },
      { cause: 'a chunk not loaded', command: HARMLESS, policy: brokenPolicy, decision: 'ask' },
      { cause: 'another failure', command: HARMLESS, policy: failingPolicy, decision: 'ask' },
    ])('fail-open, the project policy fails ($cause): $command is $decision', async ({ command, policy, decision }) => {
      const result = await run(args, json(agentCase.shell(command)), { policy });
      if (decision === 'block') expect(agentCase.denies(result)).toBe(true);
      if (decision === 'allow') expect(result.stdout).toBe(noObjection);
      else expect(result.stdout).not.toBe(noObjection);
      expect(onlyLogLine()).toMatchObject({ how: 'failure', decision, error: expect.stringMatching(/broke|loaded/) });
    });

    it("fail-closed when guard's own code cannot be loaded: even a harmless step is blocked", async () => {
      settings('failClosed: true\n');
      const result = await run(args, json(agentCase.shell(HARMLESS)), { policy: brokenPolicy });
      expect(agentCase.denies(result)).toBe(true);
      expect(onlyLogLine()).toMatchObject({ how: 'failure', decision: 'block' });
    });

    it('fail-closed when a rule throws: even a harmless step is blocked', async () => {
      settings('failClosed: true\n');
      const result = await run(args, json(agentCase.shell(HARMLESS)), { rules: [THROWING] });
      expect(agentCase.denies(result)).toBe(true);
      expect(onlyLogLine()).toMatchObject({ how: 'failure', decision: 'block' });
    });
  });

  describe('guard off', () => {
    it.for([
      { name: 'a blocked step', stdin: json(agentCase.shell(BLOCKED)), error: false },
      { name: 'an asked step', stdin: json(agentCase.shell(ASKED)), error: false },
      { name: 'a payload that is not JSON', stdin: '{nope', error: true },
    ])('$name goes ahead and is logged as off', async ({ stdin, error }) => {
      settings('# mine\nenabled: false\n');
      const result = await run(args, stdin);
      expect(result).toMatchObject({ code: 0, stdout: noObjection, stderr: '' });
      const line = onlyLogLine();
      expect(line.how).toBe('off');
      expect(line.error !== undefined).toBe(error);
    });
  });

  it('the deadline answers by the failure policy when stdin never ends, exactly once', async () => {
    const result = await run(args, neverEnding(), { deadlineMs: 30 });
    expect(result).toMatchObject({ writes: 1, stopped: true });
    expect(agentCase.wellFormed(result)).toBe(true);
    expect(result.stdout).not.toBe(noObjection);
    expect(result.stdout).toMatch(/guard ran out of time/i);
    expect(onlyLogLine()).toMatchObject({ how: 'deadline', decision: 'ask', error: 'no answer within 30 ms' });
  });

  // the step was read but not judged in time: the rules alone judge it, and what they let through is asked
  it.for([
    { name: 'fail-open', text: '', command: BLOCKED, decision: 'block' },
    { name: 'fail-open', text: '', command: HARMLESS, decision: 'ask' },
    { name: 'fail-closed', text: 'failClosed: true\n', command: HARMLESS, decision: 'block' },
  ])('$name: a slow chat memory runs out the deadline; $command: $decision', async ({ text, command, decision }) => {
    if (text) settings(text);
    const slow: SessionLayer = { forStep: () => sleep(300).then(() => NO_MEMORY), onEvent: () => undefined };
    const result = await run(args, json(agentCase.shell(command)), { deadlineMs: 30, session: slow });
    expect(result.writes).toBeLessThanOrEqual(1);
    if (decision === 'block') expect(agentCase.denies(result)).toBe(true);
    else expect(result.stdout).not.toBe(noObjection);
    await sleep(350); // the late evaluation must neither write nor log again
    expect(result.writes).toBe(1);
    expect(onlyLogLine()).toMatchObject({ how: 'deadline', decision });
  });

  it.for([
    { name: 'a UTF-8 byte order mark', wrap: (text: string) => `\uFEFF${text}` },
    { name: 'no trailing newline', wrap: (text: string) => text.trimEnd() },
    { name: 'CRLF line ends and a trailing newline', wrap: (text: string) => `${text.replace(/\n/g, '\r\n')}\r\n` },
    {
      name: 'non-ASCII text split across chunks',
      wrap: (text: string) => text.replace('"git status"', '"git status # ünïcødé ✓"'),
    },
  ])('reads a payload with $name', async ({ wrap }) => {
    const result = await run(args, wrap(JSON.stringify(agentCase.shell(HARMLESS), null, 2)));
    expect(result).toMatchObject({ code: 0, stdout: noObjection, stderr: '' });
    expect(onlyLogLine().how).toBe('rules');
  });
});

describe('asks', () => {
  it('Codex with a person in the chat: block-then-chat (a deny that asks the agent to ask)', async () => {
    const result = await run(['codex'], json(AGENT_CASES[0]?.shell(ASKED)));
    const reason = String(
      (parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>)['permissionDecisionReason'],
    );
    expect(reason).toMatch(/^guard: this step needs the person's approval first \(git\.push\)/);
    expect(onlyLogLine()).toMatchObject({ decision: 'ask', rules: ['git.push'], how: 'rules' });
    expect(onlyLogLine().answer).toBeUndefined();
  });

  it('Codex exec (nobody to ask): the ask becomes the away block and is logged as answered by a block', async () => {
    const headless = { ...fixture('codex/pre-tool-use-bash'), tool_input: { command: ASKED } };
    const result = await run(['codex'], json(headless), {}, ['/usr/bin/codex', 'exec', 'push it']);
    const reason = String(
      (parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>)['permissionDecisionReason'],
    );
    expect(reason).toMatch(/^guard: blocked, because no one can approve this step here \(git\.push\)/);
    expect(onlyLogLine()).toMatchObject({ decision: 'ask', answer: 'block' });
  });

  it.for([
    { name: 'interactive', parent: ['/usr/bin/agy'], decision: 'force_ask' },
    { name: 'headless -p', parent: ['/usr/bin/agy', '-p', 'go'], decision: 'deny' },
    { name: 'unknown command line', parent: [], decision: 'deny' },
  ])('Antigravity $name: $decision', async ({ parent, decision }) => {
    const result = await run(['antigravity', '--event', 'PreToolUse'], json(AGENT_CASES[2]?.shell(ASKED)), {}, parent);
    expect(parsedReply(result.stdout)?.['decision']).toBe(decision);
  });

  // Cursor fires preToolUse and then beforeShellExecution for one shell call: the ask waits for the
  // second, where a card can show; a block stops the call on the first
  it.for([
    { command: ASKED, stdout: '{}\n', how: 'ignored', decision: 'allow' },
    { command: HARMLESS, stdout: '{}\n', how: 'ignored', decision: 'allow' },
    { command: BLOCKED, stdout: /"permission":"deny"/, how: 'rules', decision: 'block' },
  ])('Cursor preToolUse (deferAsk), $command: $how', async ({ command, stdout, how, decision }) => {
    const payload = { ...fixture('cursor/pre-tool-use-shell-cli'), tool_input: { command, cwd: '' } };
    const result = await run(['cursor'], json(payload));
    expect(result.stdout).toMatch(stdout);
    expect(onlyLogLine()).toMatchObject({ event: 'preToolUse', how, decision });
  });

  it.for([
    {
      name: 'interactive',
      parent: ['/usr/local/bin/claude'],
      decision: 'ask',
      says: /^guard: needs your approval \(git\.push\)/,
    },
    {
      name: '-p (print mode refuses an ask)',
      parent: ['/usr/local/bin/claude', '-p', 'push it'],
      decision: 'deny',
      says: /^guard: blocked, because no one can approve this step here \(git\.push\)/,
    },
  ])('Claude Code $name: $decision', async ({ parent, decision, says }) => {
    const result = await run(['claude-code'], json(AGENT_CASES[4]?.shell(ASKED)), {}, parent);
    const output = parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>;
    expect(output).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: decision });
    expect(String(output['permissionDecisionReason'])).toMatch(says);
  });

  it.for([
    {
      name: 'interactive (its own confirmation)',
      parent: ['node', '/usr/lib/node_modules/@qwen-code/qwen-code/cli-entry.js', '--yolo'],
      decision: 'ask',
      says: /^guard: needs your approval \(git\.push\)/,
    },
    {
      name: '-p (refuses an ask)',
      parent: ['/usr/local/bin/qwen', '-p', 'push it', '--yolo'],
      decision: 'deny',
      says: /^guard: blocked, because no one can approve this step here \(git\.push\)/,
    },
  ])('Qwen Code $name: $decision', async ({ parent, decision, says }) => {
    const result = await run(['qwen'], json(AGENT_CASES.find((c) => c.agent === 'qwen')?.shell(ASKED)), {}, parent);
    const output = parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>;
    expect(output).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: decision });
    expect(String(output['permissionDecisionReason'])).toMatch(says);
  });

  // Droid settles its own ask by autonomy: guard's ask is always a deny, which says what to do
  it.for([
    {
      name: 'interactive (ask in the chat)',
      parent: ['/usr/lib/node_modules/droid/node_modules/@factory/cli-linux-x64/bin/droid', '--auto', 'high'],
      says: /^guard: this step needs the person's approval first \(git\.push\)/,
    },
    {
      name: 'droid exec (nobody there)',
      parent: ['node', '/usr/local/bin/droid', 'exec', '--auto', 'high', 'push it'],
      says: /^guard: blocked, because no one can approve this step here \(git\.push\)/,
    },
  ])('Factory Droid $name: deny', async ({ parent, says }) => {
    const result = await run(['droid'], json(AGENT_CASES.find((c) => c.agent === 'droid')?.shell(ASKED)), {}, parent);
    const output = parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>;
    expect(output).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(String(output['permissionDecisionReason'])).toMatch(says);
  });

  // Auggie runs a step its hook asks about: guard's ask is always a deny, which says what to do
  it.for([
    {
      name: 'interactive (ask in the chat)',
      parent: ['node', '/usr/lib/node_modules/@augmentcode/auggie/augment.mjs'],
      says: /^guard: this step needs the person's approval first \(git\.push\)/,
    },
    {
      name: 'auggie --print (nobody there)',
      parent: ['node', '/usr/local/bin/auggie', '--print', 'push it'],
      says: /^guard: blocked, because no one can approve this step here \(git\.push\)/,
    },
  ])('Augment Auggie $name: deny', async ({ parent, says }) => {
    const result = await run(['auggie'], json(AGENT_CASES.find((c) => c.agent === 'auggie')?.shell(ASKED)), {}, parent);
    const output = parsedReply(result.stdout)?.['hookSpecificOutput'] as Record<string, unknown>;
    expect(output).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(String(output['permissionDecisionReason'])).toMatch(says);
  });

  it.for([
    {
      name: 'interactive',
      parent: ['node', '/usr/local/bin/gemini', '--yolo'],
      says: /^guard: this step needs the person's approval first \(git\.push\)/,
      answer: undefined,
    },
    {
      name: '-p',
      parent: ['node', '/usr/local/bin/gemini', '-p', 'push it', '--yolo'],
      says: /^guard: blocked, because no one can approve this step here \(git\.push\)/,
      answer: 'block',
    },
  ])('Gemini CLI $name: block-then-chat, a top-level deny with an approval code', async ({ parent, says, answer }) => {
    const result = await run(['gemini'], json(AGENT_CASES[5]?.shell(ASKED)), {}, parent);
    const reply = parsedReply(result.stdout);
    expect(reply?.['decision']).toBe('deny');
    expect(String(reply?.['reason'])).toMatch(says);
    expect(String(reply?.['reason'])).toMatch(/approval code [A-Z2-9]{4}/);
    expect(onlyLogLine()).toMatchObject({ decision: 'ask', code: expect.stringMatching(/^[A-Z2-9]{4}$/) });
    expect(onlyLogLine().answer).toBe(answer);
  });

  it('Cursor beforeShellExecution: the ask shows a card', async () => {
    const result = await run(['cursor'], json(AGENT_CASES[1]?.shell(ASKED)));
    expect(parsedReply(result.stdout)?.['permission']).toBe('ask');
  });

  it('Cursor under fail-closed answers an explicit allow (a failClosed entry blocks on anything else)', async () => {
    settings('failClosed: true\n');
    expect((await run(['cursor'], json(AGENT_CASES[1]?.shell(HARMLESS)))).stdout).toBe('{"permission":"allow"}\n');
  });
});

describe('other payloads', () => {
  it.for([
    {
      name: 'Codex SessionStart',
      args: ['codex'],
      file: 'codex/session-start',
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: GUARD_ON_NOTICE } })}\n`,
      how: 'event',
    },
    { name: 'Codex PostToolUse', args: ['codex'], file: 'codex/post-tool-use-bash', stdout: '', how: 'event' },
    { name: 'Codex Stop', args: ['codex'], file: 'codex/stop', stdout: '', how: 'ignored' },
    {
      name: 'Cursor beforeSubmitPrompt',
      args: ['cursor'],
      file: 'cursor/synth-before-submit-prompt',
      stdout: '{"continue":true}\n',
      how: 'event',
    },
    {
      name: 'Copilot sessionStart',
      args: ['copilot', '--event', 'sessionStart'],
      file: 'copilot/session-start',
      stdout: `${JSON.stringify({ additionalContext: GUARD_ON_NOTICE })}\n`,
      how: 'event',
    },
    {
      name: 'Antigravity Stop',
      args: ['antigravity', '--event', 'Stop'],
      file: 'antigravity/synth-stop',
      stdout: '{"decision":""}\n',
      how: 'ignored',
    },
  ])('$name: the event reply, logged as $how', async ({ args, file, stdout, how }) => {
    const result = await run(args, fixtureText(file));
    expect(result).toMatchObject({ code: 0, stdout, stderr: '' });
    expect(onlyLogLine().how).toBe(how);
  });

  it('a failure on an event that stops nothing answers that event, even fail-closed', async () => {
    settings('failClosed: true\n');
    const broken = { ...fixture('codex/session-start'), cwd: 'relative/dir' };
    const result = await run(['codex'], json(broken));
    expect(result.stdout).toBe('');
    expect(onlyLogLine()).toMatchObject({ how: 'failure', event: 'SessionStart' });
  });

  it('fail-closed names the event of a payload that is not JSON when it can see it', async () => {
    settings('failClosed: true\n');
    const result = await run(['codex'], '{"hook_event_name": "SessionStart", "cwd": ');
    expect(result.stdout).toBe('');
    expect(onlyLogLine()).toMatchObject({ how: 'failure', event: 'SessionStart' });
  });

  it.for([
    { name: 'Codex spawn_agent', args: ['codex'], file: 'codex/synth-pre-tool-use-spawn-agent', stdout: '' },
    {
      name: 'Copilot report_intent',
      args: ['copilot', '--event', 'preToolUse'],
      file: 'copilot/synth-pre-tool-use-report-intent',
      stdout: '',
    },
    { name: 'Cursor Task', args: ['cursor'], file: 'cursor/synth-pre-tool-use-task', stdout: '{}\n' },
  ])(
    'a tool the adapter has never seen ($name) is judged as "other" and goes ahead',
    async ({ args, file, stdout }) => {
      const result = await run(args, fixtureText(file));
      expect(result).toMatchObject({ code: 0, stdout, stderr: '' });
      expect(onlyLogLine()).toMatchObject({ kind: 'other', how: 'rules', decision: 'allow' });
    },
  );

  it('reads a 10 MB payload (a file write) and judges it', async () => {
    const payload = {
      ...fixture('copilot/synth-pre-tool-use-create'),
      toolArgs: { path: join(NOWHERE, 'project', 'ws', 'big.txt'), file_text: 'x'.repeat(10 * 1024 * 1024) },
    };
    const result = await run(['copilot', '--event', 'preToolUse'], json(payload));
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const line = onlyLogLine();
    expect(line).toMatchObject({ kind: 'write', how: 'rules', step: join(NOWHERE, 'project', 'ws', 'big.txt') });
    expect(JSON.stringify(line).length).toBeLessThan(4096);
  });

  it('logs the step with key-shaped values redacted and its length bounded', async () => {
    const key = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
    const command = `curl -H "Authorization: Bearer ${key}" https://api.github.com/user # ${'pad '.repeat(2000)}`;
    await run(['codex'], json(AGENT_CASES[0]?.shell(command)));
    const line = onlyLogLine();
    expect(line.step).not.toContain(key);
    expect(line.step).toContain('[redacted:');
    expect(line.step?.length).toBeLessThanOrEqual(1000);
  });
});

describe("guard's folder", () => {
  it('a log that cannot be written costs a line on stderr, never the reply', async () => {
    const file = join(guardHome, 'not-a-folder');
    writeFileSync(file, '');
    let stdout = '';
    let stderr = '';
    const io: HookIo = {
      stdin: chunks(json(AGENT_CASES[0]?.shell(BLOCKED))),
      stopInput: () => undefined,
      out: (text) => void (stdout += text),
      err: (text) => void (stderr += text),
      env: { GUARD_HOME: join(file, 'guard') },
      home: () => NOWHERE,
      tmp: () => '/tmp',
      parentArgs: () => [],
    };
    expect(await runHook(['codex'], io)).toBe(0);
    expect(stdout).toMatch(/"permissionDecision":"deny"/);
    // the settings cannot be read there either: guard works at its strictest (fail-closed), and the
    // chat's memory that cannot be read blocks the force push as a failure
    expect(stderr).toMatch(
      /^guard: settings.yaml could not be read \(ENOTDIR\)[^\n]*\nguard: cannot read chat state [^\n]*\nguard: could not write the log in [^\n]*\n$/,
    );
  });
});

describe('the session seam', () => {
  it('a remembered yes lets the asked step through (logged as memory, naming the rule of that yes) and what it changes is saved', async () => {
    const saved: Change[] = [];
    const memory: ChatMemory = {
      chat: { ...newChat('codex', 'c1', Date.now()), approved: ['git.push:origin/main'] },
      save: (change) => void saved.push(change),
    };
    const session: SessionLayer = { forStep: () => memory, onEvent: () => undefined };
    const result = await run(['codex'], json(AGENT_CASES[0]?.shell(ASKED)), { session });
    expect(result.stdout).toBe('');
    expect(onlyLogLine()).toMatchObject({ decision: 'allow', how: 'memory', rules: ['git.push'] });
    // saved once, after the reply: a step an earlier yes let through leaves nothing new to remember
    expect(saved).toEqual([{}]);
  });

  it('an asked step is saved as a question waiting for the person, with the code the reply and the log give', async () => {
    const saved: Change[] = [];
    const memory: ChatMemory = { chat: newChat('codex', 'c1', Date.now()), save: (change) => void saved.push(change) };
    const session: SessionLayer = { forStep: () => memory, onEvent: () => undefined };
    const result = await run(['codex'], json(AGENT_CASES[0]?.shell(ASKED)), { session });
    const code = onlyLogLine().code;
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    expect(result.stdout).toContain(`approval code ${code ?? ''}`);
    expect(saved).toMatchObject([{ asked: { code, keys: ['git.push:origin/main'], rules: ['git.push'] } }]);
  });

  it('a notice from the session layer goes into the event reply', async () => {
    const session: SessionLayer = { forStep: () => NO_MEMORY, onEvent: () => 'guard is on.' };
    const result = await run(['codex'], fixtureText('codex/session-start'), { session });
    expect(parsedReply(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'guard is on.' },
    });
  });

  it.for([
    {
      name: 'a chat start (its MCP scan has a budget of its own)',
      file: 'codex/session-start',
      how: 'event',
      reply: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'guard is on.' } },
    },
    { name: 'a message', file: 'codex/user-prompt-submit', how: 'deadline', reply: undefined },
  ])('an event slower than the step deadline: $name is answered with $how', async ({ file, how, reply }) => {
    const session: SessionLayer = { forStep: () => NO_MEMORY, onEvent: () => sleep(120).then(() => 'guard is on.') };
    const result = await run(['codex'], fixtureText(file), { deadlineMs: 30, session });
    expect(parsedReply(result.stdout)).toEqual(reply);
    expect(onlyLogLine()).toMatchObject({ how });
  });

  it('a session layer that fails after the reply only costs a line on stderr', async () => {
    const session: SessionLayer = {
      forStep: () => ({
        ...NO_MEMORY,
        save: () => {
          throw new Error('disk full');
        },
      }),
      onEvent: () => undefined,
    };
    const result = await run(['codex'], json(AGENT_CASES[0]?.shell(HARMLESS)), { session });
    expect(result).toMatchObject({ stdout: '', stderr: "guard: could not save this chat's memory: disk full\n" });
  });
});

describe('usage errors in the hook command (a setup mistake) exit 2 and print nothing on stdout', () => {
  it.for([
    { args: [], stderr: /needs an agent/ },
    { args: ['vim'], stderr: /unknown agent 'vim'/ },
    { args: ['codex', 'cursor'], stderr: /unexpected argument 'cursor'/ },
    { args: ['copilot', '--event'], stderr: /--event needs an event name/ },
    { args: ['copilot', '--event='], stderr: /--event needs an event name/ },
    { args: ['codex', '--verbose'], stderr: /unknown option '--verbose'/ },
  ])('guard hook $args', async ({ args, stderr }) => {
    const result = await run(args, '{}');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(stderr);
    expect(logLines()).toEqual([]);
  });

  it.for([
    { args: ['copilot', '--event=preToolUse'], stdout: '' },
    { args: ['--event', 'PreToolUse', 'antigravity'], stdout: '{"decision":"ask"}\n' },
  ])('accepts $args', async ({ args, stdout }) => {
    const payload = args.includes('copilot') ? AGENT_CASES[3]?.shell(HARMLESS) : AGENT_CASES[2]?.shell(HARMLESS);
    expect(await run(args, json(payload))).toMatchObject({ code: 0, stdout });
  });
});

const THROWING: Rule = {
  meta: { ...byId('git.push').meta, id: 'test.throws' },
  check() {
    throw new Error('the rule broke');
  },
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function* neverEnding(): AsyncGenerator<Uint8Array> {
  yield Buffer.from('{"hook_event_name": ');
  await new Promise(() => undefined);
}
