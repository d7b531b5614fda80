import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { InstallOptions } from '../src/adapter.js';
import { adapters, AGENT_IDS } from '../src/index.js';
import type { AgentId } from '../src/index.js';
import { appendElement, detectStyle, parseJson } from '../src/json-text.js';
import type { JsonArray, JsonNode } from '../src/json-text.js';

/**
 * "Never lose a user's byte": for every agent in the registry and each original a person may have,
 * setup then uninstall (told the original, as the CLI tells it from its backup) gives the original
 * byte for byte; setup twice is setup once; a file that does not parse is refused. A row an agent's
 * file cannot express is skipped by a declared reason.
 */

/** How an agent's hook file is laid out, as far as the originals below need it. */
type Shape =
  /** JSON whose event map is the root's `hooks` (or the root itself: ''). */
  | {
      readonly kind: 'map';
      readonly key: 'hooks' | '';
      readonly comments: boolean;
      readonly mine: object;
      /** A root key of the person's own beside the map (`model`, where the agent allows no other). */
      readonly beside?: string;
    }
  /** JSON whose root keys are hook names, guard's own one written whole (Antigravity). */
  | { readonly kind: 'named'; readonly comments: boolean; readonly mine: object }
  /** A file that is guard's alone (a plugin, a hook script): any other text there is refused. */
  | { readonly kind: 'whole'; readonly mine: string };

const group = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] };
const handler = { command: 'echo mine' };

/** Every agent's shape: a new agent fails the table until it is declared here. */
const SHAPES: Readonly<Record<AgentId, Shape>> = {
  codex: { kind: 'map', key: 'hooks', comments: false, mine: group, beside: 'description' },
  cursor: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  antigravity: { kind: 'named', comments: false, mine: group },
  copilot: { kind: 'map', key: 'hooks', comments: false, mine: { type: 'command', bash: 'echo mine' } },
  'claude-code': { kind: 'map', key: 'hooks', comments: false, mine: group },
  gemini: { kind: 'map', key: 'hooks', comments: true, mine: group },
  opencode: { kind: 'whole', mine: 'export const MyPlugin = async () => ({});\n' },
  qwen: { kind: 'map', key: 'hooks', comments: true, mine: group },
  windsurf: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  droid: { kind: 'map', key: '', comments: true, mine: group },
  cline: { kind: 'whole', mine: '#!/bin/bash\necho \'{"cancel": false}\'\n' },
  kilo: { kind: 'whole', mine: 'export const MyPlugin = async () => ({});\n' },
  crush: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  auggie: { kind: 'map', key: 'hooks', comments: true, mine: { hooks: [{ type: 'command', command: 'echo mine' }] } },
  kiro: { kind: 'map', key: 'hooks', comments: false, mine: handler },
};

const WHOLE =
  "the file is guard's alone (a person's own hook is another file beside it): any other text there is refused";
const NAMED =
  "the root's keys are hook names and guard's hook, named guard, is written and removed whole: there is no shared event map or list";
const ROOT_MAP = 'the root is the event map: an empty map is the row "{}"';
const TRAILING =
  "guard's JSON reader refuses a trailing comma, as the agents' readers of JSON with comments do (comments stripped, then JSON)";

interface Row {
  readonly name: string;
  /** The original ('' for no file). */
  readonly before?: string;
  /** Why this agent's file cannot hold such an original. */
  readonly skip?: string;
  /** The original does not parse as the agent reads it: setup refuses it. */
  readonly refused?: boolean;
}

/** `value` as the text a person writes: two-space indent, each nested line at `base`. */
const text = (value: unknown, base: string): string => JSON.stringify(value, null, 2).replaceAll('\n', `\n${base}`);

