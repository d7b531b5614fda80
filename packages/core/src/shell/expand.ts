import type { Span } from '../types.js';
import { mappedBuilder, spanOf } from './mapped.js';
import type { Mapped, MappedBuilder } from './mapped.js';
import { lookupVar, loopValues, positionalList } from './scope.js';
import type { LoopValues, Scope, VarValue } from './scope.js';
import { plainText } from './tokens.js';
import type { Part, Token, WordToken } from './tokens.js';

/** A word after quote joining and variable resolution: what the program receives as one argument. */
export interface Word {
  readonly text: string;
  /** The text with the original position of each character. */
  readonly map: Mapped;
  /** Where the word is written in the original line. */
  readonly span: Span;
  /** Quotes or escapes were used somewhere in it. */
  readonly quoted: boolean;
  /** It holds a variable the reader could not resolve or a substitution: its real value is unknown. */
  readonly dynamic: boolean;
  /** A process substitution (`<(printf …)`) whose output the reader knows: that text. */
  readonly printed?: Mapped;
  /** Unquoted `*`, `?` or `[…]`: the shell replaces the word with the file names it matches. */
  readonly pattern?: boolean;
}

/** `*`, `?` or a `[` closed later: a pathname pattern (a scan, not a regex: the text may be long). */
export function isPattern(text: string): boolean {
  if (text.includes('*') || text.includes('?')) return true;
  const open = text.indexOf('[');
  return open >= 0 && text.indexOf(']', open + 2) > open;
}

/** A word made from a piece of text whose value is known (a string literal in inline code). */
export function literalWord(map: Mapped): Word {
  return { text: map.text, map, span: spanOf(map, 0, map.text.length), quoted: true, dynamic: false };
}

/** The default IFS: blanks and new lines split words, and runs of them count as one. */
const IFS = /[ \t\n]+/;

/**
 * How unquoted expansions split into words: IFS as the line set it (`IFS=,; $cmd`), the default
 * when it is unset, none when it is empty; undefined when it was set to a value the reader does
 * not know (the words are then unknown too).
 */
function splitter(scope: Scope): RegExp | null | undefined {
  const ifs = lookupVar(scope, 'IFS', false);
  if (ifs === undefined || ifs.dynamic) return undefined;
  const chars = ifs.text;
  if (chars === ' \t\n') return IFS;
  if (chars === '') return null;
  return new RegExp(`[${chars.replace(/[\\\]^-]/g, '\\$&')}]+`);
}

/**
 * Expands a word token. Unquoted variables whose value holds blanks split into several words (as
 * the shell splits them) unless `split` is false (assignments); an unquoted variable that is empty
 * leaves no word at all. Unquoted brace lists expand first (`{rm,-rf,x}` is three words).
 */
