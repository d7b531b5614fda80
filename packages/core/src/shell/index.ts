// How the reader is put together:
//   mapped.ts      text with the original position of every character (spans survive re-reading)
//   lexer.ts       words, operators, redirections, heredocs and substitutions, with positions
//   walk.ts        lists, pipelines, subshells, groups and compound commands (explicit stack)
//   command.ts     one simple command: assignments, prefixes, the invocation, what it runs in turn,
//                  and what the line writes, copies or links that a later command runs
//   expand.ts      quote joining and variable resolution; scope.ts holds variables and the cwd
//   prefixes.ts    sudo, env, nice, timeout, …; nested.ts: inner shells and runners
//   inline-code.ts commands inside python -c, node -e, ruby -e, perl -e, php -r, deno eval
//   fold.ts        constant strings inline code builds ('.co' + 'dex', base64, path joins) and its file calls
//   printed.ts     what echo, printf, base64 -d, rev and tr print when the line spells it out ($(printf …))
//   dotnet.ts      PowerShell's .NET calls read as the cmdlet that does the same ([IO.File]::Delete(x))
// It knows how shells run things, never which things are risky: that is the rules' business.
import { addOpaque, LIMITS, newReader } from './context.js';
import type { Draft, Frame } from './context.js';
import { identity } from './mapped.js';
import { rootScope } from './scope.js';
import type { Dialect } from './context.js';
import type { Invocation, Opaque, ReadOptions, ReadResult, Via } from './types.js';
import type { Span } from '../types.js';
import { readSource } from './walk.js';
import { POWERSHELL_OPERATOR, runProgramText } from './command.js';
import type { Language } from '../programs/index.js';
import { cmdletOf, namesWith, powershellOnly } from '../programs/index.js';

export type * from './types.js';
/** The reader's hard bounds (nesting depth, characters, words, invocations). */
export { LIMITS as READ_LIMITS } from './context.js';
export { ARG_SEPARATORS } from './nested.js';

/**
 * Reads one command line the way a shell would and returns every invocation in it: what runs,
 * with which arguments, where, and how it was reached. Parts it cannot read are returned as
 * opaque. Never throws; work is linear in the line's length and bounded (see LIMITS).
 */
export function readCommand(line: string, options: ReadOptions): ReadResult {
  if (options.shell !== undefined) return readAs(line, options, options.shell).result;
  const posix = readAs(line, options, 'posix');
  const other = windowsDialect(line);
  if (other === undefined) return posix.result;
  const windows = readAs(line, options, other).result;
  return other === 'powershell' && heredocOperator(windows)
    ? posix.result
    : windowsReading(posix.result, posix.notRun, windows);
}

/**
 * A `<<` the PowerShell reading met outside its quotes (`cat > a.ps1 <<'EOF'`): PowerShell rejects
 * the whole line for it (`<` is reserved there) and runs none of it, so only a POSIX shell runs the
 * line. Not where `--%` hands the rest of a line over as it is.
 */
function heredocOperator(windows: ReadResult): boolean {
  const line = windows.line;
  if (line.includes('--%')) return false;
  const at = (i: number): boolean => line.charCodeAt(i) === 60 && line.charCodeAt(i + 1) === 60;
  for (const o of windows.opaque) if (at(o.span[0])) return true;
  for (const inv of windows.invocations) for (const r of inv.redirects) if (at(r.span[0])) return true;
  return false;
}

function readAs(
  line: string,
  options: ReadOptions,
  dialect: Dialect,
): { result: ReadResult; notRun: Span[] | undefined } {
  const reader = newReader(line, options);
  let text = line;
  if (line.length > LIMITS.chars) {
    text = line.slice(0, LIMITS.chars);
    addOpaque(reader, 'too-long', [LIMITS.chars, line.length], `longer than ${LIMITS.chars} characters`);
  }
  const via: Via[] = [];
  const frame: Frame = { via, depth: 0, dialect };
  readSource(reader, identity(text), frame, rootScope(options.cwd, options.home, options.tmp, options.guardHome));
  const result = {
    line,
    invocations: detached(reader.invocations),
    opaque: [...reader.opaque].sort((a, b) => a.span[0] - b.span[0]),
    ...(reader.assigned.length === 0 ? {} : { assigned: reader.assigned }),
  };
  return { result, notRun: reader.notRun };
}

