/** Which options of a program take a value, so its value is not taken for the command that follows. */
export interface OptionSpec {
  /** Short options (letters) that take a value: attached (`-n5`) or as the next word (`-n 5`). */
  readonly short?: string;
  /** Long options that take a value when written without `=` (`--user bob`). */
  readonly long?: readonly string[];
  /** `+x` options count as options too (shells). */
  readonly plus?: boolean;
}

/**
 * Index of the first word at or after `from` that is not an option (or `texts.length`).
 * `--` ends the options and is skipped. A lone `-` is not an option.
 */
export function skipOptions(texts: readonly string[], from: number, spec: OptionSpec): number {
  let i = from;
  while (i < texts.length) {
    const text = texts[i] ?? '';
    if (text === '--') return i + 1;
    if (text.startsWith('--')) {
      i += !text.includes('=') && spec.long?.includes(text) ? 2 : 1;
      continue;
    }
    if (text.length < 2 || !(text.startsWith('-') || (spec.plus === true && text.startsWith('+')))) return i;
    i += shortTakesNext(text, spec.short ?? '') ? 2 : 1;
  }
  return texts.length;
}

/** True when a cluster like `-xvf` ends in a value option with nothing attached (`-xvf FILE`). */
export function shortTakesNext(cluster: string, valueLetters: string): boolean {
  for (let j = 1; j < cluster.length; j++) {
    if (valueLetters.includes(cluster[j] ?? '')) return j === cluster.length - 1;
  }
  return false;
}

/**
 * The value of option `name` (`-C dir`, `-Cdir`, `--dir dir`, `--dir=dir`) among `texts[from..to)`,
 * as an index into texts and, when attached, the character offset where it starts. Last one wins.
 */
export function findOption(
  texts: readonly string[],
  names: readonly string[],
  from = 0,
  to = texts.length,
): { index: number; offset: number } | undefined {
  let found: { index: number; offset: number } | undefined;
  for (let i = from; i < to; i++) {
    const text = texts[i] ?? '';
    for (const name of names) {
      if (text === name && i + 1 < to) found = { index: i + 1, offset: 0 };
      else if (name.startsWith('--') && text.startsWith(`${name}=`)) found = { index: i, offset: name.length + 1 };
      else if (!name.startsWith('--') && name.length === 2 && text.length > 2 && text.startsWith(name))
        found = { index: i, offset: 2 };
    }
  }
  return found;
}
