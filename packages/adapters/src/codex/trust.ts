import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import type { HookTrust, TrustReport, TrustState } from '../adapter.js';
import { codexHome } from './agent.js';
import { installedCommands } from './config.js';

/**
 * Whether Codex will run guard's hooks. Codex skips a hook it has not been told to trust, without a
 * word; trust is a hash of the hook's definition, kept per hook in the user's config.toml under
 * `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]`. These are the pure parts: the
 * hashes, reading the trust out of config.toml, and taking guard's out again. Codex itself writes
 * the trust (the CLI asks it through `codex app-server`).
 */

/** One hook handler as Codex identifies it for trust. */
export interface CodexHook {
  /** `<absolute hooks.json path>:<snake event>:<group index>:<handler index>`. */
  readonly key: string;
  readonly hash: string;
}

// Codex's event labels are the snake_case of the names in hooks.json.
const snake = (event: string): string => event.replace(/(?<=[a-z])([A-Z])/g, '_$1').toLowerCase();
// Events whose matcher Codex leaves out of the hash.
const NO_MATCHER = new Set(['user_prompt_submit', 'stop']);
// Events where a non-default additionalContextLimit is part of the hash.
const CONTEXT_LIMIT = new Set([
  'pre_tool_use',
  'post_tool_use',
  'session_start',
  'user_prompt_submit',
  'subagent_start',
]);
const DEFAULT_CONTEXT_LIMIT = 2500;
const DEFAULT_TIMEOUT = 600;

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] != null)
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Codex's trust hash of one handler in one group (compact JSON, keys sorted, nulls dropped, SHA-256). */
export function codexHookHash(event: string, matcher: unknown, handler: Readonly<Record<string, unknown>>): string {
  const label = snake(event);
  const limit = handler['additionalContextLimit'];
  const identity = {
    event_name: label,
    hooks: [
      {
        type: 'command',
        command: handler['command'],
        timeout: typeof handler['timeout'] === 'number' ? handler['timeout'] : DEFAULT_TIMEOUT,
        async: handler['async'] === true,
        statusMessage: handler['statusMessage'],
        additionalContextLimit: CONTEXT_LIMIT.has(label) && limit !== DEFAULT_CONTEXT_LIMIT ? limit : undefined,
      },
    ],
    matcher: NO_MATCHER.has(label) ? undefined : matcher,
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortedKeys(identity)))
    .digest('hex')}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** guard's handlers in a Codex hooks.json, with their trust keys and hashes. */
export function guardCodexHooks(
  hooksPath: string,
  hooksText: string,
  isGuard: (command: string) => boolean,
): CodexHook[] {
  const parsed: unknown = JSON.parse(hooksText.replace(/^\uFEFF/, ''));
  const events = isObject(parsed) ? parsed['hooks'] : undefined;
  if (!isObject(events)) return [];
  const found: CodexHook[] = [];
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group['hooks'])) return;
      group['hooks'].forEach((handler: unknown, handlerIndex) => {
        if (!isObject(handler) || typeof handler['command'] !== 'string' || !isGuard(handler['command'])) return;
        found.push({
          key: `${hooksPath}:${snake(event)}:${groupIndex}:${handlerIndex}`,
          hash: codexHookHash(event, group['matcher'], handler),
        });
      });
    });
  }
  return found;
}

/** How Codex stands on guard's hooks, given the hooks file and the user's config.toml text ('' when absent). */
export function codexTrust(
  hooksPath: string,
  hooksText: string,
  configText: string,
  isGuard: (command: string) => boolean,
): TrustReport {
  let hooks: CodexHook[];
  try {
    hooks = guardCodexHooks(hooksPath, hooksText, isGuard);
  } catch {
    return { state: 'unknown', detail: `${hooksPath} is not valid JSON` };
  }
  let state: Record<string, unknown> = {};
  try {
    const hooksTable = (parse(configText) as Record<string, unknown>)['hooks'];
    const table = isObject(hooksTable) ? hooksTable['state'] : undefined;
    if (isObject(table)) state = table;
  } catch (error) {
    return {
      state: 'unknown',
      detail: `Codex's config.toml does not parse${tomlLine(error)}: ${(error as Error).message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? ''}`,
    };
  }
  const states = hooks.map((hook): TrustState => {
    const entry = state[hook.key];
    if (!isObject(entry)) return 'untrusted';
    if (entry['enabled'] === false) return 'disabled';
    return entry['trusted_hash'] === hook.hash ? 'trusted' : 'modified';
  });
  const count = (wanted: TrustState): number => states.filter((one) => one === wanted).length;
  const total = states.length;
  for (const worst of ['disabled', 'untrusted', 'modified'] as const) {
    if (count(worst) > 0) return { state: worst, detail: `${count(worst)} of guard's ${total} hooks ${WORDS[worst]}` };
  }
  return { state: 'trusted', detail: `Codex trusts all ${total} of guard's hooks` };
}