/** The reversed order of an object's keys, nested. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reordered(inner)]),
  );
}

/** The originals, in one agent's shape; `event` is one guard registers, `other` another. */
function rowsFor(shape: Shape, event: string, other: string): Row[] {
  if (shape.kind === 'whole') {
    const not = (name: string): Row => ({ name, skip: WHOLE });
    return [
      { name: 'absent file', before: '' },
      { name: 'whitespace only', before: ' \n' },
      not('{}'),
      not('empty hooks object'),
      not('empty event array'),
      not("a person's own hook in the same event"),
      not('comments'),
      not('CRLF line ends'),
      not('byte order mark'),
      not('no trailing newline'),
      not('tab indentation'),
      not('unusual key order'),
      not('minified'),
      not('trailing comma'),
      not('an empty object of their own'),
      { name: "a person's own file of that name", before: shape.mine, refused: true },
    ];
  }
  const events = (mine: unknown): Record<string, unknown> => ({ [event]: [mine], [other]: [mine] });
  const whole = (map: Record<string, unknown>): Record<string, unknown> => {
    if (shape.kind === 'named') return { mine: map };
    return shape.key === '' ? map : { [shape.beside ?? 'model']: 'x', hooks: map };
  };
  const own = `${text(whole(events(shape.mine)), '')}\n`;
  const flipped = `${text(reordered(whole(events(shape.mine))), '')}\n`;
  const commented = `// my settings\n${own.replace('{\n', '{\n  /* kept by hand */\n').replace(/\n}\n$/, ' // the end\n}\n')}`;
  const named = shape.kind === 'named' ? NAMED : undefined;
  const beside = shape.kind === 'map' ? (shape.beside ?? 'model') : 'model';
  const mapRow = (name: string, before: string): Row =>
    named !== undefined
      ? { name, skip: named }
      : shape.kind === 'map' && shape.key === ''
        ? { name, skip: ROOT_MAP }
        : { name, before };
  return [
    { name: 'absent file', before: '' },
    { name: 'whitespace only', before: ' \n' },
    { name: '{}', before: '{}' },
    { name: '{} and a newline', before: '{}\n' },
    mapRow('empty hooks object', `{"${beside}":"x","hooks":{}}`),
    mapRow('empty hooks object, multi-line', `{\n  "${beside}": "x",\n  "hooks": {}\n}\n`),
    named !== undefined
      ? { name: 'empty event array', skip: named }
      : { name: 'empty event array', before: `${text(whole({ [event]: [] }), '')}\n` },
    { name: "a person's own hook in the same event", before: own },
    { name: 'comments', before: commented, refused: !shape.comments },
    { name: 'CRLF line ends', before: own.replaceAll('\n', '\r\n') },
    { name: 'byte order mark', before: `\uFEFF${own}` },
    { name: 'no trailing newline', before: own.trimEnd() },
    { name: 'tab indentation', before: own.replace(/^( +)/gm, (spaces) => '\t'.repeat(spaces.length / 2)) },
    { name: 'unusual key order', before: flipped },
    { name: 'minified', before: JSON.stringify(whole(events(shape.mine))) },
    shape.comments
      ? { name: 'trailing comma', skip: TRAILING }
      : { name: 'trailing comma', before: own.replace(/\n}\n$/, ',\n}\n'), refused: true },
    shape.kind === 'map' && shape.beside !== undefined
      ? {
          name: 'an empty object of their own',
          skip: `the agent refuses a root key other than "${shape.beside}" and "hooks"`,
        }
      : { name: 'an empty object of their own', before: '{\n  "hooksConfig": {}\n}\n' },
    { name: 'not JSON', before: '{"hooks": {', refused: true },
    { name: 'a list', before: '[]\n', refused: true },
  ];
}

const options = (id: AgentId): InstallOptions => ({
  hookCommand: `"/usr/local/bin/node" "/opt/guard tools/hook-entry.cjs" hook ${id}`,
  failClosed: true,
  fallback: { node: '/usr/local/bin/node', script: '/opt/guard tools/hook-entry.cjs' },
});

const table = AGENT_IDS.flatMap((id) => {
  const adapter = adapters[id];
  const [event = '', other = event] = adapter.capabilities.events;
  return rowsFor(SHAPES[id], event, other).map((row) => ({ id, ...row }));
});

