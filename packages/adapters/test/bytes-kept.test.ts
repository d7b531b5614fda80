import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { InstallOptions } from '../src/adapter.js';
import { adapters, AGENT_IDS } from '../src/index.js';
import type { AgentId } from '../src/index.js';
import { rowsFor, SHAPES } from './originals.js';
import type { Shape } from './originals.js';
import { appendElement, detectStyle, parseJson } from '../src/json-text.js';
import type { JsonArray, JsonNode } from '../src/json-text.js';

/**
 * "Never lose a user's byte": for every agent in the registry and each original a person may have,
 * setup then uninstall (told the original, as the CLI tells it from its backup) gives the original
 * byte for byte; setup twice is setup once; a file that does not parse is refused. A row an agent's
 * file cannot express is skipped by a declared reason.
 */

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
    // while guard is in, every comment of the person's is too
    for (const comment of before.match(/\/\*.*?\*\/|\/\/[^\n]*/g) ?? []) expect(after).toContain(comment);
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
    const { comments } = shape;
    const later = { ...shape.mine, later: true } as never;
    const append = (text: string): string =>
      appendElement(text, listOf(shape, parseJson(text, { comments }), event), later, detectStyle(text));
    const edited = append(adapter.install(before, options(id)));
    // the person's later hook is after guard's: uninstall takes guard's out from between theirs
    expect(adapter.uninstall(edited, { original: before })).toBe(append(before));
    expect(adapter.uninstall(edited)).toBe(append(before));
  });
});
