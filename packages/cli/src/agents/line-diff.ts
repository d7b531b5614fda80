import { structuredPatch, type StructuredPatchHunk } from 'diff';

const CONTEXT = 3;
// Past this many changed lines the diff is shown as one replacement: finding the shortest edit
// between two large, very different texts costs seconds (3000 lines each: about three).
const MAX_EDITS = 1000;
const NO_NEWLINE = '\\ No newline at end of file';

/**
 * A unified diff (as `diff -u` prints it) from `before` to `after`, with three lines of context;
 * '' when the texts are the same. The labels are printed as they are, even with spaces or letters
 * outside ASCII (`diff -u` would quote and escape them).
 */
export function unifiedDiff(before: string, after: string, beforeLabel: string, afterLabel: string): string {
  if (before === after) return '';
  const patch = structuredPatch(beforeLabel, afterLabel, before, after, undefined, undefined, {
    context: CONTEXT,
    maxEditLength: MAX_EDITS,
  });
  const hunks = patch?.hunks ?? [replacement(before, after)];
  let out = `--- ${beforeLabel}\n+++ ${afterLabel}\n`;
  for (const hunk of hunks) {
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

/** Every line of `before` removed and every line of `after` added, in one hunk. */
function replacement(before: string, after: string): StructuredPatchHunk {
  const removed = linesOf(before, '-');
  const added = linesOf(after, '+');
  return {
    oldStart: 1,
    oldLines: removed.count,
    newStart: 1,
    newLines: added.count,
    lines: [...removed.lines, ...added.lines],
  };
}

function linesOf(text: string, mark: string): { lines: string[]; count: number } {
  if (text === '') return { lines: [], count: 0 };
  const lines = text.split('\n');
  const open = lines.at(-1) !== '';
  if (!open) lines.pop();
  const marked = lines.map((line) => `${mark}${line}`);
  return { lines: open ? [...marked, NO_NEWLINE] : marked, count: lines.length };
}

// diff -u leaves out a count of 1, and names the line before an empty range (jsdiff writes `1,1`).
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
