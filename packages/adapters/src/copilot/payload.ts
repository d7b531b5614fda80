import type { ShellStep, ToolResult, ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { askMessage, awayMessage, blockMessage } from '../messages.js';
import {
  emptyReply,
  fieldsOf,
  firstText,
  hasFlag,
  isFields,
  jsonReply,
  optionalArg,
  pick,
  requireAbsolute,
  requireArg,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS } from './files.js';
import { commandArg, stepByShape } from '../shape.js';

/** What Copilot (CLI, and VS Code on the Copilot engine) can do with guard's hooks. */
export const capabilities: Capabilities = {
  events: ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure'],
  askEvents: ['preToolUse'],
  ask: 'native',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    "Copilot blocks the step when the hook crashes or exits with a non-zero code; output it cannot parse is ignored and Copilot's own approval rules decide.",
  onHookTimeout: 'Copilot stops waiting after timeoutSec and lets the step run, whatever fail-closed says.',
  afterSetup: 'Restart the Copilot CLI (or start a new session with /new), or reload the VS Code window.',
};

type Role = 'step' | 'result' | 'failure' | 'start' | 'prompt' | 'ignore';

// camelCase names (guard's registration) and the PascalCase ones Copilot uses for Claude-style
// registrations and the VS Code "Local" harness, which hands over its own payload shape.
const ROLES = new Map<string, Role>([
  ['preToolUse', 'step'],
  ['PreToolUse', 'step'],
  ['postToolUse', 'result'],
  ['PostToolUse', 'result'],
  ['postToolUseFailure', 'failure'],
  ['sessionStart', 'start'],
  ['SessionStart', 'start'],
  ['userPromptSubmitted', 'prompt'],
  ['UserPromptSubmit', 'prompt'],
  ...[
    'sessionEnd',
    'SessionEnd',
    'userPromptTransformed',
    'permissionRequest',
    'preMcpToolCall',
    'agentStop',
    'Stop',
    'subagentStart',
    'SubagentStart',
    'subagentStop',
    'SubagentStop',
    'errorOccurred',
    'preCompact',
    'PreCompact',
    'notification',
    'Notification',
  ].map((name) => [name, 'ignore'] as const),
]);

// Any of these on the Copilot command line means nobody answers a prompt: -p cannot ask at all,
// autopilot auto-denies, and allow-all auto-approved a hook's ask on CLI 1.0.73 (1.0.102 showed the
// dialog interactively, but an ask that may pass unseen is no ask): block instead.
const NO_PROMPT_FLAGS = ['-p', '--prompt', '--autopilot', '--allow-all', '--allow-all-tools', '--yolo'];

/**
 * Whether a payload is Copilot's: its own camelCase shape (`sessionId`, `toolName`), or the shape it
 * hands a Claude-style registration (a repository's `.claude/settings.json`): Claude Code's field
 * names with a `timestamp` of its own, and neither the `permission_mode` nor the `transcript_path`
 * Claude Code sends (Qwen Code, which copied the same names, sends both).
 */
export function owns(payload: unknown): boolean {
  if (!isFields(payload)) return false;
  if (typeof payload['sessionId'] === 'string' || typeof payload['toolName'] === 'string') return true;
  return (
    typeof payload['hook_event_name'] === 'string' &&
    typeof payload['timestamp'] === 'string' &&
    !Object.hasOwn(payload, 'permission_mode') &&
    !Object.hasOwn(payload, 'transcript_path')
  );
}

/** Reads one Copilot hook payload; the event comes from `--event` (camelCase payloads name none). */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Copilot hook payload');
  const named = event ?? firstText(fields['hook_event_name'], fields['hookEventName'], fields['hookName']);
  if (named === undefined) {
    throw new PayloadError('Copilot hook payload names no event: the hook command must pass --event preToolUse.');
  }
  const role = ROLES.get(named);
  if (role === undefined) throw new PayloadError(`Copilot hook payload: unknown event "${named}".`);
  const where = `Copilot ${named} payload`;
  const call = callTime(fields['timestamp']);
  const same = call === undefined ? {} : { sameCall: call };
  switch (role) {
    case 'step': {
      // Snake_case payloads (Claude-style registration, VS Code Local harness) expect the nested
      // reply too: record that as the PascalCase event name the reply is built for.
      const name = fields['tool_name'] !== undefined && fields['toolName'] === undefined ? 'PreToolUse' : named;
      return { type: 'step', event: name, step: toStep(fields, where), canAsk: canAsk(parentArgs), ...same };
    }
    case 'result':
    case 'failure': {
      const input = resultInput(fields, named, where, role === 'failure');
      return input.type === 'result' ? { ...input, ...same } : input;
    }
    case 'start': {
      const cwd = workingDir(fields, where);
      return { type: 'start', event: named, chatId: chatId(fields), cwd, projectRoot: cwd, ...same };
    }
    case 'prompt': {
      const prompt = fields['prompt'];
      if (typeof prompt !== 'string') throw new PayloadError(`${where}: "prompt" must be a string.`);
      return { type: 'prompt', event: named, chatId: chatId(fields), prompt, cwd: workingDir(fields, where), ...same };
    }
    case 'ignore':
      return { type: 'ignore', event: named, why: `guard does not act on ${named}` };
  }
}

