import type { ToolStep, Verdict } from '@guard/core';
import { quoteWord } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { toolKind } from '../files.js';
import { exitTwoReply } from '../messages.js';
import { commandArg, stepByShape } from '../shape.js';
import type { StepBase } from '../shape.js';
import {
  argsAfter,
  emptyReply,
  fieldsOf,
  firstText,
  hasFlag,
  isFields,
  optionalString,
  parseArgs,
  requireString,
  resolveIn,
  sessionCwd,
  typeName,
} from '../wire.js';
import type { Fields } from '../wire.js';
import { TOOLS, VALUE_OPTIONS } from './files.js';

/** What Kiro CLI can do with guard's hooks (from its hooks documentation; unverified on a binary). */
export const capabilities: Capabilities = {
  events: ['preToolUse', 'postToolUse', 'agentSpawn', 'userPromptSubmit'],
  askEvents: ['preToolUse'],
  ask: 'block-then-chat',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Kiro blocks a step only on exit code 2: when the hook crashes or exits with any other code it warns and runs the step; under fail-closed guard exits 2 itself instead.',
  onHookTimeout:
    "Kiro waits for a hook as long as its entry's timeout_ms (30 seconds unless set); what it does with a hook past that is not documented (taken as a failure: the step runs).",
  afterSetup:
    "Start Kiro chats with guard's agent: `kiro-cli settings chat.defaultAgent guard` (or `kiro-cli chat --agent guard`); an agent of your own runs guard only once its file has guard's hooks (see `guard status`).",
};

// Events Kiro has that guard reads nothing from.
const IGNORED = new Set(['stop']);
// Events whose stdout Kiro adds to the model's context (exit 0).
const CONTEXT_EVENTS = new Set(['agentSpawn', 'userPromptSubmit']);
const VALUES = new Set(VALUE_OPTIONS);

/**
 * Reads one Kiro hook payload; Kiro names the event in `hook_event_name`. Its documented payloads
 * carry no chat id: a `session_id`, when one comes, is the chat; else the folder stands for it
 * (chats in one folder share guard's memory of them).
 */
export function read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput {
  const fields = fieldsOf(payload, 'Kiro hook payload');
  const name = optionalString(fields, 'hook_event_name', 'Kiro hook payload') ?? event;
  if (name === undefined) throw new PayloadError('Kiro hook payload: "hook_event_name" is missing.');
  const where = `Kiro ${name} payload`;
  if (IGNORED.has(name)) return { type: 'ignore', event: name, why: `guard does not act on ${name}` };
  const cwd = sessionCwd(fields, where);
  const chatId = firstText(optionalString(fields, 'session_id', where)) ?? cwd;
  switch (name) {
    case 'agentSpawn':
      return { type: 'start', event: name, chatId, cwd, projectRoot: cwd };
    case 'userPromptSubmit':
      return { type: 'prompt', event: name, chatId, prompt: requireString(fields, 'prompt', where), cwd };
    case 'preToolUse':
      return { type: 'step', event: name, step: toStep(fields, chatId, cwd, where), canAsk: canAsk(parentArgs) };
    case 'postToolUse': {
      const step = toStep(fields, chatId, cwd, where);
      const raw = fields['tool_response'];
      // the documented response is `{ success, result }`: a step that did not succeed failed
      const failed = isFields(raw) && raw['success'] === false;
      const output = responseText(raw);
      return {
        type: 'result',
        event: name,
        result: { agent: 'kiro', chatId, step, output, ...(failed ? { failed } : {}) },
      };
    }
    default:
      throw new PayloadError(`Kiro hook payload: unknown event "${name}".`);
  }
}

/** A tool's response as the text the model reads: the documented `result` list's items, else the response's JSON. */
function responseText(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  const result = isFields(raw) ? raw['result'] : undefined;
  if (Array.isArray(result))
    return result.map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? ''))).join('\n');
  return JSON.stringify(raw) ?? '';
}

/** Whether a person reads the chat, from Kiro's command line: not in `kiro-cli chat --no-interactive`. */
export function canAsk(parentArgs: readonly string[]): boolean {
  const after = argsAfter(parentArgs, /(^|[\\/])kiro-cli(\.exe)?$/i);
  return after === undefined || !hasFlag(optionsBefore(after), ['--no-interactive']);
}

// The words up to the prompt (an option's value skipped), where Kiro's options are.
function optionsBefore(args: readonly string[]): readonly string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    out.push(arg);
    if (VALUES.has(arg)) i += 1;
  }
  return out;
}

/**
 * The reply to a verdict on a step: nothing and exit 0 lets it run; exit 2 blocks it, with the
 * reason on stderr, which Kiro hands to the model (and on stdout, which it does not read then: the
 * answer guard's command gives by itself when guard's files are gone prints the same on both).
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  return exitTwoReply(verdict, context);
}

/** The reply to a non-step event: a notice on stdout where Kiro adds it to the model's context. */
export function toEventReply(event: string, notice: string | undefined): HookReply {
  if (notice === undefined || notice === '' || !CONTEXT_EVENTS.has(event)) return emptyReply;
  return { stdout: `${notice}\n`, exitCode: 0 };
}