describe('every agent: setup then uninstall gives the original back, byte for byte', () => {
  it('every agent in the registry is in the table, with every row', () => {
    expect(Object.keys(SHAPES).sort()).toEqual([...AGENT_IDS].sort());
    const names = (id: AgentId): string[] => table.filter((row) => row.id === id).map((row) => row.name);
    for (const id of AGENT_IDS) expect(names(id).length, id).toBeGreaterThanOrEqual(15);
  });

  const kept = table.filter((row) => row.skip === undefined && row.refused !== true);
  it.for(kept)('$id: $name', ({ id, before = '' }) => {
    const adapter = adapters[id];
    const after = adapter.install(before, options(id));
    expect(after).not.toBe(before);
    expect(adapter.installedCommands(after).length, 'guard is in').toBeGreaterThan(0);
    expect(adapter.install(after, options(id)), 'setup twice is setup once').toBe(after);
    expect(adapter.uninstall(after, { original: before }), 'the original back').toBe(before);
    // told nothing (no record), uninstall still takes out guard's entries alone
    const blind = adapter.uninstall(after);
    expect(adapter.installedCommands(blind)).toEqual([]);
    if (before.includes('echo mine')) expect(blind).toBe(before);
  });

  // the agent's managed file (`guard setup --system`): what setup writes beside guard's entries
  // there (Gemini CLI's `hooksConfig.enabled`, Qwen Code's `disableAllHooks`) goes, and no more
  it.for(kept)('$id (system): $name', ({ id, before = '' }) => {
    const adapter = adapters[id];
    const system = { ...options(id), system: true } as const;
    const after = adapter.install(before, system);
    expect(adapter.install(after, system), 'setup twice is setup once').toBe(after);
    expect(adapter.uninstall(after, { system: true, original: before }), 'the original back').toBe(before);
  });

  const refused = table.filter((row) => row.refused === true);
  it.for(refused)('$id: $name is refused', ({ id, before = '' }) => {
    expect(() => adapters[id].install(before, options(id))).toThrow(ConfigError);
  });

  const skipped = table.filter((row) => row.skip !== undefined);
  it.for(skipped)('$id: $name cannot be expressed, by a declared reason', ({ skip }) => {
    expect(skip?.length).toBeGreaterThan(40);
  });
});

/** The first list under `event` in a parsed file of this shape. */
function listOf(shape: Shape, doc: JsonNode, event: string): JsonArray {
  const member = (node: JsonNode, key: string): JsonNode => {
    if (node.kind !== 'object') throw new Error(`no object for ${key}`);
    const found = node.members.find((one) => one.key === key);
    if (found === undefined) throw new Error(`no ${key}`);
    return found.value;
  };
  const map = shape.kind === 'map' && shape.key === '' ? doc : member(doc, shape.kind === 'named' ? 'mine' : 'hooks');
  const list = member(map, event);
  if (list.kind !== 'array') throw new Error(`${event} is no list`);
  return list;
}

describe("every agent: a person's hook added after guard's stays, in its place, when guard goes", () => {
  const rows = AGENT_IDS.flatMap((id) => {
    const shape = SHAPES[id];
    const [event = ''] = adapters[id].capabilities.events;
    if (shape.kind === 'whole') return [];
    return rowsFor(shape, event, event)
      .filter((row) => row.before?.includes('echo mine') === true && row.refused !== true)
      .map((row) => ({ id, shape, event, name: row.name, before: row.before as string }));
  });

  it.for(rows)('$id: $name', ({ id, shape, event, before }) => {
    const adapter = adapters[id];
    const comments = shape.kind !== 'whole' && shape.comments;
    const later = { ...shape.mine, later: true } as never;
    const append = (text: string): string =>
      appendElement(text, listOf(shape, parseJson(text, { comments }), event), later, detectStyle(text));
    const edited = append(adapter.install(before, options(id)));
    // the person's later hook is after guard's: uninstall takes guard's out from between theirs
    expect(adapter.uninstall(edited, { original: before })).toBe(append(before));
    expect(adapter.uninstall(edited)).toBe(append(before));
  });
});
