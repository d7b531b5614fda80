import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'guard-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `diff -u` prints for the same two texts, with its own header lines swapped for ours. */
function systemDiff(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  let out: string;
  try {
    out = execFileSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  return out.replace(/^--- .*\n\+\+\+ .*\n/, '--- a\n+++ b\n');
}

const lines = (count: number, prefix = 'line'): string =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');

describe('unifiedDiff agrees with diff -u', () => {
  it.for([
    { name: 'one line changed in the middle', before: lines(20), after: lines(20).replace('line 10\n', 'line ten\n') },
    { name: 'lines added at the end', before: lines(5), after: `${lines(5)}new 1\nnew 2\n` },
    { name: 'lines added at the start', before: lines(5), after: `new\n${lines(5)}` },
    {
      name: 'two changes far apart: two hunks',
      before: lines(30),
      after: lines(30).replace('line 2\n', 'two\n').replace('line 28\n', 'twenty-eight\n'),
    },
    {
      name: 'two changes close together: one hunk',
      before: lines(30),
      after: lines(30).replace('line 10\n', 'ten\n').replace('line 15\n', 'fifteen\n'),
    },
    { name: 'from nothing', before: '', after: lines(3) },
    { name: 'to nothing', before: lines(3), after: '' },
    { name: 'no newline at the end, before', before: 'a\nb', after: 'a\nb\nc\n' },
    { name: 'no newline at the end, after', before: 'a\nb\n', after: 'a\nc' },
    { name: 'only the final newline differs', before: '{}\n', after: '{}' },
    {
      name: 'a JSON member gains a comma and guard adds a key',
      before: '{\n  "version": 1,\n  "hooks": {\n    "stop": []\n  }\n}\n',
      after:
        '{\n  "version": 1,\n  "hooks": {\n    "stop": [],\n    "preToolUse": [\n      { "command": "x" }\n    ]\n  }\n}\n',
    },
  ])('$name', ({ before, after }) => {
    expect(unifiedDiff(before, after, 'a', 'b')).toBe(systemDiff(before, after));
  });

  it('the same text gives no diff at all', () => {
    expect(unifiedDiff(lines(4), lines(4), 'a', 'b')).toBe('');
  });

  it('a very large change still answers (as one replacement)', () => {
    const before = lines(3000, 'old');
    const after = lines(3000, 'new');
    const diff = unifiedDiff(before, after, 'a', 'b');
    expect(diff.startsWith('--- a\n+++ b\n@@ -1,3000 +1,3000 @@\n-old 1\n')).toBe(true);
    expect(diff.split('\n').filter((line) => line.startsWith('+new'))).toHaveLength(3000);
  });
});
