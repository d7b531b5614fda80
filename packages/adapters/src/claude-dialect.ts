import type { ToolResult, ToolStep, Verdict, WriteStep } from '@guard/core';
import { PayloadError } from './adapter.js';
import type { Agent, HookInput, HookReply, ReplyContext } from './adapter.js';
import { toolKind } from './files.js';
import { askInChatMessage, askMessage, awayMessage, blockMessage } from './messages.js';
import { commandArg, stepByShape } from './shape.js';
import {
  argsAfter,
  contextReply,
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
  sessionCwd,
  sessionId,
} from './wire.js';
import type { Fields } from './wire.js';

/**
 * Claude Code's hook dialect, spoken by the agents that copied it (Claude Code, Qwen Code): a
 * payload that names its event in `hook_event_name` (`PreToolUse`, `PostToolUse`,
 * `PostToolUseFailure`, `SessionStart`, `UserPromptSubmit`) with `session_id`, `cwd`, `tool_name`,
 * `tool_input` and `tool_use_id`; an answer in `hookSpecificOutput` (`permissionDecision` deny or
 * ask with its reason, `additionalContext` for the model); and `-p` that leaves nobody to ask. Such
 * an adapter states only what differs, as a `ClaudeDialect`; this module reads and answers alike.
 */

/** The kinds of step a tool of a Claude-dialect agent is (the tables in each agent's files.ts). */
export type ClaudeToolKind =
  'shell' | 'overwrite' | 'edit' | 'notebook' | 'read' | 'folder' | 'search' | 'fetch' | 'other';

/** What differs between the agents that speak Claude Code's hook dialect. */
export interface ClaudeDialect {
  readonly id: string;
  /** The agent's name in an error about its payload. */
  readonly displayName: string;
  /** Its tools by name, and the step each is. */
  readonly tools: Readonly<Record<string, ClaudeToolKind>>;
  /** The input field of a shell tool that names the folder it runs in (relative to the session's), if any. */
  readonly shellFolder?: string;
  /**
   * Tools whose input names a field otherwise than Claude Code does, by tool: the agent's key → Claude
   * Code's (Factory Droid's Edit has `new_str` for `new_string`).
   */
  readonly inputKeys?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * The server and tool of an MCP call from a tool name its table does not hold; left out, Claude
   * Code's `mcp__<server>__<tool>`.
   */
  mcpTool?(toolName: string): { readonly server: string; readonly tool: string } | undefined;
  /** The agent's other events: guard registers none of them, a hand-made entry may. */
  readonly ignored: ReadonlySet<string>;
  /** Events whose replies may carry `hookSpecificOutput.additionalContext` for the model. */
  readonly contextEvents: ReadonlySet<string>;
  /** The agent's program as the hook's ancestors show it (one argument). */
  readonly program: RegExp;
  /** The flags that answer one prompt and exit (nobody there to answer an ask). */
  readonly printFlags: readonly string[];
  /** A tool result's text, from `tool_response`. */
  output(response: unknown): string;
  /** A shell step's exit code, from its result's text (`failed`: it came as PostToolUseFailure). */
  exitCode(output: string, failed: boolean): number | undefined;
}

/** What the hook needs of a Claude-dialect agent: reading its payloads, answering them (see Agent). */
export interface ClaudeHook {
  readonly read: Agent['read'];
  readonly canAsk: (parentArgs: readonly string[]) => boolean;
  readonly canAskUnread: (parentArgs: readonly string[]) => boolean;
  readonly toReply: Agent['toReply'];
  readonly toEventReply: Agent['toEventReply'];
}

