import { powershellList, runSimple } from './command.js';
import { addOpaque, innerFrame, LIMITS } from './context.js';
import type { Frame, Reader } from './context.js';
import type { Via } from './types.js';
import type { Span } from '../types.js';
import type { Mapped } from './mapped.js';
import { lex } from './lexer.js';
import { joinMapped, sliceMapped, spanEnd, spanOf } from './mapped.js';
import { expandSingle, expandWord } from './expand.js';
import type { Word } from './expand.js';
import { childScope, setFunction, setLoopVar, setVar } from './scope.js';
import type { FunctionDef, Scope } from './scope.js';
import { plainText } from './tokens.js';
import type { Part, RedirToken, Token, WordToken } from './tokens.js';

/** Reads a piece of text as commands (the whole line, or an inner string) into the reader's results. */
export function readSource(reader: Reader, src: Mapped, frame: Frame, scope: Scope): void {
  // past the invocation cap nothing more is kept: the text is not even lexed
  if (reader.full) return;
  walk(reader, lex(reader, src, frame.depth, frame.dialect), frame, scope);
}

/** Reads the commands of every substitution in these parts (`$(…)`, backticks, `<(…)`), once each. */
export function readSubstitutions(reader: Reader, parts: readonly Part[], frame: Frame, scope: Scope): void {
  // this runs for every word: an index loop (docs/performance.md, "Index loops, not for-of")
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    if (part.kind === 'var' && part.alt) readSubstitutions(reader, part.alt, frame, scope);
    if (part.kind === 'raw' && part.inner) readSubstitutions(reader, part.inner, frame, scope);
    if (part.kind !== 'sub' || part.seen) continue;
    const kind = part.open === '<(' || part.open === '>(' ? 'process-substitution' : 'substitution';
    const inner = innerFrame(frame, [...frame.via, { kind, name: part.open }], part.depth, part.dialect);
    const printed = walk(reader, part.tokens, inner, childScope(scope, false));
    if (printed !== undefined && part.open !== '>(') scope.printed.set(part, withoutTrailingNewlines(printed));
  }
}

/**
 * The process substitutions `>(…)` in these parts read again, fed `text`: what the command writes
 * to them (`… | tee >(bash)`, `echo … > >(sh)`), when the reader knows it.
 */
export function readFed(reader: Reader, parts: readonly Part[], frame: Frame, scope: Scope, text: Mapped): void {
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    if (part.kind !== 'sub' || part.open !== '>(') continue;
    const inner = innerFrame(
      frame,
      [...frame.via, { kind: 'process-substitution', name: '>(' }],
      part.depth,
      part.dialect,
    );
    walk(reader, part.tokens, inner, childScope(scope, false), text);
  }
}

/** `$(…)` drops the new lines at the end of what it prints. */
function withoutTrailingNewlines(text: Mapped): Mapped {
  let end = text.text.length;
  while (end > 0 && text.text.charCodeAt(end - 1) === 10) end--;
  return end === text.text.length ? text : sliceMapped(text, 0, end);
}

/** Substitutions anywhere in a redirection: its target, or an unquoted heredoc body. */
export function readRedirSubstitutions(reader: Reader, redir: RedirToken, frame: Frame, scope: Scope): void {
  if (redir.target) readSubstitutions(reader, redir.target.parts, frame, scope);
  if (redir.heredoc?.parts) readSubstitutions(reader, redir.heredoc.parts, frame, scope);
}

type Mode = 'command' | 'list' | 'case-word' | 'pattern' | 'test' | 'name';

interface Group {
  readonly kind: '(' | '{' | 'case';
  /** Where it opens, in the original text. */
  readonly start: number;
  readonly scope: Scope;
  readonly frame: Frame;
  readonly pipe: Pipe;
  readonly mode: Mode;
  readonly base: Base | undefined;
  /** Where a `(…)` no POSIX shell runs opens (see Reader.notRun), in the original text. */
  readonly notRun?: number;
  /** What its pipelines print, while the reader knows all of it (`(echo …) | sh`). */
  printed: Mapped[] | undefined;
}

