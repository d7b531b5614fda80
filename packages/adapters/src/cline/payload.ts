import type { ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { shellWord } from '../fallback.js';
import { toolKind } from '../files.js';
import { awayMessage, blockMessage } from '../messages.js';
import { commandText, stepByShape } from '../shape.js';
import type { StepBase } from '../shape.js';
import {
  emptyReply,
  fieldsOf,
  firstText,
  isFields,
  jsonReply,
  optionalString,
  requireAbsolute,
  resolveIn,
  typeName,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { TOOLS } from './files.js';

/** The one event guard's hook file is named after, and the hook answers. */
export const STEP_EVENT = 'PreToolUse';

/** Cline's shell tool: the one tool whose input a block replaces (with a command that only says why). */
export const SHELL_TOOL = 'run_commands';

/** What Cline (3.0.65) can do with guard's hook (docs/agents-observed.md, Cline CLI). */
export const capabilities: Capabilities = {
  events: [STEP_EVENT],
  // Cline has no approval a hook can raise, and guard reads no message of the person's (its hook
  // file is for PreToolUse alone): an ask is a block that says nobody could approve it
  askEvents: [],
  ask: 'block-then-chat',
  results: false,
  startEvent: false,
  userMessages: false,
  onHookFailure:
    "Cline runs the step when a hook prints nothing it can read, whatever the exit code: guard's hook file answers by itself with a cancel (which ends Cline's task) when guard's hook cannot start, its files are gone, or it exits with an error and no answer.",
  onHookTimeout:
    'Cline kills a tool hook after 120 seconds and runs the step; guard answers well before (its deadline is 84 seconds), and has no way to stop a hook that hangs past that.',
  afterSetup: 'Start a new Cline task: it reads its hook folders when a task starts.',
};

// Cline's events other than a tool step, by their `hookName`: nothing for guard to stop
const IGNORED = new Set([
  'agent_start',
  'agent_resume',
  'agent_abort',
  'agent_end',
  'agent_error',
  'tool_result',
  'pre_compact',
  'session_shutdown',
]);

/** Reads one Cline hook payload; it names its event in `hookName` (`tool_call` for PreToolUse). */
export function read(payload: unknown): HookInput {
  const fields = fieldsOf(payload, 'Cline hook payload');
  const name = optionalString(fields, 'hookName', 'Cline hook payload');
  if (name === undefined) throw new PayloadError('Cline hook payload: "hookName" is missing.');
  const where = `Cline ${name} payload`;
  if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
  const chatId = optionalString(fields, 'taskId', where) ?? '';
  const root = requireAbsolute(workspaceRoot(fields, where), where);
  if (name === 'prompt_submit') {
    const submitted = fields['userPromptSubmit'];
    if (!isFields(submitted)) throw new PayloadError(`${where}: "userPromptSubmit" must be an object.`);
    const prompt = optionalString(submitted, 'prompt', where);
    if (prompt === undefined) throw new PayloadError(`${where}: "userPromptSubmit.prompt" must be a string.`);
    return { type: 'prompt', event: name, chatId, prompt, cwd: root };
  }
  if (name !== 'tool_call') throw new PayloadError(`Cline hook payload: unknown event "${name}".`);
  const call = fields['tool_call'];
  if (!isFields(call)) throw new PayloadError(`${where}: "tool_call" must be an object.`);
  const toolName = optionalString(call, 'name', where);
  if (toolName === undefined || toolName === '') throw new PayloadError(`${where}: "tool_call.name" is missing.`);
  const callId = optionalString(call, 'id', where);
  const base: StepBase = {
    agent: 'cline',
    chatId,
    cwd: root,
    projectRoot: root,
    toolName,
    ...(callId === undefined ? {} : { callId }),
  };
  return {
    type: 'step',
    event: STEP_EVENT,
    step: toStep(base, call['input'], `${where} tool_call.input`),
    canAsk: false,
  };
}

/** The workspace the task runs in: `workspaceInfo.rootPath`, else the first of `workspaceRoots`. */
function workspaceRoot(fields: Fields, where: string): string {
  const info = fields['workspaceInfo'];
  const roots = fields['workspaceRoots'];
  const root = firstText(isFields(info) ? info['rootPath'] : undefined, Array.isArray(roots) ? roots[0] : undefined);
  if (root === undefined) throw new PayloadError(`${where}: "workspaceInfo.rootPath" is missing.`);
  return root;
}

function toStep(base: StepBase, input: unknown, where: string): ToolStep {
  const kind = toolKind(TOOLS, base.toolName);
  if (kind === undefined) {
    // an MCP tool is `<server>__<tool>` (each part with what is not a letter, digit, `_` or `-`
    // made `_`; past 64 characters cut and hashed, which is read by its input's shape)
    const mcp = /^([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__(.+)$/.exec(base.toolName);
    if (mcp?.[1] !== undefined && mcp[2] !== undefined)
      return { ...base, kind: 'mcp', server: mcp[1], tool: mcp[2], args: input ?? {} };
    return stepByShape(base, input ?? {}, where);
  }
  if (kind === 'other') return { ...base, kind, args: input ?? {} };
  if (!isFields(input)) throw new PayloadError(`${where}: must be an object, got ${typeName(input)}.`);
  switch (kind) {
    case 'shell':
      // the commands run side by side in the workspace: read as the lines of one script
      return { ...base, kind, command: commands(input, where).join('\n') };
    case 'write': {
      const path = resolveIn(base.cwd, text(input, 'path', where));
      const content = optionalString(input, 'new_text', where);
      // without old_text or insert_line the editor writes the whole file
      const edits = input['old_text'] !== undefined || input['insert_line'] !== undefined;
      return { ...base, kind, mode: edits ? 'edit' : 'overwrite', path, ...(content === undefined ? {} : { content }) };
    }
    case 'read': {
      const [first, ...rest] = entries(input, 'files', 'path', where);
      return { ...base, kind, path: resolveIn(base.cwd, first ?? ''), ...others(rest) };
    }
    case 'fetch': {
      const [first, ...rest] = entries(input, 'requests', 'url', where);
      return { ...base, kind, url: first ?? '', ...others(rest) };
    }
    case 'search':
      // queries searched for under the workspace: reads nothing outside it
      return { ...base, kind: 'other', args: input };
  }
}

/** A string field. */
function text(input: Fields, key: string, where: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '')
    throw new PayloadError(`${where}: "${key}" must be a string, got ${typeName(value)}.`);
  return value;
}

/**
 * The commands of `run_commands`: each a command line (run by the shell), or `{ command, args }`
 * (a program and its words, run without one); one command line alone is taken too.
 */
function commands(input: Fields, where: string): string[] {
  const value = input['commands'];
  const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  if (list.length === 0)
    throw new PayloadError(`${where}: "commands" must be a list of commands, got ${typeName(value)}.`);
  return list.map((item) =>
    isFields(item)
      ? commandText(
          [item['command'], ...(Array.isArray(item['args']) ? (item['args'] as unknown[]) : [])],
          where,
          'commands',
        )
      : commandText(item, where, 'commands'),
  );
}

/** The `field` of each object in the list under `key` (a file's path, a request's URL); one at least. */
function entries(input: Fields, key: string, field: string, where: string): string[] {
  const list = input[key];
  if (!Array.isArray(list) || list.length === 0)
    throw new PayloadError(`${where}: "${key}" must be a list, got ${typeName(list)}.`);
  return list.map((item) => text(isFields(item) ? item : {}, field, `${where} ${key}`));
}

/** The entries after the first, judged as an unknown tool's arguments are (core reads each path and URL in them). */
function others(rest: readonly string[]): { otherArgs?: readonly string[] } {
  return rest.length === 0 ? {} : { otherArgs: rest };
}

/**
 * The reply to a verdict on a step. No objection: nothing. A block on `run_commands`: its input
 * replaced by one command that prints guard's reason on stderr and fails (so Cline hands the reason
 * to the model as the tool's result, and the model's commands never run), with the reason as
 * `context` too. A block on any other tool, or on a step guard could not read: `cancel`, which keeps
 * the step from running and ends Cline's task (the model is not told; the reason goes to Cline's log).
 * Cline has no approval a hook can raise: an ask is a block saying nobody could approve the step.
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  if (verdict.decision === 'allow') return emptyReply;
  const reason =
    verdict.decision === 'block'
      ? blockMessage(verdict, context.notice)
      : awayMessage(verdict, context.notice, context.approvalCode);
  if (context.tool === SHELL_TOOL)
    return jsonReply({ overrideInput: { commands: [sayingWhy(reason)] }, context: reason });
  return jsonReply({ cancel: true, errorMessage: `${reason} ${CANCELLED}` });
}

/** What a cancel adds: what it does to the task. */
export const CANCELLED = 'Cline ends the task when a hook cancels a step; start a new task to go on.';

/** The command that stands for a blocked one: prints `reason` on stderr and exits 1; `reason` is one quoted word. */
export function sayingWhy(reason: string): string {
  return `printf '%s\\n' ${shellWord(reason)} >&2; exit 1`;
}

/** The reply to any other event: nothing (Cline reads no answer to them). */
export function toEventReply(): HookReply {
  return emptyReply;
}
