/**
 * Reads `apply_patch` text (the patch an agent's edit tool sends) into the files it adds, changes, moves and deletes, with the
 * lines it adds, so each file can be judged like a write. Lenient: a broken patch still lists the
 * files that could be read, and says it is malformed.
 */

export interface PatchFile {
  readonly op: 'add' | 'update' | 'delete';
  /** As written in the header (relative paths are relative to the step's cwd). */
  readonly path: string;
  /** `*** Move to:` target (of an update; also reported where it is misplaced). */
  readonly moveTo?: string;
  /** The `+` lines without their `+`, each ending in a newline. */
  readonly added: string;
  /** `[start, end)` of the path in the header line. */
  readonly span: readonly [number, number];
  /** `[start, end)` of the move target, when there is one. */
  readonly moveToSpan?: readonly [number, number];
}

export interface ParsedPatch {
  readonly files: readonly PatchFile[];
  /** Missing `*** Begin Patch`/`*** End Patch`, a line that fits nowhere, or an empty path. */
  readonly malformed: boolean;
}

interface Draft {
  op: PatchFile['op'];
  path: string;
  span: readonly [number, number];
  moveTo?: string;
  moveToSpan?: readonly [number, number];
  added: string[];
  hunkLines: number;
}

const HEADERS: readonly (readonly [string, PatchFile['op']])[] = [
  ['*** Add File:', 'add'],
  ['*** Update File:', 'update'],
  ['*** Delete File:', 'delete'],
];
// `apply_patch <<'EOF'` (or `<<EOF`, `<<"EOF"`, `<<-EOF`): the patch may also come in a heredoc.
const HEREDOC = /^\s*(?:apply_patch|applypatch)\s+<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/;

/** Splits an `apply_patch` text into per-file operations. */
export function parsePatch(text: string): ParsedPatch {
  const files: PatchFile[] = [];
  let malformed = false;
  let begun = false;
  let ended = false;
  let terminator: string | undefined;
  let current: Draft | undefined;

  const close = (): void => {
    if (current === undefined) return;
    const { op, path, span, moveTo, moveToSpan, added } = current;
    if (path === '') malformed = true;
    else {
      files.push({
        op,
        path,
        ...(moveTo !== undefined && { moveTo }),
        added: added.length > 0 ? `${added.join('\n')}\n` : '',
        span,
        ...(moveToSpan !== undefined && { moveToSpan }),
      });
    }
    current = undefined;
  };

  let start = 0;
  let first = true;
  while (start <= text.length && !ended) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
    const lineStart = start;
    start = end + 1;
    if (newline < 0 && line === '') break;

    const trimmed = line.trim();
    if (first && trimmed !== '') {
      first = false;
      const heredoc = HEREDOC.exec(line);
      if (heredoc) {
        terminator = heredoc[2];
        continue;
      }
    }
    if (terminator !== undefined && trimmed === terminator) break;

    if (trimmed === '*** Begin Patch') {
      if (begun || current !== undefined) malformed = true;
      begun = true;
      continue;
    }
    if (trimmed === '*** End Patch') {
      ended = true;
      continue;
    }
    const header = HEADERS.find(([prefix]) => line.startsWith(prefix));
    if (header !== undefined) {
      close();
      const [prefix, op] = header;
      const { value, span } = pathAfter(line, prefix.length, lineStart);
      current = { op, path: value, span, added: [], hunkLines: 0 };
      continue;
    }
    if (line.startsWith('*** Move to:')) {
      if (current?.op !== 'update' || current.moveTo !== undefined || current.hunkLines > 0) malformed = true;
      if (current !== undefined) {
        const { value, span } = pathAfter(line, '*** Move to:'.length, lineStart);
        if (value === '') malformed = true;
        else {
          current.moveTo = value;
          current.moveToSpan = span;
        }
      }
      continue;
    }
    if (current === undefined) {
      if (trimmed !== '') malformed = true;
      continue;
    }
    if (!readBodyLine(current, line)) malformed = true;
  }
  close();
  if (!begun || !ended || hasTrailingText(text.slice(start), terminator)) malformed = true;
  return { files, malformed };
}

// Anything after `*** End Patch` other than blank lines and the heredoc's closing word.
function hasTrailingText(rest: string, terminator: string | undefined): boolean {
  return rest.split('\n').some((line) => {
    const t = line.trim();
    return t !== '' && t !== terminator;
  });
}

// The path after a header prefix, trimmed, with its span in the whole text.
function pathAfter(line: string, from: number, lineStart: number): { value: string; span: readonly [number, number] } {
  const rest = line.slice(from);
  const lead = rest.length - rest.trimStart().length;
  const value = rest.trim();
  const start = lineStart + from + lead;
  return { value, span: [start, start + value.length] };
}

// One line inside a file section; false when it does not belong there.
function readBodyLine(file: Draft, line: string): boolean {
  if (file.op === 'delete') return line.trim() === '';
  if (file.op === 'add') {
    if (line.startsWith('+')) {
      file.added.push(line.slice(1));
      return true;
    }
    return line === '';
  }
  file.hunkLines++;
  if (line.startsWith('+')) {
    file.added.push(line.slice(1));
    return true;
  }
  // hunk headers, context, removals, the end-of-file marker, and blank context lines
  return (
    line.startsWith('@@') ||
    line.startsWith(' ') ||
    line.startsWith('-') ||
    line === '' ||
    line.trim() === '*** End of File'
  );
}
