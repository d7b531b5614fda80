import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentId, HookReply } from '../../packages/adapters/src/index.js';
import type { Environment, Verdict } from '../../packages/core/src/index.js';
import { evaluate, rules } from '../../packages/core/src/index.js';
import { adapters, AGENTS, agentKnowledge } from '../../packages/adapters/src/index.js';
import { CANCELLED, sayingWhy } from '../../packages/adapters/src/cline/payload.js';
import {
  askInChatMessage,
  askMessage,
  awayMessage,
  blockMessage,
  GUARD_ON_NOTICE,
} from '../../packages/adapters/src/messages.js';
import { failClosedMessage } from '../../packages/cli/src/hook/failure.js';
import type { LogEntry } from '../../packages/cli/src/state/decision-log.js';
import { createProbe } from '../../packages/cli/src/world/probe.js';
import { AGENT_CASES, ASKED, BLOCKED, HARMLESS, fixture, fixtureText } from '../../packages/cli/test/hook-cases.js';
import { scaled } from '../machine.js';
import { BIN, requireBuild, runHookProcess } from './bin.js';

/**
 * Recorded agent payloads replayed through the built `guard hook <agent>` as a process, as the
 * agents run it: exact stdout bytes, exit code, and the log line each call leaves.
 */

const ROOT = mkdtempSync(join(tmpdir(), 'guard-replay-'));
const HOME = join(ROOT, 'home');
const OPEN = join(ROOT, 'guard-open');
const CLOSED = join(ROOT, 'guard-closed');

beforeAll(() => {
  requireBuild();
  mkdirSync(HOME, { recursive: true });
  mkdirSync(CLOSED, { recursive: true });
  writeFileSync(join(CLOSED, 'settings.yaml'), 'failClosed: true\n');
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** Runs the hook and returns its result plus the one log line it appended. */
async function hook(args: readonly string[], stdin: string, guardHome = OPEN) {
  const before = logLines(guardHome).length;
  const result = await runHookProcess(args, stdin, { HOME, GUARD_HOME: guardHome });
  const lines = logLines(guardHome);
  expect(lines.length - before).toBe(1);
  return { ...result, log: lines.at(-1) as LogEntry };
}

function logLines(guardHome: string): LogEntry[] {
  try {
    return readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogEntry);
  } catch {
    return [];
  }
}

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** The exact deny / ask replies, per agent (the envelopes are each agent's hook contract). */
/** Claude Code's nested answer, which Qwen Code and Factory Droid read too. */
function claudeStyle(decision: 'deny' | 'ask', text: string): string {
  return line({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: text },
  });
}

const REPLY: Record<AgentId, { deny(text: string): string; ask(text: string): string; unread?(text: string): string }> =
  {
    codex: {
      // Codex adds its own full stop after the reason ("… <reason>. Command: …")
      deny: (text) =>
        line({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: text.replace(/\.$/, ''),
          },
        }),
      // Codex has no approval prompt: an ask is a deny that tells the agent to ask in the chat
      ask: (text) =>
        line({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: text.replace(/\.$/, ''),
          },
        }),
    },
    cursor: {
      deny: (text) => line({ permission: 'deny', user_message: text, agent_message: text }),
      ask: (text) => line({ permission: 'ask', user_message: text, agent_message: text }),
    },
    antigravity: {
      deny: (text) => line({ decision: 'deny', reason: text }),
      ask: (text) => line({ decision: 'force_ask', reason: text }),
    },
    copilot: {
      deny: (text) => line({ permissionDecision: 'deny', permissionDecisionReason: text }),
      ask: (text) => line({ permissionDecision: 'ask', permissionDecisionReason: text }),
    },
    'claude-code': {
      deny: (text) => claudeStyle('deny', text),
      ask: (text) => claudeStyle('ask', text),
    },
    // Qwen Code reads Claude Code's nested answer
    qwen: {
      deny: (text) => claudeStyle('deny', text),
      ask: (text) => claudeStyle('ask', text),
    },
    // Gemini CLI's own ask ends a headless run silently: an ask is a deny that tells the agent to ask in the chat
    gemini: {
      deny: (text) => line({ decision: 'deny', reason: text }),
      ask: (text) => line({ decision: 'deny', reason: text }),
    },
    // guard's OpenCode plugin throws the reason of a block; OpenCode has no ask a plugin can raise
    opencode: {
      deny: (text) => line({ decision: 'block', reason: text }),
      ask: (text) => line({ decision: 'block', reason: text }),
    },
    // Kilo Code CLI runs the same plugin
    kilo: {
      deny: (text) => line({ decision: 'block', reason: text }),
      ask: (text) => line({ decision: 'block', reason: text }),
    },
    // Windsurf reads exit code 2 and its reason on stderr; the same text goes to stdout for show_output
    windsurf: { deny: (text) => `${text}\n`, ask: (text) => `${text}\n` },
    // Kiro CLI reads exit code 2 and hands its stderr to the model; stdout says the same
    kiro: { deny: (text) => `${text}\n`, ask: (text) => `${text}\n` },
    // Factory Droid reads Claude Code's nested answer; it settles its own ask by autonomy, so an ask is a deny
    droid: {
      deny: (text) => claudeStyle('deny', text),
      ask: (text) => claudeStyle('deny', text),
    },
    // Augment Auggie reads the same nested answer (only with hookEventName); it runs an asked step, so an ask is a deny
    auggie: {
      deny: (text) => claudeStyle('deny', text),
      ask: (text) => claudeStyle('deny', text),
    },
    // Cline: a shell step's commands replaced by one that prints the reason and fails, the reason as
    // context too; a step guard could not read is cancelled (which ends Cline's task)
    cline: {
      deny: (text) => line({ overrideInput: { commands: [sayingWhy(text)] }, context: text }),
      ask: (text) => line({ overrideInput: { commands: [sayingWhy(text)] }, context: text }),
      unread: (text) => line({ cancel: true, errorMessage: `${text} ${CANCELLED}` }),
    },
    // Crush (documented, not observed): a top-level deny; it has no ask a hook can raise
    crush: {
      deny: (text) => line({ decision: 'deny', reason: text }),
      ask: (text) => line({ decision: 'deny', reason: text }),
    },
  };
