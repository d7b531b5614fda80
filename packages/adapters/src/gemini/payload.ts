import type { ToolResult, ToolStep, Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { askInChatMessage, awayMessage, blockMessage } from '../messages.js';
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
  resolveIn,
  contextReply,
  contentText,
  sessionCwd,
  sessionId,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { toolKind } from '../files.js';
import { TOOLS } from './files.js';
import { commandArg, stepByShape } from '../shape.js';

/** What Gemini CLI (0.61) can do with guard's hooks (see the Gemini CLI hook reference). */
export const capabilities: Capabilities = {
  events: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionStart'],
  askEvents: ['BeforeTool'],
  // Gemini CLI's own "ask" ends a headless run without a word: block, and the person answers in the chat
  ask: 'block-then-chat',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Gemini CLI runs the step when the hook crashes, exits with a code other than 0 or 2, or prints something it cannot read; it has no fail-closed switch, so under fail-closed guard answers its own failures with a deny, which covers everything but a hook that never answers.',
  onHookTimeout: 'Gemini CLI stops waiting after the timeout and runs the step, whatever fail-closed says.',
  afterSetup:
    'Start a new Gemini CLI session. In a folder you have not trusted in Gemini CLI it runs no hooks at all (guard’s included) and asks before every tool instead.',
};

// Every other event Gemini CLI 0.61 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set([
  'AfterAgent',
  'Notification',
  'SessionEnd',
  'PreCompress',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
]);

// Events whose replies may carry hookSpecificOutput.additionalContext for the model (seen on all three).
const CONTEXT_EVENTS = new Set(['SessionStart', 'BeforeAgent', 'AfterTool']);

// `gemini` (its npm bin, bundle/gemini.js) as the hook's ancestors show it.
const PROGRAM = /(?:^|[\\/])gemini(?:\.js|\.cmd|\.exe)?$/i;
// -p answers one prompt and exits: nobody reads the chat until the person resumes it.
const PROMPT_FLAGS = ['-p', '--prompt'];

/** Reads one Gemini CLI hook payload; Gemini CLI names the event in `hook_event_name`. */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Gemini CLI hook payload');
  const name = optionalString(fields, 'hook_event_name', 'Gemini CLI hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Gemini CLI hook payload: "hook_event_name" is missing.');
  const where = `Gemini CLI ${name} payload`;
  switch (name) {
    case 'BeforeTool':
      return { type: 'step', event: name, step: toStep(fields, where), canAsk: canAsk(parentArgs) };
    case 'AfterTool':
      return resultInput(fields, name, where);
    case 'SessionStart': {
      const cwd = sessionCwd(fields, where);
      return { type: 'start', event: name, chatId: sessionId(fields, where), cwd, projectRoot: cwd };
    }
    case 'BeforeAgent':
      return {
        type: 'prompt',
        event: name,
        chatId: sessionId(fields, where),
        prompt: requireString(fields, 'prompt', where),
        cwd: sessionCwd(fields, where),
      };
    default:
      if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
      throw new PayloadError(`Gemini CLI hook payload: unknown event "${name}".`);
  }
}

/**
 * The reply to a verdict on a BeforeTool step: nothing for no objection, a top-level deny otherwise
 * (Gemini CLI reads `decision`, not Claude Code's nested form). An ask is a deny that has the agent
 * ask the person in the chat; their yes in the next message lets the step run once.
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      return emptyReply;
    case 'block':
      return deny(blockMessage(verdict, context.notice));
    case 'ask':
      return deny(
        context.canAsk
          ? askInChatMessage(verdict, context.approvalCode, context.notice, context.yesLasts)
          : awayMessage(verdict, context.notice, context.approvalCode),
      );
  }
}

/** The reply to a non-step event; `notice` reaches the model as additional context where Gemini CLI takes it. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  return contextReply(event, notice, CONTEXT_EVENTS);
}

function deny(reason: string): HookReply {
  return jsonReply({ decision: 'deny', reason });
}

/** Whether a person reads the chat: not under `-p` (when the command line is known). */
export function canAsk(parentArgs: readonly string[]): boolean {
  const args = argsAfter(parentArgs, PROGRAM);
  return args === undefined || !hasFlag(args, PROMPT_FLAGS);
}