/**
 * The pipeline stage a subshell or group sits in (`curl … | (bash)`, `ps | (grep x) | xargs kill`):
 * every pipeline inside it reads that stage's input, so its commands are that stage of the outer
 * pipeline, and the stages after the group follow on from them.
 */
interface Base {
  readonly pipe: Pipe;
  readonly index: number;
}

interface Pipe {
  id: number;
  index: number;
  readonly stages: { id: number; index: number; length: number }[];
  /** What the previous stage prints when the reader knows it (`echo …`, a heredoc to `cat`). */
  stdout: Mapped | undefined;
}

const newPipe = (): Pipe => {
  // the list apart from the object: a literal nested in a literal takes a runtime call
  const stages: Pipe['stages'] = [];
  return { id: -1, index: 0, stages, stdout: undefined };
};

/** True when `token` opens a subshell or a group (`time ( … )` times the group, not a program). */
function opensGroup(token: Token | undefined): boolean {
  if (token?.kind === 'op') return token.op === '(' || token.op === '{';
  return token?.kind === 'word' && plainText(token) === '{';
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A loop takes at most this many words; a longer list leaves its variable unresolved. */
const LOOP_WORDS = 64;
/** How many words all uses of one loop variable may expand to, together. */
const LOOP_BUDGET = 256;

/** An unquoted brace character in the word. */
function hasBrace(token: WordToken): boolean {
  for (let p = 0; p < token.parts.length; p++) {
    const part = token.parts[p] as Part;
    if (part.kind === 'lit' && !part.quoted && part.text.text.includes('{')) return true;
  }
  return false;
}

/** `for NAME in words`: the name ('' when the header is not one the reader follows) and the words. */
interface LoopHeader {
  name: string | undefined;
  words: string[] | undefined;
  known: boolean;
}

/** One more word of a `for` header: the name, `in`, or a word of the list. */
function loopWord(loop: LoopHeader, token: WordToken, text: string | undefined, scope: Scope): void {
  if (loop.name === undefined) {
    loop.name = text !== undefined && VAR_NAME.test(text) ? text : '';
    return;
  }
  if (loop.name === '') return;
  if (loop.words === undefined) {
    if (text === 'in') loop.words = [];
    else loop.name = '';
    return;
  }
  if (!loop.known) return;
  // brace lists name words the reader does not list; a glob stands for the files it picks, as one
  // word (`for f in ~/.x/*; do rm "$f"; done` removes what `rm ~/.x/*` does)
  if (hasBrace(token)) {
    loop.known = false;
    return;
  }
  const words = expandWord(token, scope);
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as Word;
    if (word.dynamic || loop.words.length >= LOOP_WORDS) {
      loop.known = false;
      return;
    }
    loop.words.push(word.text);
  }
}

/** The header is read: its variable takes each word in turn, or an unknown value. */
function endLoop(loop: LoopHeader, scope: Scope): void {
  if (!loop.name) return;
  // one word (a glob, often): the variable is that word everywhere, in redirections too
  if (loop.words !== undefined && loop.known && loop.words.length === 1) setVar(scope, loop.name, loop.words[0]);
  else if (loop.words !== undefined && loop.known && loop.words.length > 0)
    setLoopVar(scope, loop.name, loop.words, LOOP_BUDGET);
  else setVar(scope, loop.name, undefined);
}

/**
 * A `(` after the words of a simple command (`foreach ($f in $files)`, `$a = @(1,2)`): bash
 * rejects the line, zsh and bash's extglob read a pattern, so what the group holds runs in no
 * POSIX shell. Its start in the original text, for the line's own text only (not inner strings);
 * undefined where a shell does run the group (`repeat 3 (…)`, `coproc NAME (…)` in zsh and bash).
 */
