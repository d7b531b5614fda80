/**
 * The one argument parser: how a program reads its words into options (with their values) and
 * operands. Every part of guard that needs to skip options (the reader finding the command after
 * `sudo -u bob`, the effects finding the files `rm` is given, a rule finding `git push`'s remote)
 * asks this parser, with the program's grammar from the knowledge base (see ./index.ts).
 *
 * What it knows: bundled short flags (`-rf`, `-xvf FILE`, `-n5`), a value as the next word, after
 * `=` (`--output=f`) or attached (`-of`), `--` ending the options, a lone `-` being an operand,
 * options anywhere (GNU) or only before the first operand (`leading`: the rest belongs to the
 * command or script the program runs), single-dash whole-word options (`find -name`, PowerShell's
 * `-Recurse`, compared without case), `+o` (shells) and cmd.exe's `/q` switches.
 */

/** How a program's words are read, as written in the knowledge base. */
export interface ArgvSpec {
  /**
   * Options that take a value, as written: `-n`, `--namespace`, `-Path`, `-cmd`, `+o`. The value is
   * the next word, or after `=` (long options), or attached to a letter (`-n5`, `-xvfFILE`).
   */
  readonly values?: readonly string[];
  /** More options that take a value, a list several programs share (PowerShell's common parameters). */
  readonly common?: readonly string[];
  /**
   * Long options that take two words, a name and then its value (`jq --arg NAME VALUE`,
   * `--slurpfile NAME FILE`): the option's value is the second.
   */
  readonly pairs?: readonly string[];
  /** Options whose value is only ever attached (`git commit -S[KEYID]`, `--gpg-sign[=KEYID]`). */
  readonly optional?: readonly string[];
  /** Single-dash words are whole option names, never bundles of letters (PowerShell, `find`, `java`). */
  readonly words?: boolean;
  /**
   * PowerShell's parameters: a word that starts exactly one of the names the entry knows (its
   * `values`, `common` and `switches`, without case) stands for it (`-Recu` for `-Recurse`,
   * `-lit` for `-LiteralPath`, `-n` for `-Name`), and is read under that name.
   */
  readonly prefixes?: boolean;
  /** With `prefixes`: the parameters that take no value, for finding what a start of a name stands for. */
  readonly switches?: readonly string[];
  /** `+x` words are options too (the shells' `+o name`, `+e`). */
  readonly plus?: boolean;
  /** cmd.exe's one-letter switches (`/q`, `/s`, `/a:h`) are options. */
  readonly slash?: boolean;
  /** Options end at the first operand: what follows is the command or script the program runs. */
  readonly leading?: boolean;
  /**
   * The first word may be option letters without a dash (tar's old form, `tar czf out.tgz src`):
   * each letter is an option, and those that take a value take the words after it in turn.
   */
  readonly letters?: boolean;
}

/**
 * The grammar the parser reads with is the spec as the knowledge base writes it: nothing is built
 * when the module loads (the hook loads it on every call, and work there costs every call). A
 * program's option lists are short, so a look-up in one is a short scan.
 */
export type Grammar = ArgvSpec;

/** One option as read: its name as matched, and its value when it takes one. */
export interface ArgvOption {
  /** `-n`, `--namespace`, `-Path`; a letter of a bundle as `-r`. */
  readonly name: string;
  /** Index of the word the option is written in. */
  readonly index: number;
  /** The value, when the option takes one and has it. */
  readonly value?: string;
  /** The word that holds the value. */
  readonly valueIndex?: number;
  /** Where the value starts inside that word (0 when it is the whole word). */
  readonly valueOffset?: number;
}

/** A program's words, read. */
export interface ParsedArgv {
  readonly options: readonly ArgvOption[];
  /** Indexes of the operands, in order. */
  readonly operands: readonly number[];
  /**
   * Where the options end: the first operand of a `leading` grammar (the command a runner runs, a
   * shell's script), the word after `--`, or the end of the words.
   */
  readonly rest: number;
  /** Index of `--`, or -1. */
  readonly dashdash: number;
}

/**
 * The grammar with more options that take a value: a question about an option's value (`-Name`)
 * that the program's entry does not list is answered as if it took one.
 */
export function withValues(g: Grammar, names: readonly string[]): Grammar {
  return { ...g, values: [...(g.values ?? []), ...names] };
}

