import { describe, expect, it } from 'vitest';
import type { AgentId, CannedCall, Effect, ReadReply } from '../src/index.js';
import { adapters, configuredTimeout, DOCTOR_CHAT } from '../src/index.js';

const AGENTS: readonly AgentId[] = [
  'codex',
  'cursor',
  'antigravity',
  'copilot',
  'claude-code',
  'gemini',
  'qwen',
  'windsurf',
  'droid',
  'cline',
  'crush',
  'auggie',
  'kiro',
];
const cannedShellCall = (agent: AgentId, command: string, cwd: string): CannedCall =>
  adapters[agent].doctor.shellCall(command, cwd);
const readReply = (agent: AgentId, stdout: string, exit: number, failClosed = false): ReadReply =>
  adapters[agent].doctor.readReply(stdout, exit, failClosed);

describe('cannedShellCall', () => {
  it.for(AGENTS)("%s: the agent's own adapter reads it as the shell step it stands for", (agent) => {
    const call = cannedShellCall(agent, 'git push --force origin main', '/home/dev/project');
    const input = adapters[agent].read(structuredClone(call.payload), call.event, ['node']);
    expect(input.type).toBe('step');
    if (input.type !== 'step') return;
    expect(input.event).toBe(call.event);
    expect(input.step).toMatchObject({
      agent,
      kind: 'shell',
      command: 'git push --force origin main',
      chatId: DOCTOR_CHAT,
      cwd: '/home/dev/project',
    });
    // the event doctor sends on is one guard registers, and one where the agent can ask
    expect(adapters[agent].capabilities.events).toContain(call.event);
    expect(input.deferAsk ?? false).toBe(false);
  });
});

const deny = {
  codex:
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard: no"}}',
  cursor: '{"permission":"deny","user_message":"no","agent_message":"no"}',
  antigravity: '{"decision":"deny","reason":"guard: no"}',
  copilot: '{"permissionDecision":"deny","permissionDecisionReason":"guard: no"}',
  claude:
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard: no"}}',
  gemini: '{"decision":"deny","reason":"guard: no"}',
} as const;