function notRunStart(words: readonly WordToken[], token: Token, frame: Frame): number | undefined {
  if (frame.dialect !== 'posix') return undefined;
  for (let v = 0; v < frame.via.length; v++) if ((frame.via[v] as Via).kind !== 'subshell') return undefined;
  // keywords are known before any expansion: a head that is not plain text is none of them
  const head = plainText(words[0] as WordToken);
  if (head !== undefined && GROUP_RUNNERS.has(head)) return undefined;
  return spanOf(token.src, token.start, token.end)[0];
}
const GROUP_RUNNERS = new Set([
  'repeat',
  'coproc',
  'function',
  'exec',
  'command',
  'builtin',
  'noglob',
  'nocorrect',
  'time',
]);

/**
 * `word(qualifiers)` written without a blank (`*(.)`, `*(om[1])`, `*(e:'rm x':)`, `*(+check)`):
 * zsh reads the parentheses as glob qualifiers, and the `e` and `+` qualifiers (also after `o`/`O`)
 * run shell code for each file. That code is read as commands; the group is not read as a subshell.
 * Returns the index of the closing `)`, or undefined when the group is not a qualifier list (it
 * is then read as before).
 */
function globQualifiers(
  reader: Reader,
  tokens: readonly Token[],
  t: number,
  word: WordToken,
  frame: Frame,
  scope: Scope,
): number | undefined {
  if (frame.dialect !== 'posix') return undefined;
  const open = tokens[t] as Token;
  if (open.src !== word.src || word.end !== open.start) return undefined;
  // the words up to `)` (zsh takes `*(e{rm -rf x})` with its blanks as one qualifier list)
  const inner: WordToken[] = [];
  let close = t + 1;
  for (; close < tokens.length && inner.length < 16; close++) {
    const token = tokens[close] as Token;
    if (token.kind !== 'word') break;
    inner.push(token);
  }
  const end = tokens[close];
  const first = inner[0];
  if (first === undefined || first.start !== open.end) return undefined;
  // more words than a qualifier list is read for: whatever code it runs is not read, so the line
  // cannot be judged in full (the group is then read as before, beside this)
  if (end?.kind === 'word') {
    if (/^[^:\s]*?(?:e[^\w\s]|\+[A-Za-z_])/.test(joinMapped([expandSingle(first, scope).map]).text))
      addOpaque(
        reader,
        'too-long',
        spanOf(open.src, open.start, end.end),
        'a zsh glob qualifier list too long to read',
      );
    return undefined;
  }
  if (end?.kind !== 'op' || end.op !== ')') return undefined;
  const words = inner.map((token) => expandSingle(token, scope));
  const text = joinMapped(words.map((w) => w.map));
  const code = qualifierCode(text.text);
  if (code === undefined) return undefined;
  for (const token of inner) readSubstitutions(reader, token.parts, frame, scope);
  const span = spanOf(text, 0, text.text.length);
  for (const [start, end] of code) {
    if (frame.depth + 1 > LIMITS.depth) {
      addOpaque(reader, 'too-deep', span);
      break;
    }
    const via: Via = { kind: 'shell-c', name: 'zsh' };
    readSource(
      reader,
      sliceMapped(text, start, end),
      innerFrame(frame, [...frame.via, via], frame.depth + 1, 'posix'),
      childScope(scope, true),
    );
  }
  return close;
}

const DELIMITERS: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')', '<': '>' };

/** `:x:`, `{x}`, `[x]`: the text between a delimiter at `at` and its closing one. */
function delimited(q: string, at: number): { start: number; end: number } | undefined {
  const open = q[at];
  if (open === undefined || /[\w\s]/.test(open)) return undefined;
  const end = q.indexOf(DELIMITERS[open] ?? open, at + 1);
  return end < 0 ? undefined : { start: at + 1, end };
}

/**
 * The code a zsh glob qualifier list runs, as `[start, end)` pieces of `q` (`e:code:`, `e{code}`,
 * `+name`, `oe:code:`), or undefined when `q` is not a qualifier list (`(a|b)`, `(cd x)`).
 * One pass; every skip moves forward.
 */
