import { addOpaque, LIMITS } from './context.js';
import type { Dialect, Reader } from './context.js';
import { mappedBuilder, sliceMapped, spanOf } from './mapped.js';
import type { Mapped, MappedBuilder } from './mapped.js';
import { plainText } from './tokens.js';
import type { Heredoc, Part, RedirToken, Token, WordToken } from './tokens.js';

/** Splits `src` into words, operators and redirections, reading nested substitutions as it goes. */
export function lex(reader: Reader, src: Mapped, depth: number, dialect: Dialect): Token[] {
  const lexer = new Lexer(reader, src, dialect);
  const { tokens } = lexer.list(depth, false);
  lexer.finish();
  return tokens;
}

/** Parts of a heredoc body whose delimiter was not quoted: `$VAR`, `$(…)` and backticks are live. */
export function lexHeredocBody(reader: Reader, body: Mapped, depth: number): Part[] {
  const lexer = new Lexer(reader, body, 'posix');
  const parts = new Parts();
  lexer.double(parts, depth, true);
  return parts.done();
}

/** Characters that end an unquoted word, per dialect (besides blanks and newlines). */
const WORD_END: Record<Dialect, Set<string>> = {
  posix: new Set([';', '&', '|', '(', ')', '<', '>']),
  powershell: new Set([';', '&', '|', '(', ')', '{', '}', '<', '>']),
  cmd: new Set(['&', '|', '(', ')', '<', '>']),
};
const OPERATORS: Record<Dialect, readonly string[]> = {
  posix: [';;&', ';;', ';&', ';', '&&', '&', '||', '|&', '|'],
  powershell: [';', '&&', '&', '||', '|', '{', '}'],
  cmd: ['&&', '&', '||', '|'],
};
const REDIRECTS: Record<Dialect, readonly string[]> = {
  posix: ['>>', '>|', '>&', '>', '<<<', '<<-', '<<', '<>', '<&', '<'],
  powershell: ['>>', '>&', '>', '<'],
  cmd: ['>>', '>&', '>', '<&', '<'],
};
const BLANKS = ' \t\r\f\v\n';
/** Per dialect, ASCII characters a word cannot simply run over (everything else is plain text). */
const SPECIAL: Record<Dialect, Uint8Array> = {
  posix: specialTable(BLANKS, WORD_END.posix, '\\\'"$`~%'),
  powershell: specialTable(BLANKS, WORD_END.powershell, '`\'"$~%@'),
  cmd: specialTable(BLANKS, WORD_END.cmd, '^"%'),
};
/** The first of `options` written at `i` (a loop: `find` with a closure costs one per token). */
function firstAt(options: readonly string[], s: string, i: number): string | undefined {
  for (let k = 0; k < options.length; k++) {
    const option = options[k] as string;
    if (s.startsWith(option, i)) return option;
  }
  return undefined;
}
/** Per dialect, ASCII characters that end a word: blanks, newlines and WORD_END. */
const ENDS: Record<Dialect, Uint8Array> = {
  posix: specialTable(BLANKS, WORD_END.posix),
  powershell: specialTable(BLANKS, WORD_END.powershell),
  cmd: specialTable(BLANKS, WORD_END.cmd),
};
/** A lookup table of the ASCII characters in the given groups. */
function specialTable(...groups: Iterable<string>[]): Uint8Array {
  const table = new Uint8Array(128);
  for (const group of groups) for (const c of group) table[c.charCodeAt(0)] = 1;
  return table;
}
const isBlank = (code: number): boolean => code === 32 || code === 9 || code === 13 || code === 12 || code === 11;

/** PowerShell's words after which `(` opens a condition, a loop's header or parameters, not a value. */
const POWERSHELL_HEADS = /^(?:if|elseif|while|until|for|foreach|switch|param|function|filter|workflow|catch|trap)$/i;

/**
 * A PowerShell `(` that stands among a command's words (`Remove-Item (Join-Path $HOME x)`,
 * `.Delete($p, $true)`): a group whose value is one of the command's arguments. After an
 * operator, a keyword or a function's name it opens a group of statements as before.
 */
function groupArgument(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last?.kind !== 'word') return false;
  const text = plainText(last);
  if (text !== undefined && POWERSHELL_HEADS.test(text)) return false;
  const before = tokens[tokens.length - 2];
  const head = before?.kind === 'word' ? plainText(before) : undefined;
  return head === undefined || !/^(?:function|filter|workflow)$/i.test(head);
}

/** How far ahead `memberOfGroup` looks for the group's end (so a line of groups stays linear). */
const GROUP_LOOKAHEAD = 512;

/** A PowerShell group whose member is taken right after it (`(iwr $u).Content`, `(gc a)[0]`). */
function memberOfGroup(s: string, open: number): boolean {
  const rest = s.slice(open, open + GROUP_LOOKAHEAD);
  const end = skipBalanced(rest, 1);
  return end < rest.length && (rest[end] === '[' || (rest[end] === '.' && /[A-Za-z_]/.test(rest[end + 1] ?? '')));
}

/** Words after which a new command starts (so `((` there is arithmetic). */
const OPENERS = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{', 'time', 'for']);
const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};
const POWERSHELL_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

const isNameStart = (c: string | undefined): boolean =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNameChar = (c: string | undefined): boolean => isNameStart(c) || (c !== undefined && c >= '0' && c <= '9');
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Collects the parts of a word; adjacent literal pieces with the same quoting merge into one. */
class Parts {
  private readonly list: Part[] = [];
  private pending: Extract<Part, { kind: 'lit' }> | undefined;
  private builder: MappedBuilder | undefined;
  private last: Mapped | undefined;
  private lastEnd = 0;
  /** Pieces merged into the pending literal (`"a""b"` is one part of two pieces). */
  private merged = 0;

  get length(): number {
    return this.list.length + (this.pending ? 1 : 0);
  }

  /** Parts and the pieces merged into them: what the word costs to build. */
  get pieces(): number {
    return this.list.length + (this.pending ? 1 : 0) + this.merged;
  }

