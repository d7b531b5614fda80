/**
 * The text a command prints when the line spells it out: `echo …`, `printf` with its escapes and
 * `%s`/`%b`/`%c` filled from its arguments, `cat <<EOF`, and the filters that only recode what they
 * are fed (`base64 -d`, `rev`, `tr SET1 SET2`). A substitution that prints a path or a program name
 * this way (`"$(printf '\x2e…')"`, `$(echo … | base64 -d)`) is then read as that text. Never runs
 * anything; what it cannot compute is unknown.
 */
import type { Word } from './expand.js';
import { fromBase64 } from './fold.js';
import { joinMapped, mappedBuilder } from './mapped.js';
import type { Mapped, MappedBuilder } from './mapped.js';

/** Text fed to a filter longer than this is not recoded (it is data, not a name). */
const MAX_FED = 64 * 1024;
/** printf reuses its format while arguments are left: at most this many times. */
const MAX_ROUNDS = 64;

const SIMPLE: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** What `name args…` prints, fed `stdin`, when the line spells it out; undefined when unknown. */
export function printedBy(
  name: string,
  args: readonly Word[],
  stdin: { readonly text: Mapped; readonly heredoc: boolean } | undefined,
): Mapped | undefined {
  if (name === 'echo') return echoed(args);
  if (name === 'printf') return printfOutput(args);
  if (name === 'join-path') return joinedPath(args);
  // `cat` and `tee` pass on what they are fed (`… | tee x.sh | sh`, `… | cat | bash`)
  if ((name === 'cat' && args.every((w) => w.text === '-')) || name === 'tee') return stdin?.text;
  if (stdin === undefined || stdin.text.text.length > MAX_FED) return undefined;
  const fed = stdin.text;
  const out = recoded(name, args, fed.text);
  if (out === undefined) return undefined;
  const b = mappedBuilder();
  b.spread(out, fed.at(0), fed.at(Math.max(0, fed.text.length - 1)));
  return b.build(fed.at(fed.text.length));
}

/** PowerShell's `Join-Path A B` (`-Path A -ChildPath B`, more children after): `A\B`, of words the line spells out. */
function joinedPath(args: readonly Word[]): Mapped | undefined {
  const parts: Word[] = [];
  for (const word of args) {
    if (/^-(?:Path|ChildPath|AdditionalChildPath)$/i.test(word.text)) continue;
    if (word.dynamic || word.text.startsWith('-') || word.text === '') return undefined;
    parts.push(word);
  }
  if (parts.length < 2) return undefined;
  const b = mappedBuilder();
  let last = '';
  for (const part of parts) {
    if (b.length() > 0 && !/[\\/]$/.test(last) && !/^[\\/]/.test(part.text)) b.char('\\', part.span[0]);
    b.piece(part.map, 0, part.text.length);
    last = part.text;
  }
  return b.build((parts[parts.length - 1] as Word).span[1]);
}

function echoed(args: readonly Word[]): Mapped | undefined {
  let from = 0;
  let escapes = false;
  while (/^-[neE]+$/.test(args[from]?.text ?? '')) {
    const flags = args[from]?.text ?? '';
    escapes = flags.includes('e') ? true : flags.includes('E') ? false : escapes;
    from++;
  }
  if (args.length <= from) return undefined;
  if (!escapes) return joinMapped(args.slice(from).map((w) => w.map));
  const b = mappedBuilder();
  args.slice(from).forEach((word, i) => {
    if (i > 0) b.char(' ', word.span[0]);
    escaped(b, word.map, 0, word.text.length, true);
  });
  return b.build(args[args.length - 1]?.span[1] ?? 0);
}

/**
 * Appends `m[start, end)` with its backslash escapes read (`\x2e`, `\056`, `\0056` with `%b`, `\n`);
 * answers where it stopped (a `%` in a format, when `format` is set, or `end`).
 */
