import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** One argument of an invocation, with its index and span. */
export interface Arg {
  readonly value: string;
  readonly index: number;
  readonly span: Span;
}

/**
 * The invocation with other arguments (`python -m pip …` read as `pip …`). Object.assign, not
 * `{ ...inv, args }`: in this V8 that spread gives every copy a map of its own, and the helpers
 * below then miss their inline caches on every copy.
 */
export function withArgs(inv: Invocation, args: readonly string[], argSpans: readonly Span[]): Invocation {
  return Object.assign({}, inv, { args, argSpans });
}

/** The argument at `index` with its span (falls back to the invocation's span). */
export function argAt(inv: Invocation, index: number): Arg {
  return { value: inv.args[index] ?? '', index, span: inv.argSpans[index] ?? inv.span };
}

/**
 * The operands of an invocation: arguments that are not options, honouring `--`. `withValue`
 * lists options that take the next argument as their value (`-n 5`); `--opt=value` and
 * `-n5` forms need no listing.
 */
export function operands(inv: Invocation, withValue: ReadonlySet<string> = NO_OPTIONS): Arg[] {
  const out: Arg[] = [];
  let optionsEnded = false;
  for (let i = 0; i < inv.args.length; i++) {
    const value = inv.args[i] ?? '';
    if (!optionsEnded) {
      if (value === '--') {
        optionsEnded = true;
        continue;
      }
      if (value.length > 1 && value.startsWith('-')) {
        if (withValue.has(value)) i++;
        continue;
      }
    }
    out.push(argAt(inv, i));
  }
  return out;
}

const NO_OPTIONS: ReadonlySet<string> = new Set();

/** The value of an option (`-o f`, `-of`, `--output f`, `--output=f`), every occurrence. */
export function optionValues(inv: Invocation, short: readonly string[], long: readonly string[] = []): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const value = inv.args[i] ?? '';
    if (value === '--') break;
    for (const name of long) {
      if (value === name) {
        if (i + 1 < inv.args.length) out.push(argAt(inv, i + 1));
      } else if (value.startsWith(`${name}=`)) {
        const span = inv.argSpans[i] ?? inv.span;
        out.push({ value: value.slice(name.length + 1), index: i, span: trimSpanStart(span, name.length + 1, value) });
      }
    }
    for (const name of short) {
      if (value === name) {
        if (i + 1 < inv.args.length) out.push(argAt(inv, i + 1));
      } else if (name.length === 2 && value.startsWith(name) && !value.startsWith('--') && value.length > 2) {
        const span = inv.argSpans[i] ?? inv.span;
        out.push({ value: value.slice(2), index: i, span: trimSpanStart(span, 2, value) });
      }
    }
  }
  return out;
}

/** True when any argument before `--` is one of these flags (short flags may be bundled: `-rf`). */
export function hasFlag(inv: Invocation, short: string, long: readonly string[] = []): boolean {
  for (const value of inv.args) {
    if (value === '--') return false;
    if (long.includes(value) || long.some((name) => value.startsWith(`${name}=`))) return true;
    if (short && value.length > 1 && value[0] === '-' && value[1] !== '-') {
      // bundled short flags only: `-rf`, not `-name` (find) — letters only
      if (/^-[A-Za-z]+$/.test(value) && value.includes(short)) return true;
    }
  }
  return false;
}

/** Shrinks a span by `cut` characters at the start when the span covers exactly the written value. */
function trimSpanStart(span: Span, cut: number, value: string): Span {
  return span[1] - span[0] === value.length ? [span[0] + cut, span[1]] : span;
}

/** The first operand that is a subcommand, skipping global options that take values. */
export function subcommand(inv: Invocation, withValue: ReadonlySet<string> = NO_OPTIONS): Arg | undefined {
  return operands(inv, withValue)[0];
}

/** Git's global options that take a value (`git -C dir`, `git -c k=v`). */
export const GIT_GLOBAL_WITH_VALUE: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);

/** A git invocation's subcommand, the arguments after it, and where the subcommand stands. */
export interface GitCommand {
  readonly sub: string;
  readonly args: readonly Arg[];
  readonly subIndex: number;
}

// Several rules and the effects ask about the same git invocation: it is read once (null: no subcommand).
const gitCommands = new WeakMap<Invocation, GitCommand | null>();

/** For `git …`: the subcommand and the arguments after it. */
export function gitCommand(inv: Invocation): GitCommand | undefined {
  if (inv.name !== 'git') return undefined;
  let git = gitCommands.get(inv);
  if (git === undefined) {
    git = readGitCommand(inv);
    gitCommands.set(inv, git);
  }
  return git ?? undefined;
}

function readGitCommand(inv: Invocation): GitCommand | null {
  for (let i = 0; i < inv.args.length; i++) {
    const value = inv.args[i] ?? '';
    if (GIT_GLOBAL_WITH_VALUE.has(value)) {
      i++;
      continue;
    }
    if (value.startsWith('-')) continue;
    const rest: Arg[] = [];
    for (let j = i + 1; j < inv.args.length; j++) rest.push(argAt(inv, j));
    return { sub: value, args: rest, subIndex: i };
  }
  return null;
}