  /** Appends characters `[start, end)` of `src` as literal text. */
  slice(src: Mapped, start: number, end: number, quoted: boolean): void {
    if (this.pending?.quoted === quoted) {
      this.merge(src, start, end);
      return;
    }
    this.push({ kind: 'lit', text: sliceMapped(src, start, end), quoted });
  }

  /** Appends `count` quoted characters, every other one from `start` on: what a run of escapes leaves. */
  everyOther(src: Mapped, start: number, count: number): void {
    this.slice(src, start, start + 1, true);
    if (count < 2 || !this.pending) return;
    if (!this.builder) {
      this.builder = mappedBuilder();
      this.builder.piece(this.pending.text, 0, this.pending.text.text.length);
    }
    this.builder.everyOther(src, start + 2, count - 1);
    this.merged++;
    this.last = src;
    this.lastEnd = start + 2 * (count - 1) + 1;
  }

  push(part: Part): void {
    if (part.kind !== 'lit') {
      this.close();
      this.list.push(part);
      return;
    }
    if (this.pending?.quoted !== part.quoted) {
      this.close();
      this.pending = part;
      return;
    }
    this.merge(part.text, 0, part.text.text.length);
  }

  private merge(src: Mapped, start: number, end: number): void {
    if (!this.pending) return;
    if (!this.builder) {
      this.builder = mappedBuilder();
      this.builder.piece(this.pending.text, 0, this.pending.text.text.length);
    }
    this.builder.piece(src, start, end);
    this.merged++;
    this.last = src;
    this.lastEnd = end;
  }

  done(): Part[] {
    this.close();
    return this.list;
  }

  private close(): void {
    if (!this.pending) return;
    const end = this.last ? this.last.at(this.lastEnd) : 0;
    this.list.push(
      this.builder ? { kind: 'lit', text: this.builder.build(end), quoted: this.pending.quoted } : this.pending,
    );
    this.pending = undefined;
    this.builder = undefined;
    this.last = undefined;
  }
}

interface Pending {
  readonly heredoc: Heredoc;
  readonly opStart: number;
  readonly depth: number;
}

class Lexer {
  private pos = 0;
  private readonly s: string;
  private readonly pending: Pending[] = [];

  constructor(
    private readonly reader: Reader,
    private readonly src: Mapped,
    private readonly dialect: Dialect,
  ) {
    this.s = src.text;
  }

  /** Reads tokens until the end, or (when `closing`) until the `)` that closes a substitution. */
  list(depth: number, closing: boolean): { tokens: Token[]; closed: boolean } {
    const tokens: Token[] = [];
    const { s, dialect } = this;
    let parens = 0;
    let cases = 0;
    let commandStart = true;
    // a word or redirection since the last operator: the operator ends a command
    let filled = false;
    while (this.pos < s.length && !this.reader.stopped) {
      const start = this.pos;
      const code = s.charCodeAt(start);
      if (isBlank(code)) {
        this.pos++;
        continue;
      }
      const c = s[start] ?? '';
      const next = s[start + 1];
      if (
        next === '\n' &&
        ((c === '\\' && dialect === 'posix') ||
          (c === '`' && dialect === 'powershell') ||
          (c === '^' && dialect === 'cmd'))
      ) {
        this.pos += 2;
        continue;
      }
      if (c === '\n') {
        this.countWord();
        if (filled) this.countCommand();
        filled = false;
        tokens.push(this.op('\n', start, start + 1));
        this.pos++;
        this.bodies();
        commandStart = true;
        continue;
      }
      if (c === '#' && dialect !== 'cmd') {
        const end = s.indexOf('\n', start);
        this.pos = end < 0 ? s.length : end;
        continue;
      }
      if (c === '<' && next === '#' && dialect === 'powershell') {
        const end = s.indexOf('#>', start + 2);
        this.pos = end < 0 ? s.length : end + 2;
        continue;
      }
      if (c === ')') {
        this.pos++;
        if (closing && parens === 0 && cases === 0) return { tokens, closed: true };
        if (parens > 0) parens--;
        this.countWord();
        if (filled) this.countCommand();
        filled = false;
        tokens.push(this.op(')', start, start + 1));
        commandStart = true;
        continue;
      }
      if (c === '(' && dialect === 'powershell' && (groupArgument(tokens) || memberOfGroup(s, start))) {
        // `Remove-Item (Join-Path $HOME x)`: a value among the command's words, not a new command;
        // `(iwr $u).Content`: a value whose member is taken
        tokens.push(this.word(depth));
        filled = true;
        commandStart = false;
        continue;
      }
      if (c === '(') {
        if (dialect === 'posix' && next === '(' && commandStart) {
          this.pos = Math.min(skipArithmetic(s, start + 2), s.length); // `(( i++ ))` computes, it runs nothing
          continue;
        }
        this.pos++;
        parens++;
        this.countWord();
        if (filled) this.countCommand();
        filled = false;
        tokens.push(this.op('(', start, start + 1));
        commandStart = true;
        continue;
      }
      const redirect = this.redirect(depth);
      if (redirect) {
        this.countWord();
        filled = true;
        tokens.push(redirect);
        continue;
      }
      const op =
        c === ';' || c === '&' || c === '|' || c === '{' || c === '}'
          ? firstAt(OPERATORS[dialect], s, start)
          : undefined;
      if (op) {
        this.pos += op.length;
        this.countWord();
        if (filled) this.countCommand();
        filled = false;
        tokens.push(this.op(op, start, this.pos));
        commandStart = true;
        continue;
      }
      const word = this.word(depth);
      if (word.end === start) {
        this.pos++; // a character no rule above consumes; never loop on it
        continue;
      }
      tokens.push(word);
      filled = true;
      // only short words can be keywords; skip joining the text of the rest
      const text = word.end - start <= 5 ? plainText(word) : undefined;
      if (text === 'case' && commandStart) cases++;
      else if (text === 'esac' && cases > 0) cases--;
      commandStart = text !== undefined && OPENERS.has(text);
    }
    return { tokens, closed: !closing };
  }

