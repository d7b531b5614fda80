import type { ArgvOption, Grammar, ParsedArgv, Program, SubcommandSpec } from '../programs/index.js';
import {
  hasOption,
  optionsNamed,
  parseArgv,
  PLAIN,
  program,
  readsWith,
  subcommandOf,
  takesValue,
  withValues,
} from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';
import type { Arg, Argv, SubArgv } from './types.js';

/** The argument at `index` with its span (falls back to the invocation's span). */
export function argAt(inv: Invocation, index: number): Arg {
  return { value: inv.args[index] ?? '', index, span: inv.argSpans[index] ?? inv.span };
}

/** An invocation's words read with its program's grammar (use `context.argv(inv)`: it keeps the reading). */
export function argvOf(inv: Invocation): Argv {
  const found = program(inv.name);
  return new Reading(inv, found, readsWith(found), 0, found);
}

/** An invocation's words read with a grammar the caller holds (an agent's program, declared by its adapter). */
export function argvWith(inv: Invocation, argv: Grammar): Argv {
  return new Reading(inv, undefined, argv, 0, undefined);
}

/**
 * An invocation's words from `from` on, read as the program `name` reads them (`python -m pip
 * install x` read from `install` as pip does). Indexes and spans stay the invocation's.
 */
export function argvAs(inv: Invocation, name: string, from: number): Argv {
  const found = program(name);
  return new Reading(inv, found, readsWith(found), from, found);
}

/** Shrinks a span by `cut` characters at the start when the span covers exactly the written value. */
function trimSpanStart(span: Span, cut: number, value: string): Span {
  return span[1] - span[0] === value.length ? [span[0] + cut, span[1]] : span;
}

class Reading implements Argv {
  readonly parsed: ParsedArgv;
  private operandList: Arg[] | undefined;
  private wordList: Arg[] | undefined;
  private subReading: SubReading | null | undefined;

  constructor(
    readonly inv: Invocation,
    readonly program: Program | undefined,
    readonly grammar: Grammar,
    readonly from: number,
    private readonly parent: { readonly subcommands?: Readonly<Record<string, SubcommandSpec>> } | undefined,
  ) {
    this.parsed = parseArgv(inv.args, grammar, from);
  }

  get options(): readonly ArgvOption[] {
    return this.parsed.options;
  }

  get operands(): readonly Arg[] {
    if (this.operandList === undefined) {
      const indexes = this.parsed.operands;
      const out: Arg[] = [];
      for (let i = 0; i < indexes.length; i++) out.push(argAt(this.inv, indexes[i] as number));
      this.operandList = out;
    }
    return this.operandList;
  }

  get words(): readonly Arg[] {
    if (this.wordList === undefined) {
      const out: Arg[] = [];
      for (let i = this.from; i < this.inv.args.length; i++) out.push(argAt(this.inv, i));
      this.wordList = out;
    }
    return this.wordList;
  }

  has(...names: readonly string[]): boolean {
    return hasOption(this.parsed, names);
  }

  values(...names: readonly string[]): Arg[] {
    const out: Arg[] = [];
    // an option the program's entry does not list as taking a value is read here as one that
    // does, when it is written at all (most questions about PowerShell's `-Path` meet none)
    let unknown: string[] | undefined;
    for (const name of names) if (!takesValue(this.grammar, name) && this.mentions(name)) (unknown ??= []).push(name);
    const parsed =
      unknown === undefined ? this.parsed : parseArgv(this.inv.args, withValues(this.grammar, unknown), this.from);
    for (const option of optionsNamed(parsed, names)) {
      const index = option.valueIndex as number;
      const value = option.value as string;
      const offset = option.valueOffset ?? 0;
      const span = this.inv.argSpans[index] ?? this.inv.span;
      out.push({ value, index, span: offset > 0 ? trimSpanStart(span, offset, this.inv.args[index] ?? '') : span });
    }
    return out;
  }

  /** Whether an option of this name could be written here (as itself, with `=`, attached, or in another case). */
  private mentions(name: string): boolean {
    const args = this.inv.args;
    const long = name.length > 2;
    for (let i = this.from; i < args.length; i++) {
      const word = args[i] as string;
      if (word.length < name.length || word.charCodeAt(0) !== name.charCodeAt(0)) continue;
      if (long ? word.toLowerCase().startsWith(name.toLowerCase()) : word.startsWith(name)) return true;
    }
    return false;
  }

  get sub(): SubArgv | undefined {
    if (this.subReading === undefined) this.subReading = this.readSub() ?? null;
    return this.subReading ?? undefined;
  }

  private readSub(): SubReading | undefined {
    const at = this.grammar.leading === true ? this.parsed.rest : this.parsed.operands[0];
    if (at === undefined || at >= this.inv.args.length) return undefined;
    const name = this.inv.args[at] as string;
    const own = subcommandOf(this.parent, name);
    // a subcommand the knowledge base does not list reads the program's own options, unless those
    // come only before it (git's, docker's)
    const grammar = own?.argv ?? (own === undefined && this.grammar.leading !== true ? this.grammar : PLAIN);
    return new SubReading(this.inv, this.program, grammar, at + 1, own, name, at);
  }
}

class SubReading extends Reading implements SubArgv {
  constructor(
    inv: Invocation,
    found: Program | undefined,
    grammar: Grammar,
    from: number,
    parent: { readonly subcommands?: Readonly<Record<string, SubcommandSpec>> } | undefined,
    readonly name: string,
    readonly index: number,
  ) {
    super(inv, found, grammar, from, parent);
  }
}
