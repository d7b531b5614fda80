import type { ToolResult, ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { askMessage, awayMessage, blockMessage } from '../messages.js';
import {
  fieldsOf,
  firstText,
  hasFlag,
  isFields,
  jsonReply,
  optionalArg,
  optionalString,
  parseArgs,
  requireAbsolute,
  requireArg,
  requireString,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS } from './files.js';
import { commandArg, stepByShape } from '../shape.js';

/** What Cursor can do with guard's hooks (see the Cursor hook reference). */
export const capabilities: Capabilities = {
  events: [
    'preToolUse',
    'beforeShellExecution',
    'beforeMCPExecution',
    'beforeReadFile',
    'postToolUse',
    'postToolUseFailure',
    'sessionStart',
    'beforeSubmitPrompt',
  ],
  askEvents: ['beforeShellExecution', 'beforeMCPExecution'],
  ask: 'native',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    "Cursor runs the step when the hook crashes or prints invalid JSON, unless fail-closed is on, which marks guard's entries failClosed so the step is blocked.",
  onHookTimeout: 'Cursor treats a timeout like a crash: the step runs, unless the entry is failClosed.',
  afterSetup: 'Open a new chat in Cursor; if guard is missing under Customize → Hooks, restart Cursor.',
};

// The only events where Cursor shows an approval card for "ask".
const ASK_EVENTS = new Set(['beforeShellExecution', 'beforeMCPExecution']);
// beforeReadFile answers carry no agent_message.
const READ_EVENTS = new Set(['beforeReadFile']);
// Events that carry additional_context for the model.
const CONTEXT_EVENTS = new Set(['sessionStart', 'postToolUse']);
const IGNORED = new Set([
  // Shell and MCP results are read once, on postToolUse, which also carries the exit code.
  'afterShellExecution',
  'afterMCPExecution',
  'afterFileEdit',
  'afterAgentResponse',
  'afterAgentThought',
  'beforeTabFileRead',
  'afterTabFileEdit',
  'preCompact',
  'stop',
  'sessionEnd',
  'subagentStart',
  'subagentStop',
  'workspaceOpen',
]);

/**
 * Whether a payload is Cursor's: it names its version, or the conversation and the generation (its
 * command-line builds send no version). Cursor sends the same payload to the hooks of Claude Code's
 * settings files it runs.
 */
export function owns(payload: unknown): boolean {
  if (!isFields(payload)) return false;
  return (
    typeof payload['cursor_version'] === 'string' ||
    (typeof payload['conversation_id'] === 'string' && typeof payload['generation_id'] === 'string')
  );
}

/** Reads one Cursor hook payload; Cursor names the event in `hook_event_name` (camelCase). */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Cursor hook payload');
  const name = optionalString(fields, 'hook_event_name', 'Cursor hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Cursor hook payload: "hook_event_name" is missing.');
  const where = `Cursor ${name} payload`;
  switch (name) {
    case 'preToolUse': {
      const step = toolStep(fields, where);
      // Shell and MCP calls fire preToolUse first, then beforeShellExecution / beforeMCPExecution,
      // where an ask really shows a card: judge blocks here, leave asks to the later event.
      // (In Sandbox run mode Cursor may skip beforeShellExecution; the sandbox then bounds the step.)
      // A tool read as a command by its shape fires no such event: judged in full here.
      const deferAsk = step.kind === 'mcp' || (step.kind === 'shell' && toolKind(TOOLS, step.toolName) === 'shell');
      return {
        type: 'step',
        event: name,
        step,
        canAsk: false,
        ...(deferAsk ? { deferAsk } : {}),
        ...callOf(fields, name),
      };
    }
    case 'beforeShellExecution': {
      // These events send no tool name; use the one preToolUse gives the same tool.
      const command = commandArg(fields, where, 'command');
      const step: ToolStep = { ...base(fields, undefined, where, 'Shell'), kind: 'shell', command };
      return { type: 'step', event: name, step, canAsk: canAsk(fields, parentArgs), ...callOf(fields, name) };
    }
    case 'beforeMCPExecution': {
      const tool = requireString(fields, 'tool_name', where);
      const args = parseArgs(fields['tool_input']);
      // Recent builds name the server; older ones only give its URL or launch command.
      const server = firstText(fields['mcp_server_name'], fields['url'], fields['command']) ?? '';
      const step: ToolStep = { ...base(fields, args, where, tool), kind: 'mcp', server, tool, args };
      return { type: 'step', event: name, step, canAsk: canAsk(fields, parentArgs), ...callOf(fields, name) };
    }
    case 'beforeReadFile': {
      // A Read also fires preToolUse; neither can ask, so both judge it (a block is the same on both).
      const path = requireString(fields, 'file_path', where);
      const step: ToolStep = { ...base(fields, undefined, where, 'Read'), kind: 'read', path };
      return { type: 'step', event: name, step, canAsk: false, ...callOf(fields, name) };
    }
    case 'postToolUse':
      return { type: 'result', event: name, result: result(fields, where, false) };
    case 'postToolUseFailure':
      // A denied call (by guard or the person) never ran, so it is no failure of the tool.
      if (fields['failure_type'] === 'permission_denied') {
        return { type: 'ignore', event: name, why: 'the call was denied before it ran' };
      }
      return { type: 'result', event: name, result: result(fields, where, true) };
    case 'sessionStart': {
      const start = base(fields, undefined, where, '');
      return { type: 'start', event: name, chatId: start.chatId, cwd: start.cwd, projectRoot: start.projectRoot };
    }
    case 'beforeSubmitPrompt': {
      const prompt = requireString(fields, 'prompt', where);
      const { chatId, cwd } = base(fields, undefined, where, '');
      return { type: 'prompt', event: name, chatId, prompt, cwd };
    }
    default:
      if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
      throw new PayloadError(`Cursor hook payload: unknown event "${name}".`);
  }
}