/**
 * Reads program text in `language` (a script file's) through the reader's inline-code entry, as if
 * it were handed to the interpreter `program` inline (`python3 -c TEXT`): one invocation of
 * `program` carrying the code, and the commands the code runs. Spans index into `text`.
 */
export function readProgramText(text: string, language: Language, program: string, options: ReadOptions): ReadResult {
  const reader = newReader(text, options);
  const code = text.length > LIMITS.chars ? text.slice(0, LIMITS.chars) : text;
  if (code !== text)
    addOpaque(reader, 'too-long', [LIMITS.chars, text.length], `longer than ${LIMITS.chars} characters`);
  const frame: Frame = { via: [], depth: 0, dialect: 'posix' };
  runProgramText(
    reader,
    program,
    language,
    identity(code),
    frame,
    rootScope(options.cwd, options.home, options.tmp, options.guardHome),
  );
  return {
    line: text,
    invocations: detached(reader.invocations),
    opaque: [...reader.opaque],
    ...(reader.assigned.length === 0 ? {} : { assigned: reader.assigned }),
  };
}

// ---------------------------------------------------------------------------------------------
// A line written for PowerShell or cmd.exe but handed over without saying which shell runs it

// PowerShell's approved verbs as agents write them (`Get-ChildItem`, `Remove-Item`): a POSIX
// program is almost never spelt that way. A line may also open with a cmdlet or variable in
// parentheses (`(Get-Content a) -replace …`, `if (Test-Path x) { … }`).
const VERBS =
  'Add|Clear|Compress|ConvertFrom|ConvertTo|Copy|Disable|Enable|Expand|Export|Format|Get|Import|Invoke|Join|Measure|Move|New|Out|Pop|Push|Read|Register|Remove|Rename|Resolve|Restart|Select|Set|Sort|Split|Start|Stop|Test|Unregister|Update|Wait|Where|Write|ForEach';