/**
 * The URLs web_fetch fetches from its prompt, read as Gemini CLI reads them: each word with `://`
 * in it that parses as an http(s) URL (trailing punctuation and all), a GitHub `blob` page as the
 * raw file it fetches instead.
 */
function urlsIn(prompt: string): string[] {
  const urls: string[] = [];
  for (const word of prompt.split(/\s+/)) {
    if (!word.includes('://')) continue;
    let url: URL;
    try {
      url = new URL(word);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.hostname === 'github.com' && url.pathname.includes('/blob/')) {
      url.hostname = 'raw.githubusercontent.com';
      url.pathname = url.pathname.replace(/^\/([^/]+\/[^/]+)\/blob\//, '/$1/');
    }
    if (!urls.includes(url.href)) urls.push(url.href);
  }
  return urls;
}

function toStep(fields: Fields, where: string): ToolStep {
  const cwd = sessionCwd(fields, where);
  const toolName = requireString(fields, 'tool_name', where);
  const base = {
    agent: 'gemini' as const,
    chatId: sessionId(fields, where),
    cwd,
    projectRoot: cwd, // the payload names no project root; hooks run in the session's folder
    toolName,
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
    case 'shell': {
      // dir_path: the folder to run in, relative to the session's
      const dir = optionalArg(input, at, 'dir_path');
      return {
        ...base,
        cwd: dir === undefined || dir === '' ? cwd : resolveIn(cwd, dir),
        kind,
        command: commandArg(input, at, 'command'),
      };
    }
    case 'read':
      return { ...base, kind, path: requireArg(input, at, 'file_path') };
    case 'folder':
      return { ...base, kind: 'read', path: requireArg(input, at, 'dir_path') };
    case 'search': {
      // without a folder they search the session's folder
      const dir = optionalArg(input, at, 'dir_path');
      return dir === undefined ? { ...base, kind: 'other', args: input } : { ...base, kind: 'read', path: dir };
    }
    case 'fetch': {
      const urls = urlsIn(requireArg(input, at, 'prompt'));
      // one site is a fetch; several go as a tool whose every URL the rules see
      return urls.length === 1 && urls[0] !== undefined
        ? { ...base, kind, url: urls[0] }
        : { ...base, kind: 'other', args: { ...input, urls } };
    }
    case 'overwrite':
    case 'edit': {
      const content = optionalArg(input, at, kind === 'edit' ? 'new_string' : 'content');
      return {
        ...base,
        kind: 'write',
        mode: kind,
        path: requireArg(input, at, 'file_path'),
        ...(content === undefined ? {} : { content }),
      };
    }
  }
}

/**
 * The server and tool of an MCP call, from the payload's `mcp_context` (a server's name may hold
 * underscores); without it, from `mcp_<server>_<tool>`.
 */
function mcpNames(fields: Fields, toolName: string): { server: string; tool: string } | undefined {
  const context = fields['mcp_context'];
  if (isFields(context)) {
    const server = firstText(context['server_name']);
    const tool = firstText(context['tool_name']);
    if (server !== undefined && tool !== undefined) return { server, tool };
  }
  const match = /^mcp_([^_]+)_(.+)$/.exec(toolName);
  return match?.[1] !== undefined && match[2] !== undefined ? { server: match[1], tool: match[2] } : undefined;
}

function resultInput(fields: Fields, event: string, where: string): HookInput {
  const step = toStep(fields, where);
  const response = isFields(fields['tool_response']) ? fields['tool_response'] : {};
  const output = contentText(response['llmContent']);
  // a shell command's exit code follows its output when it is not 0 (the last such line is Gemini
  // CLI's own: the output before it may say anything)
  const code = step.kind === 'shell' ? [...output.matchAll(/\nExit Code: (\d+)\n/g)].at(-1)?.[1] : undefined;
  const exitCode = code === undefined ? undefined : Number(code);
  const result: ToolResult = {
    agent: 'gemini',
    chatId: step.chatId,
    step,
    output,
    ...(exitCode === undefined ? {} : { exitCode }),
    failed: response['error'] !== undefined || (exitCode !== undefined && exitCode !== 0),
  };
  return { type: 'result', event, result };
}
