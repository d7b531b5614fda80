/**
 * An MCP call's arguments read as the steps they stand for, whatever the server and tool: an
 * argument whose name says it is a command or a script is a shell step, a path with the content to
 * write into it a write step. evaluate() judges each as that step and the call takes the strictest
 * verdict, so an MCP tool guard does not know cannot run `rm -rf ~` or write a start-up file
 * unseen. A string under any other name (a query, a message, a title) is data, never a command.
 */
import { quoteWord } from '../shell/quote.js';
import type { McpStep, Span, ToolStep } from '../types.js';

/** A step an MCP call's arguments stand for, and where its argument is in the call's text. */
export interface ArgStep {
  readonly step: ToolStep;
  readonly span: Span;
  /** The argument's name, as the call gives it. */
  readonly name: string;
}

// Names compared lower-case without `_` and `-` (`shell_command`, `shellCommand` are one name).
/** Arguments that hold a command line a shell runs (or its words, as a list). */
const COMMAND = new Set([
  'command',
  'cmd',
  'commandline',
  'shellcommand',
  'bashcommand',
  'script',
  'shellscript',
  'shell',
  'bash',
  'sh',
  'zsh',
  'exec',
  'powershell',
  'pwsh',
]);
/** Several command lines, each run (`commands: ["npm test", "git push -f"]`). */
const COMMANDS = new Set(['commands', 'cmds', 'scripts']);
/** Arguments that hold code: a command only when the call says its language is a shell's. */
const CODE = new Set(['code', 'source', 'snippet']);
const LANGUAGE = ['language', 'lang', 'interpreter', 'kernel', 'runtime'];
const SHELL_LANGUAGE = /^(?:(?:ba|z|k|da)?sh|shell|shellscript|console|powershell|pwsh)$/i;
/** Names that are PowerShell's. */
const POWERSHELL = /^(?:powershell|pwsh)$/i;
/** A file's path, and what to write into it (its whole content, or an edit's new text). */
const PATH = ['path', 'filepath', 'file', 'filename', 'targetfile', 'absolutepath'];
// (not `body` or `data`: an API's path with a request body is no file on this computer)
const CONTENT = ['content', 'contents', 'filecontent', 'filetext', 'text'];
const NEW_TEXT = ['newstring', 'newstr', 'newtext', 'newcontent', 'replacement'];

/** What an MCP call's arguments stand for (see the top of this file), at the top and one level down. */
export function mcpArgSteps(step: McpStep, text: string): ArgStep[] {
  const args = step.args;
  if (!isFields(args)) return [];
  const out: ArgStep[] = [];
  const base = {
    agent: step.agent,
    chatId: step.chatId,
    cwd: step.cwd,
    projectRoot: step.projectRoot,
    toolName: step.toolName,
  };
  const levels = [args, ...Object.values(args).filter(isFields)];
  for (const fields of levels.slice(0, 16)) {
    const named = fieldNames(fields);
    const language = LANGUAGE.map((name) => named.get(name)).find((key) => typeof fields[key ?? ''] === 'string');
    const shellCode = language !== undefined && SHELL_LANGUAGE.test((fields[language] as string).trim());
    for (const [name, key] of named) {
      const value = fields[key];
      const isCommand = COMMAND.has(name) || (shellCode && CODE.has(name));
      const lines = isCommand ? [commandOf(value)] : COMMANDS.has(name) && Array.isArray(value) ? value : [];
      for (const line of lines.slice(0, 64)) {
        if (typeof line !== 'string' || line.trim() === '') continue;
        const powershell =
          POWERSHELL.test(name) || (shellCode && POWERSHELL.test((fields[language ?? ''] as string).trim()));
        out.push({
          step: { ...base, kind: 'shell', command: line, ...(powershell ? { shell: 'powershell' as const } : {}) },
          span: spanOf(text, line),
          name: key,
        });
      }
    }
    const path = firstString(fields, named, [...PATH, ...[...named.keys()].filter((name) => name.endsWith('path'))]);
    const content = firstString(fields, named, NEW_TEXT) ?? firstString(fields, named, CONTENT);
    if (path !== undefined && content !== undefined) {
      const edit = NEW_TEXT.some((name) => named.get(name) === content);
      out.push({
        step: {
          ...base,
          kind: 'write',
          path: fields[path] as string,
          content: fields[content] as string,
          mode: edit ? 'edit' : 'overwrite',
        },
        span: spanOf(text, fields[path] as string),
        name: path,
      });
    }
  }
  return out;
}

/** A command line as given, or a list of words as the words a shell would be handed, each kept one word. */
function commandOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string'))
    return value.map((word: string) => quoteWord(word)).join(' ');
  return undefined;
}

/** Where a value is in the call's text (its JSON), or the whole text. */
function spanOf(text: string, value: string): Span {
  const encoded = JSON.stringify(value);
  const at = text.indexOf(encoded);
  return at < 0 ? [0, text.length] : [at + 1, at + encoded.length - 1];
}

type Fields = Readonly<Record<string, unknown>>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields' own names by their compared form, lower-case without `_` and `-` (the first of
 * each): how a tool's input is read by shape, here and in the adapters (shape.ts).
 */
export function fieldNames(fields: Readonly<Record<string, unknown>>): Map<string, string> {
  const named = new Map<string, string>();
  for (const key of Object.keys(fields)) {
    const name = key.toLowerCase().replace(/[-_]/g, '');
    if (!named.has(name)) named.set(name, key);
  }
  return named;
}

/** The first field of `names` (in that order) that holds a non-empty string that is not a URL. */
function firstString(fields: Fields, named: ReadonlyMap<string, string>, names: readonly string[]): string | undefined {
  return names
    .map((name) => named.get(name))
    .find((key) => {
      const value = key === undefined ? undefined : fields[key];
      return typeof value === 'string' && value !== '' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value);
    });
}
