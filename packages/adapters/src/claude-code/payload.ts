import type { ToolResult, ToolStep, Verdict, WriteStep } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { askMessage, awayMessage, blockMessage } from '../messages.js';
import {
  argsAfter,
  emptyReply,
  fieldsOf,
  firstText,
  hasFlag,
  isFields,
  jsonReply,
  optionalArg,
  optionalString,
  requireArg,
  requireString,
  contextReply,
  sessionCwd,
  sessionId,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS } from './files.js';
import { commandArg, stepByShape } from '../shape.js';

/** What Claude Code (2.1) can do with guard's hooks (see the Claude Code hook reference). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit'],
  askEvents: ['PreToolUse'],
  ask: 'native',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Claude Code runs the step when the hook crashes, exits with a code other than 0 or 2, or prints JSON it rejects; under fail-closed guard\'s entries carry onFailure "block", and Claude Code blocks the step instead.',
  onHookTimeout:
    'Claude Code stops the hook after its timeout and runs the step; under fail-closed (onFailure "block" on guard\'s entries) it blocks the step instead.',
  afterSetup: 'Start a new Claude Code session; it reads its settings when a session starts.',
};

// Every other event Claude Code 2.1.328 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set([
  'PostToolBatch',
  'Notification',
  'UserPromptExpansion',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
]);

// Events whose replies may carry hookSpecificOutput.additionalContext: Claude Code hands it to the
// model as a system message (seen on all three).
const CONTEXT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']);

// The native binary (`claude`, `claude.exe`, the native installer's `claude/versions/<version>`),
// or the Node launchers of the npm package (`cli-wrapper.cjs`; `cli.js` before 2.1).
const PROGRAM =
  /(?:^|[\\/])claude(?:\.exe)?$|[\\/]claude[\\/]versions[\\/][^\\/]+$|[\\/]claude-code[\\/](?:cli-wrapper\.cjs|cli\.js)$/i;
// `claude -p` answers one prompt and exits: nobody is there to answer Claude's own prompt, and an
// "ask" is refused without a word to the person.
const PRINT_FLAGS = ['-p', '--print'];

/** Reads one Claude Code hook payload; Claude Code names the event in `hook_event_name`. */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Claude Code hook payload');
  const name = optionalString(fields, 'hook_event_name', 'Claude Code hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Claude Code hook payload: "hook_event_name" is missing.');
  const where = `Claude Code ${name} payload`;
  switch (name) {
    case 'PreToolUse':
      return { type: 'step', event: name, step: toStep(fields, where), canAsk: canAsk(parentArgs) };
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return resultInput(fields, name, where);
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
      throw new PayloadError(`Claude Code hook payload: unknown event "${name}".`);
  }
}

/**
 * The reply to a verdict on a PreToolUse step: nothing for no objection (an "allow" would approve
 * the step past Claude Code's own permission prompt), a deny, or Claude Code's own "ask".
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      return emptyReply;
    case 'block':
      return decide('deny', blockMessage(verdict, context.notice));
    case 'ask':
      return context.canAsk
        ? decide('ask', askMessage(verdict, context.notice, context.yesLasts))
        : decide('deny', awayMessage(verdict, context.notice));
  }
}

/** The reply to a non-step event; `notice` reaches the model as additional context where Claude Code takes it. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  return contextReply(event, notice, CONTEXT_EVENTS);
}

function decide(decision: 'deny' | 'ask', reason: string): HookReply {
  return jsonReply({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason },
  });
}

/**
 * Whether Claude Code can show its own prompt: not under `-p` (print mode refuses an "ask"). When
 * the command line cannot be read, Claude Code's "ask" is still safe: it prompts, or refuses.
 */
export function canAsk(parentArgs: readonly string[]): boolean {
  const args = argsAfter(parentArgs, PROGRAM);
  return args === undefined || !hasFlag(args, PRINT_FLAGS);
}

