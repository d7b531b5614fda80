import type { Dialect } from './context.js';
import type { Mapped } from './mapped.js';

/** One piece of a word, before variables are resolved. Positions are indexes into the token's source. */
export type Part =
  /** Characters taken as they are; `quoted` when quotes or an escape protected them. */
  | { readonly kind: 'lit'; readonly text: Mapped; readonly quoted: boolean }
  /** `~` at the start of a word or of an assignment value: the home folder. */
  | { readonly kind: 'tilde'; readonly raw: Mapped }
  /**
   * `$NAME`, `${NAME}`, `${NAME:-alt}`, `%NAME%`, `$env:NAME`. `alt` is the default word of the
   * `:-`/`-`/`:=`/`=` forms; `complex` marks forms the reader does not evaluate (`${#X}`, `${X%y}`).
   */
  | {
      readonly kind: 'var';
      readonly name: string;
      readonly raw: Mapped;
      readonly quoted: boolean;
      /** `:-`, `-`, `:=`, `=`, `:+`, `+`, `:?`, `?` when written. */
      readonly op?: string;
      readonly alt?: readonly Part[];
      readonly complex?: boolean;
      /** Looked up case-insensitively (cmd `%Temp%`, PowerShell `$env:Temp`). */
      readonly caseless?: boolean;
    }
  /** `$(…)`, backticks, `<(…)`, `>(…)`, PowerShell `$(…)`/`@(…)`: commands of their own. */
  | {
      readonly kind: 'sub';
      readonly open: string;
      readonly tokens: readonly Token[];
      readonly raw: Mapped;
      readonly quoted: boolean;
      /** Already read where it was first lexed (an inner string re-read holds it again). */
      readonly seen: boolean;
      readonly depth: number;
      readonly dialect: Dialect;
    }
  /** Kept as written and never resolved: arithmetic `$((…))` (`inner`: its substitutions), a part cut off as too deep. */
  | { readonly kind: 'raw'; readonly raw: Mapped; readonly inner?: readonly Part[] };

export interface WordToken {
  readonly kind: 'word';
  readonly src: Mapped;
  readonly start: number;
  readonly end: number;
  readonly parts: readonly Part[];
}

/** Heredoc state; the body arrives when the lexer reaches the end of the line. */
export interface Heredoc {
  readonly delimiter: string;
  /** The delimiter was quoted: the body is taken literally (no substitutions). */
  readonly quoted: boolean;
  /** `<<-`: leading tabs are stripped from body lines. */
  readonly strip: boolean;
  body?: Mapped;
  /** Parts of an unquoted body (its substitutions run in the outer shell). */
  parts?: readonly Part[];
}

export interface RedirToken {
  readonly kind: 'redir';
  readonly src: Mapped;
  readonly start: number;
  readonly end: number;
  /** As written without the fd: `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `<<`, `<<-`, `<<<`, `*>`. */
  readonly op: string;
  readonly fd?: number;
  readonly target?: WordToken;
  readonly heredoc?: Heredoc;
}

export interface OpToken {
  readonly kind: 'op';
  readonly src: Mapped;
  readonly start: number;
  readonly end: number;
  /** `;`, `&`, `&&`, `||`, `|`, `|&`, `(`, `)`, `{`, `}` (PowerShell), `;;`, `;&`, `;;&`, or `\n`. */
  readonly op: string;
}

export type Token = WordToken | RedirToken | OpToken;

/** The word's text when it is made only of unquoted plain characters (how keywords are recognised). */
export function plainText(word: WordToken): string | undefined {
  let text = '';
  for (const part of word.parts) {
    if (part.kind !== 'lit' || part.quoted) return undefined;
    text += part.text.text;
  }
  return text;
}