export function qualifierCode(q: string): [number, number][] | undefined {
  if (q.length === 0) return undefined;
  const out: [number, number][] = [];
  const digits = (i: number): number => {
    let j = i;
    while (j < q.length && q.charCodeAt(j) >= 48 && q.charCodeAt(j) <= 57) j++;
    return j;
  };
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (c === ':') return out; // modifiers (`:t`, `:s/a/b/`) follow: they run nothing
    if ('/.@=p*^-rwxAIERWXsStNDnMTUGF,'.includes(c)) i++;
    else if (c === '%') i += q[i + 1] === 'b' || q[i + 1] === 'c' ? 2 : 1;
    else if (c === 'e' || c === '+') {
      const name = c === '+' ? /^[A-Za-z_][\w-]*/.exec(q.slice(i + 1, i + 257)) : null;
      const piece = name ? { start: i + 1, end: i + 1 + name[0].length } : delimited(q, i + 1);
      if (piece === undefined) return undefined;
      out.push([piece.start, piece.end]);
      i = name ? piece.end : piece.end + 1;
    } else if (c === 'o' || c === 'O') {
      const k = q[i + 1] ?? '';
      if (k === 'e' || k === '+') i++;
      else if (k !== '' && 'nLlamcdN'.includes(k)) i += 2;
      else return undefined;
    } else if (c === 'f' || c === 'u' || c === 'g' || c === 'P') {
      const j = digits(i + 1);
      if (j > i + 1 && c !== 'P') i = j;
      else {
        const piece = delimited(q, i + 1);
        if (piece === undefined) return undefined;
        i = piece.end + 1;
      }
    } else if (c === 'a' || c === 'm' || c === 'c' || c === 'L' || c === 'l' || c === 'd' || c === 'Y') {
      let j = i + 1;
      if ('amcL'.includes(c) && /[Mwhdmskp]/.test(q[j] ?? '')) j++;
      if (/[-+]/.test(q[j] ?? '')) j++;
      const end = digits(j);
      if (end === j) return undefined;
      i = end;
    } else if (c === '[') {
      const end = q.indexOf(']', i);
      if (end < 0 || !/^\[-?\d+(?:,-?\d+)?\]$/.test(q.slice(i, end + 1))) return undefined;
      i = end + 1;
    } else return undefined;
  }
  return out;
}

/** Words that are shell structure in command position, not programs. */
const STRUCTURE = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '!', 'coproc']);

/** Operators after which a POSIX shell needs another command. */
const AND_OR = new Set(['&&', '||', '|', '|&']);
const CLOSERS: Readonly<Record<Group['kind'], string>> = { '(': 'a `)`', '{': 'a `}`', case: 'an `esac`' };
const OPENERS: Readonly<Record<Group['kind'], string>> = { '(': 'a `(`', '{': 'a `{`', case: 'a `case`' };

/**
 * The compound commands a text opens and closes, as far as a POSIX shell needs them closed:
 * `then … fi` and `do … done` counted (PowerShell's `if (…) {…}` and `do {…}` have no `then` and
 * no `done`, and such lines are read both ways: see ../shell/index.ts), a closer with nothing open,
 * and an operator left with nothing after it.
 */
interface Shape {
  ifs: number;
  loops: number;
  /** The first `then` or `do` whose `fi` or `done` has not come. */
  open: Token | undefined;
  /** The first closer with nothing open (`fi`, `done`, `)`, `}`, `esac`), as the reason names it. */
  stray: string | undefined;
  /** `&&`, `||` or `|` with no command after it yet. */
  after: Token | undefined;
}

const newShape = (): Shape => ({ ifs: 0, loops: 0, open: undefined, stray: undefined, after: undefined });