/**
 * What the hooks Cursor runs for one call on one event are sent alike: the event with the call's id.
 * Its shell and MCP events send none (only the turn's, which two calls of one command share), so
 * those are decided by each hook.
 */
function callOf(fields: Fields, event: string): { sameCall?: string } {
  const id = firstText(fields['tool_use_id']);
  return id === undefined ? {} : { sameCall: `${event}:${id}` };
}

/** The reply to a verdict on a step: exactly one flat JSON object, exit 0. */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  const { event } = context;
  switch (verdict.decision) {
    case 'allow':
      // A failClosed entry blocks on anything but an explicit decision; otherwise {} means no opinion.
      return jsonReply(context.failClosed ? { permission: 'allow' } : {});
    case 'block':
      return answer('deny', event, blockMessage(verdict, context.notice));
    case 'ask':
      if (context.canAsk && ASK_EVENTS.has(event))
        return answer('ask', event, askMessage(verdict, context.notice, context.yesLasts));
      return answer('deny', event, awayMessage(verdict, context.notice));
  }
}

/** The reply to a non-step event: always one JSON object, so a failClosed entry never sees silence. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  if (event === 'beforeSubmitPrompt') return jsonReply({ continue: true });
  if (notice !== undefined && notice !== '' && CONTEXT_EVENTS.has(event)) {
    return jsonReply({ additional_context: notice });
  }
  return jsonReply({});
}

// The model has been seen to receive user_message, the docs say agent_message: send both.
function answer(permission: 'deny' | 'ask', event: string, text: string): HookReply {
  if (READ_EVENTS.has(event)) return jsonReply({ permission, user_message: text });
  return jsonReply({ permission, user_message: text, agent_message: text });
}

interface Base {
  readonly agent: 'cursor';
  readonly chatId: string;
  readonly turnId?: string;
  readonly callId?: string;
  readonly cwd: string;
  readonly projectRoot: string;
  readonly toolName: string;
}

function base(fields: Fields, toolInput: unknown, where: string, toolName: string): Base {
  const roots = fields['workspace_roots'];
  if (roots !== undefined && roots !== null && !(Array.isArray(roots) && roots.every((r) => typeof r === 'string'))) {
    throw new PayloadError(`${where}: "workspace_roots" must be an array of strings.`);
  }
  const root = firstText(Array.isArray(roots) ? roots[0] : undefined);
  // cwd is often "" (and missing on some events): fall back to the tool's cwd, then the workspace.
  const cwd = firstText(fields['cwd'], isFields(toolInput) ? toolInput['cwd'] : undefined, root);
  if (cwd === undefined) {
    throw new PayloadError(`${where}: no working directory (cwd, tool_input.cwd and workspace_roots are all empty).`);
  }
  const turnId = firstText(optionalString(fields, 'generation_id', where));
  const callId = firstText(optionalString(fields, 'tool_use_id', where));
  return {
    agent: 'cursor',
    chatId: firstText(fields['conversation_id'], fields['session_id']) ?? '',
    cwd: requireAbsolute(cwd, where),
    projectRoot: root ?? cwd,
    toolName,
    ...(turnId === undefined ? {} : { turnId }),
    ...(callId === undefined ? {} : { callId }),
  };
}

function toolStep(fields: Fields, where: string): ToolStep {
  const toolName = requireString(fields, 'tool_name', where);
  const input = parseArgs(fields['tool_input']);
  const common = base(fields, input, where, toolName);
  const mcp = /^MCP:(.+)$/.exec(toolName);
  // preToolUse names the MCP tool but not its server.
  if (mcp?.[1] !== undefined) return { ...common, kind: 'mcp', server: '', tool: mcp[1], args: input };
  const kind = toolKind(TOOLS, toolName);
  const at = `${where} tool_input`;
  if (kind === undefined) return stepByShape(common, input, at);
  if (kind === 'other') return { ...common, kind, args: input };
  if (!isFields(input)) throw new PayloadError(`${where}: "tool_input" must be an object for ${toolName}.`);
  switch (kind) {
    case 'shell':
      return { ...common, kind, command: commandArg(input, at, 'command') };
    case 'read':
      return { ...common, kind, path: requireArg(input, at, 'file_path', 'path') };
    case 'search': {
      // Grep reads the files under its path; without one it searches the workspace.
      const path = optionalArg(input, at, 'file_path', 'path');
      return path === undefined ? { ...common, kind: 'other', args: input } : { ...common, kind: 'read', path };
    }
    default: {
      const path = requireArg(input, at, 'file_path', 'path');
      // Write both creates and replaces, and the payload does not say which: assume the worse.
      const content =
        kind === 'delete'
          ? undefined
          : kind === 'edit'
            ? optionalArg(input, at, 'new_string', 'new_str')
            : optionalArg(input, at, 'content');
      return { ...common, kind: 'write', mode: kind, path, ...(content === undefined ? {} : { content }) };
    }
  }
}

function result(fields: Fields, where: string, failed: boolean): ToolResult {
  const step = toolStep(fields, where);
  if (failed) {
    const output = optionalString(fields, 'error_message', where) ?? '';
    return { agent: 'cursor', chatId: step.chatId, step, output, failed };
  }
  // tool_output is a JSON string; for Shell it holds {"output", "exitCode"}.
  const raw = parseArgs(fields['tool_output']);
  const output = isFields(raw) && typeof raw['output'] === 'string' ? raw['output'] : textOf(raw);
  const exitCode = isFields(raw) && typeof raw['exitCode'] === 'number' ? raw['exitCode'] : undefined;
  return {
    agent: 'cursor',
    chatId: step.chatId,
    step,
    output,
    ...(exitCode === undefined ? {} : { exitCode, failed: exitCode !== 0 }),
  };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Whether an "ask" shows a card. Cursor's IDE answered ask with a silent deny or even a silent
 * allow before 3.20 (a real card was first seen on 3.20.21), so asks become blocks there; the CLI
 * (date-style versions) asks, except in print mode where nobody is there.
 */
function canAsk(fields: Fields, parentArgs: readonly string[]): boolean {
  if (hasFlag(parentArgs, ['-p', '--print'])) return false;
  const version = /^(\d+)\.(\d+)\.\d+$/.exec(
    typeof fields['cursor_version'] === 'string' ? fields['cursor_version'] : '',
  );
  if (version === null) return true;
  const major = Number(version[1]);
  const minor = Number(version[2]);
  return major > 3 || (major === 3 && minor >= 20);
}
