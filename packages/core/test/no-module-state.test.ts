import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// core keeps nothing between calls: no module-level `let`/`var`, and no WeakMap/WeakSet caches
// (a value worked out once per step lives on the step's context: see context/build.ts).

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

describe('core has no module-level mutable state', () => {
  it('reads every source file', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((file) => file.path === join('shell', 'expand.ts'))).toBe(true);
  });

  it('declares no module-level let or var', () => {
    const found = files.flatMap((file) =>
      file.text
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => /^(?:export\s+)?(?:let|var)\s/.test(line))
        .map(({ index }) => `${file.path}:${index + 1}`),
    );
    expect(found).toEqual([]);
  });

  it('keeps no WeakMap or WeakSet', () => {
    expect(files.filter((file) => /\bWeak(?:Map|Set)\b/.test(file.text)).map((file) => file.path)).toEqual([]);
  });

  it('the check sees a module-level let when there is one', () => {
    expect(/^(?:export\s+)?(?:let|var)\s/.test('let lastFolders = undefined;')).toBe(true);
    expect(/^(?:export\s+)?(?:let|var)\s/.test('  let local = 1;')).toBe(false);
  });
});