describe('readReply: what each agent does with an answer', () => {
  it.for<{ agent: AgentId; stdout: string; exit: number; effect: Effect; failClosed?: boolean }>([
    // Codex: silence is no objection; only a deny with a reason blocks; "ask" and "allow" fail (and so run)
    { agent: 'codex', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'codex', stdout: '\n', exit: 0, effect: 'no-objection' },
    { agent: 'codex', stdout: deny.codex, exit: 0, effect: 'block' },
    { agent: 'codex', stdout: '', exit: 2, effect: 'block' },
    { agent: 'codex', stdout: deny.codex.replace('guard: no', ''), exit: 0, effect: 'failure' },
    { agent: 'codex', stdout: deny.codex.replace('deny', 'ask'), exit: 0, effect: 'failure' },
    { agent: 'codex', stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}', exit: 0, effect: 'failure' },
    { agent: 'codex', stdout: `Welcome to zsh\n${deny.codex}`, exit: 0, effect: 'failure' },
    { agent: 'codex', stdout: deny.codex, exit: 1, effect: 'failure' },
    // Cursor: {} and allow let it run; deny blocks; ask asks; silence fails only on failClosed entries
    { agent: 'cursor', stdout: '{}', exit: 0, effect: 'no-objection' },
    { agent: 'cursor', stdout: '{"permission":"allow"}', exit: 0, effect: 'no-objection' },
    { agent: 'cursor', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'cursor', stdout: '', exit: 0, effect: 'failure', failClosed: true },
    { agent: 'cursor', stdout: deny.cursor, exit: 0, effect: 'block' },
    { agent: 'cursor', stdout: '{"permission":"ask","user_message":"?"}', exit: 0, effect: 'ask' },
    { agent: 'cursor', stdout: '{"permission":"maybe"}', exit: 0, effect: 'failure' },
    { agent: 'cursor', stdout: 'not json', exit: 0, effect: 'failure' },
    { agent: 'cursor', stdout: '', exit: 2, effect: 'block' },
    { agent: 'cursor', stdout: '{}', exit: 3, effect: 'failure' },
    // Antigravity: "ask" is its no objection; silence, {} and non-JSON are failures (which it blocks)
    { agent: 'antigravity', stdout: '{"decision":"ask"}', exit: 0, effect: 'no-objection' },
    { agent: 'antigravity', stdout: deny.antigravity, exit: 0, effect: 'block' },
    { agent: 'antigravity', stdout: '{"decision":"force_ask","reason":"?"}', exit: 0, effect: 'ask' },
    { agent: 'antigravity', stdout: '{}', exit: 0, effect: 'failure' },
    { agent: 'antigravity', stdout: '', exit: 0, effect: 'failure' },
    { agent: 'antigravity', stdout: '{"decision":"ask"}', exit: 1, effect: 'failure' },
    { agent: 'antigravity', stdout: '{"decision":""}', exit: 0, effect: 'failure' },
    // Copilot: silence and {} are no objection; deny blocks; exit 2 blocks; other exits fail
    { agent: 'copilot', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'copilot', stdout: '{}', exit: 0, effect: 'no-objection' },
    { agent: 'copilot', stdout: deny.copilot, exit: 0, effect: 'block' },
    { agent: 'copilot', stdout: '{"permissionDecision":"ask","permissionDecisionReason":"?"}', exit: 0, effect: 'ask' },
    { agent: 'copilot', stdout: '', exit: 2, effect: 'block' },
    { agent: 'copilot', stdout: deny.copilot, exit: 1, effect: 'failure' },
    { agent: 'copilot', stdout: `${deny.copilot}${deny.copilot}`, exit: 0, effect: 'failure' },
    // Claude Code: silence and plain text let it run; a deny blocks whatever the exit code; an
    // "allow" is an approval, never guard's no objection; failures block only on onFailure entries
    { agent: 'claude-code', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'claude-code', stdout: 'this is not json', exit: 0, effect: 'no-objection' },
    { agent: 'claude-code', stdout: 'this is not json', exit: 0, effect: 'no-objection', failClosed: true },
    { agent: 'claude-code', stdout: '{}', exit: 0, effect: 'no-objection' },
    { agent: 'claude-code', stdout: deny.claude, exit: 0, effect: 'block' },
    { agent: 'claude-code', stdout: deny.claude, exit: 1, effect: 'block' },
    { agent: 'claude-code', stdout: deny.claude.replace('deny', 'ask'), exit: 0, effect: 'ask' },
    { agent: 'claude-code', stdout: deny.claude.replace('deny', 'allow'), exit: 0, effect: 'failure' },
    { agent: 'claude-code', stdout: deny.claude.replace('deny', 'maybe'), exit: 0, effect: 'failure' },
    { agent: 'claude-code', stdout: deny.claude.replace('deny', 'maybe'), exit: 0, effect: 'block', failClosed: true },
    // a decision that is not a string is no decision word, even one that prints as "deny"
    { agent: 'claude-code', stdout: deny.claude.replace('"deny"', '["deny"]'), exit: 0, effect: 'failure' },
    { agent: 'claude-code', stdout: '', exit: 2, effect: 'block' },
    { agent: 'claude-code', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'claude-code', stdout: '', exit: 1, effect: 'block', failClosed: true },
    // Gemini CLI: silence, text and allow let it run; deny (or block, or continue false) stops it
    // whatever the exit code; exit 2 blocks; other exits fail (and so run), fail-closed or not
    { agent: 'gemini', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'gemini', stdout: 'this is not json', exit: 0, effect: 'no-objection' },
    { agent: 'gemini', stdout: '{"decision":"allow"}', exit: 0, effect: 'no-objection' },
    { agent: 'gemini', stdout: deny.gemini, exit: 0, effect: 'block' },
    { agent: 'gemini', stdout: deny.gemini.replace('deny', 'block'), exit: 0, effect: 'block' },
    { agent: 'gemini', stdout: deny.gemini, exit: 1, effect: 'block' },
    { agent: 'gemini', stdout: '{"continue":false,"stopReason":"no"}', exit: 0, effect: 'block' },
    { agent: 'gemini', stdout: '{"decision":"ask","reason":"?"}', exit: 0, effect: 'ask' },
    // Claude Code's nested form means nothing to Gemini CLI
    { agent: 'gemini', stdout: deny.claude, exit: 0, effect: 'no-objection' },
    { agent: 'gemini', stdout: '{"decision":["deny"]}', exit: 0, effect: 'no-objection' },
    { agent: 'gemini', stdout: '', exit: 2, effect: 'block' },
    { agent: 'gemini', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'gemini', stdout: '', exit: 1, effect: 'failure', failClosed: true },
    // Qwen Code: Claude Code's nested form (and Gemini CLI's top-level one) read whatever the exit
    // code, the nested one first; exit 2 blocks; a crash, broken JSON or an "allow" let it run, with
    // no fail-closed switch
    // Cline reads stdout alone: a cancel or a replaced input stops the step, silence lets it run
    { agent: 'cline', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'cline', stdout: '', exit: 1, effect: 'no-objection' },
    { agent: 'cline', stdout: '{"cancel":true}', exit: 0, effect: 'block' },
    { agent: 'cline', stdout: '{"overrideInput":{"commands":["exit 1"]}}', exit: 0, effect: 'block' },
    { agent: 'cline', stdout: '{"cancel":"yes"}', exit: 0, effect: 'no-objection' },
    { agent: 'cline', stdout: 'not json', exit: 2, effect: 'failure' },
    // Kiro CLI reads the exit code alone: 2 blocks, 0 lets it run, any other warns and runs it
    { agent: 'kiro', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'kiro', stdout: 'guard: blocked', exit: 0, effect: 'no-objection' },
    { agent: 'kiro', stdout: '', exit: 2, effect: 'block' },
    { agent: 'kiro', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'kiro', stdout: '', exit: 1, effect: 'failure', failClosed: true },
    { agent: 'kiro', stdout: '{"decision":"deny"}', exit: 0, effect: 'no-objection' },
    { agent: 'qwen', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'qwen', stdout: 'this is not json', exit: 0, effect: 'no-objection' },
    { agent: 'qwen', stdout: '{}', exit: 0, effect: 'no-objection' },
    { agent: 'qwen', stdout: deny.claude, exit: 0, effect: 'block' },
    { agent: 'qwen', stdout: deny.claude, exit: 1, effect: 'block' },
    { agent: 'qwen', stdout: deny.gemini, exit: 0, effect: 'block' },
    { agent: 'qwen', stdout: deny.claude.replace('deny', 'ask'), exit: 0, effect: 'ask' },
    { agent: 'qwen', stdout: '{"continue":false,"stopReason":"no"}', exit: 0, effect: 'block' },
    // the nested decision wins over the top-level one
    {
      agent: 'qwen',
      stdout: '{"decision":"deny","hookSpecificOutput":{"permissionDecision":"allow"}}',
      exit: 0,
      effect: 'failure',
    },
    { agent: 'qwen', stdout: deny.claude.replace('deny', 'allow'), exit: 0, effect: 'failure' },
    { agent: 'qwen', stdout: deny.claude.replace('"deny"', '"maybe"'), exit: 0, effect: 'no-objection' },
    { agent: 'qwen', stdout: '{"hookSpecificOutput": ', exit: 0, effect: 'failure' },
    { agent: 'qwen', stdout: '', exit: 2, effect: 'block' },
    { agent: 'qwen', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'qwen', stdout: '', exit: 1, effect: 'failure', failClosed: true },
    // Factory Droid (0.215.0, recorded): a nested deny and exit 2 stop the step; an ask is settled by
    // its autonomy level (it ran the step), broken JSON, exit 1 and a timeout let it run
    { agent: 'droid', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'droid', stdout: '{not json', exit: 0, effect: 'no-objection' },
    { agent: 'droid', stdout: deny.claude, exit: 0, effect: 'block' },
    { agent: 'droid', stdout: '', exit: 2, effect: 'block' },
    { agent: 'droid', stdout: deny.claude.replace('deny', 'ask'), exit: 0, effect: 'failure' },
    { agent: 'droid', stdout: deny.claude.replace('deny', 'allow'), exit: 0, effect: 'failure' },
    { agent: 'droid', stdout: deny.claude.replace('"deny"', '"maybe"'), exit: 0, effect: 'no-objection' },
    // Gemini CLI's top-level form means nothing to Droid (not seen: read as no decision)
    { agent: 'droid', stdout: deny.gemini, exit: 0, effect: 'no-objection' },
    { agent: 'droid', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'droid', stdout: deny.claude, exit: 1, effect: 'failure' },
    { agent: 'droid', stdout: '', exit: 1, effect: 'failure', failClosed: true },
    // Crush (documented, not observed): a top-level deny or exit 2 stops the step; an "allow" would
    // approve it; another exit code is taken as a failure that runs it
    { agent: 'crush', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'crush', stdout: 'not json', exit: 0, effect: 'no-objection' },
    { agent: 'crush', stdout: deny.gemini, exit: 0, effect: 'block' },
    { agent: 'crush', stdout: '', exit: 2, effect: 'block' },
    { agent: 'crush', stdout: deny.gemini.replace('deny', 'allow'), exit: 0, effect: 'failure' },
    { agent: 'crush', stdout: deny.gemini.replace('"deny"', '"maybe"'), exit: 0, effect: 'no-objection' },
    // Claude Code's nested form is not Crush's
    { agent: 'crush', stdout: deny.claude, exit: 0, effect: 'no-objection' },
    { agent: 'crush', stdout: deny.gemini, exit: 1, effect: 'failure' },
    { agent: 'crush', stdout: '', exit: 1, effect: 'failure', failClosed: true },
    // Augment Auggie (0.36.0, recorded): a nested deny with hookEventName, continue false and exit 2
    // stop the step; a deny without hookEventName, an ask, broken JSON, exit 1 and a timeout let it run
    { agent: 'auggie', stdout: '', exit: 0, effect: 'no-objection' },
    { agent: 'auggie', stdout: '{"hookSpecificOutput":', exit: 0, effect: 'no-objection' },
    { agent: 'auggie', stdout: deny.claude, exit: 0, effect: 'block' },
    {
      agent: 'auggie',
      stdout: deny.claude.replace('"hookEventName":"PreToolUse",', ''),
      exit: 0,
      effect: 'no-objection',
    },
    { agent: 'auggie', stdout: '{"continue":false,"stopReason":"no"}', exit: 0, effect: 'block' },
    { agent: 'auggie', stdout: '', exit: 2, effect: 'block' },
    { agent: 'auggie', stdout: deny.claude.replace('deny', 'ask'), exit: 0, effect: 'failure' },
    { agent: 'auggie', stdout: deny.claude.replace('deny', 'allow'), exit: 0, effect: 'failure' },
    { agent: 'auggie', stdout: deny.claude.replace('"deny"', '"maybe"'), exit: 0, effect: 'no-objection' },
    { agent: 'auggie', stdout: deny.gemini, exit: 0, effect: 'no-objection' },
    { agent: 'auggie', stdout: '', exit: 1, effect: 'failure' },
    { agent: 'auggie', stdout: deny.claude, exit: 1, effect: 'failure' },
    { agent: 'auggie', stdout: '', exit: 1, effect: 'failure', failClosed: true },
  ])('$agent: exit $exit, $stdout → $effect', ({ agent, stdout, exit, effect, failClosed }) => {
    expect(readReply(agent, stdout, exit, failClosed).effect).toBe(effect);
  });
});