/** Whether the grammar reads `name` as an option with a value (always, or attached only). */
export function takesValue(g: Grammar, name: string): boolean {
  return valued(g, name) || g.optional?.includes(name) === true || g.pairs?.includes(name) === true;
}

/**
 * Whether `word` is an option that takes a value: as written, or (a word option such as
 * PowerShell's `-Path`) in any case.
 */
function valued(g: Grammar, word: string): boolean {
  return listed(g.values, word) || listed(g.common, word);
}

function listed(values: readonly string[] | undefined, word: string): boolean {
  if (values === undefined) return false;
  if (values.includes(word)) return true;
  return word.length > 2 && isWordOption(word) && caseless(values, word);
}

/** `-path` and `-PATH` for `-Path`: the same length, compared without case only then. */
function caseless(values: readonly string[], word: string): boolean {
  let lower: string | undefined;
  for (let v = 0; v < values.length; v++) {
    const value = values[v] as string;
    if (value.length !== word.length || value.charCodeAt(0) !== 45) continue;
    lower ??= word.toLowerCase();
    if (value.toLowerCase() === lower) return true;
  }
  return false;
}

/**
 * The parameter a PowerShell word names: itself when a list has it whole, else the one name of the
 * grammar it is the start of (`-Recu` → `-Recurse`); as written when it starts none or several
 * (PowerShell refuses an ambiguous one, and runs nothing).
 */
function fullName(g: Grammar, word: string): string {
  if (!/^-[A-Za-z]+$/.test(word) || valued(g, word) || caseless(g.switches ?? [], word)) return word;
  const lower = word.toLowerCase();
  let found: string | undefined;
  for (const list of [g.values, g.common, g.switches]) {
    for (let v = 0; v < (list?.length ?? 0); v++) {
      const name = (list as readonly string[])[v] as string;
      if (!name.toLowerCase().startsWith(lower) || name === found) continue;
      if (found !== undefined) return word;
      found = name;
    }
  }
  return found ?? word;
}

/** A grammar with no value options: every `-x` is a flag, everything else an operand. */
export const PLAIN: Grammar = Object.freeze({});

/** `-Path`, `-cmd`: one dash and three or more characters, the first a letter. */
function isWordOption(text: string): boolean {
  if (text.length < 3 || text.charCodeAt(0) !== 45) return false;
  const c = text.charCodeAt(1) | 32;
  return c >= 97 && c <= 122;
}

const SLASH_SWITCH = /^\/[A-Za-z?](?::.*)?$/;

/** Reads `args[from..to)` with a grammar. Never throws; linear in the number of words. */
export function parseArgv(args: readonly string[], g: Grammar, from = 0, to = args.length): ParsedArgv {
  const options: ArgvOption[] = [];
  const operands: number[] = [];
  let rest = to;
  let dashdash = -1;
  let i = g.letters === true && from < to ? letters(options, args, from, to, g) : from;
  for (; i < to; i++) {
    const word = args[i] as string;
    const first = word.charCodeAt(0);
    if (first === 45 /* - */ && word.length > 1) {
      if (word === '--') {
        dashdash = i;
        rest = i + 1;
        i++;
        break;
      }
      if (word.charCodeAt(1) === 45) {
        const eq = word.indexOf('=');
        if (eq > 0) {
          options.push({
            name: word.slice(0, eq),
            index: i,
            value: word.slice(eq + 1),
            valueIndex: i,
            valueOffset: eq + 1,
          });
        } else if (g.values?.includes(word) === true || g.common?.includes(word) === true) {
          i = withNext(options, word, args, i, to);
        } else if (g.pairs?.includes(word) === true && i + 2 < to) {
          options.push({ name: word, index: i, value: args[i + 2] as string, valueIndex: i + 2, valueOffset: 0 });
          i += 2;
        } else options.push({ name: word, index: i });
        continue;
      }
      i = single(options, g.prefixes === true ? fullName(g, word) : word, args, i, to, g);
      continue;
    }
    if (
      (first === 43 /* + */ && g.plus === true && word.length > 1) ||
      (first === 47 /* / */ && g.slash === true && SLASH_SWITCH.test(word))
    ) {
      if (g.values?.includes(word) === true || g.common?.includes(word) === true)
        i = withNext(options, word, args, i, to);
      else options.push({ name: word, index: i });
      continue;
    }
    if (g.leading === true) {
      rest = i;
      break;
    }
    operands.push(i);
  }
  // what is left (after `--`, or after the first operand of a leading grammar) is all operands
  for (; i < to; i++) operands.push(i);
  if (rest === to && operands.length > 0 && dashdash < 0) rest = operands[0] as number;
  return { options, operands, rest, dashdash };
}

