import type { ShellStep, ToolStep } from '@guard/core';
import { fieldNames, quoteWord } from '@guard/core';
import { PayloadError } from './adapter.js';
import type { Fields } from './wire.js';
import { isFields, parseArgs, pick, resolveIn, typeName } from './wire.js';

/**
 * Reading a tool by the shape of its input: for a tool that is not in its agent's table (agents add
 * tools with every release), and for the argv arrays a command may come as. One reader for every
 * agent; each payload reader hands it the input of a tool it does not know.
 *
 * A field that holds a command is a shell step; a path with something to write into it is a write;
 * a path or a URL alone stays the tool's arguments, which core judges as an unknown tool's (every
 * path-like string a file it might write, every URL a site it sends to: stricter than a read or a
 * fetch, so a new tool that deletes the path it is given is not waved through as a read). The
 * fields are looked for in the input and one level down in the objects it holds.
 *
 * A step holds one reading. Where the input has several shapes the riskiest wins (a command, then a
 * write), and the rest of the input goes with the step as `otherArgs`, which core reads as it reads
 * an unknown tool's arguments, so reading the command never hides a path beside it.
 */

/** What every step of an agent's payload has, whatever its kind. */
export type StepBase = Omit<ShellStep, 'kind' | 'command'>;

/** The kind fields of a step read by shape (`cwd`: the folder a command runs in, when the input names one). */
export type ShapeStep =
  | { readonly kind: 'shell'; readonly command: string; readonly cwd?: string; readonly otherArgs?: Fields }
  | {
      readonly kind: 'write';
      readonly mode: 'overwrite' | 'edit';
      readonly path: string;
      readonly content?: string;
      readonly otherArgs?: Fields;
    }
  | { readonly kind: 'other'; readonly args: unknown; readonly unknown?: true };

// Field names, compared lower-case without `_` and `-` (`commandLine`, `CommandLine`, `shell_command`
// are one name each), in the order they are preferred.
const COMMAND = ['command', 'cmd', 'commandline', 'shellcommand', 'bashcommand', 'script'];
const FOLDER = ['cwd', 'workdir', 'workingdirectory', 'workingdir', 'dirpath', 'directory', 'dir'];
const PATH = [
  'filepath',
  'path',
  'targetfile',
  'absolutepath',
  'notebookpath',
  'file',
  'filename',
  'target',
  'destination',
  'dest',
  'uri',
];
// What to write into the path: the whole content (an overwrite), or an edit's new text
const CONTENT = ['content', 'contents', 'filetext', 'codecontent', 'text', 'body', 'data'];
const NEW_TEXT = ['newstring', 'newstr', 'newtext', 'newsource', 'replacementcontent', 'replacement'];
// Fields that make a path an edit even without a new text
const EDIT = ['oldstring', 'oldstr', 'oldtext', 'edits', 'replacementchunks', 'diff'];

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The step a tool outside its agent's table is: `base` (its cwd the payload's) with the input read by shape. */
export function stepByShape(base: StepBase, input: unknown, where: string): ToolStep {
  return withShape(base, readShape(input, where));
}

/** `base` with a step's kind fields; a folder among them (a command's, read by shape) is taken relative to the base's. */
export function withShape<K extends { readonly kind: string; readonly cwd?: string }>(
  base: StepBase,
  kind: K,
): StepBase & K {
  return kind.cwd === undefined ? { ...base, ...kind } : { ...base, ...kind, cwd: resolveIn(base.cwd, kind.cwd) };
}