function keyword(shape: Shape, text: string, token: Token): void {
  if (text === 'then' || text === 'do') {
    if (text === 'then') shape.ifs++;
    else shape.loops++;
    shape.open ??= token;
  } else if (text === 'elif') {
    // its own `then` follows: one `fi` ends them all
    shape.ifs--;
  } else if (text === 'fi' || text === 'done') {
    const left = text === 'fi' ? --shape.ifs : --shape.loops;
    if (left < 0) shape.stray ??= `a \`${text}\``;
    if (shape.ifs <= 0 && shape.loops <= 0) shape.open = undefined;
  }
}

/**
 * A text a POSIX shell would reject, or wait for more of: it runs none of it. guard cannot tell
 * what was meant (a line cut short, or the rest sent apart), so the part is reported unread.
 */
function unfinished(reader: Reader, shape: Shape, stack: readonly Group[], tokens: readonly Token[]): void {
  const last = tokens[tokens.length - 1] as Token;
  const end = spanEnd(last.src, last.start, last.end);
  const at = (token: Token): Span => [spanOf(token.src, token.start, token.end)[0], end];
  // zsh and PowerShell close a `{` with a `}` written where bash takes it for a word (`{ ls }`)
  const closedElsewhere = (g: Group): boolean =>
    g.kind === '{' &&
    tokens.some((t) => t.kind === 'word' && plainText(t) === '}' && spanOf(t.src, t.start, t.end)[0] > g.start);
  const group = stack.find((g) => !closedElsewhere(g));
  if (shape.after !== undefined)
    addOpaque(
      reader,
      'unfinished',
      at(shape.after),
      `\`${(shape.after as { op: string }).op}\` with no command after it`,
    );
  else if (shape.stray !== undefined)
    addOpaque(reader, 'unfinished', at(tokens[0] as Token), `${shape.stray} with nothing open`);
  else if (group !== undefined)
    addOpaque(reader, 'unfinished', [group.start, end], `${OPENERS[group.kind]} that is never closed`);
  else if (shape.open !== undefined && (shape.ifs > 0 || shape.loops > 0))
    addOpaque(
      reader,
      'unfinished',
      at(shape.open),
      shape.ifs > 0 ? 'an `if … then` with no `fi`' : "a loop's `do` with no `done`",
    );
}

/**
 * Walks tokens as the shell groups them: lists, pipelines, subshells, groups and compound
 * commands. Nesting is kept on an explicit stack, so deep input cannot overflow the call stack.
 * Returns what the tokens print, when every pipeline's output is known (`echo a; printf b`).
 */
