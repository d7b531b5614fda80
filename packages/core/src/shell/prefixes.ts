import { optionsNamed, parseArgv, program, readsWith } from '../programs/index.js';

/** True when `name` may be a prefix (whether it is depends on what follows it): see the knowledge base's `prefix`. */
export function isPrefix(name: string): boolean {
  return program(name)?.prefix !== undefined;
}

/** How a prefix word is followed by the command it runs. */
export interface PrefixMatch {
  /** Index of the command's program word. */
  readonly next: number;
  /** Indexes of `NAME=value` words that set the command's environment. */
  readonly env: readonly number[];
  /** Where the directory the command runs in is written, when the prefix sets one. */
  readonly cwd?: { readonly index: number; readonly offset: number };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * When `texts[at]` (named `name`) is a prefix that runs a command, where that command starts.
 * undefined when it is not a prefix or runs nothing (`env` alone prints the environment).
 */
export function matchPrefix(name: string, texts: readonly string[], at: number): PrefixMatch | undefined {
  const found = program(name);
  const spec = found?.prefix;
  if (found === undefined || spec === undefined) return undefined;
  const parsed = parseArgv(texts, readsWith(found), at + 1);
  const not = spec.not;
  if (not !== undefined && parsed.options.some((option) => not.includes(option.name))) return undefined;
  let next = parsed.rest + (spec.positional ?? 0);
  if (spec.dash === true && texts[next] === '-') next++;
  const env: number[] = [];
  while (spec.env === true && next < texts.length && ASSIGNMENT.test(texts[next] ?? '')) env.push(next++);
  if (next >= texts.length) return undefined;
  const dir = spec.cwd === undefined ? undefined : optionsNamed(parsed, spec.cwd).pop();
  return dir?.valueIndex === undefined
    ? { next, env }
    : { next, env, cwd: { index: dir.valueIndex, offset: dir.valueOffset ?? 0 } };
}
