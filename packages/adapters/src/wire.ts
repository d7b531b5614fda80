import { posix, win32 } from 'node:path';
import { PayloadError } from './adapter.js';
import type { HookReply } from './adapter.js';

/**
 * Small helpers the four payload readers share: reading fields out of an untrusted JSON value with
 * plain error messages, looking at the agent's command line, and writing one-object replies.
 */

export type Fields = Readonly<Record<string, unknown>>;

/** True for a plain JSON object (not null, not an array). */
export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or a PayloadError naming `what` it should have been. */
export function fieldsOf(value: unknown, what: string): Fields {
  if (!isFields(value)) throw new PayloadError(`${what} must be a JSON object, got ${typeName(value)}.`);
  return value;
}

/** A string field that must be there (it may be empty). */
export function requireString(fields: Fields, key: string, where: string): string {
  const value = fields[key];
  if (typeof value !== 'string') {
    throw new PayloadError(`${where}: "${key}" must be a string, got ${typeName(value)}.`);
  }
  return value;
}

/** A string field that may be missing or null; any other type is an error. */
export function optionalString(fields: Fields, key: string, where: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new PayloadError(`${where}: "${key}" must be a string when present, got ${typeName(value)}.`);
  }
  return value;
}

/** The first argument that is a non-empty string. */
export function firstText(...values: readonly unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

/** Looks up `names` in order, case-insensitively (some agents vary the case of argument keys). */
export function pick(fields: Fields, ...names: readonly string[]): unknown {
  for (const name of names) if (fields[name] !== undefined) return fields[name];
  const lower = new Map(Object.keys(fields).map((key) => [key.toLowerCase(), key] as const));
  for (const name of names) {
    const key = lower.get(name.toLowerCase());
    if (key !== undefined && fields[key] !== undefined) return fields[key];
  }
  return undefined;
}

/** A string argument under any of `names`, or a PayloadError naming the first. */
export function requireArg(args: Fields, where: string, ...names: readonly [string, ...string[]]): string {
  const value = pick(args, ...names);
  if (typeof value !== 'string') {
    throw new PayloadError(`${where}: "${names[0]}" must be a string, got ${typeName(value)}.`);
  }
  return value;
}

/** A string argument under any of `names`, when there is one; any other type is a PayloadError naming the first. */
export function optionalArg(args: Fields, where: string, ...names: readonly [string, ...string[]]): string | undefined {
  const value = pick(args, ...names);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new PayloadError(`${where}: "${names[0]}" must be a string when present, got ${typeName(value)}.`);
  }
  return value;
}

/** Tool arguments that some agents send as a JSON string: parsed when they parse, else kept as sent. */
export function parseArgs(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A working directory must be absolute (POSIX or Windows form). */
export function requireAbsolute(path: string, where: string): string {
  if (!posix.isAbsolute(path) && !win32.isAbsolute(path)) {
    throw new PayloadError(`${where}: the working directory must be an absolute path, got "${path}".`);
  }
  return path;
}

/** True when the command line holds one of `flags`, alone or as `--flag=value`. */
export function hasFlag(args: readonly string[], flags: readonly string[]): boolean {
  return args.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
}

/**
 * The arguments after the agent's own program in the hook's ancestors' command lines (the program
 * matched by `program`, a pattern for one argument), or undefined when it is not there. What follows
 * may run into the agent's parent's arguments: callers look for flags, not for positions.
 */
export function argsAfter(args: readonly string[], program: RegExp): readonly string[] | undefined {
  const at = args.findIndex((arg) => program.test(arg));
  return at < 0 ? undefined : args.slice(at + 1);
}

/** `relative` resolved against the absolute folder `base` (POSIX or Windows, as `base` is written). */
export function resolveIn(base: string, relative: string): string {
  if (posix.isAbsolute(relative) || win32.isAbsolute(relative)) return relative;
  return posix.isAbsolute(base) ? posix.resolve(base, relative) : win32.resolve(base, relative);
}

/** The one-line JSON reply every agent reads on stdout, exit 0. */
export function jsonReply(value: Fields): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

/** Nothing on stdout, exit 0. */
export const emptyReply: HookReply = { stdout: '', exitCode: 0 };

// The payload fields and reply shape Codex, Claude Code and Gemini CLI have in common.

/** The chat's id in `session_id` ('' when the agent leaves it out). */
export function sessionId(fields: Fields, where: string): string {
  return optionalString(fields, 'session_id', where) ?? '';
}

/** The absolute working directory in `cwd`. */
export function sessionCwd(fields: Fields, where: string): string {
  return requireAbsolute(requireString(fields, 'cwd', where), where);
}

/** A notice for the model as `hookSpecificOutput.additionalContext`, on the events that take one. */
export function contextReply(event: string, notice: string | undefined, events: ReadonlySet<string>): HookReply {
  if (notice === undefined || notice === '' || !events.has(event)) return emptyReply;
  return jsonReply({ hookSpecificOutput: { hookEventName: event, additionalContext: notice } });
}

/** Gemini CLI's and Qwen Code's `llmContent` as text: a string, or parts with text (MCP tools), else its JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isFields(part) && typeof part['text'] === 'string' ? part['text'] : JSON.stringify(part)))
      .join('\n');
  }
  return content === undefined ? '' : (JSON.stringify(content) ?? '');
}

/** What a JSON value is, in a few words for an error (never the value itself: it may hold a key). */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
