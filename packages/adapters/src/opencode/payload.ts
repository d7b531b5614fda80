import type { ToolStep, Verdict, WriteStep } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { toolKind } from '../files.js';
import { askInChatMessage, awayMessage, blockMessage } from '../messages.js';
import { commandArg, stepByShape } from '../shape.js';
import {
  emptyReply,
  fieldsOf,
  isFields,
  jsonReply,
  optionalArg,
  optionalString,
  requireAbsolute,
  requireArg,
  requireString,
  resolveIn,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { TOOLS, VALUE_OPTIONS } from './files.js';
import type { PluginAgentNames } from './files.js';
import { PROMPT_EVENT, STEP_EVENT } from './plugin.js';

/** What an OpenCode-like agent reads, and how it is answered: guard's plugin carries both ways. */
export interface PluginPayloads {
  readonly capabilities: Capabilities;
  readonly read: (payload: unknown, event: string | undefined, parentArgs: readonly string[]) => HookInput;
  readonly canAskUnread: (parentArgs: readonly string[]) => boolean;
  readonly toReply: (verdict: Verdict, context: ReplyContext) => HookReply;
  readonly toEventReply: (event: string, notice: string | undefined) => HookReply;
}

/**
 * The payloads guard's plugin sends (plugin.ts) and the replies it reads: `{"decision":"block",
 * "reason"}` stops the step (the plugin throws the reason, which OpenCode hands the model as the
 * tool's error); silence lets it run. OpenCode has no ask a plugin can raise, so an ask is a block
 * that has the agent ask the person in the chat, whose yes guard reads from the next message.
 */
export function pluginPayloads(names: PluginAgentNames): PluginPayloads {
  const { id, displayName } = names;
  const capabilities: Capabilities = {
    events: [STEP_EVENT, PROMPT_EVENT],
    askEvents: [STEP_EVENT],
    ask: 'block-then-chat',
    results: false,
    startEvent: false,
    userMessages: true,
    onHookFailure: `guard's plugin blocks the step with a sentence saying why when guard's hook cannot be started, dies or gives an answer that is not guard's; ${displayName} itself runs a step whose plugin fails to load.`,
    onHookTimeout: `guard's plugin stops guard's hook after its timeout and blocks the step (${displayName} sets no limit on plugins).`,
    afterSetup: `Start a new ${displayName} session: it loads plugins when it starts.`,
  };
  const program = new RegExp(`(^|[\\\\/])(?:${names.names.join('|')})(\\.exe|\\.cmd)?$`, 'i');

  function runKind(args: readonly string[]): 'headless' | 'interactive' | undefined {
    const start = args.findIndex((arg) => program.test(arg));
    if (start < 0) return undefined;
    for (let i = start + 1; i < args.length; i += 1) {
      const arg = args[i] ?? '';
      if (VALUES.has(arg)) {
        i += 1;
        continue;
      }
      if (arg.startsWith('-')) continue;
      // `run` answers one message and leaves (its `--interactive` keeps a person at the keyboard)
      if (arg === 'run')
        return args.slice(i).some((word) => word === '-i' || word === '--interactive') ? 'interactive' : 'headless';
      return 'interactive';
    }
    return 'interactive';
  }

  function toStep(fields: Fields, where: string): ToolStep {
    const directory = requireAbsolute(requireString(fields, 'directory', where), where);
    const worktree = optionalString(fields, 'worktree', where);
    const toolName = requireString(fields, 'tool', where);
    const callId = optionalString(fields, 'call_id', where);
    const base = {
      agent: id,
      chatId: optionalString(fields, 'session_id', where) ?? '',
      cwd: directory,
      // the worktree is the git root OpenCode found; `/` when the folder is in no repository
      projectRoot: worktree !== undefined && worktree !== '/' && worktree !== '' ? worktree : directory,
      toolName,
      ...(callId === undefined ? {} : { callId }),
    };
    const input = fields['args'];
    const kind = toolKind(TOOLS, toolName);
    const at = `${where} args`;
    if (kind === undefined) {
      // OpenCode names an MCP tool `<server>_<tool>` (each part with what is not a letter, digit,
      // `_` or `-` made `_`): read as the server before the first `_`, which a server name with
      // `_` in it splits too early
      const mcp = /^([A-Za-z0-9-]+)_(.+)$/.exec(toolName);
      if (mcp?.[1] !== undefined && mcp[2] !== undefined)
        return { ...base, kind: 'mcp', server: mcp[1], tool: mcp[2], args: input ?? {} };
      return stepByShape(base, input ?? {}, at);
    }
    if (kind === 'other') return { ...base, kind, args: input ?? {} };
    if (!isFields(input)) throw new PayloadError(`${where}: "args" must be an object.`);
    switch (kind) {
      case 'shell': {
        const workdir = optionalArg(input, at, 'workdir');
        const description = optionalArg(input, at, 'description');
        return {
          ...base,
          kind,
          command: commandArg(input, at, 'command'),
          ...(workdir === undefined ? {} : { cwd: resolveIn(directory, workdir) }),
          ...(description === undefined ? {} : { intent: description }),
        };
      }
      case 'patch':
        return { ...base, kind, patch: requireArg(input, at, 'patchText') };
      case 'read':
        return { ...base, kind, path: requireArg(input, at, 'filePath') };
      case 'search': {
        // glob, grep and list read the files under their path; without one, the session's folder
        const path = optionalArg(input, at, 'path');
        return path === undefined ? { ...base, kind: 'other', args: input } : { ...base, kind: 'read', path };
      }
      case 'fetch':
        return { ...base, kind, url: requireArg(input, at, 'url') };
      case 'overwrite':
      case 'edit': {
        const step: WriteStep = { ...base, kind: 'write', mode: kind, path: requireArg(input, at, 'filePath') };
        const content = optionalArg(input, at, kind === 'edit' ? 'newString' : 'content');
        return content === undefined ? step : { ...step, content };
      }
    }
  }

  return {
    capabilities,
    read: (payload, event, parentArgs) => {
      const fields = fieldsOf(payload, `${displayName} payload`);
      const name = optionalString(fields, 'hook_event_name', `${displayName} payload`) ?? event;
      if (name === undefined) throw new PayloadError(`${displayName} payload: "hook_event_name" is missing.`);
      const where = `${displayName} ${name} payload`;
      if (name === STEP_EVENT)
        // a person reads the chat unless the command line says nobody does (`run`)
        return { type: 'step', event: name, step: toStep(fields, where), canAsk: runKind(parentArgs) !== 'headless' };
      if (name === PROMPT_EVENT)
        return {
          type: 'prompt',
          event: name,
          chatId: optionalString(fields, 'session_id', where) ?? '',
          prompt: requireString(fields, 'prompt', where),
          cwd: requireAbsolute(requireString(fields, 'directory', where), where),
        };
      throw new PayloadError(`${displayName} payload: unknown event "${name}".`);
    },
    canAskUnread: (parentArgs) => runKind(parentArgs) === 'interactive',
    toReply: (verdict, context) => {
      switch (verdict.decision) {
        case 'allow':
          return emptyReply;
        case 'block':
          return block(blockMessage(verdict, context.notice));
        case 'ask':
          return block(
            context.canAsk
              ? askInChatMessage(verdict, context.approvalCode, context.notice, context.yesLasts)
              : awayMessage(verdict, context.notice, context.approvalCode),
          );
      }
    },
    // the plugin reads nothing from an answer to a message
    toEventReply: () => emptyReply,
  };
}

function block(reason: string): HookReply {
  return jsonReply({ decision: 'block', reason });
}

const VALUES = new Set(VALUE_OPTIONS);
