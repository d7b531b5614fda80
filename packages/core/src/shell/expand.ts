import type { Span } from '../types.js';
import { mappedBuilder, spanOf } from './mapped.js';
import type { Mapped, MappedBuilder } from './mapped.js';
import { lookupVar, loopValues } from './scope.js';
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
}

/** A word made from a piece of text whose value is known (a string literal in inline code). */
export function literalWord(map: Mapped): Word {
  return { text: map.text, map, span: spanOf(map, 0, map.text.length), quoted: true, dynamic: false };
}

const IFS = /[ \t\n]+/;

/**
 * Expands a word token. Unquoted variables whose value holds blanks split into several words (as
 * the shell splits them) unless `split` is false (assignments); an unquoted variable that is empty
 * leaves no word at all.
 */
export function expandWord(token: WordToken, scope: Scope, split = true, pick?: LoopPick, seen?: LoopSeen): Word[] {
  const span = spanOf(token.src, token.start, token.end);
  const only = token.parts[0];
  if (token.parts.length === 1 && only?.kind === 'lit') {
    // the word and its list are made apart (a literal nested in a literal takes a runtime call)
    const word: Word = { text: only.text.text, map: only.text, span, quoted: only.quoted, dynamic: false };
    return [word];
  }
  if (
    token.parts.length === 1 &&
    (only?.kind === 'sub' || only?.kind === 'raw') &&
    (only.kind === 'raw' || printedCwd(only, scope) === undefined)
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
  const close = (): void => {
    if (filled) {
      const map = out.build(span[1]);
      words.push({ text: map.text, map, span, quoted, dynamic });
    }
    out = mappedBuilder();
    quoted = false;
    dynamic = false;
    filled = false;
  };
  for (const part of token.parts) {
    if (part.kind === 'lit') {
      out.piece(part.text, 0, part.text.text.length);
      quoted ||= part.quoted;
      filled = true;
    } else if (part.kind === 'tilde') {
      spreadOver(out, scope.home, part.raw);
      filled = true;
    } else if (part.kind === 'raw' || part.kind === 'sub') {
      const cwd = part.kind === 'sub' ? printedCwd(part, scope) : undefined;
      if (cwd === undefined) {
        out.piece(part.raw, 0, part.raw.text.length);
        dynamic = true;
      } else {
        spreadOver(out, cwd, part.raw);
        quoted ||= part.kind === 'sub' && part.quoted;
      }
      filled = true;
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
      if (value === undefined) {
        out.piece(part.raw, 0, part.raw.text.length);
        dynamic = true;
        filled = true;
      } else if (part.quoted || !split || resolved?.dynamic || !IFS.test(value)) {
        // a value that is itself unknown text (`X=$(pwd)`) is kept whole, as written
        spreadOver(out, value, part.raw);
        quoted ||= part.quoted;
        dynamic ||= resolved?.dynamic ?? false;
        filled ||= part.quoted || value !== '';
      } else {
        value.split(IFS).forEach((chunk, index) => {
          if (index > 0) close();
          spreadOver(out, chunk, part.raw);
          filled ||= chunk !== '';
        });
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