export function expandWord(token: WordToken, scope: Scope, split = true, pick?: LoopPick, seen?: LoopSeen): Word[] {
  const span = spanOf(token.src, token.start, token.end);
  const only = token.parts[0];
  if (token.parts.length === 1 && only?.kind === 'lit') {
    // the word and its list are made apart (a literal nested in a literal takes a runtime call)
    const text = only.text.text;
    const word: Word =
      !only.quoted && isPattern(text)
        ? { text, map: only.text, span, quoted: false, dynamic: false, pattern: true }
        : { text, map: only.text, span, quoted: only.quoted, dynamic: false };
    if (split && !only.quoted && hasBraceList(text)) return braceWords(word, everyCharacter);
    return [word];
  }
  if (token.parts.length === 1 && only?.kind === 'sub' && only.open === '<(') {
    // a process substitution is a file name (`/dev/fd/63`); what it prints is kept with the word
    const printed = scope.printed.get(only);
    const word: Word = {
      text: only.raw.text,
      map: only.raw,
      span,
      quoted: only.quoted,
      dynamic: true,
      ...(printed === undefined ? {} : { printed }),
    };
    return [word];
  }
  if (
    token.parts.length === 1 &&
    (only?.kind === 'sub' || only?.kind === 'raw') &&
    (only.kind === 'raw' || (printedCwd(only, scope) === undefined && scope.printed.get(only) === undefined))
  ) {
    const word: Word = {
      text: only.raw.text,
      map: only.raw,
      span,
      quoted: only.kind === 'sub' && only.quoted,
      dynamic: true,
    };
    return [word];
  }
  const words: Word[] = [];
  let out = mappedBuilder();
  let quoted = false;
  let dynamic = false;
  let filled = false;
  let pattern = false;
  // where unquoted brace characters sit in the word being built, as [start, end) of its text
  let braces: number[] | undefined;
  let ifs: RegExp | null | undefined | false = false;
  const splitBy = (): RegExp | null | undefined => (ifs === false ? (ifs = splitter(scope)) : ifs);
  const close = (): void => {
    if (filled) {
      const map = out.build(span[1]);
      const word: Word = pattern
        ? { text: map.text, map, span, quoted, dynamic, pattern }
        : { text: map.text, map, span, quoted, dynamic };
      if (braces === undefined) words.push(word);
      else {
        const active = braces;
        words.push(...braceWords(word, (i) => within(active, i)));
      }
    }
    out = mappedBuilder();
    quoted = false;
    dynamic = false;
    filled = false;
    pattern = false;
    braces = undefined;
  };
  /** Appends a value that splits into words on IFS unless quoted (a variable's, a substitution's output). */
  const spreadSplit = (value: Mapped | string, raw: Mapped, keepWhole: boolean): void => {
    const text = typeof value === 'string' ? value : value.text;
    const by = keepWhole ? null : splitBy();
    if (by === undefined) {
      // IFS holds something the reader does not know: neither are the words
      dynamic = true;
    }
    const append = (start: number, end: number): void => {
      if (typeof value === 'string') spreadOver(out, text.slice(start, end), raw);
      else out.piece(value, start, end);
    };
    if (!by) {
      append(0, text.length);
      filled ||= text !== '';
      return;
    }
    const re = new RegExp(by.source, 'g');
    let from = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      append(from, m.index);
      filled ||= m.index > from;
      close();
      from = m.index + m[0].length;
    }
    append(from, text.length);
    filled ||= text.length > from;
  };
  for (const part of token.parts) {
    if (part.kind === 'lit') {
      if (split && !part.quoted && part.text.text.includes('{')) {
        const at = out.length();
        (braces ??= []).push(at, at + part.text.text.length);
      }
      out.piece(part.text, 0, part.text.text.length);
      quoted ||= part.quoted;
      pattern ||= !part.quoted && isPattern(part.text.text);
      filled = true;
    } else if (part.kind === 'tilde') {
      spreadOver(out, scope.home, part.raw);
      filled = true;
    } else if (part.kind === 'raw' || part.kind === 'sub') {
      const cwd = part.kind === 'sub' ? printedCwd(part, scope) : undefined;
      const printed = part.kind === 'sub' && cwd === undefined ? scope.printed.get(part) : undefined;
      if (printed !== undefined) {
        // `$(echo rm -rf x)`: what it prints, as a variable's value would be (split unless quoted)
        const sub = part as Extract<Part, { kind: 'sub' }>;
        quoted ||= sub.quoted;
        spreadSplit(printed, sub.raw, sub.quoted || !split);
        filled ||= sub.quoted;
      } else if (cwd === undefined) {
        out.piece(part.raw, 0, part.raw.text.length);
        dynamic = true;
        filled = true;
      } else {
        spreadOver(out, cwd, part.raw);
        quoted ||= part.kind === 'sub' && part.quoted;
        filled = true;
      }
    } else {
      const plain = part.op === undefined && part.complex !== true;
      const resolved = pick !== undefined && plain && part.name === pick.name ? pick.value : varValue(part, scope);
      const value = resolved?.text;
      if (value === undefined && seen !== undefined && pick === undefined && plain && seen.loop === undefined) {
        const loop = loopValues(scope, part.name, part.caseless ?? false);
        if (loop !== undefined) {
          seen.name = part.name;
          seen.loop = loop;
        }
      }
      const list = part.quoted && part.name === '@' && plain ? positionalList(scope) : undefined;
      if (value === undefined) {
        out.piece(part.raw, 0, part.raw.text.length);
        dynamic = true;
        filled = true;
      } else if (list !== undefined) {
        // `"$@"`: one word per argument of the call
        list.forEach((item, index) => {
          if (index > 0) close();
          spreadOver(out, item, part.raw);
          quoted = true;
          filled = true;
        });
      } else if (part.quoted || !split || resolved?.dynamic) {
        // a value that is itself unknown text (`X=$(pwd)`) is kept whole, as written
        spreadOver(out, value, part.raw);
        quoted ||= part.quoted;
        dynamic ||= resolved?.dynamic ?? false;
        filled ||= part.quoted || value !== '';
      } else {
        spreadSplit(value, part.raw, false);
      }
    }
  }
  close();
  return words;
}

