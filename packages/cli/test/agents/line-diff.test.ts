import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/agents/line-diff.js';

const dir = mkdtempSync(join(tmpdir(), 'guard-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What a unified diff of the same two texts is, by git (`diff -u` is not on every machine): Myers'
 * algorithm and three lines of context as `diff -u` has them, whatever the person's git config says,
 * with git's header lines swapped for ours.
 */
function systemDiff(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  const args = ['diff', '--no-index', '--no-color', '--no-ext-diff', '--diff-algorithm=myers', '-U3', 'a', 'b'];
  let out: string;
  try {
    out = execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull },
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  // git names the enclosing "function" after a hunk's line numbers; diff -u does not
  return out.replace(/^[^]*?--- .*\n\+\+\+ .*\n/, '--- a\n+++ b\n').replace(/^(@@ [^@]+ @@).+$/gm, '$1');
}

const lines = (count: number, prefix = 'line'): string =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');

describe('unifiedDiff agrees with a unified diff as git writes it (the format of diff -u)', () => {
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

describe('unifiedDiff (on the diff package) prints what diff -u prints', () => {
  it.for([
    {
      name: 'a one-line file changed: counts of 1 are left out',
      before: 'x\n',
      after: 'y\n',
      want: '@@ -1 +1 @@\n-x\n+y\n',
    },
    { name: 'a line added to a one-line file', before: 'x\n', after: 'x\ny\n', want: '@@ -1 +1,2 @@\n x\n+y\n' },
    { name: 'a line removed from a two-line file', before: 'a\nb\n', after: 'b\n', want: '@@ -1,2 +1 @@\n-a\n b\n' },
    {
      name: 'CRLF lines keep their \\r',
      before: 'a\r\nb\r\n',
      after: 'a\r\nc\r\n',
      want: '@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n',
    },
  ])('$name', ({ before, after, want }) => {
    expect(unifiedDiff(before, after, 'a', 'b')).toBe(`--- a\n+++ b\n${want}`);
  });

  it('labels are printed as they are: spaces and letters outside ASCII stay readable', () => {
    const file = '/Users/Zoë Ana/.codex/hooks.json';
    expect(unifiedDiff('', '{}\n', '/dev/null', file)).toBe(`--- /dev/null\n+++ ${file}\n@@ -0,0 +1 @@\n+{}\n`);
  });

  it('a small change in a large file is still a small hunk', () => {
    const diff = unifiedDiff(lines(5000), lines(5000).replace('line 2500\n', 'changed\n'), 'a', 'b');
    expect(diff).toBe(
      '--- a\n+++ b\n@@ -2497,7 +2497,7 @@\n line 2497\n line 2498\n line 2499\n-line 2500\n+changed\n line 2501\n line 2502\n line 2503\n',
    );
  });

  it('the replacement of a very large change keeps "No newline at end of file" marks', () => {
    const diff = unifiedDiff(`${lines(1200, 'old')}tail`, lines(1200, 'new'), 'a', 'b');
    expect(diff.startsWith('--- a\n+++ b\n@@ -1,1201 +1,1200 @@\n-old 1\n')).toBe(true);
    expect(diff).toContain('\n-tail\n\\ No newline at end of file\n+new 1\n');
    expect(diff.endsWith('+new 1200\n')).toBe(true);
  });
});
