// The steps in a payload guard could not read: the text stdin gave (JSON perhaps cut short, a field
// of a type the adapter does not take, an event it does not know) read as loosely as it can be, for
// the never list alone (failure.ts). Every string under a key that names a command, a path or a URL
// becomes a step of that kind; a string that holds JSON itself (Copilot's toolArgs) is read the same
// way; an array of strings under a command key is read as words.
import type { ToolStep } from '@guard/core';
import { quoteWord } from '@guard/core';

/** Keys (in lower case) whose string is a command line, a file path, a URL, or the step's folder. */
const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'commandline', 'command_line', 'shell_command']);
/** Keys whose array is a list of command lines (Cline's `commands`), or a string holding that list as JSON. */
const COMMAND_LIST_KEYS = new Set(['commands']);
const PATH_KEYS = new Set([
  'path',
  'file_path',
  'filepath',
  'file',
  'targetfile',
  'absolutepath',
  'notebook_path',
  'dir_path',
  'directorypath',
]);
const URL_KEYS = new Set(['url', 'uri']);
const CWD_KEYS = new Set(['cwd', 'working_directory', 'workdir']);

/** The most text read, strings kept and steps made: the answer is due, and the rest is asked anyway. */
const MAX_TEXT = 1024 * 1024;
const MAX_STRINGS = 1024;
const MAX_STEPS = 32;
/** How deep JSON inside a string inside JSON is read. */
const MAX_DEPTH = 2;

/** A string the text holds, under the key it follows (when it is a key's value, or one of a key's array). */
interface Found {
  readonly key: string | undefined;
  /** One string, or the strings of an array. */
  readonly value: string | readonly string[];
}

/**
 * The steps a payload's text names, as loosely as they can be read: each a shell step, a file write
 * (a path alone could be written: the never list's worst case), a patch or a fetch, in the folder
 * the text names (else `home`). For the never list only: nothing else is judged on a guess.
 */
export function stepsInText(text: string, base: { agent: string; home: string }): ToolStep[] {
  const found = stringsIn(text.slice(0, MAX_TEXT), 0);
  const cwd = found.find(
    (item) => CWD_KEYS.has(item.key ?? '') && typeof item.value === 'string' && item.value.startsWith('/'),
  )?.value as string | undefined;
  const at = { agent: base.agent, chatId: '', cwd: cwd ?? base.home, projectRoot: cwd ?? base.home, toolName: '' };
  const steps: ToolStep[] = [];
  for (const { key, value } of found) {
    const name = key ?? '';
    if (COMMAND_KEYS.has(name) || COMMAND_LIST_KEYS.has(name)) {
      const lines = COMMAND_LIST_KEYS.has(name)
        ? commandLines(value)
        : typeof value === 'string'
          ? [value]
          : wordsAsCommands(value);
      for (const line of lines)
        steps.push(
          line.trimStart().startsWith('*** Begin Patch')
            ? { ...at, kind: 'patch', patch: line }
            : { ...at, kind: 'shell', command: line },
        );
    } else if (typeof value === 'string' && value !== '' && PATH_KEYS.has(name)) {
      steps.push({ ...at, kind: 'write', mode: 'overwrite', path: value });
    } else if (typeof value === 'string' && URL_KEYS.has(name)) {
      steps.push({ ...at, kind: 'fetch', url: value });
    }
  }
  return steps.filter((step) => step.kind !== 'shell' || step.command.trim() !== '').slice(0, MAX_STEPS);
}

/**
 * A list of command lines: the array's strings (and, since an array of arrays reads as one list of
 * words here, those words as one command too), or those of the JSON array a string holds (else the
 * string itself).
 */
function commandLines(value: string | readonly string[]): readonly string[] {
  if (typeof value !== 'string') return [...value, ...wordsAsCommands(value)];
  if (value.trimStart().startsWith('[')) {
    const lines = stringsIn(value, MAX_DEPTH).flatMap((item) => item.value);
    if (lines.length > 0) return lines;
  }
  return [value];
}

/**
 * An array of words as command lines: each word quoted, as a program run with that argv sees them,
 * and the words joined as they stand, as a shell that is handed them joined reads them.
 */
function wordsAsCommands(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const quoted = words.map((word) => quoteWord(word)).join(' ');
  const joined = words.join(' ');
  return quoted === joined ? [joined] : [quoted, joined];
}

/**
 * Every string in a JSON text, whole or cut short, with the key it is the value of: read in one pass
 * that tracks only strings, keys and arrays (anything else in between is skipped), so text that is
 * not JSON at all gives what strings it has. A string cut off by the end of the text counts as far
 * as it goes.
 */
function stringsIn(text: string, depth: number): Found[] {
  const found: Found[] = [];
  let key: string | undefined;
  let array: { key: string; words: string[] } | undefined;
  let i = 0;
  while (i < text.length && found.length < MAX_STRINGS) {
    const char = text[i];
    if (char === '"') {
      const { value, end } = stringAt(text, i);
      i = end;
      let next = i;
      while (next < text.length && /\s/.test(text[next] ?? '')) next++;
      if (text[next] === ':' && array === undefined) {
        key = value.toLowerCase();
        i = next + 1;
        continue;
      }
      if (array !== undefined) array.words.push(value);
      else found.push({ key, value });
      if (depth < MAX_DEPTH && value.trimStart().startsWith('{')) found.push(...stringsIn(value, depth + 1));
      key = undefined;
      continue;
    }
    if (char === '[' && key !== undefined && array === undefined) array = { key, words: [] };
    else if (char === ']' && array !== undefined) {
      found.push({ key: array.key, value: array.words });
      array = undefined;
    } else if (char === '{' && array !== undefined) {
      // an array of objects, not of words: its keys and strings are read as any others
      array = undefined;
    }
    // anything but white space ends a key's wait for its value (an object, a number: not a string)
    if (char !== undefined && !/[\s[]/.test(char) && array === undefined) key = undefined;
    i++;
  }
  // an array cut off by the end of the text: its words so far
  if (array !== undefined) found.push({ key: array.key, value: array.words });
  return found;
}

/** The JSON string that starts at `start` (its opening quote), decoded, and where it ends (or the text does). */
function stringAt(text: string, start: number): { value: string; end: number } {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  const raw = text.slice(start + 1, Math.min(i, text.length));
  return { value: decode(raw), end: Math.min(i + 1, text.length) };
}

/** A JSON string's text without its quotes, decoded; an escape cut short or one JSON does not know is dropped. */
function decode(raw: string): string {
  const whole = raw.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return whole.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, code: string) =>
      code.length === 5 ? String.fromCharCode(parseInt(code.slice(1), 16)) : (ESCAPES[code] ?? code),
    );
  }
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
