import { findKeys } from '../facts/keys.js';
import type { PathContext, PathFacts } from '../facts/paths.js';
import { pathFacts } from '../facts/paths.js';
import { urlFacts } from '../facts/hosts.js';
import type { Probe, RuleContext, SessionView } from '../rule.js';
import { readCommand } from '../shell/index.js';
import type { Span, ToolStep } from '../types.js';
import type { FileEffect, NetEffect } from './effects.js';
import { stepEffects } from './effects.js';

/** What the engine needs to know about the machine, passed in (core does no I/O). */
export interface Environment {
  readonly home: string;
  /** The system temp folder. */
  readonly tmp: string;
  /** guard's own folder (settings, state, log), for guard.tamper. */
  readonly guardHome?: string;
}

/** The text every span of a step indexes into. */
export function stepText(step: ToolStep): string {
  switch (step.kind) {
    case 'shell':
      return step.command;
    case 'write':
    case 'read':
      return step.path;
    case 'patch':
      return step.patch;
    case 'fetch':
      return step.url;
    case 'mcp':
    case 'other':
      return safeJson(step.args);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** A chat with no memory yet. */
export const FRESH_SESSION: SessionView = {
  createdFiles: new Set(),
  untrusted: false,
  injection: false,
  keySeen: false,
  poisonedServers: new Set(),
  failuresInARow: () => 0,
};

/** The probe of a step that was given none: nothing to wrap. */
const NO_PROBE: Probe = Object.freeze({});

/** Wraps a probe so that a member that throws answers "don't know". */
function safeProbe(probe: Probe): Probe {
  // most evaluations get no probe: skip building a wrapper per step
  if (probe === NO_PROBE) return probe;
  // member by member under their own names: stores under names from Object.entries take V8's
  // generic path, which cost more per step than the rest of the wrapping
  const wrapped: Probe = {};
  const { gitIgnored, gitUntracked, gitModified, gitBranch, readText, exists, projectPackages } = probe;
  if (typeof gitIgnored === 'function')
    wrapped.gitIgnored = (cwd, paths) => attempt(() => gitIgnored.call(probe, cwd, paths));
  if (typeof gitUntracked === 'function') wrapped.gitUntracked = (cwd) => attempt(() => gitUntracked.call(probe, cwd));
  if (typeof gitModified === 'function') wrapped.gitModified = (cwd) => attempt(() => gitModified.call(probe, cwd));
  if (typeof gitBranch === 'function') wrapped.gitBranch = (cwd) => attempt(() => gitBranch.call(probe, cwd));
  if (typeof readText === 'function')
    wrapped.readText = (path, maxBytes) => attempt(() => readText.call(probe, path, maxBytes));
  if (typeof exists === 'function') wrapped.exists = (path) => attempt(() => exists.call(probe, path));
  if (typeof projectPackages === 'function')
    wrapped.projectPackages = (projectRoot) => attempt(() => projectPackages.call(probe, projectRoot));
  return wrapped;
}

/** The answer, or undefined ("don't know") when asking throws. */
function attempt<T>(ask: () => T): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

/** Builds everything the rules read about one step. */
export function buildContext(
  step: ToolStep,
  env: Environment,
  probe: Probe = NO_PROBE,
  session: SessionView = FRESH_SESSION,
  extraSecrets: readonly string[] = [],
): RuleContext {
  const text = stepText(step);
  const guardHome = env.guardHome;
  // the optional field last: a field after a spread is defined by a runtime call
  const pathContext: PathContext = {
    cwd: step.cwd,
    projectRoot: step.projectRoot,
    home: env.home,
    tmp: env.tmp,
    extraSecrets,
    ...(guardHome === undefined ? {} : { guardHome }),
  };
  // paths from the step's own folder by their word alone; from other folders (`cd x && …`) by
  // folder and word (a joined key is a new string to hash on every look-up)
  const cache = new Map<string, PathFacts>();
  const elsewhere = new Map<string, PathFacts>();
  const path = (raw: string, cwd: string = step.cwd): PathFacts => {
    const own = cwd === step.cwd;
    const key = own ? raw : `${cwd}\u0000${raw}`;
    const known = own ? cache : elsewhere;
    let facts = known.get(key);
    if (facts === undefined) {
      facts = pathFacts(raw, own ? pathContext : { ...pathContext, cwd });
      known.set(key, facts);
    }
    return facts;
  };
  const read =
    step.kind === 'shell' ? readCommand(step.command, { cwd: step.cwd, home: env.home, tmp: env.tmp }) : undefined;
  const invocations = read?.invocations ?? [];
  const { files, net } = stepEffects(step, text, invocations, path);
  const loose = step.kind === 'mcp' || step.kind === 'other' ? looseEffects(step, text, path) : undefined;
  return {
    step,
    text,
    invocations,
    opaque: read?.opaque ?? [],
    files: loose ? [...files, ...loose.files] : files,
    net: loose ? [...net, ...loose.net] : net,
    keys: findKeys(text),
    path,
    pathContext,
    probe: safeProbe(probe),
    session,
  };
}

const MAX_LOOSE = 200;

/**
 * Path- and URL-like strings anywhere in an MCP call's or unknown tool's arguments. An unknown
 * tool might write any path it is given; an MCP tool's paths are judged as reads (secrets) and by
 * mcp.changes (outside the project).
 */
function looseEffects(
  step: ToolStep & { readonly args: unknown },
  text: string,
  path: (raw: string) => PathFacts,
): { files: FileEffect[]; net: NetEffect[] } {
  const files: FileEffect[] = [];
  const net: NetEffect[] = [];
  let cursor = 0;
  const keys: string[] = [];
  const values = looseStrings(step.args, [], 0, keys);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string;
    const encoded = JSON.stringify(value);
    const at = text.indexOf(encoded, cursor);
    const span: Span = at >= 0 ? [at + 1, at + encoded.length - 1] : [0, text.length];
    if (at >= 0) cursor = at + encoded.length;
    const local = FILE_URL.test(value) ? fileUrlPath(value) : undefined;
    const url = local === undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? urlFacts(value) : undefined;
    if (local !== undefined) {
      // `file:///home/me/.env` under any name is a file on this computer, not a site
      files.push({ op: step.kind === 'other' ? 'write' : 'read', path: path(local), span, by: step.toolName });
    } else if (url) {
      net.push({
        host: url.host,
        hostClass: url.hostClass,
        url,
        span,
        by: step.toolName,
        sends: step.kind === 'other',
        kind: 'http',
      });
    } else if (pathArgument(keys[i] ?? '', value)) {
      files.push({ op: step.kind === 'other' ? 'write' : 'read', path: path(value), span, by: step.toolName });
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
