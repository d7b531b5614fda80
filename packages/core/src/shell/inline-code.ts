import type { Language } from '../programs/index.js';
import { program, sourceOf } from '../programs/index.js';
import type { Word } from './expand.js';
import { joinMapped, mappedBuilder, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';

export type { Language } from '../programs/index.js';

/** Where an interpreter's program comes from, judged from its arguments. */
export type CodeSource =
  | { readonly kind: 'inline'; readonly language: Language; readonly words: readonly Word[] }
  | { readonly kind: 'stdin'; readonly language: Language }
  | { readonly kind: 'none' };

const NO_CODE: CodeSource = { kind: 'none' };

/**
 * Whether `name args…` runs inline code (`python -c`, `node -e`, `awk '{…}'`, `deno eval`), reads
 * its program from stdin, or neither: the knowledge base's `sourceOf`, with the words' positions.
 */
export function codeSource(name: string, args: readonly Word[]): CodeSource {
  const source = sourceOf(
    name,
    args.map((w) => w.text),
  );
  if (source.kind === 'stdin')
    return source.language === undefined ? NO_CODE : { kind: 'stdin', language: source.language };
  if (source.kind === 'script') {
    // `python3 <(printf …)`: the script is what the substitution prints
    const word = args[source.index];
    const language = program(name)?.language;
    return word?.printed === undefined || language === undefined || source.language === 'shell'
      ? NO_CODE
      : { kind: 'inline', language, words: [{ ...word, text: word.printed.text, map: word.printed }] };
  }
  if (source.kind !== 'code') return NO_CODE;
  const words: Word[] = [];
  for (const { index, offset } of source.parts) {
    const word = args[index];
    if (word === undefined) continue;
    words.push(
      offset ? { ...word, text: word.text.slice(offset), map: sliceMapped(word.map, offset, word.text.length) } : word,
    );
  }
  return words.length > 0 ? { kind: 'inline', language: source.language, words } : NO_CODE;
}

/** The code of an inline source as one text (several `-e` parts joined by newlines). */
export function codeText(words: readonly Word[]): Mapped {
  return joinMapped(
    words.map((w) => w.map),
    '\n',
  );
}

/** A command found in inline code: a shell line, or an argv that runs without a shell. */
export type CodeCommand =
  { readonly kind: 'text'; readonly text: Mapped } | { readonly kind: 'argv'; readonly words: readonly Mapped[] };

const CALLS: Readonly<Record<Language, RegExp | undefined>> = {
  python:
    /(?<![\w.])(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|system|popen|check_output|check_call|Popen|getoutput)\s*\(/g,
  node: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  deno: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  ruby: /(?<![\w:])(?:system|exec|spawn|IO\.popen|Open3\.(?:capture2e|capture2|capture3|popen2e|popen2|popen3|pipeline))(?![\w?!])[ \t]*\(?|`|%x[({[<|!]/g,
  perl: /(?<![\w$@%>])(?:system|exec)(?!\w)[ \t]*\(?|`|\bqx[({[</|!']/g,
  php: /(?<![\w$>:])(?:shell_exec|exec|system|passthru|popen|proc_open|pcntl_exec)\s*\(|`/g,
  awk: /(?<![\w$])system\s*\(/g,
  lua: /(?<![\w.:])(?:os\.execute|io\.popen)\s*\(?/g,
  applescript: /\bdo shell script[ \t]+/g,
  r: /(?<![\w.])(?:system2?|shell)\s*\(/g,
  powershell: undefined,
  other: undefined,
};

/** At most this many call sites are looked at, and commands taken, in one piece of code. */
const MAX_CALLS = 256;
const MAX_FOUND = 64;

/**
 * Finds calls that run commands in inline code and returns what they run. Only string literals
 * (and lists of them) are read; this is a scanner, not a parser for the language.
 */
export function commandsInCode(language: Language, code: Mapped): CodeCommand[] {
  const pattern = CALLS[language];
  if (!pattern) return [];
  const scanner = new Scanner(code, language);
  const found: CodeCommand[] = [];
  const s = code.text;
  // the language's own pattern, not a copy per call (nothing in the loop below scans code in turn)
  const re = pattern;
  re.lastIndex = 0;
  let calls = 0;
  for (let m = re.exec(s); m && found.length < MAX_FOUND && calls++ < MAX_CALLS && scanner.budget > 0; m = re.exec(s)) {
    const matched = m[0];
    const after = m.index + matched.length;
    let command: CodeCommand | undefined;
    if (matched === '`' || matched === '$') {
      const literal = scanner.string(matched === '$' ? after : m.index);
      if (literal) re.lastIndex = literal.end;
      command = literal && { kind: 'text', text: literal.value };
    } else if (/^(?:%x|qx)/.test(matched)) {
      const literal = scanner.delimited(after - 1);
      re.lastIndex = literal.end;
      command = { kind: 'text', text: literal.value };
    } else if (/Deno\.(?:Command|run)/.test(matched)) {
      command = scanner.denoCommand(after, /Deno\.run/.test(matched) ? 'cmd' : 'args');
    } else {
      command = commandFromArgs(scanner.args(after, matched.endsWith('(')));
    }
    if (command) found.push(command);
  }
  return found;
}

type Arg =
  | { readonly kind: 'str'; readonly value: Mapped }
  | { readonly kind: 'list'; readonly items: readonly Mapped[] }
  | { readonly kind: 'other' };

/** `f("rm -rf x")` is a shell line; `f(["rm", "-rf"])`, `f("rm", ["-rf"])`, `f("rm", "-rf")` are argvs. */
function commandFromArgs(args: readonly Arg[]): CodeCommand | undefined {
  const [first, second] = args;
  if (first?.kind === 'list') return first.items.length ? { kind: 'argv', words: first.items } : undefined;
  if (first?.kind !== 'str') return undefined;
  if (second?.kind === 'list') return { kind: 'argv', words: [first.value, ...second.items] };
  const strings: Mapped[] = [];
  for (const arg of args) {
    if (arg.kind !== 'str') break;
    strings.push(arg.value);
  }
  return strings.length > 1 ? { kind: 'argv', words: strings } : { kind: 'text', text: first.value };
}

const QUOTES = new Set(["'", '"', '`']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
const CLOSERS: Record<string, string> = { '(': ')', '{': '}', '[': ']', '<': '>' };
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Reads literals out of code. Every character it looks at is paid from one budget (a few times the
 * code's length), so unclosed strings or brackets repeated many times cannot make the work quadratic.
 */
class Scanner {
  budget: number;
  private readonly s: string;

  constructor(
    private readonly code: Mapped,
    private readonly language: Language,
  ) {
    this.s = code.text;
    this.budget = 4 * code.text.length + 4096;
  }

  /** The call's arguments, up to its closing parenthesis (or the end of the statement without one). */
  args(start: number, parens: boolean): Arg[] {
    const { s } = this;
    const args: Arg[] = [];
    let i = start;
    while (args.length < 16 && this.budget > 0) {
      while (s[i] === ' ' || s[i] === '\t' || (parens && (s[i] === '\n' || s[i] === '\r'))) i++;
      const literal = this.string(i);
      if (literal) {
        args.push({ kind: 'str', value: literal.value });
        i = literal.end;
      } else if (s[i] === '[' || (this.language === 'perl' && s[i] === '(')) {
        const close = s[i] === '[' ? ']' : ')';
        const items = this.list(i + 1, close);
        args.push(items.length ? { kind: 'list', items } : { kind: 'other' });
        i = this.skipTo(i + 1, [close]) + 1;
      } else {
        const end = this.skipTo(i, parens ? [',', ')'] : [',', ';', '\n']);
        if (end === i) break;
        args.push({ kind: 'other' });
        i = end;
      }
      while (s[i] === ' ' || s[i] === '\t') i++;
      if (s[i] !== ',') break;
      i++;
    }
    return args;
  }

  /** String literals of a list `"a", 'b', …` up to `close`; stops at the first item that is not one. */
  list(start: number, close = ']'): Mapped[] {
    const { s } = this;
    const items: Mapped[] = [];
    let i = start;
    while (items.length < 256 && this.budget > 0) {
      while (isSpace(s[i])) i++;
      if (s[i] === close) break;
      const literal = this.string(i);
      if (!literal) break;
      items.push(literal.value);
      i = literal.end;
      while (isSpace(s[i])) i++;
      if (s[i] !== ',') break;
      i++;
    }
    return items;
  }

  /** `new Deno.Command("rm", { args: [...] })` / `Deno.run({ cmd: [...] })`. */
  denoCommand(start: number, key: 'args' | 'cmd'): CodeCommand | undefined {
    const args = this.args(start, true);
    const program = args[0]?.kind === 'str' ? [args[0].value] : [];
    const list = new RegExp(`\\b${key}\\s*:\\s*\\[`).exec(this.s.slice(start, start + 2000));
    const rest = list ? this.list(start + list.index + list[0].length) : [];
    return program.length + rest.length ? { kind: 'argv', words: [...program, ...rest] } : undefined;
  }

  /** Index of the first of `stops` at nesting level zero (skipping strings), or the end of the text. */
  private skipTo(start: number, stops: readonly string[]): number {
    const { s } = this;
    let level = 0;
    for (let i = start; i < s.length && this.budget-- > 0; i++) {
      const c = s[i] ?? '';
      if (level === 0 && stops.includes(c)) return i;
      if (QUOTES.has(c)) {
        const close = s.indexOf(c, i + 1);
        if (close < 0) return s.length;
        this.budget -= close - i;
        i = close;
      } else if (c === '(' || c === '[' || c === '{') level++;
      else if (c === ')' || c === ']' || c === '}') {
        if (level === 0) return i;
        level--;
      }
    }
    return s.length;
  }

  /** A string literal starting at `i` (with Python prefixes and triple quotes), or undefined. */
  string(i: number): { value: Mapped; end: number } | undefined {
    const { s, code, language } = this;
    let raw = false;
    if (language === 'python') {
      let j = i;
      while (j < i + 2 && /[rRbBuUfF]/.test(s[j] ?? '')) j++;
      if (j > i && (s[j] === '"' || s[j] === "'")) {
        raw = /[rR]/.test(s.slice(i, j));
        i = j;
      }
    }
    const quote = s[i] ?? '';
    if (!QUOTES.has(quote) || (quote === '`' && language === 'python')) return undefined;
    const triple = language === 'python' && s.startsWith(quote.repeat(3), i);
    const closer = triple ? quote.repeat(3) : quote;
    // single-quoted strings in Ruby, Perl and PHP only know \\ and \'
    const literalSingle = quote === "'" && (language === 'ruby' || language === 'perl' || language === 'php');
    const out = mappedBuilder();
    let j = i + closer.length;
    while (j < s.length && !s.startsWith(closer, j)) {
      if (this.budget-- <= 0) return undefined;
      const n = s[j + 1];
      if (s[j] === '\\' && n !== undefined && !raw) {
        const value = literalSingle ? (n === '\\' || n === "'" ? n : undefined) : (ESCAPES[n] ?? n);
        if (value === undefined) out.piece(code, j, j + 2);
        else if (value === n) out.piece(code, j + 1, j + 2);
        else out.char(value, code.at(j));
        j += 2;
        continue;
      }
      out.piece(code, j, j + 1);
      j++;
    }
    if (j >= s.length) return undefined;
    return { value: out.build(code.at(j)), end: j + closer.length };
  }

  /** `%x(…)` / `qx{…}`: text up to the matching delimiter (`start` is the opening one). */
  delimited(start: number): { value: Mapped; end: number } {
    const { s } = this;
    const open = s[start] ?? '';
    const close = CLOSERS[open] ?? open;
    let level = 0;
    let j = start + 1;
    for (; j < s.length && this.budget-- > 0; j++) {
      const c = s[j];
      if (c === '\\') j++;
      else if (c === open && close !== open) level++;
      else if (c === close) {
        if (level === 0) break;
        level--;
      }
    }
    const end = Math.min(j, s.length);
    return { value: sliceMapped(this.code, start + 1, end), end: Math.min(end + 1, s.length) };
  }
}