function walk(
  reader: Reader,
  tokens: readonly Token[],
  outerFrame: Frame,
  outerScope: Scope,
  stdin?: Mapped,
): Mapped | undefined {
  if (tokens.length === 0 || reader.full) return undefined;
  let frame = outerFrame;
  let scope = outerScope;
  let pipe = newPipe();
  // the first command reads what is fed to the text (`tee >(sh)`), when the reader knows it
  pipe.stdout = stdin;
  let mode: Mode = 'command';
  let words: WordToken[] = [];
  let redirs: RedirToken[] = [];
  const stack: Group[] = [];
  let overflow = 0; // groups past the depth bound: counted, not stacked
  // the header of the `for`/`select` being read (made when one starts: most text has none)
  let loop: LoopHeader | undefined;
  // the outer pipeline stage the innermost open group sits in (none at the top)
  let base: Base | undefined;
  // what a POSIX shell would find unfinished (an `if` with no `fi`, `&&` with nothing after it)
  const shape = frame.dialect === 'posix' ? newShape() : undefined;
  const freshPipe = (): Pipe =>
    base === undefined
      ? newPipe()
      : { id: base.pipe.id, index: base.index, stages: base.pipe.stages, stdout: undefined };

  const finish = (): void => {
    if (words.length === 0 && redirs.length === 0) return;
    if (pipe.id < 0) pipe.id = reader.pipelines++;
    const stage = { id: pipe.id, index: pipe.index, length: 0 };
    pipe.stages.push(stage);
    pipe.stdout = runSimple(reader, words, redirs, frame, scope, stage, pipe.stdout);
    words = [];
    redirs = [];
    ran = true;
  };
  // a command ran in the pipeline being read (so what it prints counts for the group around it)
  let ran = false;
  const keepPrinted = (group: Group | undefined): void => {
    if (group?.printed === undefined || !ran) return;
    if (pipe.stdout === undefined) group.printed = undefined;
    else group.printed.push(pipe.stdout);
  };
  // what the pipelines print, while all of it is known (no group was opened)
  let printed: Mapped[] | undefined = [];
  // functions defined here: one never called is read at the end, as if it ran where it stands
  const defined: FunctionDef[] = [];
  const endPipe = (): void => {
    finish();
    keepPrinted(stack[stack.length - 1]);
    ran = false;
    if (printed !== undefined && pipe.stages.length > 0) {
      if (pipe.stdout === undefined || stack.length > 0 || base !== undefined) printed = undefined;
      else printed.push(pipe.stdout);
    }
    // a group's pipelines share their stages with the outer one: the length covers them all
    const stages = pipe.stages;
    let length = pipe.index + 1;
    for (let s = 0; s < stages.length; s++) length = Math.max(length, (stages[s] as Pipe['stages'][number]).index + 1);
    for (let s = 0; s < stages.length; s++) (stages[s] as Pipe['stages'][number]).length = length;
    pipe = freshPipe();
  };
  const push = (kind: Group['kind'], token: Token, notRun?: number): void => {
    finish();
    printed = undefined;
    if (frame.depth + 1 > LIMITS.depth) {
      if (overflow++ === 0) addOpaque(reader, 'too-deep', spanOf(token.src, token.start, token.src.text.length));
      return;
    }
    if (pipe.id < 0) pipe.id = reader.pipelines++;
    const start = spanOf(token.src, token.start, token.end)[0];
    const out: Mapped[] = [];
    stack.push(
      notRun === undefined
        ? { kind, start, scope, frame, pipe, mode, base, printed: out }
        : { kind, start, scope, frame, pipe, mode, base, notRun, printed: out },
    );
    ran = false;
    base = { pipe, index: pipe.index };
    if (kind === '(') scope = childScope(scope, false);
    if (kind !== 'case')
      frame = innerFrame(frame, [...frame.via, { kind: 'subshell', name: kind }], frame.depth + 1, frame.dialect);
    // the group's first command reads what the stage before it prints
    pipe = { id: pipe.id, index: pipe.index, stages: pipe.stages, stdout: pipe.stdout };
  };
  const pop = (kind: Group['kind']): void => {
    finish();
    if (overflow > 0) {
      overflow--;
      return;
    }
    if (stack[stack.length - 1]?.kind !== kind) {
      if (shape !== undefined) shape.stray ??= CLOSERS[kind];
      return;
    }
    const group = stack.pop();
    if (!group) return;
    keepPrinted(group);
    // the stages after the group follow its last one, and read what it prints
    const last = pipe.index;
    ({ scope, frame, pipe, base } = group);
    pipe.index = Math.max(pipe.index, last);
    pipe.stdout =
      group.printed === undefined || group.printed.length === 0 ? undefined : joinMapped(group.printed, '\n');
    ran = true;
    mode = kind === 'case' ? group.mode : 'command';
  };

  // past the invocation cap (reported where it was reached) the rest would be read for nothing
  for (let t = 0; t < tokens.length && !reader.full; t++) {
    const token = tokens[t];
    if (!token) continue;
    if (token.kind === 'redir') {
      if (mode === 'command') redirs.push(token);
      else readRedirSubstitutions(reader, token, frame, scope);
      continue;
    }
    if (token.kind === 'word') {
      const text = plainText(token);
      if (mode !== 'command') {
        readSubstitutions(reader, token.parts, frame, scope);
        if (mode === 'list') {
          if (loop) loopWord(loop, token, text, scope);
        } else if (mode === 'name') {
          mode = 'command';
          // `function name { …; }` (and `function name() { …; }`): the body is read where it is called
          const body = text !== undefined ? functionBody(tokens, t + 1) : undefined;
          if (body !== undefined && text !== undefined) {
            defined.push(define(reader, scope, text, tokens, body));
            t = body[1];
          }
        } else if (mode === 'test' && text === ']]') mode = 'command';
        else if (mode === 'case-word' && text === 'in') mode = 'pattern';
        else if (mode === 'pattern' && text === 'esac') pop('case');
        continue;
      }
      if (shape !== undefined) shape.after = undefined;
      if (words.length === 0 && redirs.length === 0 && text !== undefined) {
        if (shape !== undefined && STRUCTURE.has(text)) keyword(shape, text, token);
        if (STRUCTURE.has(text) || (text === 'time' && opensGroup(tokens[t + 1]))) continue;
        if (frame.dialect === 'powershell' && isOp(tokens[t + 1], '(') && /^foreach$/i.test(text))
          foreachHeader(tokens, t + 2, scope);
        if (text === '{') {
          push('{', token);
          continue;
        }
        if (text === '}') {
          pop('{');
          continue;
        }
        if (text === 'for' || text === 'select') {
          mode = 'list';
          loop = { name: undefined, words: undefined, known: true };
          continue;
        }
        if (text === '[[') {
          mode = 'test';
          continue;
        }
        if (text === 'function') {
          mode = 'name';
          continue;
        }
        if (text === 'case') {
          push('case', token);
          mode = 'case-word';
          continue;
        }
        if (text === 'esac') {
          pop('case');
          continue;
        }
      }
      words.push(token);
      continue;
    }
    const op = token.op;
    if (shape !== undefined && op !== '\n') shape.after = AND_OR.has(op) ? token : undefined;
    if (mode === 'test' || mode === 'case-word') {
      if (op === '\n' || op === ';') mode = mode === 'test' ? 'command' : mode;
      continue;
    }
    if (mode === 'pattern') {
      if (op === ')') mode = 'command';
      continue;
    }
    if (op === '(' && tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { op: string }).op === ')') {
      // `name() { …; }` defines a function: the name is not a command, and the body is read where
      // the function is called (or, when it never is, where it is defined)
      const name = words.length === 1 && redirs.length === 0 ? plainText(words[0] as WordToken) : undefined;
      if (words.length === 1) words = [];
      t++;
      const body = name !== undefined ? functionBody(tokens, t + 1) : undefined;
      if (body !== undefined && name !== undefined) {
        defined.push(define(reader, scope, name, tokens, body));
        t = body[1];
      }
      continue;
    }
    switch (op) {
      case '(': {
        // `ls *(e:'cmd':)`: zsh's glob qualifiers, the code they run read, the rest of the word kept
        const after =
          words.length > 0
            ? globQualifiers(reader, tokens, t, words[words.length - 1] as WordToken, frame, scope)
            : undefined;
        if (after !== undefined) t = after;
        else push('(', token, words.length > 0 ? notRunStart(words, token, frame) : undefined);
        break;
      }
      case ')': {
        const open = overflow === 0 ? stack[stack.length - 1] : undefined;
        if (open?.kind === '(' && open.notRun !== undefined)
          (reader.notRun ??= []).push([open.notRun, spanEnd(token.src, token.start, token.end)]);
        pop('(');
        break;
      }
      case '{':
        push('{', token);
        break;
      case '}':
        pop('{');
        break;
      case '|':
      case '|&':
        finish();
        pipe.index++;
        break;
      case ';;':
      case ';&':
      case ';;&':
        endPipe();
        if (stack[stack.length - 1]?.kind === 'case') mode = 'pattern';
        break;
      case '&':
        // PowerShell's call operator `& 'C:\x.exe'` stands in front of a command
        if (frame.dialect === 'powershell' && words.length === 0) break;
        endPipe();
        break;
      default:
        endPipe();
        if (mode === 'list') {
          if (loop) endLoop(loop, scope);
          loop = undefined;
          mode = 'command';
        }
    }
  }
  endPipe();
  if (shape !== undefined && !reader.full) unfinished(reader, shape, stack, tokens);
  for (let d = 0; d < defined.length; d++) {
    const fn = defined[d] as FunctionDef;
    if (fn.called || reader.full) continue;
    const inner = innerFrame(
      outerFrame,
      [...outerFrame.via, { kind: 'subshell', name: '{' }],
      outerFrame.depth + 1,
      outerFrame.dialect,
    );
    if (inner.depth <= LIMITS.depth) walk(reader, fn.body, inner, outerScope);
  }
  return printed === undefined || printed.length === 0 ? undefined : joinMapped(printed, '\n');
}

