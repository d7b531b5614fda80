import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { Adapter, InstallOptions } from '../src/adapter.js';
import { parseJson, toValue } from '../src/json-text.js';
import type { JsonNode } from '../src/json-text.js';

/** One existing file (or '' for none) that setup must edit without losing a byte. */
export interface RoundTripRow {
  readonly name: string;
  readonly before: string;
  /** What uninstall told nothing of the original gives back when it cannot be `before` exactly (documented cases only). */
  readonly restored?: string;
  /** Patterns the installed text must not contain (a lone LF in a CRLF file, spaces in a tab file…). */
  readonly reject?: readonly RegExp[];
}

/** A file that install must refuse, naming the line. */
export interface RefusalRow {
  readonly name: string;
  readonly text: string;
  readonly line: number;
  readonly message: RegExp;
  /** What uninstall does with it: a text that does not parse is refused too; a wrong shape holds nothing of guard's. */
  readonly uninstall: 'throws' | 'unchanged';
}

/** What an agent's installed file must look like. */
export interface AgentSpec {
  readonly adapter: Adapter;
  readonly options: InstallOptions;
  /** The object that maps event names to lists, in a parsed file. */
  readonly eventMap: (parsed: Record<string, unknown>) => Record<string, unknown>;
  /** guard's entry per event, written out from the agent's reference. */
  readonly entries: Readonly<Record<string, unknown>>;
  /** installedCommands() after install (any order). */
  readonly commands: readonly string[];
  /** Agent-specific checks on the whole parsed file. */
  readonly checkFile?: (parsed: Record<string, unknown>) => void;
  /** The agent reads the file as JSON with comments (Gemini CLI). */
  readonly comments?: boolean;
}

export const stripBom = (text: string): string => text.replace(/^\uFEFF/, '');

const asRecord = (value: unknown): Record<string, unknown> => {
  expect(value).toBeTypeOf('object');
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
};

/** The raw text of every list item in a file, at any depth (what must survive verbatim). */
function listItemTexts(text: string, comments: boolean): string[] {
  if (text.trim() === '') return [];
  const texts: string[] = [];
  const visit = (node: JsonNode): void => {
    if (node.kind === 'array') {
      for (const element of node.elements) {
        texts.push(text.slice(element.start, element.end));
        visit(element);
      }
    }
    if (node.kind === 'object') for (const member of node.members) visit(member.value);
  };
  visit(parseJson(text, { comments }));
  return texts;
}

/**
 * The round-trip table: each row is installed, installed again, parsed and uninstalled, and must
 * come back byte for byte with guard's entries in the agent's exact schema.
 */
export function describeRoundTrip(title: string, spec: AgentSpec, rows: readonly RoundTripRow[]): void {
  describe(title, () => {
    it('has no duplicate rows', () => {
      const befores = rows.map((row) => row.before);
      expect(new Set(befores).size).toBe(befores.length);
    });

    it.for(rows)('$name', (row) => {
      const after = spec.adapter.install(row.before, spec.options);

      // idempotent, and the exact original comes back
      expect(spec.adapter.install(after, spec.options)).toBe(after);
      expect(spec.adapter.uninstall(after)).toBe(row.restored ?? row.before);
      // told the original (the CLI's backup), uninstall gives back every byte of it
      expect(spec.adapter.uninstall(after, { original: row.before })).toBe(row.before);

      // guard's entries, once per event, at the end of each list, in the agent's schema
      const parse = (text: string): unknown =>
        spec.comments === true ? toValue(parseJson(text, { comments: true })) : JSON.parse(stripBom(text));
      const parsed = asRecord(parse(after));
      const map = spec.eventMap(parsed);
      for (const [event, entry] of Object.entries(spec.entries)) {
        const list = map[event];
        expect(Array.isArray(list), event).toBe(true);
        expect((list as unknown[]).at(-1), event).toEqual(entry);
        expect(
          (list as unknown[]).filter((item) => JSON.stringify(item) === JSON.stringify(entry)),
          event,
        ).toHaveLength(1);
      }
      spec.checkFile?.(parsed);
      expect([...spec.adapter.installedCommands(after)].sort()).toEqual([...spec.commands].sort());
      expect(spec.adapter.installedCommands(row.before)).toEqual([]);

      // the user's own content: same root keys first, same list items first, same bytes
      if (row.before.trim() !== '') {
        const old = asRecord(parse(row.before));
        expect(Object.keys(parsed).slice(0, Object.keys(old).length)).toEqual(Object.keys(old));
        const oldMap = spec.eventMap(old) as Record<string, unknown> | undefined;
        for (const [event, list] of Object.entries(oldMap ?? {})) {
          if (Array.isArray(list)) expect((map[event] as unknown[]).slice(0, list.length), event).toEqual(list);
          else expect(map[event], event).toEqual(list);
        }
      }
      for (const item of listItemTexts(row.before, spec.comments === true)) expect(after).toContain(item);

      for (const pattern of row.reject ?? []) expect(after).not.toMatch(pattern);
      if (row.before.startsWith('\uFEFF')) expect(after.startsWith('\uFEFF')).toBe(true);
    });
  });
}

/** The refusal table: install and uninstall throw ConfigError with the line; status reads nothing. */
export function describeRefusals(title: string, spec: AgentSpec, rows: readonly RefusalRow[]): void {
  describe(title, () => {
    it.for(rows)('$name', (row) => {
      let error: unknown;
      try {
        spec.adapter.install(row.text, spec.options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect({ line: (error as ConfigError).line, message: (error as ConfigError).message }).toEqual({
        line: row.line,
        message: expect.stringMatching(row.message),
      });
      if (row.uninstall === 'throws') expect(() => spec.adapter.uninstall(row.text)).toThrow(ConfigError);
      else expect(spec.adapter.uninstall(row.text)).toBe(row.text);
      expect(spec.adapter.installedCommands(row.text)).toEqual([]);
    });
  });
}