  /** Marks heredocs whose body never arrived (no newline after their line). */
  finish(): void {
    for (const { heredoc, opStart } of this.pending) {
      heredoc.body = sliceMapped(this.src, this.s.length, this.s.length);
      addOpaque(this.reader, 'unterminated-heredoc', spanOf(this.src, opStart, this.s.length));
    }
    this.pending.length = 0;
  }

  private op(op: string, start: number, end: number): Token {
    return { kind: 'op', op, src: this.src, start, end };
  }

  private opaque(reason: Parameters<typeof addOpaque>[1], start: number, end: number): void {
    addOpaque(this.reader, reason, spanOf(this.src, start, end));
  }

  /** Reads the bodies of the heredocs opened on the line that just ended. */
  private bodies(): void {
    const { s } = this;
    for (const { heredoc, opStart, depth } of this.pending) {
      const bodyStart = this.pos;
      let bodyEnd = -1;
      while (this.pos < s.length) {
        const newline = s.indexOf('\n', this.pos);
        const lineEnd = newline < 0 ? s.length : newline;
        let line = s.slice(this.pos, lineEnd);
        if (heredoc.strip) line = line.replace(/^\t+/, '');
        if (line.endsWith('\r')) line = line.slice(0, -1);
        const lineStart = this.pos;
        this.pos = newline < 0 ? s.length : newline + 1;
        if (line === heredoc.delimiter) {
          bodyEnd = lineStart;
          break;
        }
      }
      if (bodyEnd < 0) {
        bodyEnd = s.length;
        this.opaque('unterminated-heredoc', opStart, s.length);
      }
      heredoc.body = heredoc.strip
        ? stripTabs(this.src, bodyStart, bodyEnd)
        : sliceMapped(this.src, bodyStart, bodyEnd);
      if (!heredoc.quoted) heredoc.parts = lexHeredocBody(this.reader, heredoc.body, depth);
    }
    this.pending.length = 0;
  }

  private redirect(depth: number): RedirToken | undefined {
    const { s, dialect } = this;
    const start = this.pos;
    let i = start;
    while (isDigit(s[i])) i++;
    let fd = i > start ? Number(s.slice(start, i)) : undefined;
    if (i === start && s[i] === '&' && s[i + 1] === '>' && dialect === 'posix') {
      const op = s.startsWith('&>>', i) ? '&>>' : '&>';
      return this.redirectTarget(start, i + op.length, op, undefined, depth);
    }
    if (i === start && s[i] === '*' && s[i + 1] === '>' && dialect === 'powershell') {
      const op = s.startsWith('*>>', i) ? '*>>' : '*>';
      return this.redirectTarget(start, i + op.length, op, undefined, depth);
    }
    if (s[i] !== '<' && s[i] !== '>') return undefined;
    if (i === start && s[i + 1] === '(' && dialect === 'posix') return undefined; // <(…) is a word
    const op = firstAt(REDIRECTS[dialect], s, i) ?? '>';
    if (fd !== undefined && !Number.isSafeInteger(fd)) fd = undefined;
    return this.redirectTarget(start, i + op.length, op, fd, depth);
  }

  private redirectTarget(start: number, after: number, op: string, fd: number | undefined, depth: number): RedirToken {
    const { s } = this;
    this.pos = after;
    while (isBlank(s.charCodeAt(this.pos))) this.pos++;
    const c = s[this.pos];
    const processSubstitution = this.dialect === 'posix' && (c === '<' || c === '>') && s[this.pos + 1] === '(';
    // field by field, not `{ ...base, … }` (see innerFrame in context.ts)
    const token = (end: number, target?: WordToken, heredoc?: Heredoc): RedirToken => ({
      kind: 'redir',
      src: this.src,
      start,
      op,
      ...(fd === undefined ? {} : { fd }),
      end,
      ...(target === undefined ? {} : { target }),
      ...(heredoc === undefined ? {} : { heredoc }),
    });
    if (c === undefined || c === '\n' || (WORD_END[this.dialect].has(c) && !processSubstitution)) {
      this.opaque('unreadable', start, after);
      return token(after);
    }
    const target = this.word(depth);
    if (op === '<<' || op === '<<-') {
      let delimiter = '';
      let quoted = false;
      for (const part of target.parts) {
        if (part.kind === 'lit') {
          delimiter += part.text.text;
          quoted ||= part.quoted;
        } else delimiter += part.raw.text;
      }
      const heredoc: Heredoc = { delimiter, quoted, strip: op === '<<-' };
      this.pending.push({ heredoc, opStart: start, depth });
      return token(target.end, target, heredoc);
    }
    return token(target.end, target);
  }

  /** Spends `n` units of the word budget (words, operators and pieces of words); false once it is spent. */
  private countWord(n = 1): boolean {
    this.reader.words += n;
    if (this.reader.words <= LIMITS.words) return true;
    this.stop();
    return false;
  }

  /**
   * Counts one more command (words and redirections ended by an operator or a newline). Past the
   * invocation cap every lexer stops: a line of 30,000 `ls;` or `a=b&` is not lexed to its end
   * only for the walk to drop all but the first thousand.
   */
  private countCommand(): void {
    if (++this.reader.commands <= LIMITS.invocations || this.reader.stopped) return;
    this.reader.stopped = true;
    addOpaque(
      this.reader,
      'too-many-stages',
      [this.src.at(Math.min(this.pos, this.s.length)), this.reader.line.length],
      `more than ${LIMITS.invocations} commands`,
    );
  }

  /**
   * True once the word being read has more than `most` parts (or pieces: `"a""a"…`), or its parts
   * would spend the rest of the budget (then every lexer stops): a run of `$$`, `$a/` or `%a%` is
   * cut there instead of making a part for every few characters. The caller keeps the rest of the
   * word with cutPart.
   */
  private tooManyParts(parts: Parts, most: number = LIMITS.parts): boolean {
    if (parts.length <= most && parts.pieces <= most * 10 && this.reader.words + parts.length <= LIMITS.words)
      return false;
    if (this.reader.words + parts.length > LIMITS.words) this.stop();
    return true;
  }