function toStep(fields: Fields, where: string): ToolStep {
  const cwd = sessionCwd(fields, where);
  const toolName = requireString(fields, 'tool_name', where);
  const callId = optionalString(fields, 'tool_use_id', where);
  const base = {
    agent: 'claude-code' as const,
    chatId: sessionId(fields, where),
    cwd,
    projectRoot: cwd, // the payload names no project root; hooks run in the session's folder
    toolName,
    ...(callId === undefined ? {} : { callId }),
  };
  const input = fields['tool_input'];
  const kind = toolKind(TOOLS, toolName);
  const at = `${where} tool_input`;
  if (kind === undefined) {
    const mcp = mcpNames(fields, toolName);
    if (mcp !== undefined) return { ...base, kind: 'mcp', ...mcp, args: input ?? {} };
    return stepByShape(base, input ?? {}, at);
  }
  if (kind === 'other') return { ...base, kind, args: input ?? {} };
  if (!isFields(input)) throw new PayloadError(`${where}: "tool_input" must be an object.`);
  switch (kind) {
    case 'shell':
      // the PowerShell tool's commands are PowerShell's
      return {
        ...base,
        kind,
        command: commandArg(input, at, 'command'),
        ...(toolName === 'PowerShell' ? { shell: 'powershell' as const } : {}),
      };
    case 'read':
      return { ...base, kind, path: requireArg(input, at, 'file_path') };
    case 'search': {
      // Glob and Grep read the files under their path; without one they search the session's folder
      const path = optionalArg(input, at, 'path');
      return path === undefined ? { ...base, kind: 'other', args: input } : { ...base, kind: 'read', path };
    }
    case 'fetch':
      return { ...base, kind, url: requireArg(input, at, 'url') };
    case 'notebook':
      return withContent(
        { ...base, kind: 'write', mode: 'edit', path: requireArg(input, at, 'notebook_path') },
        input,
        at,
        'new_source',
      );
    case 'overwrite':
      return withContent(
        { ...base, kind: 'write', mode: kind, path: requireArg(input, at, 'file_path') },
        input,
        at,
        'content',
      );
    case 'edit':
      return withContent(
        { ...base, kind: 'write', mode: kind, path: requireArg(input, at, 'file_path') },
        input,
        at,
        'new_string',
      );
  }
}

function withContent(step: WriteStep, input: Fields, at: string, key: string): WriteStep {
  const content = optionalArg(input, at, key);
  return content === undefined ? step : { ...step, content };
}

/**
 * The server and tool of an MCP call: `mcp__<server>__<tool>`, with the server's name as the
 * payload gives it (`mcp_server.name`) when it does, since a server's name may hold `__` too.
 */
function mcpNames(fields: Fields, toolName: string): { server: string; tool: string } | undefined {
  if (!toolName.startsWith('mcp__')) return undefined;
  const named = isFields(fields['mcp_server']) ? firstText(fields['mcp_server']['name']) : undefined;
  if (named !== undefined && toolName.startsWith(`mcp__${named}__`) && toolName.length > named.length + 7) {
    return { server: named, tool: toolName.slice(named.length + 7) };
  }
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return match?.[1] !== undefined && match[2] !== undefined ? { server: match[1], tool: match[2] } : undefined;
}

function resultInput(fields: Fields, event: string, where: string): HookInput {
  const step = toStep(fields, where);
  if (event === 'PostToolUseFailure') {
    // the person pressed Escape: the command was stopped, it did not fail
    if (fields['is_interrupt'] === true) return { type: 'ignore', event, why: 'the person interrupted the step' };
    const error = fields['error'];
    const output = typeof error === 'string' ? error : (JSON.stringify(error) ?? '');
    // a Bash command that exits non-zero fails with "Exit code N" first
    const code = step.kind === 'shell' ? /^Exit code (\d+)/.exec(output)?.[1] : undefined;
    const result: ToolResult = {
      agent: 'claude-code',
      chatId: step.chatId,
      step,
      output,
      ...(code === undefined ? {} : { exitCode: Number(code) }),
      failed: true,
    };
    return { type: 'result', event, result };
  }
  const result: ToolResult = {
    agent: 'claude-code',
    chatId: step.chatId,
    step,
    output: outputOf(fields['tool_response']),
  };
  return { type: 'result', event, result };
}

/**
 * A result's text: Bash's output, a read file's content, what WebFetch made of a page, an MCP
 * tool's text blocks, else the JSON.
 */
function outputOf(response: unknown): string {
  if (typeof response === 'string') return response;
  if (Array.isArray(response)) {
    const texts = response.flatMap((block) =>
      isFields(block) && typeof block['text'] === 'string' ? [block['text']] : [],
    );
    if (texts.length === response.length) return texts.join('\n');
  }
  if (isFields(response)) {
    const { stdout, stderr } = response;
    if (typeof stdout === 'string' || typeof stderr === 'string') {
      return [stdout, stderr].filter((part): part is string => typeof part === 'string' && part !== '').join('\n');
    }
    const file = response['file'];
    if (isFields(file) && typeof file['content'] === 'string') return file['content'];
    if (typeof response['result'] === 'string') return response['result'];
  }
  return JSON.stringify(response) ?? '';
}
