import { parse } from 'smol-toml';
import { ConfigError } from './adapter.js';
import type { SystemSetting } from './adapter.js';

/**
 * One `key = value` under a `[table]` of a TOML file, added and taken out again as a text edit:
 * every other line (comments, other tables, the line ends) stays as it was, as Codex's trust tables
 * are taken out of its config.toml (codex/trust.ts). What the file says is read with the TOML
 * parser before and after, so an edit that would read otherwise than meant is refused.
 */
export type TomlSetting = Pick<SystemSetting, 'table' | 'key' | 'value'>;

/** A table's header line, `[table]` with spaces and a comment allowed. */
function headerOf(table: string): RegExp {
  return new RegExp(String.raw`^\[[ \t]*${escaped(table)}[ \t]*\][ \t]*(?:#.*)?$`);
}

/** The line setup writes (`key = value`), with spaces and a comment allowed. */
function lineOf(setting: TomlSetting): RegExp {
  return new RegExp(String.raw`^${escaped(setting.key)}[ \t]*=[ \t]*${String(setting.value)}[ \t]*(?:#.*)?$`);
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the file sets at `[table] key` (undefined: nothing); throws ConfigError when it does not parse. */
export function tomlSetting(text: string, setting: TomlSetting): unknown {
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const line = (error as { line?: unknown }).line;
    throw new ConfigError(
      `it is not valid TOML: ${(error as Error).message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? ''}`,
      typeof line === 'number' ? line : undefined,
    );
  }
  const table = parsed[setting.table];
  return typeof table === 'object' && table !== null && !Array.isArray(table)
    ? (table as Record<string, unknown>)[setting.key]
    : undefined;
}

/**
 * The text with `key = value` under `[table]`: right after the table's header, or in a new table at
 * the end. As it was when it already says so; a file that sets the key otherwise is refused (an
 * administrator's own choice: guard does not overrule it), as is one whose table is written in a
 * form guard cannot add a line to (an inline table, dotted keys).
 */
export function withTomlSetting(text: string, setting: TomlSetting): string {
  const { table, key, value } = setting;
  const found = tomlSetting(text, setting);
  if (found === value) return text;
  if (found !== undefined) {
    throw new ConfigError(
      typeof found === 'boolean'
        ? `[${table}] ${key} is ${String(found)} here, an administrator's choice that guard will not overrule: make it ${String(value)} (or take the line out) if guard's setting should hold`
        : `[${table}] ${key} must be true or false for guard to set it here`,
    );
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const line = `${key} = ${String(value)}${eol}`;
  const lines = text.split(/(?<=\n)/);
  const header = lines.findIndex((one) => headerOf(table).test(one.trim()));
  let next: string;
  if (header !== -1) {
    const head = lines[header] as string;
    lines[header] = head.endsWith('\n') ? head : `${head}${eol}`;
    lines.splice(header + 1, 0, line);
    next = lines.join('');
  } else {
    const body = text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
    next = `${body}${body.trim() === '' ? '' : eol}[${table}]${eol}${line}`;
  }
  let says: unknown;
  try {
    says = tomlSetting(next, setting);
  } catch {
    says = undefined;
  }
  if (says !== value)
    throw new ConfigError(
      `its [${table}] is written in a form guard cannot add a line to (an inline table or dotted keys): add ${key} = ${String(value)} to it yourself`,
    );
  return next;
}

/**
 * The text without the `key = value` line `withTomlSetting` adds under `[table]`, and without a
 * plain `[table]` header left with nothing under it (with the blank line setup put before it, at the
 * end). As it was when there is no such line.
 */
export function withoutTomlSetting(text: string, setting: TomlSetting): string {
  const lines = text.split(/(?<=\n)/);
  const header = lines.findIndex((one) => headerOf(setting.table).test(one.trim()));
  if (header === -1) return text;
  let end = header + 1;
  while (end < lines.length && !(lines[end] as string).trim().startsWith('[')) end++;
  const at = lines.slice(header + 1, end).findIndex((one) => lineOf(setting).test(one.trim()));
  if (at === -1) return text;
  lines.splice(header + 1 + at, 1);
  end -= 1;
  const rest = lines.slice(header + 1, end);
  // a header as setup writes it, with nothing left under it, goes (one with a comment is someone's own)
  if (rest.some((one) => one.trim() !== '') || (lines[header] as string).trim() !== `[${setting.table}]`)
    return lines.join('');
  // and at the end of the file, the blank line setup put before it
  const last = end === lines.length;
  const start = last && header > 0 && (lines[header - 1] as string).trim() === '' ? header - 1 : header;
  lines.splice(start, end - start);
  return lines.join('');
}