  /**
   * The rest of a word past its parts' bound, `[start, end)`: kept as written and never resolved,
   * so the word still ends where it ends (`rm -rf $a/…/x` cut after a `$a/` is not a path ending
   * in `/`), and reported as too long unless the whole line already is.
   */
  private cutPart(start: number, end: number): Part {
    if (!this.reader.stopped)
      addOpaque(
        this.reader,
        'too-long',
        spanOf(this.src, start, end),
        `a word of more than ${LIMITS.parts} parts or ${LIMITS.parts * 10} pieces`,
      );
    return { kind: 'raw', raw: sliceMapped(this.src, start, end) };
  }

  /** Every lexer stops; the rest of the line is reported as too long to read. */
  private stop(): void {
    if (this.reader.stopped) return;
    this.reader.stopped = true;
    addOpaque(
      this.reader,
      'too-long',
      [this.src.at(Math.min(this.pos, this.s.length)), this.reader.line.length],
      `more than ${LIMITS.words} words`,
    );
  }

  /** Reads one word: quoted pieces, escapes, variables and substitutions joined as the shell joins them. */
  private word(depth: number): WordToken {
    const { s, src, dialect } = this;
    const start = this.pos;
    if (!this.countWord()) return { kind: 'word', src, start, end: start, parts: [] };
    const ends = WORD_END[dialect];
    const special = SPECIAL[dialect];
    // Most words are one run of plain characters ended by a blank, a newline, an operator or the
    // end of the text: one unquoted literal, made without the general loop's collector. `(`, `<`
    // and `>` are left to the loop (array values, process substitution).
    let plain = start;
    while (plain < s.length) {
      const code = s.charCodeAt(plain);
      if (code < 128 && special[code] !== 0) break;
      plain++;
    }
    if (plain > start) {
      const c = s[plain];
      if (
        c === undefined ||
        isBlank(s.charCodeAt(plain)) ||
        c === '\n' ||
        (ends.has(c) && c !== '(' && c !== '<' && c !== '>')
      ) {
        this.pos = plain;
        // the part and its list made apart (docs/performance.md, "No literal nested in a literal")
        const part: Part = { kind: 'lit', text: sliceMapped(src, start, plain), quoted: false };
        const parts = [part];
        return { kind: 'word', src, start, end: plain, parts };
      }
    }
    // the collector only for words the fast path above did not take
    const parts = new Parts();
    // `NAME=value`: a `~` or an array `(…)` may open the value
    let valueStart = -1;
    if (isNameStart(s[start])) {
      let i = start + 1;
      while (isNameChar(s[i])) i++;
      if (s[i] === '=') valueStart = i + 1;
      else if (s[i] === '+' && s[i + 1] === '=') valueStart = i + 2;
    }
    let run = start;
    const flush = (): void => {
      if (this.pos > run) parts.slice(src, run, this.pos, false);
    };
    while (this.pos < s.length) {
      const i = this.pos;
      const code = s.charCodeAt(i);
      if (code >= 128 || special[code] === 0) {
        this.pos++;
        continue;
      }
      const c = s[i] ?? '';
      const next = s[i + 1];
      if (isBlank(code) || c === '\n' || this.reader.stopped) break;
      if (this.tooManyParts(parts)) {
        flush();
        this.pos = skipWord(s, i, dialect);
        if (this.pos > i) parts.push(this.cutPart(i, this.pos));
        run = this.pos;
        break;
      }
      if (dialect === 'posix' && (c === '<' || c === '>') && next === '(') {
        flush();
        this.substitution(parts, depth, i, i + 2, `${c}(`, false);
        run = this.pos;
        continue;
      }
      if (c === '(' && i === valueStart && dialect === 'posix') {
        this.pos = skipBalanced(s, i + 1); // array assignment `a=(x y)`: kept as one literal
        continue;
      }
      if (
        dialect === 'powershell' &&
        c === '@' &&
        i === start &&
        (next === '(' || next === '{' || next === "'" || next === '"')
      ) {
        if (this.hereString(parts, depth)) {
          run = this.pos;
          continue;
        }
      }
      if (c === '(' && i === start && dialect === 'powershell') {
        this.substitution(parts, depth, i, i + 1, '(', false);
        run = this.pos;
        continue;
      }
      if (ends.has(c)) break;
      if (c === '~' && (i === start || i === valueStart) && dialect !== 'cmd' && tildeEnds(s[i + 1], ends)) {
        flush();
        parts.push({ kind: 'tilde', raw: sliceMapped(src, i, i + 1) });
        this.pos = i + 1;
        run = this.pos;
        continue;
      }
      const escape = dialect === 'posix' ? '\\' : dialect === 'powershell' ? '`' : '^';
      if (c === escape) {
        flush();
        if (next === undefined) {
          parts.slice(src, i, i + 1, false);
          this.pos = i + 1;
        } else {
          if (next === '\n') this.pos = i + 2;
          else if (dialect === 'powershell') {
            if (POWERSHELL_ESCAPES[next] !== undefined) parts.push(this.escaped(i, next));
            else parts.slice(src, i + 1, i + 2, true);
            this.pos = i + 2;
          } else {
            // a run of escapes (`\a\b\c`) is taken at once, as one run of quoted characters
            let j = i + 2;
            while (s[j] === c && j + 1 < s.length && s[j + 1] !== '\n') j += 2;
            parts.everyOther(src, i + 1, (j - i) / 2);
            this.pos = j;
          }
        }
        run = this.pos;
        continue;
      }
      if (c === "'" && dialect !== 'cmd') {
        flush();
        this.single(parts);
        run = this.pos;
        continue;
      }
      if (c === '"') {
        flush();
        if (dialect === 'cmd') this.cmdQuoted(parts);
        else this.double(parts, depth, false);
        run = this.pos;
        continue;
      }
      if (c === '$' && dialect !== 'cmd') {
        flush();
        this.dollar(parts, depth, false);
        run = this.pos;
        continue;
      }
      if (c === '`' && dialect === 'posix') {
        flush();
        this.backtick(parts, depth, false);
        run = this.pos;
        continue;
      }
      if (c === '%' && this.percentVar(parts, false, flush)) {
        run = this.pos;
        continue;
      }
      this.pos++;
    }
    flush();
    const done = parts.done();
    if (done.length > 1) this.countWord(done.length - 1);
    return { kind: 'word', src, start, end: this.pos, parts: done };
  }