const LETTERS = /^[A-Za-z]+$/;

/** tar's old form: a first word of letters is options, valued ones taking the next words in turn; where reading goes on. */
function letters(options: ArgvOption[], args: readonly string[], from: number, to: number, g: Grammar): number {
  const word = args[from] as string;
  if (!LETTERS.test(word)) return from;
  let next = from + 1;
  for (let j = 0; j < word.length; j++) {
    const name = `-${word[j] as string}`;
    if (valued(g, name) && next < to) {
      options.push({ name, index: from, value: args[next] as string, valueIndex: next, valueOffset: 0 });
      next++;
    } else options.push({ name, index: from });
  }
  return next;
}

/** An option whose value is the next word (when there is one). */
function withNext(options: ArgvOption[], name: string, args: readonly string[], i: number, to: number): number {
  if (i + 1 < to) {
    options.push({ name, index: i, value: args[i + 1] as string, valueIndex: i + 1, valueOffset: 0 });
    return i + 1;
  }
  options.push({ name, index: i });
  return i;
}

/** A single-dash word: a whole option (`-Path x`, `-name`), or a bundle of letters (`-rf`, `-xvf F`). */
function single(
  options: ArgvOption[],
  word: string,
  args: readonly string[],
  i: number,
  to: number,
  g: Grammar,
): number {
  if (valued(g, word)) return withNext(options, word, args, i, to);
  // PowerShell's `-Path:x`
  const colon = word.length > 3 ? word.indexOf(':') : -1;
  if (colon > 2 && valued(g, word.slice(0, colon))) {
    options.push({
      name: word.slice(0, colon),
      index: i,
      value: word.slice(colon + 1),
      valueIndex: i,
      valueOffset: colon + 1,
    });
    return i;
  }
  const optional = g.optional;
  if (g.words === true || optional?.includes(word) === true) {
    options.push({ name: word, index: i });
    return i;
  }
  const values = g.values;
  const common = g.common;
  for (let j = 1; j < word.length; j++) {
    const name = `-${word[j] as string}`;
    if (optional?.includes(name) === true) {
      if (j < word.length - 1)
        options.push({ name, index: i, value: word.slice(j + 1), valueIndex: i, valueOffset: j + 1 });
      else options.push({ name, index: i });
      return i;
    }
    if (values?.includes(name) === true || common?.includes(name) === true) {
      if (j < word.length - 1) {
        options.push({ name, index: i, value: word.slice(j + 1), valueIndex: i, valueOffset: j + 1 });
        return i;
      }
      return withNext(options, name, args, i, to);
    }
    options.push({ name, index: i });
  }
  return i;
}

/**
 * Whether an option name is among `names`: exactly, or without case for PowerShell's whole-word
 * parameters (`-Recurse`, `-recurse`).
 */
export function optionIs(name: string, names: readonly string[]): boolean {
  for (let n = 0; n < names.length; n++) {
    const wanted = names[n] as string;
    if (name === wanted) return true;
    if (
      wanted.length > 2 &&
      name.length === wanted.length &&
      isWordOption(wanted) &&
      name.toLowerCase() === wanted.toLowerCase()
    )
      return true;
  }
  return false;
}

/** Whether any of `names` is given (`-r` also inside a bundle: `-rf`). */
export function hasOption(parsed: ParsedArgv, names: readonly string[]): boolean {
  const options = parsed.options;
  for (let o = 0; o < options.length; o++) if (optionIs((options[o] as ArgvOption).name, names)) return true;
  return false;
}

/** Every value given to one of `names`, in order. */
export function optionsNamed(parsed: ParsedArgv, names: readonly string[]): ArgvOption[] {
  const out: ArgvOption[] = [];
  const options = parsed.options;
  for (let o = 0; o < options.length; o++) {
    const option = options[o] as ArgvOption;
    if (option.value !== undefined && optionIs(option.name, names)) out.push(option);
  }
  return out;
}