function escaped(b: MappedBuilder, m: Mapped, start: number, end: number, bArg: boolean, format = false): number {
  const s = m.text;
  for (let i = start; i < end; i++) {
    const c = s[i];
    if (format && c === '%') return i;
    if (c !== '\\' || i + 1 >= end) {
      b.piece(m, i, i + 1);
      continue;
    }
    const rest = s.slice(i + 1, Math.min(end, i + 5));
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(rest);
    // `%b` and `echo -e` take `\0NNN`; a format takes `\NNN`
    const octal = bArg ? /^0([0-7]{0,3})/.exec(rest) : /^([0-7]{1,3})/.exec(rest);
    if (hex) {
      b.char(String.fromCharCode(parseInt(hex[1] as string, 16)), m.at(i));
      i += hex[0].length;
    } else if (octal) {
      b.char(String.fromCharCode(parseInt(octal[1] || '0', 8) & 0xff), m.at(i));
      i += octal[0].length;
    } else if (SIMPLE[s[i + 1] ?? ''] !== undefined) {
      b.char(SIMPLE[s[i + 1] ?? ''] as string, m.at(i));
      i++;
    } else b.piece(m, i, i + 1);
  }
  return end;
}

/** printf FORMAT ARGS…: escapes and `%s`, `%b`, `%c`, `%d`, `%%`; the format again while arguments are left. */
function printfOutput(args: readonly Word[]): Mapped | undefined {
  let first = 0;
  if (args[0]?.text === '--') first = 1;
  const format = args[first];
  // `printf -v NAME …` sets a variable and prints nothing
  if (format === undefined || format.dynamic || format.text.startsWith('-')) return undefined;
  const rest = args.slice(first + 1);
  if (rest.some((w) => w.dynamic)) return undefined;
  const b = mappedBuilder();
  const f = format.map;
  let next = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let converted = false;
    for (let i = 0; i < f.text.length;) {
      i = escaped(b, f, i, f.text.length, false, true);
      if (i >= f.text.length) break;
      const spec = /^%([-+ #0]*\d*(?:\.\d+)?)([sbcdi%])/.exec(f.text.slice(i, i + 12));
      if (spec === null || spec[1] !== '') return undefined;
      const kind = spec[2];
      if (kind === '%') {
        b.char('%', f.at(i));
      } else {
        converted = true;
        const arg = rest[next++];
        if (arg !== undefined) {
          if (kind === 's') b.piece(arg.map, 0, arg.text.length);
          else if (kind === 'b') escaped(b, arg.map, 0, arg.text.length, true);
          else if (kind === 'c') b.piece(arg.map, 0, Math.min(1, arg.text.length));
          else if (/^[-+]?\d+$/.test(arg.text)) b.piece(arg.map, 0, arg.text.length);
          else return undefined;
        } else if (kind === 'd' || kind === 'i') b.char('0', f.at(i));
      }
      i += spec[0].length;
    }
    if (!converted || next >= rest.length) break;
  }
  return b.build(format.span[1]);
}

/** What a filter that only recodes its input makes of `text`; undefined for anything else. */
function recoded(name: string, args: readonly Word[], text: string): string | undefined {
  const words = args.map((w) => w.text);
  if (args.some((w) => w.dynamic)) return undefined;
  if (name === 'base64') {
    const decode = words.some((w) => /^(?:-d|-D|--decode|-[a-zA-Z]*d[a-zA-Z]*)$/.test(w));
    // a file operand is read instead of stdin
    if (!decode || words.some((w) => !w.startsWith('-'))) return undefined;
    return fromBase64(text.replace(/\s+/g, ''));
  }
  if (name === 'rev' && words.length === 0)
    return text
      .split('\n')
      .map((line) => [...line].reverse().join(''))
      .join('\n');
  if (name === 'tr' && words.length === 2) {
    const from = trSet(words[0] as string);
    const to = trSet(words[1] as string);
    if (from === undefined || to === undefined || to.length === 0) return undefined;
    const map = new Map<string, string>();
    from.forEach((c, i) => map.set(c, to[Math.min(i, to.length - 1)] as string));
    return [...text].map((c) => map.get(c) ?? c).join('');
  }
  return undefined;
}

/** A `tr` set of plain characters and ranges (`a-z`); undefined for classes and escapes. */
function trSet(set: string): string[] | undefined {
  if (/[[\\]/.test(set) || set.length > 256) return undefined;
  const out: string[] = [];
  for (let i = 0; i < set.length; i++) {
    const c = set[i] as string;
    const end = set[i + 2];
    if (set[i + 1] === '-' && end !== undefined && end >= c) {
      for (let code = c.charCodeAt(0); code <= end.charCodeAt(0) && out.length < 256; code++)
        out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(c);
  }
  return out;
}