  /** An escaped character outside quotes (`\x` in sh, `` `x `` in PowerShell, `^x` in cmd). */
  private escaped(i: number, next: string): Part {
    if (this.dialect === 'powershell' && POWERSHELL_ESCAPES[next] !== undefined) {
      const b = mappedBuilder();
      b.char(POWERSHELL_ESCAPES[next], this.src.at(i));
      return { kind: 'lit', text: b.build(this.src.at(i + 1) + 1), quoted: true };
    }
    return { kind: 'lit', text: sliceMapped(this.src, i + 1, i + 2), quoted: true };
  }

  private single(parts: Parts): void {
    const { s, src } = this;
    const open = this.pos;
    if (this.dialect === 'powershell') {
      // '' inside single quotes is one quote
      const b = mappedBuilder();
      let i = open + 1;
      for (;;) {
        const close = s.indexOf("'", i);
        if (close < 0) {
          b.piece(src, i, s.length);
          parts.push({ kind: 'lit', text: b.build(src.at(s.length)), quoted: true });
          this.opaque('unbalanced-quote', open, s.length);
          this.pos = s.length;
          return;
        }
        b.piece(src, i, close);
        if (s[close + 1] === "'") {
          b.piece(src, close + 1, close + 2);
          i = close + 2;
          continue;
        }
        parts.push({ kind: 'lit', text: b.build(src.at(close)), quoted: true });
        this.pos = close + 1;
        return;
      }
    }
    const close = s.indexOf("'", open + 1);
    const end = close < 0 ? s.length : close;
    parts.slice(src, open + 1, end, true);
    if (close < 0) this.opaque('unbalanced-quote', open, s.length);
    this.pos = close < 0 ? s.length : close + 1;
  }

  /** cmd.exe quotes: no escapes inside, `%VAR%` still expands. */
  private cmdQuoted(parts: Parts): void {
    const { s, src } = this;
    const open = this.pos;
    const before = parts.length;
    this.pos++;
    let run = this.pos;
    const flush = (): void => {
      if (this.pos > run) parts.slice(src, run, this.pos, true);
    };
    while (this.pos < s.length && s[this.pos] !== '"' && s[this.pos] !== '\n') {
      if (s[this.pos] === '%' && this.percentVar(parts, true, flush)) {
        run = this.pos;
        continue;
      }
      this.pos++;
    }
    flush();
    if (parts.length === before) parts.slice(src, open + 1, open + 1, true);
    if (s[this.pos] === '"') this.pos++;
  }

  /**
   * Double quotes (or, with `heredoc`, an unquoted heredoc body: same expansions, no closing quote).
   * Public for lexHeredocBody.
   */
  double(parts: Parts, depth: number, heredoc: boolean): void {
    const { s, src, dialect } = this;
    const open = this.pos;
    const before = parts.length;
    if (!heredoc) this.pos++;
    let run = this.pos;
    const flush = (): void => {
      if (this.pos > run) parts.slice(src, run, this.pos, true);
    };
    while (this.pos < s.length && !this.reader.stopped) {
      const i = this.pos;
      const code = s.charCodeAt(i);
      // only `"`, `\`, `` ` ``, `$` and `%` mean anything inside double quotes
      if (code !== 34 && code !== 92 && code !== 96 && code !== 36 && code !== 37) {
        this.pos++;
        continue;
      }
      // a heredoc body is no word: only the budget bounds its parts
      if (this.tooManyParts(parts, heredoc ? LIMITS.words : LIMITS.parts)) {
        flush();
        const close = heredoc ? s.length : skipDouble(s, i);
        if (close > i) parts.push(this.cutPart(i, close));
        this.pos = close < s.length ? close + 1 : close;
        if (close < s.length) return;
        run = this.pos;
        break;
      }
      const c = s[i];
      const next = s[i + 1];
      if (c === '"' && !heredoc) {
        if (dialect === 'powershell' && next === '"') {
          flush();
          parts.slice(src, i + 1, i + 2, true);
          this.pos = i + 2;
          run = this.pos;
          continue;
        }
        flush();
        if (parts.length === before) parts.slice(src, i, i, true);
        this.pos = i + 1;
        return;
      }
      if (
        c === '\\' &&
        dialect === 'posix' &&
        next !== undefined &&
        ('$`\\\n'.includes(next) || (next === '"' && !heredoc))
      ) {
        // drop the backslash: the escaped character starts the next run of plain text
        flush();
        if (next === '\n') {
          run = i + 2;
          this.pos = i + 2;
          continue;
        }
        // a run of escapes (`\\\"` in a nested `bash -c`) is taken at once
        let j = i + 2;
        while (s[j] === '\\' && escapedInDouble(s[j + 1], heredoc)) j += 2;
        if (j > i + 2) parts.everyOther(src, i + 1, (j - i) / 2);
        run = j > i + 2 ? j : i + 1;
        this.pos = j;
        continue;
      }
      if (c === '`' && dialect === 'powershell' && next !== undefined) {
        flush();
        parts.push(this.escaped(i, next));
        this.pos = i + 2;
        run = this.pos;
        continue;
      }
      if (c === '$') {
        flush();
        this.dollar(parts, depth, true);
        run = this.pos;
        continue;
      }
      if (c === '`' && dialect === 'posix') {
        flush();
        this.backtick(parts, depth, true);
        run = this.pos;
        continue;
      }
      if (c === '%' && this.percentVar(parts, true, flush)) {
        run = this.pos;
        continue;
      }
      this.pos++;
    }
    flush();
    if (!heredoc) {
      if (parts.length === before) parts.slice(src, s.length, s.length, true);
      // cut short by the budget: the quote may well close after the part not read
      if (!this.reader.stopped) this.opaque('unbalanced-quote', open, s.length);
    }
  }

