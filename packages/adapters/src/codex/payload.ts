import type { ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { askInChatMessage, awayMessage, blockMessage } from '../messages.js';
import {
  emptyReply,
  fieldsOf,
  isFields,
  jsonReply,
  optionalString,
  parseArgs,
  requireString,
  contextReply,
  sessionCwd,
  sessionId,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS, VALUE_OPTIONS } from './files.js';
import { commandArg, stepByShape } from '../shape.js';

/** What Codex can do with guard's hooks (see the Codex hook reference). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit'],
  askEvents: ['PreToolUse'],
  ask: 'block-then-chat',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Codex runs the step when the hook crashes, exits with a code other than 0 or 2, or prints JSON it rejects; under fail-closed guard prints its own deny instead.',
  onHookTimeout: 'Codex kills a hook that runs out of time and runs the step, whatever fail-closed says.',
  afterSetup: 'Trust the guard hook in Codex with /hooks; until then Codex skips it without a word.',
};

// Events Codex may send that guard reads nothing from.
const IGNORED = new Set([
  'PermissionRequest',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'Interrupt',
  'PreModelRequest',
  'PostModelRequest',
]);

// Events whose replies may carry hookSpecificOutput.additionalContext for the model.
const CONTEXT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']);

// Codex subcommands that run without a person at the keyboard.
const HEADLESS_SUBCOMMANDS = new Set(['exec', 'e']);
const VALUES = new Set(VALUE_OPTIONS);

/** Reads one Codex hook payload; Codex names the event in `hook_event_name`. */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Codex hook payload');
  const name = optionalString(fields, 'hook_event_name', 'Codex hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Codex hook payload: "hook_event_name" is missing.');
  const where = `Codex ${name} payload`;
  switch (name) {
    case 'PreToolUse':
      return { type: 'step', event: name, step: toStep(fields, where), canAsk: canAsk(fields, parentArgs) };
    case 'PostToolUse': {
      const step = toStep(fields, where);
      const response = fields['tool_response'];
      // Bash sends only the command's output; MCP tools may send structured JSON.
      const output = typeof response === 'string' ? response : (JSON.stringify(response) ?? '');
      return { type: 'result', event: name, result: { agent: 'codex', chatId: step.chatId, step, output } };
    }
    case 'SessionStart': {
      const cwd = sessionCwd(fields, where);
      return { type: 'start', event: name, chatId: sessionId(fields, where), cwd, projectRoot: cwd };
    }
    case 'UserPromptSubmit':
      return {
        type: 'prompt',
        event: name,
        chatId: sessionId(fields, where),
        prompt: requireString(fields, 'prompt', where),
        cwd: sessionCwd(fields, where),
      };
    default:
      if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
      throw new PayloadError(`Codex hook payload: unknown event "${name}".`);
  }
}

/** The reply to a verdict on a PreToolUse step: empty for no objection, a JSON deny otherwise. */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      // A bare "allow" is rejected by Codex (and fails open); silence is its "no objection".
      return emptyReply;
    case 'block':
      return deny(blockMessage(verdict, context.notice));
    case 'ask':
      // Codex has no approval prompt (permissionDecision "ask" fails open): deny, and have the
      // agent ask in the chat, or say it cannot be done here when nobody is there to answer.
      return deny(
        context.canAsk
          ? askInChatMessage(verdict, context.approvalCode, context.notice, context.yesLasts)
          : awayMessage(verdict, context.notice, context.approvalCode),
      );
  }
}

/** The reply to a non-step event; `notice` reaches the model as additional context where Codex allows it. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  return contextReply(event, notice, CONTEXT_EVENTS);
}

function deny(reason: string): HookReply {
  return jsonReply({
    // Codex tells the model "Command blocked by PreToolUse hook: <reason>. Command: …", adding its
    // own full stop, so the reason goes without one
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: withoutFullStop(reason),
    },
  });
}

/** The text without its last full stop. */
export function withoutFullStop(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

function toStep(fields: Fields, where: string): ToolStep {
  const cwd = sessionCwd(fields, where);
  const toolName = requireString(fields, 'tool_name', where);
  const turnId = optionalString(fields, 'turn_id', where);
  const callId = optionalString(fields, 'tool_use_id', where);
  const base = {
    agent: 'codex' as const,
    chatId: sessionId(fields, where),
    cwd,
    projectRoot: cwd, // Codex sends no workspace root
    toolName,
    ...(turnId === undefined ? {} : { turnId }),
    ...(callId === undefined ? {} : { callId }),
  };
  const input = fields['tool_input'];
  const kind = toolKind(TOOLS, toolName);
  const at = `${where} tool_input`;
  if (kind === 'shell') return { ...base, kind: 'shell', command: commandArg(inputOf(input, where), at, 'command') };
  // a patch is one text, never a list of words
  if (kind === 'patch') return { ...base, kind: 'patch', patch: requireString(inputOf(input, where), 'command', at) };
  if (kind === 'other') return { ...base, kind: 'other', args: input };
  const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
  if (mcp?.[1] !== undefined && mcp[2] !== undefined) {
    // The arguments are an object, or a JSON string when Codex could not parse them.
    return { ...base, kind: 'mcp', server: mcp[1], tool: mcp[2], args: parseArgs(input) };
  }
  // dynamic (app) tools and anything new
  return stepByShape(base, input, at);
}

function inputOf(input: unknown, where: string): Fields {
  if (!isFields(input)) throw new PayloadError(`${where}: "tool_input" must be an object with a "command" string.`);
  return input;
}

/**
 * Whether a person can answer in the chat. `codex exec` has nobody there, and forces approval
 * "never", so its payloads always say permission_mode "bypassPermissions". An interactive session
 * can run in that mode too (e.g. --dangerously-bypass-approvals-and-sandbox) and still has a person
 * reading the chat, and block-then-chat needs only the chat, not Codex's approval prompt. So the
 * command line decides when it is known; the permission mode is the fallback when it is not.
 */
function canAsk(fields: Fields, parentArgs: readonly string[]): boolean {
  const run = runKind(parentArgs);
  if (run !== undefined) return run === 'interactive';
  return fields['permission_mode'] !== 'bypassPermissions';
}

/** Whether a person reads the chat, from the command line alone: only a run known to be interactive. */
export function canAskUnread(parentArgs: readonly string[]): boolean {
  return runKind(parentArgs) === 'interactive';
}

function runKind(args: readonly string[]): 'headless' | 'interactive' | undefined {
  const start = args.findIndex((arg) => /(^|[\\/])codex(\.js|\.exe|\.cmd)?$/i.test(arg));
  if (start < 0) return undefined;
  for (let i = start + 1; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (VALUES.has(arg)) {
      i += 1;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return HEADLESS_SUBCOMMANDS.has(arg) ? 'headless' : 'interactive';
  }
  return 'interactive';
}
