import { posix, win32 } from 'node:path';
import type { ToolStep, Verdict } from '@guard/core';
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
  pick,
  requireAbsolute,
  requireArg,
  requireString,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS } from './files.js';
import type { ShapeStep } from '../shape.js';
import { commandArg, readShape, withShape } from '../shape.js';

/** What Antigravity can do with guard's hooks (see the Antigravity hook reference). */
export const capabilities: Capabilities = {
  events: ['PreToolUse'],
  askEvents: ['PreToolUse'],
  ask: 'native',
  results: false,
  startEvent: false,
  userMessages: false,
  onHookFailure:
    'Antigravity blocks the step when the hook crashes, exits with a non-zero code or prints anything but one JSON answer.',
  onHookTimeout: 'Antigravity kills a hook that runs out of time and blocks the step.',
  afterSetup: 'Quit Antigravity completely (IDE, desktop app or agy) and start it again.',
};

// Antigravity matches event names without regard to case; these are the five it has.
const EVENTS = new Map(
  ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'].map((name) => [name.toLowerCase(), name]),
);

// Command-line flags under which nobody answers a prompt: headless runs cannot show one, and
// --dangerously-skip-permissions approves force_ask by itself (a deny still holds there).
const NO_PROMPT_FLAGS = ['-p', '--print', '--prompt', '--headless', '--dangerously-skip-permissions'];

/** Reads one Antigravity hook payload; its payloads name no event, so `event` comes from `--event`. */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Antigravity hook payload');
  if (event === undefined) {
    throw new PayloadError('Antigravity hook payload names no event: the hook command must pass --event PreToolUse.');
  }
  const name = EVENTS.get(event.toLowerCase());
  if (name === undefined) throw new PayloadError(`Antigravity hook payload: unknown event "${event}".`);
  switch (name) {
    case 'PreToolUse':
      return {
        type: 'step',
        event: name,
        step: toStep(fields, `Antigravity ${name} payload`),
        canAsk: canAsk(parentArgs),
      };
    case 'PostToolUse':
      return { type: 'ignore', event: name, why: 'Antigravity sends no tool result' };
    default:
      return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
  }
}

/** The reply to a verdict on a step: always exactly one object with an explicit decision. */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      // "allow" would auto-approve and {} or silence are denied: "ask" defers to the person's own settings.
      return jsonReply({ decision: 'ask' });
    case 'block':
      return jsonReply({ decision: 'deny', reason: blockMessage(verdict, context.notice) });
    case 'ask':
      // force_ask prompts even when the person chose "Always allow" for similar steps.
      return context.canAsk
        ? jsonReply({ decision: 'force_ask', reason: askMessage(verdict, context.notice, context.yesLasts) })
        : jsonReply({ decision: 'deny', reason: awayMessage(verdict, context.notice) });
  }
}

/** The reply to a non-step event, in the shape that event accepts. */
export function toEventReply(event: string, _notice: string | undefined): HookReply {
  const name = EVENTS.get(event.toLowerCase());
  if (name === 'PreToolUse') return jsonReply({ decision: 'ask' });
  // Stop: an empty decision lets the agent stop ("continue" would keep it going).
  if (name === 'Stop') return jsonReply({ decision: '' });
  return jsonReply({});
}

export function canAsk(parentArgs: readonly string[]): boolean {
  // An unreadable command line (e.g. on Windows) cannot rule out --dangerously-skip-permissions.
  return parentArgs.length > 0 && !hasFlag(parentArgs, NO_PROMPT_FLAGS);
}

const PATH_KEYS = ['TargetFile', 'AbsolutePath', 'FilePath', 'File', 'Path', 'DirectoryPath'] as const;

