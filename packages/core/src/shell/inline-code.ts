import type { Word } from './expand.js';
import { mappedBuilder, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';
import { skipOptions } from './options.js';
import type { OptionSpec } from './options.js';
import type { InlineCode } from './types.js';

export type Language = InlineCode['language'];

/** Where an interpreter's program comes from, judged from its arguments. */
export type CodeSource =
  | { readonly kind: 'inline'; readonly language: Language; readonly words: readonly Word[] }
  | { readonly kind: 'stdin'; readonly language: Language }
  | { readonly kind: 'none' };

interface Interpreter {
  readonly language: Language;
  readonly spec: OptionSpec;
  /** Options whose value is code (`-c`, `-e`, `--eval`). */
  readonly code: readonly string[];
  /** Several code options are joined with newlines (`perl -e a -e b`). */
  readonly many?: boolean;
  /** Options after which the rest of the line belongs to something else (`python -m mod`). */
  readonly stop?: readonly string[];
}

const PYTHON: Interpreter = { language: 'python', spec: { short: 'cWXm', long: ['--check-hash-based-pycs'] }, code: ['-c'], stop: ['-m'] };
const NODE: Interpreter = {
  language: 'node',
  spec: { short: 'epr', long: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--conditions', '--input-type', '--title', '--env-file'] },
  code: ['-e', '--eval', '-p', '--print', '-pe'],
};
const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  node: NODE,
  nodejs: NODE,
  bun: { ...NODE, spec: { short: 'epr', long: ['--eval', '--print', '--preload', '--cwd', '--env-file'] } },
  ruby: { language: 'ruby', spec: { short: 'erICEx', long: ['--encoding'] }, code: ['-e'], many: true },
  perl: { language: 'perl', spec: { short: 'eEIMmxC' }, code: ['-e', '-E'], many: true },
  php: { language: 'php', spec: { short: 'rcdfzt' }, code: ['-r'], stop: ['-f'] },
};

function interpreterFor(name: string): Interpreter | undefined {
  if (/^(?:python|pypy)\d*(?:\.\d+)*$/.test(name) || name === 'py') return PYTHON;
  return INTERPRETERS[name];
}

/** Whether `name args…` runs inline code (`python -c`), reads its program from stdin, or neither. */
export function codeSource(name: string, args: readonly Word[]): CodeSource {
  const texts = args.map((w) => w.text);
  if (name === 'deno') {
    if (texts[0] !== 'eval') return { kind: 'none' };
    const at = skipOptions(texts, 1, { long: ['--ext', '--config', '--import-map', '--location', '--env-file'] });
    const word = args[at];
    return word ? { kind: 'inline', language: 'deno', words: [word] } : { kind: 'none' };
  }
  const interpreter = interpreterFor(name);
  if (!interpreter) return { kind: 'none' };
  const { code, spec } = interpreter;
  const words: Word[] = [];
  const take = (index: number, offset = 0): void => {
    const word = args[index];
    if (!word) return;
    words.push(offset ? { ...word, text: word.text.slice(offset), map: sliceMapped(word.map, offset, word.text.length) } : word);
  };
  let i = 0;
  for (; i < texts.length && (interpreter.many || words.length === 0); i++) {
    const t = texts[i] ?? '';
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-') || t === '-') break;
    if (interpreter.stop?.includes(t)) return { kind: 'none' };
    if (code.includes(t)) {
      take(++i);
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      if (eq > 0 && code.includes(t.slice(0, eq))) take(i, eq + 1);
      else if (eq < 0 && spec.long?.includes(t)) i++;
      continue;
    }
    // a cluster like `-Bc CODE`, `-ne CODE` or `-cCODE`
    for (let j = 1; j < t.length; j++) {
      const letter = t[j] ?? '';
      if (code.includes(`-${letter}`)) {
        if (j < t.length - 1) take(i, j + 1);
        else take(++i);
        break;
      }
      if (spec.short?.includes(letter)) {
        if (j === t.length - 1) i++;
        break;
      }
    }
  }
  if (words.length) return { kind: 'inline', language: interpreter.language, words };
  if (i >= texts.length || texts[i] === '-') return { kind: 'stdin', language: interpreter.language };
  return { kind: 'none' };
}

/** A command found in inline code: a shell line, or an argv that runs without a shell. */
export type CodeCommand = { readonly kind: 'text'; readonly text: Mapped } | { readonly kind: 'argv'; readonly words: readonly Mapped[] };

const CALLS: Readonly<Record<Language, RegExp | undefined>> = {
  python:
    /(?<![\w.])(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|system|popen|check_output|check_call|Popen|getoutput)\s*\(/g,
  node: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  deno: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  ruby: /(?<![\w:])(?:system|exec|spawn|IO\.popen|Open3\.(?:capture2e|capture2|capture3|popen2e|popen2|popen3|pipeline))(?![\w?!])[ \t]*\(?|`|%x[({[<|!]/g,
  perl: /(?<![\w$@%>])(?:system|exec)(?!\w)[ \t]*\(?|`|\bqx[({[</|!']/g,
  php: /(?<![\w$>:])(?:shell_exec|exec|system|passthru|popen|proc_open|pcntl_exec)\s*\(|`/g,
  powershell: undefined,
  other: undefined,
};

/** At most this many commands are taken from one piece of code. */
const MAX_FOUND = 64;

/**
 * Finds calls that run commands in inline code and returns what they run. Only string literals
 * (and lists of them) are read; this is a scanner, not a parser for the language.
 */
export function commandsInCode(language: Language, code: Mapped): CodeCommand[] {
  const pattern = CALLS[language];
  if (!pattern) return [];
  const found: CodeCommand[] = [];
  const s = code.text;
  const re = new RegExp(pattern.source, 'g');
  for (let m = re.exec(s); m && found.length < MAX_FOUND; m = re.exec(s)) {
    const matched = m[0];
    const after = m.index + matched.length;
    if (matched === '`') {
      const literal = readString(code, m.index, language);
      if (literal) {
        found.push({ kind: 'text', text: literal.value });
        re.lastIndex = literal.end;
      }
      continue;
    }
    if (/^(?:%x|qx)/.test(matched)) {
      const literal = readDelimited(code, after - 1);
      found.push({ kind: 'text', text: literal.value });
      re.lastIndex = literal.end;
      continue;
    }
    if (matched === '$') {
      const literal = readString(code, after, language);
      if (literal) found.push({ kind: 'text', text: literal.value });
      continue;
    }
    const parens = matched.endsWith('(');
    const args = readArgs(code, after, language, parens);
    if (/Deno\.(?:Command|run)/.test(matched)) {
      const window = s.slice(after, after + 2000);
      const key = /Deno\.run/.test(matched) ? /\bcmd\s*:\s*\[/ : /\bargs\s*:\s*\[/;
      const list = key.exec(window);
      const program = args[0]?.kind === 'str' ? [args[0].value] : [];
      const rest = list ? readList(code, after + list.index + list[0].length, language) : [];
      if (program.length + rest.length) found.push({ kind: 'argv', words: [...program, ...rest] });
      continue;
    }
    const command = commandFromArgs(args);
    if (command) found.push(command);
  }
  return found;
}

type Arg = { readonly kind: 'str'; readonly value: Mapped } | { readonly kind: 'list'; readonly items: readonly Mapped[] } | { readonly kind: 'other' };

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

/** Reads the call's arguments (up to its closing parenthesis, or the end of the statement without one). */
function readArgs(code: Mapped, start: number, language: Language, parens: boolean): Arg[] {
  const s = code.text;
  const args: Arg[] = [];
  let i = start;
  while (args.length < 16) {
    while (s[i] === ' ' || s[i] === '\t' || (parens && (s[i] === '\n' || s[i] === '\r'))) i++;
    const literal = readString(code, i, language);
    if (literal) {
      args.push({ kind: 'str', value: literal.value });
      i = literal.end;
    } else if (s[i] === '[' || (language === 'perl' && s[i] === '(')) {
      const close = s[i] === '[' ? ']' : ')';
      const items = readList(code, i + 1, language, close);
      args.push(items.length ? { kind: 'list', items } : { kind: 'other' });
      i = skipTo(s, i + 1, [close], true) + 1;
    } else {
      const end = skipTo(s, i, parens ? [',', ')'] : [',', ';', '\n'], false);
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
function readList(code: Mapped, start: number, language: Language, close = ']'): Mapped[] {
  const s = code.text;
  const items: Mapped[] = [];
  let i = start;
  while (items.length < 256) {
    while (/\s/.test(s[i] ?? '')) i++;
    if (s[i] === close) break;
    const literal = readString(code, i, language);
    if (!literal) break;
    items.push(literal.value);
    i = literal.end;
    while (/\s/.test(s[i] ?? '')) i++;
    if (s[i] !== ',') break;
    i++;
  }
  return items;
}

/** Index of the first of `stops` at nesting level zero (skipping strings), or the end of the text. */
function skipTo(s: string, start: number, stops: readonly string[], inside: boolean): number {
  let level = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i] ?? '';
    if (level === 0 && stops.includes(c)) return i;
    if (QUOTES.has(c)) {
      const close = s.indexOf(c, i + 1);
      if (close < 0) return s.length;
      i = close;
    } else if (c === '(' || c === '[' || c === '{') level++;
    else if (c === ')' || c === ']' || c === '}') {
      if (level === 0) return inside ? i : i;
      level--;
    }
  }
  return s.length;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

/** A string literal starting at `i` (with Python prefixes and triple quotes), or undefined. */
function readString(code: Mapped, i: number, language: Language): { value: Mapped; end: number } | undefined {
  const s = code.text;
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
  const open = triple ? 3 : 1;
  const closer = triple ? quote.repeat(3) : quote;
  // single-quoted strings in Ruby, Perl and PHP only know \\ and \'
  const literalSingle = quote === "'" && (language === 'ruby' || language === 'perl' || language === 'php');
  const out = mappedBuilder();
  let j = i + open;
  while (j < s.length && !s.startsWith(closer, j)) {
    const c = s[j] ?? '';
    const n = s[j + 1];
    if (c === '\\' && n !== undefined && !raw) {
      if (literalSingle && n !== '\\' && n !== "'") {
        out.piece(code, j, j + 2);
      } else {
        const value = ESCAPES[n];
        if (value === undefined) out.piece(code, j + 1, j + 2);
        else out.char(value, code.at(j));
      }
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
function readDelimited(code: Mapped, start: number): { value: Mapped; end: number } {
  const s = code.text;
  const open = s[start] ?? '';
  const close = ({ '(': ')', '{': '}', '[': ']', '<': '>' } as Record<string, string>)[open] ?? open;
  let level = 0;
  let j = start + 1;
  for (; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') j++;
    else if (c === open && close !== open) level++;
    else if (c === close) {
      if (level === 0) break;
      level--;
    }
  }
  const end = Math.min(j, s.length);
  return { value: sliceMapped(code, start + 1, end), end: Math.min(end + 1, s.length) };
}
