import type { ToolResult, ToolStep } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply } from '../adapter.js';
import { denyThenChatReply } from '../claude-dialect.js';
import { toolKind } from '../files.js';
import { commandArg, commandText, stepByShape } from '../shape.js';
import type { StepBase } from '../shape.js';
import {
  argsAfter,
  contextReply,
  fieldsOf,
  hasFlag,
  isFields,
  optionalArg,
  optionalString,
  requireAbsolute,
  requireArg,
  requireString,
  resolveIn,
  typeName,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { TOOLS } from './files.js';

/** What Augment Auggie (0.36.0) can do with guard's hooks (docs/agents-observed.md, Augment Auggie). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'SessionStart', 'PromptSubmit'],
  askEvents: ['PreToolUse'],
  // Auggie runs a step its hook answers "ask" for, without a question (seen): guard blocks, has the
  // agent ask in the chat, and reads the yes from the next prompt
  ask: 'block-then-chat',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Auggie runs the step when the hook crashes, exits with a code other than 0 or 2, or prints something it cannot read; it has no fail-closed switch, so under fail-closed guard answers its own failures with a deny, which covers everything but a hook that never answers.',
  onHookTimeout: 'Auggie stops the hook after its timeout and runs the step, whatever fail-closed says.',
  afterSetup: 'Start a new Auggie session; it reads its hooks when a session starts.',
};

const NAME = 'Augment Auggie';

// Every other event Auggie 0.36.0 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set(['Stop', 'SessionEnd', 'Notification']);

// Auggie hands additionalContext of these to the model (unverified)
const CONTEXT_EVENTS = new Set(['SessionStart', 'PostToolUse']);

// `auggie` (its npm bin, augment.mjs, run by Node) as the hook's ancestors show it
const PROGRAM = /(?:^|[\\/])auggie(?:\.cmd|\.exe)?$|[\\/]@augmentcode[\\/]auggie[\\/]augment\.mjs$/i;
// one prompt and exit (--print), or a tool server for another agent (--mcp): nobody reads the chat
const HEADLESS = ['-p', '--print', '--mcp'];

/**
 * Auggie's payloads (`hook_event_name`, `conversation_id`, `workspace_roots`; `tool_name`,
 * `tool_input`, `tool_output`, `tool_error` and `is_mcp_tool` on the tool events; `user_prompt` on
 * PromptSubmit). Its hooks run in the first workspace root, which stands for the session's folder.
 */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const what = `${NAME} hook payload`;
  const fields = fieldsOf(payload, what);
  const name = optionalString(fields, 'hook_event_name', what) ?? event;
  if (name === undefined) throw new PayloadError(`${what}: "hook_event_name" is missing.`);
  const where = `${NAME} ${name} payload`;
  switch (name) {
    case 'PreToolUse':
      return { type: 'step', event: name, step: toStep(fields, where), canAsk: canAsk(parentArgs) };
    case 'PostToolUse':
      return { type: 'result', event: name, result: toResult(fields, where) };
    case 'SessionStart': {
      const cwd = rootOf(fields, where);
      return { type: 'start', event: name, chatId: chatOf(fields, where), cwd, projectRoot: cwd };
    }
    case 'PromptSubmit':
      return {
        type: 'prompt',
        event: name,
        chatId: chatOf(fields, where),
        prompt: requireString(fields, 'user_prompt', where),
        cwd: rootOf(fields, where),
      };
    default:
      if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
      throw new PayloadError(`${what}: unknown event "${name}".`);
  }
}

/**
 * Whether an ask may go to the chat: unless the command line shows `--print` (when it cannot be
 * read, the ask is still safe: it is a block that asks for a yes in the chat).
 */
function canAsk(parentArgs: readonly string[]): boolean {
  const args = argsAfter(parentArgs, PROGRAM);
  return args === undefined || !hasFlag(args, HEADLESS);
}

/** Whether a person reads the chat, from the command line alone: only a run known not to be `--print`. */
export function canAskUnread(parentArgs: readonly string[]): boolean {
  const args = argsAfter(parentArgs, PROGRAM);
  return args !== undefined && !hasFlag(args, HEADLESS);
}

/** The reply to a verdict on a PreToolUse step: block-then-chat, as claude-dialect.ts gives it for Auggie (it reads a decision only with `hookEventName` beside it: a deny without one ran the step). */
export const toReply = denyThenChatReply;