function toStep(fields: Fields, where: string): ToolStep {
  const call = fieldsOf(fields['toolCall'], `${where}: "toolCall"`);
  const toolName = requireString(call, 'name', `${where} toolCall`);
  const rawArgs = call['args'] ?? {};
  if (!isFields(rawArgs)) throw new PayloadError(`${where}: "toolCall.args" must be an object.`);
  const args = rawArgs;
  const at = `${where} toolCall.args`;
  const roots = fields['workspacePaths'];
  if (roots !== undefined && roots !== null && !(Array.isArray(roots) && roots.every((r) => typeof r === 'string'))) {
    throw new PayloadError(`${where}: "workspacePaths" must be an array of strings.`);
  }
  const root = firstText(Array.isArray(roots) ? roots[0] : undefined);
  const stepIdx = fields['stepIdx'];
  const details = kindFields(toolName, args, at);
  // Under `agy -p` without --add-dir there is no workspace and file tools carry no Cwd: the best
  // guess left is the folder of the (absolute) file the tool works on.
  const cwd = firstText(pick(args, 'Cwd'), root, folderOf(details));
  if (cwd === undefined)
    throw new PayloadError(`${where}: no working directory (no Cwd argument and no workspacePaths).`);
  const base = {
    agent: 'antigravity' as const,
    chatId: optionalString(fields, 'conversationId', where) ?? '',
    cwd: requireAbsolute(cwd, where),
    projectRoot: root ?? cwd,
    toolName,
    ...(typeof stepIdx === 'number' ? { callId: String(stepIdx) } : {}),
  };
  // the model's own words for the step, where the tool takes them (write_to_file's "Description")
  const intent = firstText(pick(args, 'Description'));
  return withShape({ ...base, ...(intent === undefined ? {} : { intent }) }, details);
}

type Details =
  | ShapeStep
  | { readonly kind: 'shell'; readonly command: string }
  | {
      readonly kind: 'write';
      readonly mode: 'create' | 'overwrite' | 'edit' | 'delete';
      readonly path: string;
      readonly content?: string;
    }
  | { readonly kind: 'read'; readonly path: string }
  | { readonly kind: 'fetch'; readonly url: string }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string; readonly args: unknown }
  | { readonly kind: 'other'; readonly args: unknown };

function kindFields(toolName: string, args: Fields, at: string): Details {
  const kind = toolKind(TOOLS, toolName.toLowerCase());
  switch (kind) {
    case 'shell':
      return { kind, command: commandArg(args, at, 'CommandLine') };
    case 'create': {
      const content = optionalArg(args, at, 'CodeContent');
      return {
        kind: 'write',
        mode: pick(args, 'Overwrite') === true ? 'overwrite' : 'create',
        path: requireArg(args, at, 'TargetFile'),
        ...(content === undefined ? {} : { content }),
      };
    }
    case 'edit': {
      const content = optionalArg(args, at, 'ReplacementContent');
      return {
        kind: 'write',
        mode: 'edit',
        path: requireArg(args, at, 'TargetFile'),
        ...(content === undefined ? {} : { content }),
      };
    }
    case 'delete': {
      // The argument names of delete_file were not captured; take the first path-like one.
      const path = optionalArg(args, at, ...PATH_KEYS);
      return path === undefined ? { kind: 'other', args } : { kind: 'write', mode: 'delete', path };
    }
    case 'read':
      return { kind, path: requireArg(args, at, ...PATH_KEYS) };
    case 'search': {
      const path = optionalArg(args, at, 'SearchPath');
      return path === undefined ? { kind: 'other', args } : { kind: 'read', path };
    }
    case 'fetch':
      return { kind, url: requireArg(args, at, 'Url') };
    case 'mcp':
      return {
        kind,
        server: requireArg(args, at, 'ServerName'),
        tool: requireArg(args, at, 'ToolName'),
        args: parseArgs(pick(args, 'Arguments') ?? {}),
      };
    case 'other':
      return { kind, args };
    case undefined: {
      // One documentation table names MCP tools mcp__<server>__<tool>; live builds use call_mcp_tool.
      const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
      if (mcp?.[1] !== undefined && mcp[2] !== undefined) return { kind: 'mcp', server: mcp[1], tool: mcp[2], args };
      return readShape(args, at);
    }
  }
}

function folderOf(details: Details): string | undefined {
  if (details.kind !== 'write' && details.kind !== 'read') return undefined;
  const { path } = details;
  if (win32.isAbsolute(path) && !posix.isAbsolute(path)) return win32.dirname(path);
  return posix.isAbsolute(path) ? posix.dirname(path) : undefined;
}
