/** One line of an edit script: kept (' '), removed ('-') or added ('+'). */
interface Op {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  /** The line has no newline after it (the file's last line). */
  readonly open: boolean;
}

interface Lines {
  readonly lines: readonly string[];
  /** The last line has no newline after it. */
  readonly open: boolean;
}

function linesOf(text: string): Lines {
  if (text === '') return { lines: [], open: false };
  const lines = text.split('\n');
  const open = lines.at(-1) !== '';
  if (!open) lines.pop();
  return { lines, open };
}

// A table of this many cells is a few MB; larger inputs are shown as one replacement.
const MAX_CELLS = 4_000_000;

/** The shortest edit script from `a` to `b` (longest common subsequence). */
function editScript(a: Lines, b: Lines): Op[] {
  const n = a.lines.length;
  const m = b.lines.length;
  const op = (kind: Op['kind'], from: Lines, index: number): Op => ({
    kind,
    text: from.lines[index] as string,
    open: from.open && index === from.lines.length - 1,
  });
  // Two lines are the same only if they also agree on ending with a newline.
  const same = (i: number, j: number): boolean =>
    a.lines[i] === b.lines[j] && (a.open && i === n - 1) === (b.open && j === m - 1);
  if (n * m > MAX_CELLS) {
    return [...a.lines.map((_, i) => op('-', a, i)), ...b.lines.map((_, j) => op('+', b, j))];
  }
  // common[i][j]: length of the longest common subsequence of a[i..] and b[j..]
  const common = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = common[i] as Uint32Array;
    const next = common[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j -= 1) {
      row[j] = same(i, j) ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(i, j)) {
      ops.push(op(' ', a, i));
      i += 1;
      j += 1;
    } else if (
      j >= m ||
      (i < n && ((common[i + 1] as Uint32Array)[j] as number) >= ((common[i] as Uint32Array)[j + 1] as number))
    ) {
      ops.push(op('-', a, i));
      i += 1;
    } else {
      ops.push(op('+', b, j));
      j += 1;
    }
  }
  return ops;
}

const CONTEXT = 3;

/**
 * A unified diff (as `diff -u` prints it) from `before` to `after`, with three lines of context;
 * '' when the texts are the same.
 */
export function unifiedDiff(before: string, after: string, beforeLabel: string, afterLabel: string): string {
  if (before === after) return '';
  const ops = editScript(linesOf(before), linesOf(after));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  let out = `--- ${beforeLabel}\n+++ ${afterLabel}\n`;
  let start = 0;
  while (start < changed.length) {
    // grow the hunk while the next change is within two contexts of the last one
    let end = start;
    while (end + 1 < changed.length && (changed[end + 1] as number) - (changed[end] as number) <= 2 * CONTEXT) end += 1;
    const from = Math.max(0, (changed[start] as number) - CONTEXT);
    const to = Math.min(ops.length, (changed[end] as number) + CONTEXT + 1);
    const before = ops.slice(0, from);
    const hunk = ops.slice(from, to);
    const oldStart = before.filter((op) => op.kind !== '+').length;
    const newStart = before.filter((op) => op.kind !== '-').length;
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`;
    for (const op of hunk) out += `${op.kind}${op.text}\n${op.open ? '\\ No newline at end of file\n' : ''}`;
    start = end + 1;
  }
  return out;
}

// diff -u numbers lines from 1 and names the line before an empty range.
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