/** Agents whose ask is block-then-chat: the person answers in the chat, with a code to quote. */
const IN_CHAT: readonly AgentId[] = [
  'codex',
  'gemini',
  'opencode',
  'kilo',
  'windsurf',
  'droid',
  'cline',
  'crush',
  'auggie',
  'kiro',
];

const ENV: Environment = {
  home: HOME,
  tmp: tmpdir(),
  guardHome: OPEN,
  agents: agentKnowledge(Object.values(AGENTS), { home: HOME, env: {} }),
};

/** The engine's verdict on a payload's step, judged in this process (for the message texts). */
function verdictOf(agent: AgentId, args: readonly string[], payload: unknown): Verdict {
  const event = args[args.indexOf('--event') + 1];
  const input = adapters[agent].read(payload, args.includes('--event') ? event : undefined, ['node']);
  if (input.type !== 'step') throw new Error('not a step');
  return evaluate(input.step, { ...ENV, probe: createProbe() });
}

const reasonOf = (id: string): string => rules.find((rule) => rule.meta.id === id)?.meta.reason ?? `no rule ${id}`;

describe.for(AGENT_CASES)('guard hook $agent, recorded payloads as a process', (agentCase) => {
  const { agent, args } = agentCase;

  it('a harmless step: no objection, exit 0, logged as allowed', async () => {
    const result = await hook(args, JSON.stringify(agentCase.shell(HARMLESS)));
    expect(result).toMatchObject({ code: 0, stdout: agentCase.noObjection, stderr: '' });
    expect(result.log).toMatchObject({ agent, decision: 'allow', how: 'rules', rules: [], step: HARMLESS });
  });

  it("an asked step (git.push): the agent's own way of asking, exit 0", async () => {
    const payload = agentCase.shell(ASKED);
    const verdict = verdictOf(agent, args, payload);
    expect(verdict.findings.map((finding) => finding.ruleId)).toEqual(['git.push']);
    expect(verdict.findings[0]?.reason).toContain(reasonOf('git.push').slice(0, 40));
    const result = await hook(args, JSON.stringify(payload));
    // Codex and Gemini CLI ask in the chat, with a code the person can quote to approve (it is in the log line too)
    const code = result.log.code;
    expect(code === undefined).toBe(!IN_CHAT.includes(agent));
    // Antigravity and OpenCode have no chat-start event: the first asked or blocked step also says guard is on
    const notice = adapters[agent].capabilities.startEvent ? undefined : GUARD_ON_NOTICE;
    // Cline: no ask ever reaches a person there, so it says nobody can approve it
    const never = adapters[agent].capabilities.askEvents.length === 0;
    const text = never
      ? awayMessage(verdict, notice, code)
      : IN_CHAT.includes(agent)
        ? askInChatMessage(verdict, code, notice)
        : askMessage(verdict, notice);
    expect(agentCase.read(result)).toMatchObject({ code: 0, stdout: REPLY[agent].ask(text), stderr: '' });
    // (where no ask reaches a person, the log says it was left to nobody)
    const how = never ? 'away' : 'rules';
    expect(result.log).toMatchObject({ decision: 'ask', how, rules: ['git.push'], step: ASKED });
  });

  it("a blocked step (git.rewrite-shared-history): denied with the rule's reason, exit 0", async () => {
    const payload = agentCase.shell(BLOCKED);
    const verdict = verdictOf(agent, args, payload);
    expect(verdict.decision).toBe('block');
    expect(verdict.findings[0]).toMatchObject({
      ruleId: 'git.rewrite-shared-history',
      reason: reasonOf('git.rewrite-shared-history'),
    });
    const result = await hook(args, JSON.stringify(payload));
    expect(agentCase.read(result)).toMatchObject({
      code: 0,
      stdout: REPLY[agent].deny(blockMessage(verdict)),
      stderr: '',
    });
    expect(result.log).toMatchObject({ decision: 'block', how: 'rules', step: BLOCKED });
    expect(result.log.rules?.[0]).toBe('git.rewrite-shared-history');
  });

  const broken = [
    { name: 'invalid JSON', stdin: '{"cwd": "/home/dev/project", ' },
    { name: 'empty stdin', stdin: '' },
    { name: 'a recorded payload with a field missing', stdin: fixtureText(agentCase.missing) },
    { name: 'a recorded payload with a field of the wrong type', stdin: fixtureText(agentCase.wrongType) },
  ];

  // not read, so not checked: asked (a deny where nobody is known to answer), saying so
  it.for(broken)('fail-open, $name: asked, the cause on stderr and in the log', async ({ stdin }) => {
    const result = await hook(args, stdin);
    const answer = agentCase.read(result);
    expect(answer.code).toBe(0);
    expect(answer.stdout).not.toBe(agentCase.noObjection);
    expect(answer.stdout).toMatch(/guard could not read this step/i);
    expect(answer.stderr).toMatch(/^guard: [^\n]+\n$/);
    expect(result.log).toMatchObject({
      how: 'failure',
      decision: 'ask',
      error: answer.stderr.slice('guard: '.length, -1),
    });
  });

  /**
   * Starts the hook (with a deadline of `deadlineMs`, or else the agent's own), writes `stdin`
   * without ending it, and resolves with the first reply bytes.
   */
  function openStdin(stdin: string, deadlineMs?: number) {
    const deadline = deadlineMs === undefined ? {} : { GUARD_DEADLINE_MS: String(deadlineMs) };
    const child = spawn(process.execPath, [BIN, 'hook', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME, GUARD_HOME: OPEN, ...deadline },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write(stdin);
    // the whole answer, once the process ended
    const answer = async () => agentCase.read({ stdout, stderr, code: await exited });
    return { child, exited, stdout: () => stdout, answer };
  }

  it('stdin left open after a whole payload: answered at once, and the process ends', async () => {
    const before = logLines(OPEN).length;
    // at once: long before the agent's own deadline however busy the machine (a hook waiting for
    // stdin to end would answer at that deadline)
    const { exited, stdout, child } = openStdin(JSON.stringify(agentCase.shell(HARMLESS)));
    try {
      expect(await exited).toBe(0);
      expect(stdout()).toBe(agentCase.noObjection);
      expect(logLines(OPEN).slice(before)).toMatchObject([{ how: 'rules', decision: 'allow', step: HARMLESS }]);
    } finally {
      child.kill();
    }
  });

  // what was read of the payload is judged by the never list; anything else is asked
  it.for([
    { command: 'git st', decision: 'ask' },
    { command: 'git push --force orig', decision: 'block' },
  ])(
    'stdin left open in the middle of a payload ($command…): $decision at the deadline',
    async ({ command, decision }) => {
      const before = logLines(OPEN).length;
      // counted from the process's start: stretched on a busy machine, so that what was written is
      // read by then
      const { answer, child, stdout } = openStdin(
        `{"hook_event_name": "PreToolUse", "tool_input": {"command": "${command}`,
        scaled(1_500),
      );
      // the answer is in the log once it went out; the process ends when the agent closes stdin
      for (
        let waited = 0;
        (logLines(OPEN).length === before || stdout() === '') && waited < scaled(8_000);
        waited += 50
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logLines(OPEN).slice(before)).toMatchObject([{ how: 'deadline', decision }]);
      expect(stdout()).not.toBe(agentCase.noObjection);
      expect(stdout()).toMatch(/guard ran out of time/i);
      child.stdin.end();
      expect((await answer()).code).toBe(0);
    },
  );

  it.for(broken)('fail-closed, $name: blocked, exit 0', async ({ stdin }) => {
    const result = await hook(args, stdin, CLOSED);
    const verdict: Verdict = {
      decision: 'block',
      findings: [],
      agentMessage: failClosedMessage('unread'),
      userMessage: failClosedMessage('unread'),
    };
    const reply = REPLY[agent];
    expect(agentCase.read(result)).toMatchObject({
      code: 0,
      stdout: (reply.unread ?? reply.deny)(blockMessage(verdict)),
    });
    expect(result.log).toMatchObject({ how: 'failure', decision: 'block' });
  });
});

describe('more recorded payloads: the process answers what the engine and the adapter say', () => {
  // every kind of step and a few events, each as recorded (or synthesised, see the fixtures README)
  // `notice`: the first step of its chat that is stopped, where the agent has no start event to say guard is on
  const cases: readonly { agent: AgentId; file: string; event?: string; notice?: true }[] = [
    { agent: 'codex', file: 'pre-tool-use-git-push-force' },
    { agent: 'codex', file: 'pre-tool-use-bash' },
    { agent: 'codex', file: 'pre-tool-use-apply-patch' },
    { agent: 'codex', file: 'synth-pre-tool-use-mcp' },
    { agent: 'codex', file: 'synth-pre-tool-use-spawn-agent' },
    { agent: 'codex', file: 'session-start' },
    { agent: 'codex', file: 'post-tool-use-bash' },
    { agent: 'cursor', file: 'pre-tool-use-write' },
    { agent: 'cursor', file: 'pre-tool-use-delete' },
    { agent: 'cursor', file: 'synth-pre-tool-use-edit' },
    { agent: 'cursor', file: 'synth-before-read-file' },
    { agent: 'cursor', file: 'before-mcp-execution' },
    { agent: 'cursor', file: 'pre-tool-use-shell-cli' },
    { agent: 'cursor', file: 'synth-pre-tool-use-task' },
    { agent: 'cursor', file: 'session-start' },
    { agent: 'antigravity', file: 'pre-tool-use-write-to-file', event: 'PreToolUse' },
    { agent: 'antigravity', file: 'synth-pre-tool-use-view-file', event: 'PreToolUse' },
    { agent: 'antigravity', file: 'synth-pre-tool-use-read-url-content', event: 'PreToolUse' },
    { agent: 'antigravity', file: 'synth-pre-tool-use-call-mcp-tool', event: 'PreToolUse' },
    { agent: 'antigravity', file: 'synth-pre-tool-use-generate-image', event: 'PreToolUse' },
    { agent: 'copilot', file: 'pre-tool-use-bash-rm', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-create', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-edit', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-view', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-web-fetch', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-mcp', event: 'preToolUse' },
    { agent: 'copilot', file: 'synth-pre-tool-use-report-intent', event: 'preToolUse' },
    { agent: 'copilot', file: 'pascal-pre-tool-use-bash' },
    { agent: 'copilot', file: 'session-start', event: 'sessionStart' },
    { agent: 'qwen', file: 'pre-tool-use-git-push-force' },
    { agent: 'qwen', file: 'pre-tool-use-shell-directory' },
    { agent: 'qwen', file: 'pre-tool-use-write-file' },
    { agent: 'qwen', file: 'pre-tool-use-edit' },
    { agent: 'qwen', file: 'pre-tool-use-read-file' },
    { agent: 'qwen', file: 'pre-tool-use-web-fetch' },
    { agent: 'qwen', file: 'synth-pre-tool-use-mcp' },
    { agent: 'qwen', file: 'synth-pre-tool-use-monitor' },
    { agent: 'qwen', file: 'session-start' },
    { agent: 'qwen', file: 'user-prompt-submit-continue' },
    { agent: 'qwen', file: 'post-tool-use-shell' },
    { agent: 'droid', file: 'pre-tool-use-git-push-force' },
    { agent: 'droid', file: 'synth-pre-tool-use-git-push' },
    { agent: 'droid', file: 'pre-tool-use-shell' },
    { agent: 'droid', file: 'pre-tool-use-create' },
    { agent: 'droid', file: 'pre-tool-use-edit' },
    { agent: 'droid', file: 'pre-tool-use-read' },
    { agent: 'droid', file: 'pre-tool-use-ls' },
    { agent: 'droid', file: 'synth-pre-tool-use-fetch-url' },
    { agent: 'droid', file: 'synth-pre-tool-use-mcp' },
    { agent: 'droid', file: 'session-start' },
    { agent: 'droid', file: 'post-tool-use-shell' },
    { agent: 'cline', file: 'synth-pre-tool-use-git-push-force', notice: true },
    { agent: 'cline', file: 'pre-tool-use-run-commands' },
    { agent: 'cline', file: 'pre-tool-use-editor' },
    { agent: 'cline', file: 'pre-tool-use-read-files' },
    { agent: 'cline', file: 'synth-pre-tool-use-fetch' },
    { agent: 'cline', file: 'synth-pre-tool-use-mcp' },
    { agent: 'cline', file: 'task-start' },
    { agent: 'cline', file: 'post-tool-use-run-commands' },
    { agent: 'auggie', file: 'pre-tool-use-git-push-force' },
    { agent: 'auggie', file: 'synth-pre-tool-use-git-push' },
    { agent: 'auggie', file: 'pre-tool-use-shell' },
    { agent: 'auggie', file: 'pre-tool-use-save-file' },
    { agent: 'auggie', file: 'pre-tool-use-str-replace-editor' },
    { agent: 'auggie', file: 'pre-tool-use-remove-files' },
    { agent: 'auggie', file: 'pre-tool-use-apply-patch' },
    { agent: 'auggie', file: 'pre-tool-use-view' },
    { agent: 'auggie', file: 'pre-tool-use-web-fetch' },
    { agent: 'auggie', file: 'pre-tool-use-write-process' },
    { agent: 'auggie', file: 'synth-pre-tool-use-mcp' },
    { agent: 'auggie', file: 'session-start' },
    { agent: 'auggie', file: 'prompt-submit' },
    { agent: 'auggie', file: 'post-tool-use-shell' },
    { agent: 'windsurf', file: 'doc-pre-run-command' },
    { agent: 'windsurf', file: 'doc-pre-read-code' },
    { agent: 'windsurf', file: 'doc-pre-write-code' },
    { agent: 'windsurf', file: 'doc-pre-mcp-tool-use' },
    { agent: 'windsurf', file: 'doc-pre-user-prompt' },
    { agent: 'windsurf', file: 'doc-post-run-command' },
    { agent: 'windsurf', file: 'doc-post-mcp-tool-use' },
    { agent: 'windsurf', file: 'doc-post-cascade-response' },
    // (the chat of synth-session-1 was told guard is on by the rows above)
    { agent: 'crush', file: 'synth-pre-tool-use-bash' },
    { agent: 'crush', file: 'synth-pre-tool-use-bash-working-dir' },
    { agent: 'crush', file: 'synth-pre-tool-use-edit' },
    { agent: 'crush', file: 'synth-pre-tool-use-multiedit' },
    { agent: 'crush', file: 'synth-pre-tool-use-write' },
    { agent: 'crush', file: 'synth-pre-tool-use-download' },
    { agent: 'crush', file: 'synth-pre-tool-use-view' },
    { agent: 'crush', file: 'synth-pre-tool-use-ls' },
    { agent: 'crush', file: 'synth-pre-tool-use-glob' },
    { agent: 'crush', file: 'synth-pre-tool-use-grep' },
    { agent: 'crush', file: 'synth-pre-tool-use-fetch' },
    { agent: 'crush', file: 'synth-pre-tool-use-sourcegraph' },
    { agent: 'crush', file: 'synth-pre-tool-use-agent' },
    { agent: 'crush', file: 'synth-pre-tool-use-mcp' },
    { agent: 'kiro', file: 'lineage-pre-tool-use-execute-bash' },
    { agent: 'kiro', file: 'lineage-pre-tool-use-fs-write' },
    { agent: 'kiro', file: 'lineage-pre-tool-use-use-aws' },
    { agent: 'kiro', file: 'lineage-pre-tool-use-web-fetch' },
    { agent: 'kiro', file: 'doc-pre-tool-use-read' },
    { agent: 'kiro', file: 'doc-pre-tool-use-mcp' },
    { agent: 'kiro', file: 'doc-agent-spawn' },
    { agent: 'kiro', file: 'doc-user-prompt-submit' },
    { agent: 'kiro', file: 'doc-post-tool-use' },
    { agent: 'kiro', file: 'doc-stop' },
  ];

  it.for(cases)('$agent $file', async ({ agent, file, event, notice }) => {
    const args = event === undefined ? [agent] : [agent, '--event', event];
    const payload = fixture(`${agent}/${file}`);
    const adapter = adapters[agent];
    const input = adapter.read(payload, event, ['node']);
    let expected: HookReply;
    let decision: string | undefined;
    if (input.type === 'step') {
      // the same real probe the hook uses (whether a file exists decides a delete, for one)
      const verdict = evaluate(input.step, { ...ENV, probe: createProbe() });
      // Cursor's preToolUse leaves an ask to the shell/MCP event that follows for the same call
      const answered =
        input.deferAsk === true && verdict.decision !== 'block'
          ? { ...verdict, decision: 'allow' as const, findings: [] }
          : verdict;
      expected = adapter.toReply(answered, {
        event: input.event,
        canAsk: input.canAsk,
        failClosed: false,
        tool: input.step.toolName,
        ...(notice === true ? { notice: GUARD_ON_NOTICE } : {}),
      });
      decision = answered.decision;
    } else {
      // a chat start is told that guard is on, where the agent takes context at start
      expected = adapter.toEventReply(input.event, input.type === 'start' ? GUARD_ON_NOTICE : undefined);
    }
    const result = await hook(args, fixtureText(`${agent}/${file}`));
    // a Codex ask carries the approval code the log line names
    if (result.log.code !== undefined && input.type === 'step') {
      const verdict = evaluate(input.step, { ...ENV, probe: createProbe() });
      expected = adapter.toReply(verdict, {
        event: input.event,
        canAsk: input.canAsk,
        failClosed: false,
        tool: input.step.toolName,
        approvalCode: result.log.code,
      });
    }
    // the whole answer: what it printed and its exit code (Windsurf reads exit 2 and stderr)
    expect(result).toMatchObject({ code: expected.exitCode, stdout: expected.stdout, stderr: expected.stderr ?? '' });
    if (decision !== undefined) expect(result.log.decision).toBe(decision);
    // an ask where nobody can answer is sent back as "a safer way, or leave it out" (away)
    expect(['rules', 'ignored', 'event', 'away']).toContain(result.log.how);
  });
});