describe('replyText: the words each agent is given with an answer', () => {
  it.for<{ agent: AgentId; stdout: string; stderr?: string; exit?: number; text: string }>([
    // the nested form of Claude Code, and of the agents that copied it: the reason, else the context
    { agent: 'claude-code', stdout: deny.claude, text: 'guard: no' },
    { agent: 'codex', stdout: deny.codex, text: 'guard: no' },
    { agent: 'qwen', stdout: '{"hookSpecificOutput":{"additionalContext":"guard is on"}}', text: 'guard is on' },
    { agent: 'droid', stdout: deny.claude, text: 'guard: no' },
    { agent: 'auggie', stdout: deny.claude, text: 'guard: no' },
    // near misses: a top-level reason, a reason that is not a string, text that is not JSON
    { agent: 'claude-code', stdout: deny.gemini, text: '' },
    { agent: 'codex', stdout: '{"hookSpecificOutput":{"permissionDecisionReason":["guard: no"]}}', text: '' },
    { agent: 'droid', stdout: 'guard: no', text: '' },
    // each agent's own field
    { agent: 'cursor', stdout: deny.cursor, text: 'no' },
    { agent: 'cursor', stdout: '{"additional_context":"guard is on"}', text: 'guard is on' },
    { agent: 'cursor', stdout: '{"user_message":"for the person"}', text: '' },
    { agent: 'antigravity', stdout: deny.antigravity, text: 'guard: no' },
    { agent: 'antigravity', stdout: deny.claude, text: '' },
    { agent: 'copilot', stdout: deny.copilot, text: 'guard: no' },
    { agent: 'copilot', stdout: '{"additionalContext":"guard is on"}', text: 'guard is on' },
    { agent: 'copilot', stdout: deny.claude, text: '' },
    { agent: 'gemini', stdout: deny.gemini, text: 'guard: no' },
    { agent: 'gemini', stdout: '{"hookSpecificOutput":{"additionalContext":"guard is on"}}', text: 'guard is on' },
    { agent: 'gemini', stdout: deny.claude, text: '' },
    { agent: 'opencode', stdout: '{"decision":"block","reason":"guard: no"}', text: 'guard: no' },
    { agent: 'kilo', stdout: '{"decision":"block","reason":""}', text: '' },
    { agent: 'crush', stdout: deny.gemini, text: 'guard: no' },
    { agent: 'crush', stdout: deny.claude, text: '' },
    { agent: 'cline', stdout: '{"overrideInput":{"commands":["exit 1"]},"context":"guard: no"}', text: 'guard: no' },
    { agent: 'cline', stdout: '{"cancel":true,"errorMessage":"guard: no"}', text: 'guard: no' },
    { agent: 'cline', stdout: deny.gemini, text: '' },
    // the agents that read the exit code: stderr when it stops the step, else stdout
    {
      agent: 'windsurf',
      stdout: 'guard: no\n',
      stderr: 'guard: a note\nguard: no\n',
      exit: 2,
      text: 'guard: a note\nguard: no',
    },
    { agent: 'kiro', stdout: 'guard is on\n', stderr: 'guard: a note\n', exit: 0, text: 'guard is on' },
    { agent: 'kiro', stdout: '', stderr: 'guard: no\n', exit: 1, text: '' },
    { agent: 'windsurf', stdout: '', stderr: 'guard: no\n', exit: 0, text: '' },
  ])('$agent: $stdout → $text', ({ agent, stdout, stderr, exit, text }) => {
    expect(adapters[agent].doctor.replyText(stdout, stderr ?? '', exit ?? 0)).toBe(text);
  });
});