/**
 * `$(pwd)` and `` `pwd` `` (also `pwd -P`/`-L`) print the working directory, which the reader
 * knows when nothing unresolved changed it; undefined for any other substitution.
 */
function printedCwd(part: Extract<Part, { kind: 'sub' }>, scope: Scope): string | undefined {
  if (!scope.cwdKnown || (part.open !== '$(' && part.open !== '`')) return undefined;
  const tokens = part.tokens;
  const head = tokens[0];
  if (head?.kind !== 'word' || plainText(head) !== 'pwd') return undefined;
  for (let t = 1; t < tokens.length; t++) {
    const token = tokens[t] as Token;
    if (token.kind === 'word' ? !PWD_OPTION.test(plainText(token) ?? '') : token.kind !== 'op' || token.op !== '\n')
      return undefined;
  }
  return scope.cwd;
}

const PWD_OPTION = /^-[LP]$/;

/** A `for` loop variable taken as one of its values, to read a command once per value. */
export interface LoopPick {
  readonly name: string;
  readonly value: VarValue;
}

/**
 * The first `for` loop variable the words of one command use unresolved: the caller passes one to
 * expandWord, which fills it in (see runSimple).
 */
export interface LoopSeen {
  name: string | undefined;
  loop: LoopValues | undefined;
}

/** Expands a word that must stay one word (assignment values, redirection targets). */
export function expandSingle(token: WordToken, scope: Scope): Word {
  const [word] = expandWord(token, scope, false);
  return (
    word ?? {
      text: '',
      map: mappedBuilder().build(token.src.at(token.end)),
      span: spanOf(token.src, token.start, token.end),
      quoted: true,
      dynamic: false,
    }
  );
}

function spreadOver(out: MappedBuilder, value: string, raw: Mapped): void {
  const first = raw.at(0);
  out.spread(value, first, Math.max(first, raw.at(raw.text.length) - 1));
}

/** The value of `$NAME` / `${NAME…}`, or undefined when it is not known here. */
function varValue(part: Extract<Part, { kind: 'var' }>, scope: Scope): VarValue | undefined {
  if (part.complex) return undefined;
  const value = lookupVar(scope, part.name, part.caseless ?? false);
  const alt = (): VarValue | undefined => (part.alt ? partsText(part.alt, scope) : { text: '', dynamic: false });
  const empty = { text: '', dynamic: false };
  switch (part.op) {
    case undefined:
    case ':?':
    case '?':
      return value;
    // an unknown value is taken as unset here: the default is what the line most likely means
    case ':-':
    case ':=':
      return value !== undefined && value.text !== '' ? value : alt();
    case '-':
    case '=':
      return value ?? alt();
    case ':+':
      return value === undefined ? undefined : value.text === '' ? empty : alt();
    case '+':
      return value === undefined ? undefined : alt();
    default:
      return undefined;
  }
}

/** Text of nested parts (a default value), or undefined if any of it is unknown. */
function partsText(parts: readonly Part[], scope: Scope): VarValue | undefined {
  let text = '';
  let dynamic = false;
  for (const part of parts) {
    if (part.kind === 'lit') text += part.text.text;
    else if (part.kind === 'tilde') text += scope.home;
    else if (part.kind === 'var') {
      const value = varValue(part, scope);
      if (value === undefined) return undefined;
      text += value.text;
      dynamic ||= value.dynamic;
    } else return undefined;
  }
  return { text, dynamic };
}

// ---------------------------------------------------------------------------------------------
// Brace expansion: `{rm,-rf,x}` is the three words `rm -rf x`, `a{b,c}d` is `abd acd`