function toStep(fields: Fields, chatId: string, cwd: string, where: string): ToolStep {
  const toolName = requireString(fields, 'tool_name', where);
  if (toolName === '') throw new PayloadError(`${where}: "tool_name" is empty.`);
  const base: StepBase = { agent: 'kiro', chatId, cwd, projectRoot: cwd, toolName };
  const input = parseArgs(fields['tool_input'] ?? {});
  const at = `${where} tool_input`;
  const kind = toolKind(TOOLS, toolName);
  if (kind === undefined) {
    // an MCP server's tool: `@server/tool`
    const mcp = /^@([^/]+)\/(.+)$/.exec(toolName);
    if (mcp?.[1] !== undefined && mcp[2] !== undefined)
      return { ...base, kind: 'mcp', server: mcp[1], tool: mcp[2], args: input };
    return stepByShape(base, input, at);
  }
  if (kind === 'other') return { ...base, kind, args: input };
  if (!isFields(input)) throw new PayloadError(`${at}: must be an object, got ${typeName(input)}.`);
  switch (kind) {
    case 'shell': {
      const folder = firstText(optionalString(input, 'working_dir', at));
      return {
        ...base,
        kind,
        command: commandArg(input, at, 'command'),
        ...(folder === undefined ? {} : { cwd: resolveIn(cwd, folder) }),
      };
    }
    case 'write':
      return writeStep(base, input, at);
    case 'read': {
      // paths as sent: core reads a relative one in the folder, and `~/` as Kiro does, in the home folder
      const [first, ...rest] = readPaths(input, at);
      return { ...base, kind, path: first as string, ...others(rest) };
    }
    case 'search': {
      return { ...base, kind: 'read', path: firstText(optionalString(input, 'path', at)) ?? cwd, otherArgs: input };
    }
    case 'aws':
      return { ...base, kind: 'shell', command: awsCommand(input, at) };
    case 'fetch':
      return { ...base, kind, url: requireString(input, 'url', at) };
  }
}

/**
 * `fs_write`: `command` is what it does to `path` (not a shell command): `create` writes `file_text`
 * as the whole file; `str_replace`, `insert` and `append` put `new_str` into it.
 */
function writeStep(base: StepBase, input: Fields, at: string): ToolStep {
  const path = requireString(input, 'path', at);
  const command = requireString(input, 'command', at);
  if (command === 'create') {
    const content = optionalString(input, 'file_text', at);
    return { ...base, kind: 'write', mode: 'overwrite', path, ...(content === undefined ? {} : { content }) };
  }
  if (!['str_replace', 'insert', 'append'].includes(command))
    throw new PayloadError(`${at}: "command" must be create, str_replace, insert or append, got "${command}".`);
  const content = optionalString(input, 'new_str', at);
  return { ...base, kind: 'write', mode: 'edit', path, ...(content === undefined ? {} : { content }) };
}

/**
 * `fs_read`'s paths: `operations` (each with a `path`, or an Image operation's `image_paths`), or
 * one operation's fields at the top (the older form). One path at least.
 */
function readPaths(input: Fields, at: string): string[] {
  const operations = input['operations'];
  const list = Array.isArray(operations) ? operations : [input];
  const paths = list.flatMap((operation) => {
    if (!isFields(operation)) return [];
    const images = operation['image_paths'];
    const named = Array.isArray(images) ? images : [operation['path']];
    return named.filter((path): path is string => typeof path === 'string' && path !== '');
  });
  if (paths.length === 0 || paths.length < list.length)
    throw new PayloadError(`${at}: every read operation needs a "path".`);
  return paths;
}

/** The paths after the first, judged as an unknown tool's arguments are (core reads each one). */
function others(rest: readonly string[]): { otherArgs?: readonly string[] } {
  return rest.length === 0 ? {} : { otherArgs: rest };
}

/**
 * `use_aws` as the `aws` command it runs: `aws <service> <operation>` with `--region`, `--profile`
 * and each parameter as `--<name> <value>` (a value that is not text as its JSON).
 */
function awsCommand(input: Fields, at: string): string {
  const words = ['aws', requireString(input, 'service_name', at), requireString(input, 'operation_name', at)];
  const region = firstText(optionalString(input, 'region', at));
  const profile = firstText(optionalString(input, 'profile_name', at));
  if (region !== undefined) words.push('--region', region);
  if (profile !== undefined) words.push('--profile', profile);
  const parameters = input['parameters'];
  if (parameters !== undefined && !isFields(parameters))
    throw new PayloadError(`${at}: "parameters" must be an object, got ${typeName(parameters)}.`);
  for (const [name, value] of Object.entries(parameters ?? {})) {
    words.push(name.startsWith('--') ? name : `--${name}`);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text !== '' && text !== undefined) words.push(text);
  }
  return words.map((word) => quoteWord(word)).join(' ');
}
