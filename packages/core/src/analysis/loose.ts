/**
 * Path- and URL-like strings anywhere in an MCP call's or unknown tool's arguments, as file and
 * network effects: an unknown tool might write any path it is given; an MCP tool's paths are
 * judged as reads (secrets) and by mcp.changes (outside the project).
 */
import type { FileEffect, NetEffect } from '../context/types.js';
import { urlFacts } from '../facts/hosts.js';
import type { PathFacts } from '../facts/paths.js';
import type { Span, ToolStep } from '../types.js';

const MAX_LOOSE = 200;

/**
 * The file and network effects of an MCP call's or unknown tool's arguments: `args`, the step's own
 * or (on a step read by the shape of an unknown tool's input) the rest of that input.
 */
export function looseEffects(
  step: ToolStep,
  args: unknown,
  text: string,
  path: (raw: string) => PathFacts,
): { files: FileEffect[]; net: NetEffect[] } {
  const files: FileEffect[] = [];
  const net: NetEffect[] = [];
  // an unknown tool (its own arguments, or the rest of them) might write its paths and send to its URLs
  const unknownTool = step.kind !== 'mcp';
  const op = unknownTool ? 'write' : 'read';
  let from = 0;
  const keys: string[] = [];
  const values = looseStrings(args, [], 0, keys);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string;
    const encoded = JSON.stringify(value);
    const at = text.indexOf(encoded, from);
    const span: Span = at >= 0 ? [at + 1, at + encoded.length - 1] : [0, text.length];
    if (at >= 0) from = at + encoded.length;
    const local = FILE_URL.test(value) ? fileUrlPath(value) : undefined;
    const url = local === undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? urlFacts(value) : undefined;
    if (local !== undefined) {
      // `file:///home/me/.env` under any name is a file on this computer, not a site
      files.push({ op, path: path(local), span, by: step.toolName });
    } else if (url) {
      net.push({
        host: url.host,
        hostClass: url.hostClass,
        url,
        span,
        by: step.toolName,
        sends: unknownTool,
        kind: 'http',
      });
    } else if (pathArgument(keys[i] ?? '', value)) {
      files.push({ op, path: path(value), span, by: step.toolName });
    }
  }
  return { files, net };
}

const FILE_URL = /^file:\/\//i;

/**
 * The path a `file:` URL names: `file:///x`, `file://localhost/x`, `file:///C:/x`, and the loose
 * `file://~/x` some tools accept; escapes decoded, query and fragment dropped.
 */
function fileUrlPath(value: string): string | undefined {
  let rest = value.slice(7);
  if (/^localhost(?=\/)/i.test(rest)) rest = rest.slice(9);
  const end = rest.search(/[?#]/);
  if (end >= 0) rest = rest.slice(0, end);
  try {
    rest = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  if (/^\/[A-Za-z]:\//.test(rest)) return rest.slice(1);
  return rest.startsWith('/') || rest.startsWith('~') ? rest : undefined;
}

/**
 * Every string in a JSON-like value, depth-first, bounded. When `keys` is given, it gets the name
 * each string was found under (the array's own name for items of an array; '' at the top).
 */
export function looseStrings(value: unknown, out: string[] = [], depth = 0, keys?: string[], key = ''): string[] {
  if (out.length >= MAX_LOOSE || depth > 16) return out;
  if (typeof value === 'string') {
    out.push(value);
    keys?.push(key);
  } else if (Array.isArray(value)) {
    for (const item of value) looseStrings(item, out, depth + 1, keys, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) looseStrings(item, out, depth + 1, keys, name);
  }
  return out;
}

/** Argument names whose value is a path, whatever it looks like (compared lower-case, without `_` and `-`). */
const PATH_NAMES = new Set([
  'path',
  'paths',
  'file',
  'files',
  'filename',
  'filenames',
  'filepath',
  'filepaths',
  'uri',
  'target',
  'targets',
  'destination',
  'dest',
  'source',
  'sources',
  'src',
  'dir',
  'dirs',
  'directory',
  'folder',
  'cwd',
  'root',
  'location',
]);
/** Endings that make a name a path too (`output_path`, `configFile`, `workdir`). */
const PATH_ENDINGS = /(?:path|paths|file|files|filename|dir|directory|folder)$/;
/** Argument names whose value is free text (a search, a message): not read as a path. */
const TEXT_NAMES = new Set([
  'query',
  'q',
  'text',
  'prompt',
  'message',
  'messages',
  'content',
  'body',
  'description',
  'title',
  'search',
  'question',
  'comment',
  'note',
  'notes',
  'summary',
  'subject',
  'instructions',
  'pattern',
  'regex',
  'keywords',
  'term',
  'terms',
]);

/**
 * Whether a string argument is judged as a path: always under a name that means one, never under
 * a name that means free text (`{"query": ".env"}` searches for the words), else when it looks
 * like one.
 */
function pathArgument(key: string, value: string): boolean {
  if (value.length === 0 || value.length > 4096 || value.includes('\n')) return false;
  if (key !== '') {
    const name = key.toLowerCase().replace(/[-_]/g, '');
    if (PATH_NAMES.has(name) || PATH_ENDINGS.test(name)) return true;
    if (TEXT_NAMES.has(name)) return false;
  }
  return looksLikePath(value);
}

function looksLikePath(value: string): boolean {
  if (value.length === 0 || value.length > 4096 || value.includes('\n')) return false;
  return (
    /^(~|\.{1,2})?[\\/]/.test(value) ||
    /^[A-Za-z]:[\\/]/.test(value) ||
    /^\.[\w-]/.test(value) ||
    /^[\w.-]+\/[\w./-]*$/.test(value)
  );
}