/**
 * PowerShell's `foreach ($name in LIST)`, from the token after `(`: the variable takes each item
 * of a list written out (`@("a","b")`, `$files` holding one), or an unknown value.
 */
function foreachHeader(tokens: readonly Token[], from: number, scope: Scope): void {
  const head = tokens[from];
  const variable = head?.kind === 'word' && head.parts.length === 1 ? head.parts[0] : undefined;
  const keyword = tokens[from + 1];
  if (variable?.kind !== 'var' || keyword?.kind !== 'word' || plainText(keyword)?.toLowerCase() !== 'in') return;
  let depth = 0;
  let end = from + 2;
  for (; end < tokens.length; end++) {
    const token = tokens[end] as Token;
    if (isOp(token, '(')) depth++;
    else if (isOp(token, ')') && depth-- === 0) break;
  }
  const items = depth < 0 ? powershellList(tokens.slice(from + 2, end), scope) : undefined;
  if (items !== undefined && items.length > 0 && items.length <= LOOP_WORDS)
    setLoopVar(scope, variable.name, items, LOOP_BUDGET);
  else setVar(scope, variable.name, undefined);
}

/** Reads the body of a function where it is called (the caller binds `$1`…, `$@`). */
export function readBody(reader: Reader, body: readonly Token[], frame: Frame, scope: Scope): void {
  walk(reader, body, frame, scope);
}