/** The payload reader and the replies of one agent that speaks Claude Code's hook dialect. */
export function claudeHook(dialect: ClaudeDialect): ClaudeHook {
  const canAsk = (parentArgs: readonly string[]): boolean => {
    // when the command line cannot be read, the agent's own "ask" is still safe: it prompts, or refuses
    const args = argsAfter(parentArgs, dialect.program);
    return args === undefined || !hasFlag(args, dialect.printFlags);
  };
  return {
    read: (payload, event, parentArgs) => {
      const what = `${dialect.displayName} hook payload`;
      const fields = fieldsOf(payload, what);
      const name = optionalString(fields, 'hook_event_name', what) ?? event;
      if (name === undefined) throw new PayloadError(`${what}: "hook_event_name" is missing.`);
      const where = `${dialect.displayName} ${name} payload`;
      switch (name) {
        case 'PreToolUse':
          return { type: 'step', event: name, step: claudeStep(dialect, fields, where), canAsk: canAsk(parentArgs) };
        case 'PostToolUse':
        case 'PostToolUseFailure':
          return resultInput(dialect, fields, name, where);
        case 'SessionStart': {
          const cwd = sessionCwd(fields, where);
          return { type: 'start', event: name, chatId: sessionId(fields, where), cwd, projectRoot: cwd };
        }
        case 'UserPromptSubmit': {
          const prompt = requireString(fields, 'prompt', where);
          // a prompt of no words is no message from the person: Qwen Code sends one each time it
          // goes on after tool results, which must not count as the person speaking (and lower the
          // bar a result raised)
          if (prompt === '') return { type: 'ignore', event: name, why: 'the agent went on after tool results' };
          return {
            type: 'prompt',
            event: name,
            chatId: sessionId(fields, where),
            prompt,
            cwd: sessionCwd(fields, where),
          };
        }
        default:
          if (dialect.ignored.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
          throw new PayloadError(`${what}: unknown event "${name}".`);
      }
    },
    canAskUnread: canAsk,
    canAsk,
    toReply,
    toEventReply: (event, notice) => contextReply(event, notice, dialect.contextEvents),
  };
}

/**
 * The reply to a verdict on a PreToolUse step: nothing for no objection (an "allow" would approve
 * the step past the agent's own permission prompt), a deny, or the agent's own "ask".
 */
function toReply(verdict: Verdict, context: ReplyContext): HookReply {
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

/** A PreToolUse answer: deny or ask, with its reason. */
export function decide(decision: 'deny' | 'ask', reason: string): HookReply {
  return jsonReply({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason },
  });
}

/** What reading a tool step takes of a dialect (an agent with Claude Code's `tool_name` and `tool_input` alone: Crush). */
export type StepDialect = Pick<ClaudeDialect, 'id' | 'tools' | 'shellFolder' | 'inputKeys' | 'mcpTool'>;

/** The step of a payload with Claude Code's `cwd`, `session_id`, `tool_name`, `tool_input` and `tool_use_id`. */
export function claudeStep(dialect: StepDialect, fields: Fields, where: string): ToolStep {
  const cwd = sessionCwd(fields, where);
  const toolName = requireString(fields, 'tool_name', where);
  const callId = optionalString(fields, 'tool_use_id', where);
  const base = {
    agent: dialect.id,
    chatId: sessionId(fields, where),
    cwd,
    projectRoot: cwd, // the payload names no project root; hooks run in the session's folder
    toolName,
    ...(callId === undefined ? {} : { callId }),
  };
  const input = renamed(fields['tool_input'], dialect.inputKeys?.[toolName]);
  const kind = toolKind(dialect.tools, toolName);
  const at = `${where} tool_input`;
  if (kind === undefined) {
    const mcp = dialect.mcpTool === undefined ? mcpNames(fields, toolName) : dialect.mcpTool(toolName);
    if (mcp !== undefined) return { ...base, kind: 'mcp', ...mcp, args: input ?? {} };
    return stepByShape(base, input ?? {}, at);
  }
  if (kind === 'other') return { ...base, kind, args: input ?? {} };
  if (!isFields(input)) throw new PayloadError(`${where}: "tool_input" must be an object.`);
  switch (kind) {
    case 'shell': {
      const dir = dialect.shellFolder === undefined ? undefined : optionalArg(input, at, dialect.shellFolder);
      return {
        ...base,
        ...(dir === undefined || dir === '' ? {} : { cwd: resolveIn(cwd, dir) }),
        kind,
        command: commandArg(input, at, 'command'),
        // the PowerShell tool's commands (Claude Code's, on Windows) are PowerShell's
        ...(toolName === 'PowerShell' ? { shell: 'powershell' as const } : {}),
      };
    }
    case 'read':
      return { ...base, kind, path: requireArg(input, at, 'file_path') };
    case 'folder':
      return { ...base, kind: 'read', path: requireArg(input, at, 'path') };
    case 'search': {
      // the searches read the files under their path; without one they search the session's folder
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

/** A tool's input with the agent's own keys put as Claude Code names them. */
function renamed(input: unknown, keys: Readonly<Record<string, string>> | undefined): unknown {
  if (keys === undefined || !isFields(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [keys[key] ?? key, value]));
}

function withContent(step: WriteStep, input: Fields, at: string, key: string): WriteStep {
  const content = optionalArg(input, at, key);
  return content === undefined ? step : { ...step, content };
}

/**
 * The server and tool of an MCP call: `mcp__<server>__<tool>`, with the server's name as the
 * payload gives it (`mcp_server.name`, Claude Code's) when it does, since a server's name may hold `__` too.
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

function resultInput(dialect: ClaudeDialect, fields: Fields, event: string, where: string): HookInput {
  const step = claudeStep(dialect, fields, where);
  const failed = event === 'PostToolUseFailure';
  // the person pressed Escape: the command was stopped, it did not fail
  if (failed && fields['is_interrupt'] === true)
    return { type: 'ignore', event, why: 'the person interrupted the step' };
  const error = fields['error'];
  const output = failed
    ? typeof error === 'string'
      ? error
      : (JSON.stringify(error) ?? '')
    : dialect.output(fields['tool_response']);
  const code = step.kind === 'shell' ? dialect.exitCode(output, failed) : undefined;
  const result: ToolResult = {
    agent: dialect.id,
    chatId: step.chatId,
    step,
    output,
    ...(code === undefined ? {} : { exitCode: code }),
    ...(failed || (code !== undefined && code !== 0) ? { failed: true } : {}),
  };
  return { type: 'result', event, result };
}

/**
 * The reply, in Claude Code's nested form, of an agent that runs an asked step (Factory Droid,
 * Augment Auggie): nothing for no objection, a deny (handed to the model as the tool's error), and
 * for an ask a deny that has the agent ask in the chat, or says nobody can approve it where nobody
 * reads the chat (block-then-chat, as on Codex).
 */
export function denyThenChatReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      return emptyReply;
    case 'block':
      return decide('deny', blockMessage(verdict, context.notice));
    case 'ask':
      return decide(
        'deny',
        context.canAsk
          ? askInChatMessage(verdict, context.approvalCode, context.notice, context.yesLasts)
          : awayMessage(verdict, context.notice, context.approvalCode),
      );
  }
}