  /** `%NAME%` (cmd.exe style). Returns false when the `%` is only a character. */
  private percentVar(parts: Parts, quoted: boolean, flush: () => void): boolean {
    const { s } = this;
    const start = this.pos;
    if (!isNameStart(s[start + 1])) return false;
    let i = start + 2;
    while (isNameChar(s[i])) i++;
    if (s[i] !== '%') return false;
    flush();
    parts.push({
      kind: 'var',
      name: s.slice(start + 1, i),
      raw: sliceMapped(this.src, start, i + 1),
      quoted,
      caseless: true,
    });
    this.pos = i + 1;
    return true;
  }

  private dollar(parts: Parts, depth: number, quoted: boolean): void {
    const { s, src, dialect } = this;
    const start = this.pos;
    const next = s[start + 1];
    if (next === '(') {
      if (s[start + 2] === '(' && dialect === 'posix') {
        const end = skipArithmetic(s, start + 3);
        this.pos = Math.min(end, s.length);
        const raw = sliceMapped(src, start, this.pos);
        if (end > s.length) {
          // not read inside: in a run of `$((` every level would read the rest of the text again
          this.opaque('unterminated-substitution', start, s.length);
          parts.push({ kind: 'raw', raw });
          return;
        }
        // the expression computes, but a `$(…)` inside it still runs
        const expression = sliceMapped(src, start + 3, Math.max(start + 3, this.pos - 2));
        const inner =
          depth + 1 <= LIMITS.depth && /[$`]/.test(expression.text)
            ? lexHeredocBody(this.reader, expression, depth + 1)
            : [];
        parts.push(inner.length ? { kind: 'raw', raw, inner } : { kind: 'raw', raw });
        return;
      }
      this.substitution(parts, depth, start, start + 2, '$(', quoted);
      return;
    }
    if (next === '{') {
      this.braceVar(parts, depth, quoted);
      return;
    }
    if (dialect === 'posix' && !quoted && next === "'") {
      this.ansiC(parts);
      return;
    }
    if (dialect === 'posix' && !quoted && next === '"') {
      this.pos = start + 1;
      this.double(parts, depth, false);
      return;
    }
    if (isNameStart(next)) {
      let i = start + 2;
      while (isNameChar(s[i])) i++;
      const name = s.slice(start + 1, i);
      if (name.toLowerCase() === 'env' && s[i] === ':' && isNameStart(s[i + 1])) {
        let j = i + 2;
        while (isNameChar(s[j])) j++;
        parts.push({ kind: 'var', name: s.slice(i + 1, j), raw: sliceMapped(src, start, j), quoted, caseless: true });
        this.pos = j;
        return;
      }
      parts.push({
        kind: 'var',
        name,
        raw: sliceMapped(src, start, i),
        quoted,
        ...(dialect === 'powershell' ? { caseless: true } : {}),
      });
      this.pos = i;
      return;
    }
    if (next !== undefined && dialect === 'posix' && (isDigit(next) || '@*#?$!-'.includes(next))) {
      parts.push({ kind: 'var', name: next, raw: sliceMapped(src, start, start + 2), quoted });
      this.pos = start + 2;
      return;
    }
    parts.push({ kind: 'lit', text: sliceMapped(src, start, start + 1), quoted });
    this.pos = start + 1;
  }

  /** `${NAME}`, `${NAME:-alt}` and the forms kept as written (`${#NAME}`, `${NAME%x}`, …). */
  private braceVar(parts: Parts, depth: number, quoted: boolean): void {
    const { s, src } = this;
    const start = this.pos;
    let i = start + 2;
    let name = '';
    if (isNameStart(s[i])) {
      while (isNameChar(s[i])) i++;
      name = s.slice(start + 2, i);
    } else if (isDigit(s[i]) || (s[i] !== undefined && '@*?$!-'.includes(s[i] ?? '') && s[i + 1] === '}')) {
      i++;
      name = s.slice(start + 2, i);
    }
    if (name.toLowerCase() === 'env' && s[i] === ':' && this.dialect === 'powershell') {
      const close = s.indexOf('}', i);
      if (close > 0) {
        parts.push({
          kind: 'var',
          name: s.slice(i + 1, close),
          raw: sliceMapped(src, start, close + 1),
          quoted,
          caseless: true,
        });
        this.pos = close + 1;
        return;
      }
    }
    if (name && s[i] === '}') {
      parts.push({
        kind: 'var',
        name,
        raw: sliceMapped(src, start, i + 1),
        quoted,
        ...(this.dialect === 'powershell' ? { caseless: true } : {}),
      });
      this.pos = i + 1;
      return;
    }
    const op = name ? [':-', ':=', ':+', ':?', '-', '=', '+', '?'].find((o) => s.startsWith(o, i)) : undefined;
    if (op && depth + 1 <= LIMITS.depth) {
      this.pos = i + op.length;
      const alt = new Parts();
      const closed = this.braceWord(alt, depth + 1);
      if (!closed) this.opaque('unterminated-substitution', start, s.length);
      parts.push({ kind: 'var', name, raw: sliceMapped(src, start, this.pos), quoted, op, alt: alt.done() });
      return;
    }
    const end = skipBraces(s, start + 2);
    if (end > s.length) this.opaque('unterminated-substitution', start, s.length);
    this.pos = Math.min(end, s.length);
    parts.push({ kind: 'var', name, raw: sliceMapped(src, start, this.pos), quoted, complex: true });
  }

  /** The word inside `${NAME:-…}` up to its closing brace. */
  private braceWord(parts: Parts, depth: number): boolean {
    const { s, src } = this;
    let run = this.pos;
    const flush = (): void => {
      if (this.pos > run) parts.slice(src, run, this.pos, false);
    };
    while (this.pos < s.length) {
      const i = this.pos;
      const c = s[i];
      if (c === '}') {
        flush();
        this.pos = i + 1;
        return true;
      }
      if (c === '\\' && i + 1 < s.length) {
        flush();
        parts.slice(src, i + 1, i + 2, true);
        this.pos = i + 2;
      } else if (c === "'") {
        flush();
        this.single(parts);
      } else if (c === '"') {
        flush();
        this.double(parts, depth, false);
      } else if (c === '$') {
        flush();
        this.dollar(parts, depth, false);
      } else if (c === '`') {
        flush();
        this.backtick(parts, depth, false);
      } else {
        this.pos++;
        continue;
      }
      run = this.pos;
    }
    flush();
    return false;
  }

  /** `$'…'`: ANSI-C quoting with `\n`, `\xHH`, `\NNN`, `\uHHHH`, … */
  private ansiC(parts: Parts): void {
    const { s, src } = this;
    const open = this.pos;
    const b = mappedBuilder();
    let i = open + 2;
    let run = i;
    let escapes = 0;
    while (i < s.length && s[i] !== "'") {
      const c = s[i] ?? '';
      if (c !== '\\' || i + 1 >= s.length) {
        i++;
        continue;
      }
      if (this.reader.words + ++escapes > LIMITS.words) {
        // kept as written and never resolved (see word); the line is too long from here
        this.pos = i;
        this.stop();
        this.pos = skipEscapedTo(s, i, "'");
        parts.push({ kind: 'raw', raw: sliceMapped(src, open, this.pos) });
        return;
      }
      b.piece(src, run, i);
      const n = s[i + 1] ?? '';
      const at = src.at(i);
      let end = i + 2;
      let value: string;
      if (ANSI_ESCAPES[n] !== undefined) value = ANSI_ESCAPES[n];
      else if (n === 'x' || n === 'u' || n === 'U') {
        const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
        while (end < s.length && end - (i + 2) < max && /[0-9a-fA-F]/.test(s[end] ?? '')) end++;
        const code = end > i + 2 ? Number.parseInt(s.slice(i + 2, end), 16) : Number.NaN;
        value = Number.isNaN(code) ? `\\${n}` : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      } else if (n >= '0' && n <= '7') {
        end = i + 1;
        while (end < s.length && end - (i + 1) < 3 && (s[end] ?? '') >= '0' && (s[end] ?? '') <= '7') end++;
        value = String.fromCharCode(Number.parseInt(s.slice(i + 1, end), 8) & 0xff);
      } else if (n === 'c' && i + 2 < s.length) {
        end = i + 3;
        value = String.fromCharCode((s.charCodeAt(i + 2) & 0x1f) >>> 0);
      } else value = `\\${n}`;
      b.char(value, at);
      i = end;
      run = i;
    }
    b.piece(src, run, Math.min(i, s.length));
    const closed = i < s.length;
    if (!closed) this.opaque('unbalanced-quote', open, s.length);
    parts.push({ kind: 'lit', text: b.build(src.at(Math.min(i, s.length))), quoted: true });
    this.pos = closed ? i + 1 : s.length;
  }

  /** `$(…)`, `<(…)`, `>(…)`: the commands inside are lexed now, from the same text. */
  private substitution(
    parts: Parts,
    depth: number,
    start: number,
    contentStart: number,
    open: string,
    quoted: boolean,
  ): void {
    const { s, src, dialect } = this;
    if (depth + 1 > LIMITS.depth) {
      const end = skipBalanced(s, contentStart);
      this.opaque('too-deep', start, end);
      this.pos = end;
      parts.push({ kind: 'raw', raw: sliceMapped(src, start, end) });
      return;
    }
    this.pos = contentStart;
    const { tokens, closed } = this.list(depth + 1, true);
    // cut short by the budget, the `)` may well come in the part not read
    if (!closed && !this.reader.stopped) this.opaque('unterminated-substitution', start, s.length);
    parts.push(this.sub(open, tokens, start, quoted, depth + 1, dialect));
  }

  private sub(
    open: string,
    tokens: readonly Token[],
    start: number,
    quoted: boolean,
    depth: number,
    dialect: Dialect,
  ): Part {
    this.countWord();
    const origin = this.src.at(start);
    const seen = this.reader.seen.has(origin);
    if (!seen) this.reader.seen.add(origin);
    return { kind: 'sub', open, tokens, raw: sliceMapped(this.src, start, this.pos), quoted, seen, depth, dialect };
  }

  /** Backticks: the text inside loses one level of backslashes, then is lexed as its own source. */
  private backtick(parts: Parts, depth: number, quoted: boolean): void {
    const { s, src } = this;
    const start = this.pos;
    const b = mappedBuilder();
    let i = start + 1;
    // runs of plain text go in whole; an escape drops its backslash and starts the next run
    let run = i;
    while (i < s.length && s[i] !== '`') {
      const n = s[i + 1];
      if (s[i] === '\\' && n !== undefined && ('$`\\'.includes(n) || (quoted && n === '"'))) {
        b.piece(src, run, i);
        // a run of escapes (`\$\$`, `\\\``) is taken at once
        let j = i + 2;
        while (s[j] === '\\' && escapedInDouble(s[j + 1], !quoted)) j += 2;
        if (j > i + 2) b.everyOther(src, i + 1, (j - i) / 2);
        run = j > i + 2 ? j : i + 1;
        i = j;
        continue;
      }
      i++;
    }
    b.piece(src, run, Math.min(i, s.length));
    const closed = i < s.length;
    this.pos = closed ? i + 1 : s.length;
    if (!closed) this.opaque('unterminated-substitution', start, s.length);
    if (depth + 1 > LIMITS.depth) {
      this.opaque('too-deep', start, this.pos);
      parts.push({ kind: 'raw', raw: sliceMapped(src, start, this.pos) });
      return;
    }
    const inner = b.build(src.at(Math.min(i, s.length)));
    const tokens = inner.text.length === 0 ? [] : lex(this.reader, inner, depth + 1, 'posix');
    parts.push(this.sub('`', tokens, start, quoted, depth + 1, 'posix'));
  }

  /** PowerShell `@(…)`, `@{…}`, and here-strings `@'…'@` / `@"…"@` (data). */
  private hereString(parts: Parts, depth: number): boolean {
    const { s, src } = this;
    const start = this.pos;
    const next = s[start + 1];
    if (next === '(') {
      this.substitution(parts, depth, start, start + 2, '@(', false);
      return true;
    }
    if (next === '{') {
      // a hashtable: its entries are read as statements (`Key = (Get-Date)` runs what the value
      // runs), the `Key = …` heads as data (see runSimple)
      const end = Math.min(skipBraces(s, start + 2), s.length);
      if (depth + 1 > LIMITS.depth) {
        this.opaque('too-deep', start, end);
        this.pos = end;
        parts.push({ kind: 'raw', raw: sliceMapped(src, start, end) });
        return true;
      }
      const close = s[end - 1] === '}' ? end - 1 : end;
      const tokens = lex(this.reader, sliceMapped(src, start + 2, close), depth + 1, 'powershell');
      this.pos = end;
      parts.push(this.sub('@{', tokens, start, true, depth + 1, 'powershell'));
      return true;
    }
    const quote = next ?? '';
    let i = start + 2;
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '\r') i++;
    if (s[i] !== '\n') return false;
    const close = s.indexOf(`\n${quote}@`, i);
    const end = close < 0 ? s.length : close;
    parts.slice(src, i + 1, end, true);
    if (close < 0) this.opaque('unbalanced-quote', start, s.length);
    this.pos = close < 0 ? s.length : close + 3;
    return true;
  }
}

/** A character a backslash escapes inside double quotes (a newline aside), or in an unquoted heredoc body. */
function escapedInDouble(c: string | undefined, heredoc: boolean): boolean {
  return c === '$' || c === '`' || c === '\\' || (c === '"' && !heredoc);
}

function tildeEnds(next: string | undefined, ends: Set<string>): boolean {
  return (
    next === undefined ||
    next === '/' ||
    next === '\\' ||
    next === ':' ||
    next === '\n' ||
    isBlank(next.charCodeAt(0)) ||
    ends.has(next)
  );
}

/**
 * Where a word that starts (or goes on) at `i` ends, for the part of a word past the budget: quotes,
 * escapes and substitutions are skipped over without being read.
 */
function skipWord(s: string, i: number, dialect: Dialect): number {
  const special = SPECIAL[dialect];
  const ends = ENDS[dialect];
  while (i < s.length) {
    const code = s.charCodeAt(i);
    if (code >= 128 || special[code] === 0) i++;
    else if (ends[code] === 1) return i;
    else if (code === 92)
      i += 2; // \
    else if (code === 39) {
      const close = s.indexOf("'", i + 1);
      i = close < 0 ? s.length : close + 1;
    } else if (code === 34) i = skipDouble(s, i + 1) + 1;
    else if (code === 96) i = skipEscapedTo(s, i + 1, '`');
    else if (code === 36 && s.charCodeAt(i + 1) === 40)
      i = skipBalanced(s, i + 2); // $(
    else if (code === 36 && s.charCodeAt(i + 1) === 123)
      i = skipBraces(s, i + 2); // ${
    else i++;
  }
  return s.length;
}

/** Index of the `"` that closes a double-quoted string going on at `i` (the length when it never closes). */
function skipDouble(s: string, i: number): number {
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return i;
    if (c === '\\') i += 2;
    else if (c === '`') i = skipEscapedTo(s, i + 1, '`');
    else if (c === '$' && s[i + 1] === '(') i = skipBalanced(s, i + 2);
    else if (c === '$' && s[i + 1] === '{') i = skipBraces(s, i + 2);
    else i++;
  }
  return s.length;
}

/**
 * Index after the first `close` not escaped by a backslash from `i`: the backtick that closes a
 * command substitution, the `'` that closes an ANSI-C string (`$'…'`).
 */
function skipEscapedTo(s: string, i: number, close: '`' | "'"): number {
  while (i < s.length) {
    const c = s[i];
    if (c === close) return i + 1;
    i += c === '\\' ? 2 : 1;
  }
  return s.length;
}

/** Index after the `))` closing an arithmetic expression that starts at `i` (past the length when it never closes). */
function skipArithmetic(s: string, i: number): number {
  let level = 0;
  for (; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code === 40)
      level++; // (
    else if (code === 41) {
      // )
      if (level > 0) level--;
      else return s.charCodeAt(i + 1) === 41 ? i + 2 : i + 1;
    }
  }
  return s.length + 1;
}

/**
 * Index after the `)` that closes a group opened just before `i`, without recursion, skipping quoted
 * text (used where nesting is too deep to lex, and for array assignments).
 */
function skipBalanced(s: string, i: number): number {
  // stack of open constructs: ')' waits for a paren, '"' for a double quote
  const stack: string[] = [')'];
  while (i < s.length) {
    const c = s[i];
    const top = stack[stack.length - 1];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (top === '"') {
      if (c === '"') stack.pop();
      else if (c === '$' && s[i + 1] === '(') {
        stack.push(')');
        i++;
      }
      i++;
      continue;
    }
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      i = close < 0 ? s.length : close + 1;
      continue;
    }
    if (c === '"') stack.push('"');
    else if (c === '(') stack.push(')');
    else if (c === ')') {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
    i++;
  }
  return s.length;
}

/** Index after the `}` that closes a `${` or `@{` opened just before `i` (may exceed length when unclosed). */
function skipBraces(s: string, i: number): number {
  let level = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') level++;
    else if (c === '}') {
      if (level === 0) return i + 1;
      level--;
    }
  }
  return s.length + 1;
}

/** A `<<-` body: leading tabs removed from every line. */
function stripTabs(src: Mapped, start: number, end: number): Mapped {
  const b = mappedBuilder();
  const s = src.text;
  let i = start;
  while (i < end) {
    while (i < end && s[i] === '\t') i++;
    const newline = s.indexOf('\n', i);
    const lineEnd = newline < 0 || newline >= end ? end : newline + 1;
    b.piece(src, i, lineEnd);
    i = lineEnd;
  }
  return b.build(src.at(end));
}