/** A notice for the model on the events that hand one on. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  return contextReply(event, notice, CONTEXT_EVENTS);
}

/** The chat's id in `conversation_id` ('' when left out). */
function chatOf(fields: Fields, where: string): string {
  return optionalString(fields, 'conversation_id', where) ?? '';
}

/** The first of `workspace_roots`: the folder Auggie runs its hooks and its tools' relative paths in. */
function rootOf(fields: Fields, where: string): string {
  const roots = fields['workspace_roots'];
  if (!Array.isArray(roots) || typeof roots[0] !== 'string') {
    throw new PayloadError(`${where}: "workspace_roots" must be a list of folders, got ${typeName(roots)}.`);
  }
  return requireAbsolute(roots[0], where);
}

function toStep(fields: Fields, where: string): ToolStep {
  const cwd = rootOf(fields, where);
  const toolName = requireString(fields, 'tool_name', where);
  const base: StepBase = { agent: 'auggie', chatId: chatOf(fields, where), cwd, projectRoot: cwd, toolName };
  const input = fields['tool_input'];
  // an MCP server's tool (its name alone does not say which server): read by the shape of its input
  const kind = fields['is_mcp_tool'] === true ? undefined : toolKind(TOOLS, toolName);
  const at = `${where} tool_input`;
  if (kind === undefined) return stepByShape(base, input ?? {}, at);
  if (kind === 'other') return { ...base, kind, args: input ?? {} };
  if (!isFields(input)) throw new PayloadError(`${where}: "tool_input" must be an object.`);
  switch (kind) {
    case 'shell': {
      const dir = optionalArg(input, at, 'cwd');
      return {
        ...base,
        ...(dir === undefined || dir === '' ? {} : { cwd: resolveIn(cwd, dir) }),
        kind,
        command: commandArg(input, at, 'command'),
      };
    }
    case 'input':
      return { ...base, kind: 'shell', command: commandArg(input, at, 'input_text') };
    case 'delete': {
      // remove-files takes a list of paths: the step is what `rm` of them is
      const paths = input['file_paths'];
      if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) {
        throw new PayloadError(`${at}: "file_paths" must be a list of paths, got ${typeName(paths)}.`);
      }
      return { ...base, kind: 'shell', command: commandText(['rm', '-f', '--', ...paths], at, 'file_paths') };
    }
    case 'patch':
      return { ...base, kind, patch: requireArg(input, at, 'input') };
    case 'read':
      return { ...base, kind, path: requireArg(input, at, 'path') };
    case 'fetch':
      return { ...base, kind, url: requireArg(input, at, 'url') };
    case 'overwrite': {
      const content = optionalArg(input, at, 'file_content');
      const path = requireArg(input, at, 'path');
      return { ...base, kind: 'write', mode: kind, path, ...(content === undefined ? {} : { content }) };
    }
    case 'edit': {
      const path = requireArg(input, at, 'path');
      const content = newText(input);
      return { ...base, kind: 'write', mode: kind, path, ...(content === undefined ? {} : { content }) };
    }
  }
}

/** The text str-replace-editor writes: each entry's `new_str` (replacements and insertions), one a line. */
function newText(input: Fields): string | undefined {
  const entries = [input['str_replace_entries'], input['insert_line_entries']].flatMap((list): unknown[] =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  const texts = entries.flatMap((entry) =>
    isFields(entry) && typeof entry['new_str'] === 'string' ? [entry['new_str']] : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

function toResult(fields: Fields, where: string): ToolResult {
  const step = toStep(fields, where);
  const error = fields['tool_error'];
  const failed = error !== undefined && error !== null;
  const output = failed ? (typeof error === 'string' ? error : (JSON.stringify(error) ?? '')) : outputOf(fields);
  const code = step.kind === 'shell' ? exitCode(output) : undefined;
  return {
    agent: 'auggie',
    chatId: step.chatId,
    step,
    output,
    ...(code === undefined ? {} : { exitCode: code }),
    ...(failed || (code !== undefined && code !== 0) ? { failed: true } : {}),
  };
}

function outputOf(fields: Fields): string {
  const output = fields['tool_output'];
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
}

/** launch-process's exit code, from its result's `<return-code>` block: the last one is Auggie's own. */
function exitCode(output: string): number | undefined {
  const code = [...output.matchAll(/<return-code>\s*(\d+)\s*<\/return-code>/g)].at(-1)?.[1];
  return code === undefined ? undefined : Number(code);
}
