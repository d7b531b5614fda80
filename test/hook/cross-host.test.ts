import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../packages/cli/src/state/decision-log.js';
import { ASKED, BLOCKED, fixture, HARMLESS } from '../../packages/cli/test/hook-cases.js';
import { scaled } from '../machine.js';
import { requireBuild, runHookProcess } from './bin.js';

/**
 * Hosts that run Claude Code's hook files (docs/agents-observed.md): `guard hook claude-code`, called
 * by Copilot CLI (a repository's `.claude/settings.json`) or Cursor, answers in the host's dialect,
 * and a tool call that reaches guard through both its own hook for the host and the Claude Code hook
 * is decided once: one log line, one change to the chat, the same answer on both.
 */

const ROOT = mkdtempSync(join(tmpdir(), 'guard-cross-host-'));
let count = 0;

beforeAll(requireBuild);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

type Json = Record<string, unknown>;

/** A fresh guard folder, so each row's log and chats are its own. */
function guardHome(): string {
  return join(ROOT, `guard-${++count}`);
}

function hook(home: string, args: readonly string[], payload: unknown): ReturnType<typeof runHookProcess> {
  return runHookProcess(args, JSON.stringify(payload), {
    HOME: ROOT,
    GUARD_HOME: home,
    GUARD_RESIDENT: 'off',
    GUARD_DEADLINE_MS: '20000',
  });
}