/** The reply to a verdict on a step: empty for no objection, one flat JSON object otherwise. */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  const { event } = context;
  switch (verdict.decision) {
    case 'allow':
      // Never "allow": it skips Copilot's own approval and even beats --deny-tool rules.
      return event === 'PreToolUse' ? jsonReply({}) : emptyReply;
    case 'block':
      return decide('deny', event, blockMessage(verdict, context.notice));
    case 'ask':
      return context.canAsk
        ? decide('ask', event, askMessage(verdict, context.notice, context.yesLasts))
        : decide('deny', event, awayMessage(verdict, context.notice));
  }
}

/** The reply to a non-step event; a notice goes to the model at session start. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  const hasNotice = notice !== undefined && notice !== '';
  // The references record additionalContext on preToolUse only; sessionStart is assumed to read the
  // same flat field (an unknown field is ignored by Copilot, never an error).
  if (event === 'sessionStart' && hasNotice) return jsonReply({ additionalContext: notice });
  if (event === 'SessionStart' && hasNotice) {
    return jsonReply({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: notice } });
  }
  return event === 'PreToolUse' ? jsonReply({}) : emptyReply;
}

function decide(decision: 'deny' | 'ask', event: string, reason: string): HookReply {
  const flat = { permissionDecision: decision, permissionDecisionReason: reason };
  // The Local harness reads only the nested form, the CLI only the flat one: one object with both.
  if (event === 'PreToolUse')
    return jsonReply({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...flat }, ...flat });
  return jsonReply(flat);
}

export function canAsk(parentArgs: readonly string[]): boolean {
  if (hasFlag(parentArgs, NO_PROMPT_FLAGS) || hasFlag(parentArgs, ['--mode=autopilot'])) return false;
  if (parentArgs.some((arg, i) => arg === '--mode' && parentArgs[i + 1] === 'autopilot')) return false;
  // The CLI cannot see Copilot's environment but may pass this variable in the same list.
  return !parentArgs.some((arg) => /^COPILOT_ALLOW_ALL=(true|1|yes)$/i.test(arg));
}

/**
 * The call's time in ms, as both payload shapes give it (a number in the camelCase one, an ISO
 * time in the PascalCase one; seen equal to the millisecond for one call on 1.0.102).
 */
function callTime(value: unknown): string | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? `t:${ms}` : undefined;
}

function chatId(fields: Fields): string {
  return firstText(fields['sessionId'], fields['session_id']) ?? '';
}

function workingDir(fields: Fields, where: string): string {
  const cwd = fields['cwd'];
  if (typeof cwd !== 'string') throw new PayloadError(`${where}: "cwd" must be a string.`);
  return requireAbsolute(cwd, where);
}

const PATH_KEYS = ['path', 'file_path', 'filePath'] as const;