function define(
  reader: Reader,
  scope: Scope,
  name: string,
  tokens: readonly Token[],
  body: readonly [number, number],
): FunctionDef {
  const fn: FunctionDef = { name, body: tokens.slice(body[0] + 1, body[1]), called: false };
  setFunction(scope, fn);
  reader.named++;
  return fn;
}

/**
 * Where a function's body opens and closes (`{ … }` or `( … )`), starting at `from` (new lines
 * before it are skipped); undefined when there is no such body. A `}` closes only where a command
 * could start (`echo }` is an argument).
 */
function functionBody(tokens: readonly Token[], from: number): [number, number] | undefined {
  let t = from;
  while (isOp(tokens[t], '\n')) t++;
  const open = tokens[t];
  const brace = isOp(open, '{') || (open?.kind === 'word' && plainText(open) === '{');
  if (!brace && !isOp(open, '(')) return undefined;
  // braces count where a command could start; a `)` with no `(` open is a case pattern's
  let braces = 0;
  let parens = 0;
  let commandStart = true;
  for (let i = t; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'op') {
      if (token.op === '(') parens++;
      else if (token.op === ')' && parens > 0) parens--;
      else if (token.op === '{') braces++;
      else if (token.op === '}') braces--;
      commandStart = true;
    } else if (token.kind === 'word') {
      const text = plainText(token);
      if (commandStart && text === '{') braces++;
      else if (commandStart && text === '}') braces--;
      commandStart = text !== undefined && (STRUCTURE.has(text) || text === '{' || text === '}');
    }
    if (brace ? braces === 0 : parens === 0) return [t, i];
  }
  return undefined;
}

const isOp = (token: Token | undefined, op: string): boolean => token?.kind === 'op' && token.op === op;
