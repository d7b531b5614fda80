import { posix, win32 } from 'node:path';
import type { ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { exitTwoReply } from '../messages.js';
import {
  emptyReply,
  fieldsOf,
  firstText,
  isFields,
  optionalString,
  parseArgs,
  requireAbsolute,
  requireString,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { commandArg } from '../shape.js';

/** What Windsurf can do with guard's hooks (from the Cascade hooks documentation; unverified on a binary). */
export const capabilities: Capabilities = {
  events: [
    'pre_run_command',
    'pre_write_code',
    'pre_read_code',
    'pre_mcp_tool_use',
    'pre_user_prompt',
    'post_mcp_tool_use',
  ],
  askEvents: ['pre_run_command', 'pre_write_code', 'pre_read_code', 'pre_mcp_tool_use'],
  ask: 'block-then-chat',
  results: true,
  startEvent: false,
  userMessages: true,
  onHookFailure:
    'Windsurf blocks a step only on exit code 2: it runs the step when the hook crashes or exits with any other code; under fail-closed guard exits 2 itself instead.',
  onHookTimeout: 'Windsurf documents no hook timeout; what it does with a hook that hangs is not known.',
  afterSetup: 'Reload the Windsurf window (or restart Windsurf) so Cascade reads the hooks file again.',
};

// The steps each pre-event stands for; Windsurf names the event, never the tool.
const STEP_EVENTS = new Set(['pre_run_command', 'pre_write_code', 'pre_read_code', 'pre_mcp_tool_use']);
// Events Windsurf has that guard reads nothing from (a command's or a read's result carries no output).
const IGNORED = new Set([
  'post_run_command',
  'post_write_code',
  'post_read_code',
  'post_cascade_response',
  'post_cascade_response_with_transcript',
  'post_setup_worktree',
]);

/** Reads one Windsurf hook payload; Windsurf names the event in `agent_action_name`. */
export function read(payload: unknown, event: string | undefined): HookInput {
  const fields = fieldsOf(payload, 'Windsurf hook payload');
  const name = optionalString(fields, 'agent_action_name', 'Windsurf hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Windsurf hook payload: "agent_action_name" is missing.');
  const where = `Windsurf ${name} payload`;
  if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
  const info = fields['tool_info'];
  if (!isFields(info)) throw new PayloadError(`${where}: "tool_info" must be an object.`);
  const chatId = firstText(optionalString(fields, 'trajectory_id', where)) ?? '';
  if (STEP_EVENTS.has(name))
    return { type: 'step', event: name, step: toStep(name, chatId, fields, info, where), canAsk: true };
  switch (name) {
    case 'pre_user_prompt': {
      const cwd = firstText(optionalString(info, 'cwd', where));
      return {
        type: 'prompt',
        event: name,
        chatId,
        prompt: requireString(info, 'user_prompt', where),
        cwd: cwd === undefined ? '' : requireAbsolute(cwd, where),
      };
    }
    case 'post_mcp_tool_use': {
      const step = toStep('pre_mcp_tool_use', chatId, fields, info, where);
      const raw = info['mcp_result'];
      const output = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
      return { type: 'result', event: name, result: { agent: 'windsurf', chatId, step, output } };
    }
    default:
      throw new PayloadError(`Windsurf hook payload: unknown event "${name}".`);
  }
}

/**
 * The reply to a verdict on a step: nothing and exit 0 lets it run; exit 2 blocks it, with the
 * reason on stderr (which Windsurf shows) and on stdout (shown with `show_output`).
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  return exitTwoReply(verdict, context);
}

/** The reply to a non-step event: nothing, exit 0 (Windsurf has no field that carries a notice). */
export function toEventReply(_event: string, _notice: string | undefined): HookReply {
  return emptyReply;
}

function toStep(event: string, chatId: string, fields: Fields, info: Fields, where: string): ToolStep {
  const toolName = event.replace(/^pre_/, '');
  const turnId = firstText(optionalString(fields, 'execution_id', where));
  const path = event === 'pre_write_code' || event === 'pre_read_code' ? requirePath(info, where) : undefined;
  // A command carries its folder; a file step only its path, so its folder stands in (the payload
  // names no workspace root).
  // An MCP call names no folder at all: the root stands in (unverified whether Windsurf sends one).
  const cwd =
    path !== undefined
      ? folderOf(path)
      : (firstText(optionalString(info, 'cwd', where)) ?? (event === 'pre_mcp_tool_use' ? '/' : undefined));
  if (cwd === undefined) throw new PayloadError(`${where}: "tool_info.cwd" is missing.`);
  const base = {
    agent: 'windsurf' as const,
    chatId,
    cwd: requireAbsolute(cwd, where),
    projectRoot: cwd,
    toolName,
    ...(turnId === undefined ? {} : { turnId }),
  };
  const at = `${where} tool_info`;
  switch (event) {
    case 'pre_run_command':
      return { ...base, kind: 'shell', command: commandArg(info, at, 'command_line') };
    case 'pre_read_code':
      return { ...base, kind: 'read', path: path as string };
    case 'pre_write_code': {
      const edits = info['edits'];
      if (!Array.isArray(edits) || !edits.every(isFields))
        throw new PayloadError(`${at}: "edits" must be a list of objects.`);
      const news = edits.map((edit) => edit['new_string']);
      if (!news.every((text) => typeof text === 'string'))
        throw new PayloadError(`${at}: every edit needs a "new_string".`);
      // an edit from nothing writes the whole file, and the payload does not say whether one was there: assume the worse
      const whole = edits.length === 1 && (edits[0]?.['old_string'] ?? '') === '';
      return {
        ...base,
        kind: 'write',
        mode: whole ? 'overwrite' : 'edit',
        path: path as string,
        content: news.join('\n'),
      };
    }
    default: {
      const server = requireString(info, 'mcp_server_name', where);
      const tool = requireString(info, 'mcp_tool_name', where);
      return { ...base, kind: 'mcp', server, tool, args: parseArgs(info['mcp_tool_arguments']) };
    }
  }
}

function requirePath(info: Fields, where: string): string {
  return requireAbsolute(requireString(info, 'file_path', where), where);
}

function folderOf(path: string): string {
  return (/^[A-Za-z]:[\\/]/.test(path) ? win32 : posix).dirname(path);
}