describe('configuredTimeout', () => {
  it.for([
    {
      name: 'Cursor entry',
      text: '{"version":1,"hooks":{"stop":[{"command":"x","timeout":99}],"preToolUse":[{"command":"\\"/n\\" \\"/s\\" hook cursor","timeout":10}]}}',
      want: 10,
    },
    {
      name: 'Copilot timeoutSec',
      text: '{"version":1,"hooks":{"preToolUse":[{"bash":"\\"/n\\" \\"/s\\" hook copilot --event preToolUse","timeoutSec":7}]}}',
      want: 7,
    },
    {
      name: "someone else's timeout only",
      text: '{"hooks":{"Stop":[{"hooks":[{"command":"notify hookup","timeout":5}]}]}}',
      want: undefined,
    },
    {
      name: 'guard entry without a timeout',
      text: '{"hooks":{"PreToolUse":[{"hooks":[{"command":"/n /s hook codex"}]}]}}',
      want: undefined,
    },
    {
      name: 'an agent id with a dash',
      text: '{"hooks":{"PreToolUse":[{"hooks":[{"command":"\\"/n\\" \\"/s\\" hook claude-code","timeout":10}]}]}}',
      want: 10,
    },
    { name: 'not JSON', text: '{', want: undefined },
  ])('$name', ({ text, want }) => {
    expect(configuredTimeout(text)).toBe(want);
  });

  it.for([
    { agent: 'claude-code', text: '', want: 600 },
    {
      agent: 'claude-code',
      text: adapters['claude-code'].install('', { hookCommand: '/n /s hook claude-code', failClosed: false }),
      want: 10,
    },
    { agent: 'gemini', text: '', want: 60 },
    // milliseconds in Gemini CLI's file, read with its comments
    {
      agent: 'gemini',
      text: `// mine\n${adapters.gemini.install('', { hookCommand: '/n /s hook gemini', failClosed: false })}`,
      want: 10,
    },
    // Cline's own limit, for guard's file only (a person's file of that name is not guard's)
    {
      agent: 'cline',
      text: adapters.cline.install('', { hookCommand: '/n /s hook cline', failClosed: false }),
      want: 120,
    },
    // milliseconds in guard's agent file; Kiro's default (30 s) for a guard entry without one
    {
      agent: 'kiro',
      text: adapters.kiro.install('', { hookCommand: '/n /s hook kiro', failClosed: false }),
      want: 30,
    },
    { agent: 'kiro', text: '{"hooks":{"preToolUse":[{"command":"/n /s hook kiro","timeout_ms":5000}]}}', want: 5 },
    { agent: 'kiro', text: '{"hooks":{"preToolUse":[{"command":"/n /s hook kiro"}]}}', want: 30 },
    { agent: 'kiro', text: '{"hooks":{"preToolUse":[{"command":"./audit.sh","timeout_ms":5000}]}}', want: undefined },
    { agent: 'kiro', text: '', want: undefined },
    { agent: 'qwen', text: '', want: 60 },
    // guard writes no timeout on Crush's entry, and Crush documents none
    {
      agent: 'crush',
      text: adapters.crush.install('', { hookCommand: '/n /s hook crush', failClosed: false }),
      want: undefined,
    },
    {
      agent: 'qwen',
      text: `// mine\n${adapters.qwen.install('', { hookCommand: '/n /s hook qwen', failClosed: false })}`,
      want: 10,
    },
    // milliseconds in Auggie's file, read with its comments; its own default is a minute
    { agent: 'auggie', text: '', want: 60 },
    {
      agent: 'auggie',
      text: `// mine\n${adapters.auggie.install('', { hookCommand: '/n /s hook auggie', failClosed: false })}`,
      want: 10,
    },
    // 1000 and more: milliseconds
    {
      agent: 'qwen',
      text: '{"hooks":{"PreToolUse":[{"hooks":[{"command":"/n /s hook qwen","timeout":5000}]}]}}',
      want: 5,
    },
  ] as const)('$agent waits $want s for guard', ({ agent, text, want }) => {
    expect(adapters[agent].doctor.timeoutSeconds(text)).toBe(want);
  });
});