const WORDS = {
  disabled: 'are switched off in Codex',
  untrusted: 'are not trusted yet, so Codex skips them',
  modified: 'changed since they were trusted, so Codex skips them until trusted again',
} as const;

/** The trust of guard's hooks, for the CLI (guard's hooks are the commands `installedCommands` finds). */
export const trust: HookTrust = {
  program: 'codex',
  menu: '/hooks',
  // its app cannot reliably trust hooks, so the terminal is named
  byHand: 'open Codex in a terminal, type /hooks',
  recordsPath: (where) => posix.join(codexHome(where), 'config.toml'),
  state: (hooksPath, hooksText, recordsText) => codexTrust(hooksPath, hooksText, recordsText, isGuardIn(hooksText)),
  keys: (hooksPath, hooksText) => guardCodexHooks(hooksPath, hooksText, isGuardIn(hooksText)).map((hook) => hook.key),
  withoutRecords: withoutCodexTrust,
  sameRecords(a, b) {
    try {
      return isDeepStrictEqual(parse(a), parse(b));
    } catch {
      return false;
    }
  },
};

function isGuardIn(hooksText: string): (command: string) => boolean {
  const ours = new Set(installedCommands(hooksText));
  return (command) => ours.has(command);
}

// A trust table's header line: `[hooks.state."<key>"]` (or with a literal 'key'), maybe a comment after.
const TRUST_HEADER =
  /^\[[ \t]*hooks[ \t]*\.[ \t]*state[ \t]*\.[ \t]*("(?:[^"\\]|\\.)*"|'[^']*')[ \t]*\][ \t]*(?:#.*)?$/;
const STATE_HEADER = /^\[[ \t]*hooks[ \t]*\.[ \t]*state[ \t]*\][ \t]*(?:#.*)?$/;

/**
 * config.toml without Codex's trust tables for these hook keys (what `guard uninstall codex` takes
 * out along with the hooks), and without a `[hooks.state]` header they leave empty (unless the
 * `original`, the file before setup, had one). Every other line stays as it was. Trust written in
 * another form (an inline table) is left alone.
 */
export function withoutCodexTrust(config: string, keys: readonly string[], original?: string): string {
  const wanted = new Set(keys);
  const lines = config.split(/(?<=\n)/);
  const kept: string[] = [];
  let skipping = false;
  let removed = false;
  // blank lines after a trust table's keys: dropped with it before the next table, kept before a comment
  let blanks: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) {
      const quoted = TRUST_HEADER.exec(trimmed)?.[1];
      skipping = quoted !== undefined && wanted.has(tomlKey(quoted));
      removed ||= skipping;
      blanks = [];
    } else if (skipping && trimmed === '') {
      blanks.push(line);
      continue;
    } else if (skipping && trimmed.startsWith('#')) {
      // the trust table is its header and its keys: a comment after them is someone else's (a note
      // Codex or the person left there), and stays, with the blank lines before it
      skipping = false;
      kept.push(...blanks);
      blanks = [];
    }
    if (!skipping) kept.push(line);
  }
  if (!removed) return config;
  // a [hooks.state] header with nothing left under it (no keys, no other hook's table) goes too,
  // with the blank lines after it
  const others =
    kept.some((line) => TRUST_HEADER.test(line.trim())) ||
    (original?.split('\n').some((line) => STATE_HEADER.test(line.trim())) ?? false);
  const out: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i] ?? '';
    if (!others && STATE_HEADER.test(line.trim())) {
      let next = i + 1;
      while (next < kept.length && (kept[next] ?? '').trim() === '') next++;
      // comments someone left there stay; only keys under the header would keep it
      let after = next;
      while (after < kept.length && /^(?:#.*)?$/.test((kept[after] ?? '').trim())) after++;
      if (after === kept.length || (kept[after] ?? '').trim().startsWith('[')) {
        i = next - 1;
        continue;
      }
    }
    out.push(line);
  }
  // what was appended at the end leaves no run of blank lines behind (but the original's own)
  let text = out.join('');
  const newlines = (lines: string): number => /\n*$/.exec(lines)?.[0].length ?? 0;
  const most = Math.max(1, original === undefined ? 1 : newlines(original));
  while (newlines(text) > most) text = text.slice(0, -1);
  if (text.trim() !== '') return text;
  return original !== undefined && original.trim() === '' ? original : '';
}

/** The text of a quoted TOML key (basic strings use JSON's escapes for what a path can hold). */
function tomlKey(quoted: string): string {
  if (quoted.startsWith("'")) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** Where a TOML parser's error is (` (line 3)`), when it says. */
function tomlLine(error: unknown): string {
  const line = (error as { line?: unknown }).line;
  return typeof line === 'number' ? ` (line ${line})` : '';
}