/** The kind fields of an input read by its shape (see the top of this file); throws PayloadError on a command of the wrong type. */
export function readShape(input: unknown, where: string): ShapeStep {
  const args = parseArgs(input);
  if (!isFields(args)) return { kind: 'other', args, unknown: true };
  const levels: { readonly fields: Fields; readonly under?: string }[] = [{ fields: args }];
  for (const [key, value] of Object.entries(args)) if (isFields(value)) levels.push({ fields: value, under: key });
  for (const { fields, under } of levels) {
    const named = fieldNames(fields);
    const key = COMMAND.map((name) => named.get(name)).find((found) => found !== undefined && usable(fields[found]));
    if (key === undefined) continue;
    // a wrong type at the top is a payload guard cannot read; one level down it may be anything
    if (under !== undefined && typeof fields[key] !== 'string' && !isWords(fields[key])) continue;
    const command = commandText(fields[key], `${where}${under === undefined ? '' : ` "${under}"`}`, key);
    const folder = firstString(fields, named, FOLDER);
    const used = folder === undefined ? [key] : [key, folder];
    return {
      kind: 'shell',
      command,
      ...(folder === undefined ? {} : { cwd: fields[folder] as string }),
      ...rest(args, under, used),
    };
  }
  for (const { fields, under } of levels) {
    const named = fieldNames(fields);
    const path = firstString(fields, named, PATH, (name) => name.endsWith('path'));
    if (path === undefined) continue;
    const has = (names: readonly string[]): boolean => names.some((name) => present(fields, named.get(name)));
    const edit = has(NEW_TEXT) || has(EDIT);
    if (!edit && !has(CONTENT)) continue;
    const content = firstString(fields, named, NEW_TEXT) ?? firstString(fields, named, CONTENT);
    return {
      kind: 'write',
      mode: edit ? 'edit' : 'overwrite',
      path: fields[path] as string,
      ...(content === undefined ? {} : { content: fields[content] as string }),
      ...rest(args, under, content === undefined ? [path] : [path, content]),
    };
  }
  const readable = levels.some(({ fields }) => {
    const named = fieldNames(fields);
    return (
      firstString(fields, named, PATH, (name) => name.endsWith('path')) !== undefined ||
      Object.values(fields).some((value) => typeof value === 'string' && SCHEME.test(value))
    );
  });
  return readable ? { kind: 'other', args } : { kind: 'other', args, unknown: true };
}

/**
 * A command as the shell reader reads it: a string as it is; a list of words (an argv array, run
 * without a shell) as those words, each quoted so that it stays one word (`["rm", "-rf", "/"]` is
 * `rm -rf /`, `["echo", "a; b"]` is `echo 'a; b'`). Anything else is a PayloadError naming the
 * field, never its value.
 */
export function commandText(value: unknown, where: string, field: string): string {
  if (typeof value === 'string') return value;
  if (isWords(value)) return value.map((word) => quoteWord(word)).join(' ');
  const got = Array.isArray(value)
    ? value.length === 0
      ? 'an empty list'
      : 'a list of other things than words'
    : typeName(value);
  throw new PayloadError(`${where}: "${field}" must be a string or a list of words, got ${got}.`);
}

/** A command argument under any of `names` (see commandText), or a PayloadError naming the first. */
export function commandArg(args: Fields, where: string, ...names: readonly [string, ...string[]]): string {
  return commandText(pick(args, ...names), where, names[0]);
}

/** A non-empty list of words (an argv array). */
function isWords(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string');
}

/** The first field (by the order of `names`, then by `also`) that holds a non-empty string that is not a URL. */
function firstString(
  fields: Fields,
  named: ReadonlyMap<string, string>,
  names: readonly string[],
  also?: (name: string) => boolean,
): string | undefined {
  const isText = (key: string | undefined): key is string => {
    const value = key === undefined ? undefined : fields[key];
    return typeof value === 'string' && value !== '' && !SCHEME.test(value);
  };
  const first = names.map((name) => named.get(name)).find(isText);
  if (first !== undefined || also === undefined) return first;
  return [...named].find(([name, key]) => also(name) && isText(key))?.[1];
}

/** A command field worth reading: not missing, not null, not empty, not an object (an object is looked into). */
function usable(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !isFields(value);
}

function present(fields: Fields, key: string | undefined): boolean {
  return key !== undefined && fields[key] !== undefined && fields[key] !== null;
}

/** The input without the fields a step was read from (at the level they were found), when anything is left. */
function rest(args: Fields, under: string | undefined, used: readonly string[]): { otherArgs?: Fields } {
  const without = (fields: Fields, keys: readonly string[]): Fields =>
    Object.fromEntries(Object.entries(fields).filter(([key]) => !keys.includes(key)));
  let left = without(args, under === undefined ? used : [under]);
  if (under !== undefined) {
    // the fields were read one level down: only there are they left out
    const inner = without(args[under] as Fields, used);
    if (Object.keys(inner).length > 0) left = { ...left, [under]: inner };
  }
  return Object.keys(left).length === 0 ? {} : { otherArgs: left };
}