const CMDLET = new RegExp(`^(?:${VERBS})-[A-Z][A-Za-z]*$`);
const POWERSHELL_LINE = new RegExp(
  `^\\s*(?:(?:${VERBS})-[A-Z][A-Za-z]*(?![\\w-])|(?:(?:if|while|foreach)\\s*)?\\(\\s*(?:[A-Z][a-z]+-[A-Z]|\\$)|\\$(?:env:)?[A-Za-z_][A-Za-z0-9_]*(?:\\s*[-+]?=(?!=)|\\.[A-Za-z])|\\[[A-Za-z][\\w.]*\\]::[A-Za-z]|try\\s*\\{)`,
);
// A pipe into a script block (`gci | % { … }`, `… | Where-Object { … }`): no POSIX program takes one.
const POWERSHELL_PIPE = /\|\s*(?:%|\?|foreach(?:-object)?|where(?:-object)?)\s+\{/i;
// A subexpression reading a property (`"$($PSVersionTable.PSVersion)"`): no POSIX script writes that.
const POWERSHELL_SUBEXPRESSION = /\$\(\$[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z]/;
/** `[Type]::Member` as the POSIX reading takes it: a program name, where PowerShell has an expression. */
const DOTNET_MEMBER = /^\[[A-Za-z][\w.]*\]::[A-Za-z]\w*$/;
// A later `if ($?)`, `if ($LASTEXITCODE -ne 0)`: PowerShell testing how the command before it went.
const POWERSHELL_TEST = /[;\n]\s*(?:if|elseif|while)\s*\(\s*\$/;
// Anywhere in the line: `$env:NAME` (sh reads `$env` and a colon), a .NET type's member, or the
// call operator opening a statement (`& $exe`, `& ([scriptblock]::Create(…))`).
const POWERSHELL_ANYWHERE = /\$env:[A-Za-z_]|\[[A-Za-z][\w.]*\]::[A-Za-z]|(?:^|[;\n{])\s*&\s*[('"$[]/i;
// PowerShell started from a Windows shell with a Windows path (`powershell -File .\\build.ps1`)
const POWERSHELL_RUN = /^\s*(?:powershell|pwsh)(?:\.exe)?\s[^\n]*\\/i;
// cmd.exe's own commands (none of them is a POSIX program), with a `\` path or a `%NAME%`.
const CMD_ONLY = namesWith('cmd-command');
const CMD_LINE = new RegExp(
  `^\\s*(?:${[...CMD_ONLY].join('|')})(?:\\.exe)?\\s[^\\n]*(?:\\\\[^\\s"'\\\\]|%[A-Za-z_][A-Za-z0-9_]*%)`,
  'i',
);

/** Longer lines are read the POSIX way only: a second reading would double their cost. */
const TWO_READINGS_MAX = 4096;

/** The shell a line looks written for, when it is not a POSIX one; only its start is looked at. */
function windowsDialect(line: string): Dialect | undefined {
  if (line.length > TWO_READINGS_MAX) return undefined;
  const head = line.length > 256 ? line.slice(0, 256) : line;
  if (
    POWERSHELL_LINE.test(head) ||
    POWERSHELL_ANYWHERE.test(head) ||
    powershellAlias(head) ||
    POWERSHELL_TEST.test(head) ||
    POWERSHELL_SUBEXPRESSION.test(head) ||
    POWERSHELL_PIPE.test(head)
  )
    return 'powershell';
  if (CMD_LINE.test(head)) return 'cmd';
  if (POWERSHELL_RUN.test(head)) return 'powershell';
  return undefined;
}

/** The line opens with an alias only PowerShell has (`ri`, `gci`, `iwr`, `spps`): no POSIX program is named so. */
function powershellAlias(head: string): boolean {
  const word = /^\s*([A-Za-z]+)(?=\s|$)/.exec(head)?.[1]?.toLowerCase();
  return word !== undefined && powershellOnly(word, cmdletOf(word));
}

/** A program that no POSIX shell runs: a cmdlet, a cmd.exe command, or anything run inside cmd /c. */
function windowsOnly(inv: Invocation): boolean {
  if (CMDLET.test(inv.program) || CMD_ONLY.has(inv.name) || powershellAlias(inv.program)) return true;
  for (let i = 0; i < inv.via.length; i++)
    if (CMD_ONLY.has((inv.via[i] as Via).name.toLowerCase().replace(/\.exe$/, ''))) return true;
  return false;
}

/**
 * The line is read both ways. Every program the POSIX reading finds is kept, so no command can hide
 * behind the other shell's quoting: a program the Windows reading finds too, in the same order,
 * takes the Windows reading only when a POSIX shell could not run it anyway (a cmdlet, a cmd.exe
 * command); the others keep their POSIX reading. What only the Windows reading finds
 * (`ForEach-Object { dotnet build }`) is kept too. Variables and expressions
 * (`$PSVersionTable.Major`, `$x = 1`, `$LASTEXITCODE -ne 0`) are left out of the comparison; a
 * variable run with words after it (`$TOOL --version`) stays as opaque as the POSIX reading says.
 * What the POSIX reading finds inside a `(…)` no POSIX shell runs (`notRun`: `foreach ($f in …)`,
 * `@(1,2)`) is left out as well. When the POSIX reading finds a program the Windows one does not
 * (`@{ a = 1; b = 2 }`), everything the POSIX reading could not read stays unread, but for those
 * variables and expressions.
 */
function windowsReading(posix: ReadResult, notRun: readonly Span[] | undefined, other: ReadResult): ReadResult {
  // from the start of the line where a quote or a substitution opens and never closes, a POSIX
  // shell runs nothing (bash and zsh stop at the end of the text looking for the close)
  let cut = Infinity;
  for (const o of posix.opaque) {
    if (o.reason !== 'unbalanced-quote' && o.reason !== 'unterminated-substitution') continue;
    cut = Math.min(cut, posix.line.lastIndexOf('\n', o.span[0]) + 1);
  }
  const runs = (inv: Invocation): boolean => inv.span[0] < cut && (notRun === undefined || !within(inv.span, notRun));
  // what a POSIX shell would find unfinished (`if (…) { … }` has no `then … fi`) is PowerShell's grammar
  const readable = (o: Opaque): boolean =>
    o.reason !== 'unfinished' && o.span[0] < cut && (notRun === undefined || !within(o.span, notRun));
  // what a program guard does not know may run is guessed in a POSIX line only (`Measure-Command { … }` is not one)
  const a = posix.invocations.filter(
    (inv) => !variable(inv) && !DOTNET_MEMBER.test(inv.program) && runs(inv) && !inv.via.some((v) => v.guessed),
  );
  const b = other.invocations.filter((inv) => !variable(inv));
  // each POSIX program, in order, matched to the next Windows one of the same name
  const match = new Array<Invocation | undefined>(b.length);
  const unmatched: Invocation[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const name = (a[i] as Invocation).name;
    let k = j;
    while (k < b.length && (b[k] as Invocation).name !== name) k++;
    if (k === b.length) unmatched.push(a[i] as Invocation);
    else {
      match[k] = a[i];
      j = k + 1;
    }
  }
  const invocations: Invocation[] = [...unmatched];
  const opaque: Opaque[] = [...other.opaque];
  // the POSIX reading's variables and .NET members run as programs that are PowerShell expressions
  // or assignments (`$x = 1`, `$LASTEXITCODE -ne 0`, `$($v.Name)`, `[IO.Path]::Combine`): the
  // PowerShell reading judges them (a .NET call it does not know stays unread there)
  const expressions: Invocation[] = [];
  const expression = (o: Opaque): boolean =>
    o.reason === 'dynamic-program' && expressions.some((inv) => inv.span[0] === o.span[0]);
  for (const inv of posix.invocations) {
    if (!runs(inv)) continue;
    const first = inv.args[0];
    if (DOTNET_MEMBER.test(inv.program)) expressions.push(inv);
    else if (!variable(inv)) continue;
    else if (first === undefined || /^[-+]?=/.test(first) || POWERSHELL_OPERATOR.test(first)) expressions.push(inv);
  }
  const keepOpaque = (inv: Invocation): void => {
    for (const o of posix.opaque) {
      if (o.span[0] >= inv.span[0] && o.span[1] <= inv.span[1] && readable(o) && !opaque.includes(o) && !expression(o))
        opaque.push(o);
    }
  };
  for (const inv of other.invocations) if (variable(inv)) invocations.push(inv);
  for (const inv of posix.invocations) if (variable(inv) && runs(inv) && !expressions.includes(inv)) keepOpaque(inv);
  for (let k = 0; k < b.length; k++) {
    const windows = b[k] as Invocation;
    const kept = match[k];
    if (kept === undefined || windowsOnly(windows)) {
      invocations.push(windows);
      continue;
    }
    invocations.push(kept);
    keepOpaque(kept);
    // the words differ between the two shells (`-File C:\x\a.ps1`, where sh drops the
    // backslashes): both readings are judged, so the stricter one counts
    if (!sameWords(kept, windows)) invocations.push(windows);
  }
  if (unmatched.length > 0) {
    for (const o of posix.opaque) {
      if (opaque.includes(o) || !readable(o) || expression(o)) continue;
      opaque.push(o);
    }
  }
  invocations.sort((x, y) => x.span[0] - y.span[0]);
  opaque.sort((x, y) => x.span[0] - y.span[0]);
  // a POSIX shell's `X=1` (PowerShell's `$env:X = 1` is an invocation of its own)
  const assigned = posix.assigned?.filter((set) => set.span[0] < cut);
  return { line: posix.line, invocations, opaque, ...(assigned?.length ? { assigned } : {}) };
}

function sameWords(a: Invocation, b: Invocation): boolean {
  if (a.program !== b.program || a.args.length !== b.args.length) return false;
  for (let i = 0; i < a.args.length; i++) if (a.args[i] !== b.args[i]) return false;
  return true;
}

/** A program named by a variable (`$x`, `$env:TOOL`). */
const variable = (inv: Invocation): boolean => inv.program.charCodeAt(0) === 36;

/** The span lies inside one of the spans. */
function within(span: Span, spans: readonly Span[]): boolean {
  for (let i = 0; i < spans.length; i++) {
    const outer = spans[i] as Span;
    if (span[0] >= outer[0] && span[1] <= outer[1]) return true;
  }
  return false;
}

// Every invocation gets a pipeline object of its own (stages of one pipeline share one while the
// reader counts them); the drafts are not used after the read, so they are handed out as they are.
function detached(drafts: Draft[]): Draft[] {
  for (let d = 0; d < drafts.length; d++) {
    const draft = drafts[d] as Draft;
    draft.pipeline = { id: draft.pipeline.id, index: draft.pipeline.index, length: draft.pipeline.length };
  }
  return drafts;
}
