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
  /** Options whose value is only ever attached (`git commit -S[KEYID]`, `--gpg-sign[=KEYID]`). */
  readonly optional?: readonly string[];
  /** Single-dash words are whole option names, never bundles of letters (PowerShell, `find`, `java`). */
  readonly words?: boolean;
  /** `+x` words are options too (the shells' `+o name`, `+e`). */
  readonly plus?: boolean;
  /** cmd.exe's one-letter switches (`/q`, `/s`, `/a:h`) are options. */
  readonly slash?: boolean;
  /** Options end at the first operand: what follows is the command or script the program runs. */
  readonly leading?: boolean;
}

/** An ArgvSpec made ready: set look-ups only (built once per program, at module load). */
export interface Grammar {
  readonly values: ReadonlySet<string>;
  readonly optional: ReadonlySet<string>;
  /** Single-dash value options of three or more characters, lower-cased (PowerShell: `-path`). */
  readonly caseless: ReadonlySet<string>;
  readonly words: boolean;
  readonly plus: boolean;
  readonly slash: boolean;
  readonly leading: boolean;
}

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

const NONE: ReadonlySet<string> = new Set();

/** Makes a grammar from a spec (done once per program when the knowledge base loads). */
export function grammar(spec: ArgvSpec = {}): Grammar {
  const values = spec.values ?? [];
  const caseless = new Set<string>();
  for (const value of values) if (isWordOption(value)) caseless.add(value.toLowerCase());
  return {
    values: values.length === 0 ? NONE : new Set(values),
    optional: spec.optional === undefined ? NONE : new Set(spec.optional),
    caseless: caseless.size === 0 ? NONE : caseless,
    words: spec.words === true,
    plus: spec.plus === true,
    slash: spec.slash === true,
    leading: spec.leading === true,
  };
}

/**
 * The grammar with more options that take a value: a question about an option's value (`-Name`)
 * that the program's entry does not list is answered as if it took one.
 */
export function withValues(g: Grammar, names: readonly string[]): Grammar {
  const values = new Set(g.values);
  const caseless = new Set(g.caseless);
  for (const name of names) {
    values.add(name);
    if (isWordOption(name)) caseless.add(name.toLowerCase());
  }
  return { ...g, values, caseless };
}

/** Whether the grammar reads `name` as an option with a value (always or attached only). */
export function takesValue(g: Grammar, name: string): boolean {
  return g.values.has(name) || g.optional.has(name) || (g.caseless.size > 0 && g.caseless.has(name.toLowerCase()));
}

/** A grammar with no value options: every `-x` is a flag, everything else an operand. */
export const PLAIN: Grammar = grammar();

/** `-Path`, `-cmd`: one dash and three or more characters, the first a letter. */
function isWordOption(text: string): boolean {
  return text.length > 2 && text.charCodeAt(0) === 45 && text.charCodeAt(1) !== 45 && /^-[A-Za-z]/.test(text);
}

const SLASH_SWITCH = /^\/[A-Za-z?](?::.*)?$/;

/** Reads `args[from..to)` with a grammar. Never throws; linear in the number of words. */
export function parseArgv(args: readonly string[], g: Grammar, from = 0, to = args.length): ParsedArgv {
  const options: ArgvOption[] = [];
  const operands: number[] = [];
  let rest = to;
  let dashdash = -1;
  let i = from;
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
        } else if (g.values.has(word)) {
          i = withNext(options, word, args, i, to);
        } else options.push({ name: word, index: i });
        continue;
      }
      i = single(options, word, args, i, to, g);
      continue;
    }
    if (
      (first === 43 /* + */ && g.plus && word.length > 1) ||
      (first === 47 /* / */ && g.slash && SLASH_SWITCH.test(word))
    ) {
      if (g.values.has(word)) i = withNext(options, word, args, i, to);
      else options.push({ name: word, index: i });
      continue;
    }
    if (g.leading) {
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
  if (g.values.has(word)) return withNext(options, word, args, i, to);
  if (g.caseless.size > 0 && word.length > 2) {
    const colon = word.indexOf(':');
    // PowerShell: `-Path x`, `-path x`, `-Path:x`
    const name = (colon > 2 ? word.slice(0, colon) : word).toLowerCase();
    if (g.caseless.has(name)) {
      if (colon < 0) return withNext(options, word, args, i, to);
      options.push({
        name: word.slice(0, colon),
        index: i,
        value: word.slice(colon + 1),
        valueIndex: i,
        valueOffset: colon + 1,
      });
      return i;
    }
  }
  if (g.words || g.optional.has(word)) {
    options.push({ name: word, index: i });
    return i;
  }
  for (let j = 1; j < word.length; j++) {
    const name = `-${word[j] as string}`;
    if (g.optional.has(name)) {
      if (j < word.length - 1)
        options.push({ name, index: i, value: word.slice(j + 1), valueIndex: i, valueOffset: j + 1 });
      else options.push({ name, index: i });
      return i;
    }
    if (g.values.has(name)) {
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
