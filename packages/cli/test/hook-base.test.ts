import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The hook's CommonJS scripts (cli/src/*.cts) share one base module, hook-base.cts, which requires
// none of them: their require graph has no circle (the client and the loader once required each
// other, and the order their exports were set in cost a fix).

const SRC = new URL('../src/', import.meta.url);

/** The scripts of ours a CommonJS script requires at run time (type-only imports load nothing). */
function requiresOf(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*import type\b/.test(line))
    .join('\n');
  return [...code.matchAll(/\brequire\(\s*'\.\/([\w.-]+)\.cjs'\s*\)/g)].map((match) => match[1] ?? '');
}

/** A circle in a require graph, as the names along it, or undefined. */
function circleIn(graph: Readonly<Record<string, readonly string[]>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (name: string, path: readonly string[]): string[] | undefined => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return undefined;
    for (const next of graph[name] ?? []) {
      const circle = visit(next, [...path, name]);
      if (circle !== undefined) return circle;
    }
    done.add(name);
    return undefined;
  };
  for (const name of Object.keys(graph)) {
    const circle = visit(name, []);
    if (circle !== undefined) return circle;
  }
  return undefined;
}

const graph: Record<string, string[]> = Object.fromEntries(
  readdirSync(SRC)
    .filter((file) => file.endsWith('.cts'))
    .map((file) => [file.replace(/\.cts$/, ''), requiresOf(readFileSync(new URL(file, SRC), 'utf8')).sort()]),
);

describe("the hook's CommonJS scripts", () => {
  it('require one another as a tree over the base module, which requires none of them', () => {
    expect(graph).toEqual({
      'cli-load': ['hook-base'],
      'hook-base': [],
      'hook-entry': ['hook-base', 'hook-load'],
      'hook-load': ['hook-base'],
      'hook-server': ['hook-base', 'hook-load'],
      // types only: nothing to load
      'hook-wire': [],
    });
    expect(circleIn(graph)).toBeUndefined();
  });

  it.for([
    { name: 'a require', text: "import base = require('./hook-base.cjs');", found: ['hook-base'] },
    {
      name: 'a require in code',
      text: "const load = require('./hook-load.cjs') as typeof import('./hook-load.cjs');",
      found: ['hook-load'],
    },
    { name: 'a type-only require', text: "import type vm = require('./hook-base.cjs');", found: [] },
    { name: 'a type-only import', text: "import type { Frame } from './hook-wire.cjs';", found: [] },
    { name: "Node's own", text: "import fs = require('node:fs');", found: [] },
  ])('requiresOf reads $name', ({ text, found }) => {
    expect(requiresOf(text)).toEqual(found);
  });

  it.for([
    { name: 'two that require each other', graph: { a: ['b'], b: ['a'] }, circle: ['a', 'b', 'a'] },
    { name: 'one that requires itself', graph: { a: ['a'] }, circle: ['a', 'a'] },
    { name: 'a longer circle', graph: { a: ['b'], b: ['c'], c: ['a'] }, circle: ['a', 'b', 'c', 'a'] },
    { name: 'two that share a base', graph: { a: ['b', 'c'], b: ['c'], c: [] }, circle: undefined },
  ])('circleIn finds $circle in $name', ({ graph: given, circle }) => {
    expect(circleIn(given)).toEqual(circle);
  });
});