function toStep(fields: Fields, where: string): ToolStep {
  const toolName = firstText(fields['toolName'], fields['tool_name']);
  if (toolName === undefined) throw new PayloadError(`${where}: "toolName" must be a non-empty string.`);
  const args = toolArgs(fields, where);
  const callId = firstText(fields['tool_use_id']);
  const cwd = workingDir(fields, where);
  // the model's own words for the step: bash's "description", VS Code's "explanation"
  const intent = isFields(args) ? firstText(pick(args, 'description', 'explanation')) : undefined;
  const base = {
    agent: 'copilot' as const,
    chatId: chatId(fields),
    cwd,
    projectRoot: cwd, // Copilot sends no workspace root; its hooks run in the session's folder
    toolName,
    ...(callId === undefined ? {} : { callId }),
    ...(intent === undefined ? {} : { intent }),
  };
  const kind = toolKind(TOOLS, toolName.toLowerCase());
  const at = `${where} toolArgs`;
  if (kind === undefined) {
    // MCP tools are "<server-key>-<tool>" (server keys may hold dashes, tool names use underscores);
    // Claude-style payloads use mcp__<server>__<tool>. Built-in tools have no dash.
    const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName) ?? /^(.+)-([^-]+)$/.exec(toolName);
    if (mcp?.[1] !== undefined && mcp[2] !== undefined) {
      return { ...base, kind: 'mcp', server: mcp[1], tool: mcp[2], args };
    }
    return stepByShape(base, args, at);
  }
  if (kind === 'other') return { ...base, kind, args };
  const input = isFields(args) ? args : {};
  switch (kind) {
    case 'shell':
      // the powershell tool's commands are PowerShell's
      return {
        ...base,
        kind,
        command: commandArg(input, at, 'command'),
        ...(toolName.toLowerCase() === 'powershell' ? { shell: 'powershell' as const } : {}),
      };
    case 'read':
      return { ...base, kind, path: requireArg(input, at, ...PATH_KEYS) };
    case 'search': {
      const path = optionalArg(input, at, ...PATH_KEYS);
      return path === undefined ? { ...base, kind: 'other', args } : { ...base, kind: 'read', path };
    }
    case 'fetch':
      return { ...base, kind, url: requireArg(input, at, 'url') };
    case 'patch': {
      // Assumed to carry the same patch text as Codex's apply_patch; no payload was recorded.
      const patch = optionalArg(input, at, 'input', 'patch', 'command');
      return patch === undefined ? { ...base, kind: 'other', args } : { ...base, kind, patch };
    }
    case 'editor':
      // str_replace_editor's "view" command only reads.
      if (pick(input, 'command') === 'view')
        return { ...base, kind: 'read', path: requireArg(input, at, ...PATH_KEYS) };
      return write(base, input, at, pick(input, 'command') === 'create' ? 'create' : 'edit');
    default:
      return write(base, input, at, kind);
  }
}

function write(
  base: Omit<ShellStep, 'kind' | 'command'>,
  input: Fields,
  at: string,
  mode: 'create' | 'overwrite' | 'edit',
): ToolStep {
  const content =
    mode === 'edit'
      ? optionalArg(input, at, 'new_str', 'new_string', 'newString')
      : optionalArg(input, at, 'file_text', 'content');
  return {
    ...base,
    kind: 'write',
    mode,
    path: requireArg(input, at, ...PATH_KEYS),
    ...(content === undefined ? {} : { content }),
  };
}

// toolArgs is a JSON string on older CLI builds (1.0.58, 1.0.73) and an object on newer ones (1.0.82+).
function toolArgs(fields: Fields, where: string): unknown {
  const raw = fields['toolArgs'] ?? fields['tool_input'];
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new PayloadError(`${where}: "toolArgs" is a string but not JSON.`);
  }
}

function resultInput(fields: Fields, event: string, where: string, failed: boolean): HookInput {
  const step = toStep(fields, where);
  if (failed) {
    const error = fields['error'];
    const output = typeof error === 'string' ? error : (JSON.stringify(error) ?? '');
    // A call denied by a hook or a permission rule never ran, so it is no failure of the tool.
    if (/^(Denied by|Permission (to run this tool was )?denied)/.test(output)) {
      return { type: 'ignore', event, why: 'the call was denied before it ran' };
    }
    return { type: 'result', event, result: { agent: 'copilot', chatId: step.chatId, step, output, failed } };
  }
  const raw = fields['toolResult'] ?? fields['tool_result'];
  const toolResult = isFields(raw) ? raw : {};
  const text = pick(toolResult, 'textResultForLlm', 'text_result_for_llm');
  const output = typeof text === 'string' ? text : '';
  const type = pick(toolResult, 'resultType', 'result_type');
  // A shell command that exits non-zero still reports "success"; its exit code ends the text.
  const code = step.kind === 'shell' ? /completed with exit code (\d+)>\s*$/.exec(output)?.[1] : undefined;
  const exitCode = code === undefined ? undefined : Number(code);
  const result: ToolResult = {
    agent: 'copilot',
    chatId: step.chatId,
    step,
    output,
    ...(exitCode === undefined ? {} : { exitCode }),
    failed: type === 'failure' || type === 'error' || (exitCode !== undefined && exitCode !== 0),
  };
  return { type: 'result', event, result };
}
