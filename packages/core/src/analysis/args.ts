/**
 * Small helpers over an invocation's words. How a program reads them (which options take a value,
 * its subcommand) is the program knowledge base's, read once per step by `context.argv(inv)`.
 */
import type { Arg, RuleContext, SubArgv } from '../context/types.js';
import type { Invocation } from '../shell/types.js';

export { argAt, argvAs } from '../context/argv.js';
export type { Arg, Argv, SubArgv } from '../context/types.js';

/** For `git …`: its subcommand (`name`, where it stands: `index`) and the words after it. */
export function gitCommand(context: RuleContext, inv: Invocation): SubArgv | undefined {
  return inv.name === 'git' ? context.argv(inv).sub : undefined;
}

/** The words of a subcommand as values (`git push -f origin` → `['-f', 'origin']`). */
export function values(args: readonly Arg[]): string[] {
  return args.map((a) => a.value);
}