/** Past these, a brace list is left as written (the shell would expand it; the reader reads it as one word). */
const BRACE_LIMITS = { chars: 4096, words: 64, steps: 256 } as const;

const everyCharacter = (): boolean => true;

/** An unquoted `{` before a `,` and a `}`: a brace list may be in the text (checked in full by braceWords). */
function hasBraceList(text: string): boolean {
  const open = text.indexOf('{');
  return open >= 0 && text.indexOf(',', open) > open && text.lastIndexOf('}') > open;
}

/** True when character `i` lies in one of the [start, end) ranges. */
function within(ranges: readonly number[], i: number): boolean {
  for (let r = 0; r < ranges.length; r += 2)
    if (i >= (ranges[r] as number) && i < (ranges[r + 1] as number)) return true;
  return false;
}

/**
 * The words a brace list in `word` expands to, in order; `active(i)` says whether character i
 * was written unquoted (a quoted `{` is a plain character). The word itself when it holds no list
 * or when the expansion passes its bounds.
 */
function braceWords(word: Word, active: (i: number) => boolean): Word[] {
  const text = word.text;
  if (text.length > BRACE_LIMITS.chars || !hasBraceList(text)) return [word];
  // every candidate is a list of character indexes into the word's text
  const first: number[] = [];
  for (let i = 0; i < text.length; i++) first.push(i);
  const done: number[][] = [];
  const queue: number[][] = [first];
  let steps = 0;
  let chars = 0;
  while (queue.length > 0) {
    if (++steps > BRACE_LIMITS.steps) return [word];
    const candidate = queue.shift() as number[];
    const group = firstBraceList(text, candidate, active);
    if (group === undefined) {
      chars += candidate.length;
      if (done.length >= BRACE_LIMITS.words || chars > 8 * BRACE_LIMITS.chars) return [word];
      done.push(candidate);
      continue;
    }
    const { open, close, commas } = group;
    const before = candidate.slice(0, open);
    const after = candidate.slice(close + 1);
    const cuts = [open, ...commas, close];
    const alternatives: number[][] = [];
    for (let c = 0; c + 1 < cuts.length; c++)
      alternatives.push([...before, ...candidate.slice((cuts[c] as number) + 1, cuts[c + 1]), ...after]);
    queue.unshift(...alternatives);
  }
  if (done.length === 1 && done[0]?.length === text.length) return [word];
  return done
    .filter((indexes) => indexes.length > 0)
    .map((indexes) => {
      const out = mappedBuilder();
      let start = 0;
      for (let k = 1; k <= indexes.length; k++) {
        if (k < indexes.length && indexes[k] === (indexes[k - 1] as number) + 1) continue;
        out.piece(word.map, indexes[start] as number, (indexes[k - 1] as number) + 1);
        start = k;
      }
      const map = out.build(word.span[1]);
      return word.pattern === true
        ? {
            text: map.text,
            map,
            span: word.span,
            quoted: word.quoted,
            dynamic: word.dynamic,
            pattern: isPattern(map.text),
          }
        : { text: map.text, map, span: word.span, quoted: word.quoted, dynamic: word.dynamic };
    });
}

/**
 * The first brace list of a candidate (positions into it): its `{`, its `}` and the commas at its
 * own level. One pass with a stack, so a text of unmatched braces costs no more than its length.
 */
function firstBraceList(
  text: string,
  candidate: readonly number[],
  active: (i: number) => boolean,
): { open: number; close: number; commas: number[] } | undefined {
  const stack: { open: number; commas: number[] }[] = [];
  let best: { open: number; close: number; commas: number[] } | undefined;
  for (let k = 0; k < candidate.length; k++) {
    const i = candidate[k] as number;
    const c = text[i];
    if ((c !== '{' && c !== '}' && c !== ',') || !active(i)) continue;
    if (c === '{') stack.push({ open: k, commas: [] });
    else if (c === ',') stack[stack.length - 1]?.commas.push(k);
    else {
      const group = stack.pop();
      // `{}` and `{x}` are plain text; the list that opens first is expanded first
      if (group !== undefined && group.commas.length > 0 && (best === undefined || group.open < best.open))
        best = { open: group.open, close: k, commas: group.commas };
    }
  }
  return best;
}