function log(home: string): LogEntry[] {
  const path = join(home, 'log.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

/** The change files guard recorded in a folder's chats. */
function changes(home: string): string[] {
  const chats = join(home, 'chats');
  if (!existsSync(chats)) return [];
  return readdirSync(chats)
    .filter((name) => name.endsWith('.changes'))
    .flatMap((name) => readdirSync(join(chats, name)));
}

// what Copilot CLI 1.0.102 sent a repository's .claude/settings.json hook, and its own hook, for one call
const COPILOT_CLAUDE = fixture('cross-host/copilot-pre-tool-use-bash');
const COPILOT_OWN = fixture('cross-host/copilot-native-pre-tool-use-bash');
const CURSOR_SHELL = fixture('cursor/before-shell-execution');
const CLAUDE_SHELL = fixture('claude-code/pre-tool-use-bash');

const copilotClaude = (command: string, extra: Json = {}): Json => ({
  ...COPILOT_CLAUDE,
  tool_input: { command, description: 'd' },
  ...extra,
});
const copilotOwn = (command: string, extra: Json = {}): Json => ({
  ...COPILOT_OWN,
  toolArgs: { command, description: 'd' },
  ...extra,
});

const LIMIT = scaled(60_000);

describe('`guard hook claude-code` answers each host in its own words', { timeout: LIMIT }, () => {
  const nested = (reply: Json): unknown => (reply['hookSpecificOutput'] as Json | undefined)?.['permissionDecision'];
  const rows: readonly {
    name: string;
    payload: Json;
    agent: string;
    /** The reply to a force push, read. */
    blocks(reply: Json): boolean;
    /** The reply to a harmless step. */
    harmless: string;
  }[] = [
    {
      name: 'Claude Code',
      payload: { ...CLAUDE_SHELL, tool_input: { command: BLOCKED } },
      agent: 'claude-code',
      // only the nested form, and nothing for no objection
      blocks: (reply) => nested(reply) === 'deny' && reply['permissionDecision'] === undefined,
      harmless: '',
    },
    {
      name: 'Copilot CLI (a repository’s .claude/settings.json)',
      payload: copilotClaude(BLOCKED),
      agent: 'copilot',
      // both forms, as Copilot answers its PascalCase registrations
      blocks: (reply) => nested(reply) === 'deny' && reply['permissionDecision'] === 'deny',
      harmless: '{}\n',
    },
    {
      name: 'Cursor (Claude Code’s settings files)',
      payload: { ...CURSOR_SHELL, command: BLOCKED },
      agent: 'cursor',
      blocks: (reply) => reply['permission'] === 'deny' && typeof reply['agent_message'] === 'string',
      harmless: '{}\n',
    },
  ];
  it.for(rows)('$name: a force push is denied as it reads it, and logged as its', async (row) => {
    const home = guardHome();
    const result = await hook(home, ['claude-code'], row.payload);
    expect(result.code).toBe(0);
    expect(row.blocks(JSON.parse(result.stdout) as Json)).toBe(true);
    expect(log(home)).toMatchObject([{ agent: row.agent, decision: 'block', step: BLOCKED }]);
  });
  it.for(rows)('$name: a harmless step gets its no objection', async (row) => {
    const home = guardHome();
    const payload =
      row.agent === 'cursor'
        ? { ...row.payload, command: HARMLESS }
        : row.name === 'Claude Code'
          ? { ...row.payload, tool_input: { command: HARMLESS } }
          : copilotClaude(HARMLESS);
    const result = await hook(home, ['claude-code'], payload);
    expect(result.stdout).toBe(row.harmless);
    expect(log(home)).toMatchObject([{ agent: row.agent, decision: 'allow' }]);
  });
  it('a payload no agent guard knows is not let through: asked, in Claude Code’s words', async () => {
    const home = guardHome();
    const result = await hook(home, ['claude-code'], { tool: 'bash', command: HARMLESS });
    const reply = JSON.parse(result.stdout) as Json;
    expect(['ask', 'deny']).toContain(nested(reply));
    expect(log(home)).toMatchObject([
      { agent: 'claude-code', how: 'failure', error: expect.stringContaining('not Claude Code') },
    ]);
  });
  it('nor is a force push in one: the never list still blocks what its text holds', async () => {
    const home = guardHome();
    const result = await hook(home, ['claude-code'], { tool: 'bash', command: BLOCKED });
    expect(nested(JSON.parse(result.stdout) as Json)).toBe('deny');
    expect(log(home)).toMatchObject([{ how: 'failure', decision: 'block' }]);
  });
});

describe(
  'one tool call through guard’s Copilot hook and its Claude Code hook is decided once',
  { timeout: LIMIT },
  () => {
    const own = ['copilot', '--event', 'preToolUse'];
    const claude = ['claude-code'];
    it.for([
      { name: 'a force push', command: BLOCKED, decision: 'block', said: 'deny' },
      { name: 'a push (asked)', command: ASKED, decision: 'ask', said: 'ask' },
    ])(
      '$name, one hook after the other: one log line, one change, the same answer',
      async ({ command, decision, said }) => {
        const home = guardHome();
        const first = await hook(home, own, copilotOwn(command));
        const second = await hook(home, claude, copilotClaude(command));
        const firstReply = JSON.parse(first.stdout) as Json;
        const secondReply = JSON.parse(second.stdout) as Json;
        expect(firstReply['permissionDecision']).toBe(said);
        // the same answer, in the words of the second hook's event
        expect(secondReply['permissionDecision']).toBe(said);
        expect((secondReply['hookSpecificOutput'] as Json)['permissionDecision']).toBe(said);
        expect(secondReply['permissionDecisionReason']).toBe(firstReply['permissionDecisionReason']);
        expect(log(home)).toMatchObject([{ agent: 'copilot', event: 'preToolUse', decision, step: command }]);
        expect(log(home)).toHaveLength(1);
        // the chat keeps what one hook alone would have kept
        const alone = guardHome();
        await hook(alone, own, copilotOwn(command));
        expect(changes(home)).toHaveLength(changes(alone).length);
      },
    );
    it('the Claude Code hook first, then Copilot’s own: the same', async () => {
      const home = guardHome();
      const first = await hook(home, claude, copilotClaude(BLOCKED));
      const second = await hook(home, own, copilotOwn(BLOCKED));
      expect((JSON.parse(first.stdout) as Json)['permissionDecision']).toBe('deny');
      expect((JSON.parse(second.stdout) as Json)['permissionDecision']).toBe('deny');
      expect(log(home)).toMatchObject([{ agent: 'copilot', event: 'PreToolUse', decision: 'block' }]);
      expect(log(home)).toHaveLength(1);
    });
    it.for([1, 2, 3])('both hooks at once (round %i): one log line, both deny', async () => {
      const home = guardHome();
      const [a, b] = await Promise.all([
        hook(home, own, copilotOwn(BLOCKED)),
        hook(home, claude, copilotClaude(BLOCKED)),
      ]);
      expect((JSON.parse(a?.stdout ?? '') as Json)['permissionDecision']).toBe('deny');
      expect((JSON.parse(b?.stdout ?? '') as Json)['permissionDecision']).toBe('deny');
      expect(log(home)).toHaveLength(1);
      expect(log(home)[0]).toMatchObject({ agent: 'copilot', decision: 'block' });
    });
    // near misses: not the same call, so each is decided and logged
    it.for([
      {
        name: 'another time (the same command run again)',
        extra: { timestamp: '2026-12-07T04:34:28.000Z' },
        command: BLOCKED,
      },
      { name: 'another chat', extra: { session_id: 'another-chat' }, command: BLOCKED },
      { name: 'another command at the same time', extra: {}, command: `${BLOCKED} # another` },
    ])('$name: two log lines', async ({ extra, command }) => {
      const home = guardHome();
      await hook(home, own, copilotOwn(BLOCKED));
      const second = await hook(home, claude, copilotClaude(command, extra));
      expect((JSON.parse(second.stdout) as Json)['permissionDecision']).toBe('deny');
      expect(log(home)).toHaveLength(2);
    });
    // the other events of a call: Copilot sends both hooks the same time for each (recorded on 1.0.102)
    const same = (claude: Json, own: Json): Json => ({
      ...own,
      sessionId: claude['session_id'],
      cwd: claude['cwd'],
      timestamp: Date.parse(String(claude['timestamp'])),
    });
    const START = fixture('cross-host/copilot-session-start');
    const PROMPT = fixture('cross-host/copilot-user-prompt-submit');
    const RESULT = fixture('cross-host/copilot-post-tool-use-bash');
    it.for([
      {
        name: 'a chat’s start',
        event: 'sessionStart',
        claude: START,
        own: same(START, fixture('copilot/session-start')),
        said: (reply: Json): unknown =>
          reply['additionalContext'] ?? (reply['hookSpecificOutput'] as Json | undefined)?.['additionalContext'],
        notice: /^guard is on: /,
      },
      {
        name: 'a message',
        event: 'userPromptSubmitted',
        claude: PROMPT,
        own: same(PROMPT, { ...fixture('copilot/user-prompt-submitted'), prompt: PROMPT['prompt'] }),
        // guard says nothing back to a message or a result, through either hook
        said: (): unknown => undefined,
        notice: undefined,
      },
      {
        name: 'a result',
        event: 'postToolUse',
        claude: RESULT,
        own: same(RESULT, {
          ...fixture('copilot/post-tool-use-bash'),
          toolArgs: RESULT['tool_input'],
          toolResult: { resultType: 'success', textResultForLlm: '\n<shellId: 0 completed with exit code 0>' },
        }),
        said: (): unknown => undefined,
        notice: undefined,
      },
    ])(
      '$name through both hooks: one log line, one change, the same notice',
      async ({ event, claude: payload, own: ownPayload, said, notice }) => {
        const home = guardHome();
        const first = await hook(home, ['copilot', '--event', event], ownPayload);
        const second = await hook(home, claude, payload);
        expect(first.code).toBe(0);
        expect(second.code).toBe(0);
        const reply = (stdout: string): Json => (stdout === '' ? {} : (JSON.parse(stdout) as Json));
        expect(said(reply(second.stdout))).toEqual(said(reply(first.stdout)));
        // the notice compared is a real one, or both hooks are silent (nothing to compare but that)
        if (notice === undefined) expect([first.stdout, second.stdout]).toEqual(['', '']);
        else expect(said(reply(first.stdout))).toMatch(notice);
        expect(log(home)).toMatchObject([{ agent: 'copilot', event, how: 'event' }]);
        const alone = guardHome();
        await hook(alone, ['copilot', '--event', event], ownPayload);
        expect(changes(home)).toHaveLength(changes(alone).length);
      },
    );

    // Cursor sends the hooks of Claude Code's files its own payload (from the reference; not run here)
    it.for([
      {
        name: 'Cursor’s preToolUse',
        payload: { ...fixture('cursor/pre-tool-use-write'), tool_input: { file_path: '.env', content: 'KEY=1' } },
        denied: 'deny',
      },
    ])(
      '$name through guard’s Cursor hook and its Claude Code hook at once: one log line, both deny',
      async ({ payload, denied }) => {
        const home = guardHome();
        const [a, b] = await Promise.all([hook(home, ['cursor'], payload), hook(home, claude, payload)]);
        expect((JSON.parse(a?.stdout ?? '') as Json)['permission']).toBe(denied);
        expect((JSON.parse(b?.stdout ?? '') as Json)['permission']).toBe(denied);
        expect(log(home)).toMatchObject([{ agent: 'cursor', decision: 'block' }]);
      },
    );
    it('Cursor’s shell event names no call (only the turn): each hook decides and logs it', async () => {
      const home = guardHome();
      const payload = { ...CURSOR_SHELL, command: BLOCKED };
      await Promise.all([hook(home, ['cursor'], payload), hook(home, claude, payload)]);
      expect(log(home).map((entry) => [entry.agent, entry.decision])).toEqual([
        ['cursor', 'block'],
        ['cursor', 'block'],
      ]);
    });

    it('the same payload through the same hook twice is no second hook of one call: each decided and logged', async () => {
      const home = guardHome();
      await hook(home, own, copilotOwn(BLOCKED));
      await hook(home, own, copilotOwn(BLOCKED));
      await hook(home, claude, copilotClaude(BLOCKED));
      // the Claude Code hook's call is the second hook of the first one's call: no line of its own
      expect(log(home).map((entry) => entry.event)).toEqual(['preToolUse', 'preToolUse']);
    });

    it('a Claude Code payload (no host) is never taken for a call Copilot’s hook decided', async () => {
      const home = guardHome();
      await hook(home, own, copilotOwn(BLOCKED));
      await hook(home, claude, {
        ...CLAUDE_SHELL,
        session_id: COPILOT_OWN['sessionId'],
        tool_input: { command: BLOCKED },
      });
      expect(log(home).map((entry) => entry.agent)).toEqual(['copilot', 'claude-code']);
    });
  },
);
