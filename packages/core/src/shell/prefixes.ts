import { findOption, skipOptions } from './options.js';
import type { OptionSpec } from './options.js';

interface PrefixSpec extends OptionSpec {
  /** `NAME=value` words may follow the options (`sudo HUSKY=0 git …`, `env A=1 cmd`). */
  readonly env?: boolean;
  /** Positional words to skip before the command (`timeout 5 cmd`). */
  readonly positional?: number;
  /** Options after which the prefix runs no command (`command -v git` only looks git up). */
  readonly not?: readonly string[];
  /** Options that set the directory the command runs in. */
  readonly cwd?: readonly string[];
}

/** Wrappers that run the rest of the line as a command; removed for matching, kept as facts. */
const PREFIXES: Readonly<Record<string, PrefixSpec>> = {
  sudo: {
    short: 'ugCDprtTU',
    long: [
      '--user',
      '--group',
      '--chdir',
      '--prompt',
      '--role',
      '--type',
      '--close-from',
      '--host',
      '--other-user',
      '--command-timeout',
    ],
    env: true,
    not: ['-e', '--edit', '-l', '--list', '-v', '--validate', '-k', '-K', '--remove-timestamp', '--reset-timestamp'],
    cwd: ['-D', '--chdir'],
  },
  doas: { short: 'uC' },
  env: { short: 'uC', long: ['--unset', '--chdir'], env: true, not: ['-S', '--split-string'], cwd: ['-C', '--chdir'] },
  command: { not: ['-v', '-V'] },
  builtin: {},
  exec: { short: 'a' },
  nice: { short: 'n', long: ['--adjustment'] },
  ionice: { short: 'cnpPu', long: ['--class', '--classdata'], not: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  nohup: {},
  time: { short: 'fo', long: ['--format', '--output'] },
  timeout: { short: 'sk', long: ['--signal', '--kill-after'], positional: 1 },
  stdbuf: { short: 'ioe', long: ['--input', '--output', '--error'] },
  chronic: {},
  caffeinate: { short: 'tw' },
};

/** True when `name` may be a prefix (whether it is depends on what follows it). */
export function isPrefix(name: string): boolean {
  return Object.hasOwn(PREFIXES, name);
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

/**
 * When `texts[at]` (named `name`) is a prefix that runs a command, where that command starts.
 * undefined when it is not a prefix or runs nothing (`env` alone prints the environment).
 */
export function matchPrefix(name: string, texts: readonly string[], at: number): PrefixMatch | undefined {
  const spec = isPrefix(name) ? PREFIXES[name] : undefined;
  if (!spec) return undefined;
  let next = skipOptions(texts, at + 1, spec);
  if (
    spec.not?.some((option) =>
      texts.slice(at + 1, next).some((text) => text === option || text.startsWith(`${option}=`)),
    )
  ) {
    return undefined;
  }
  next += spec.positional ?? 0;
  const env: number[] = [];
  while (spec.env && next < texts.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(texts[next] ?? '')) env.push(next++);
  if (next >= texts.length) return undefined;
  const cwd = spec.cwd ? findOption(texts, spec.cwd, at + 1, next) : undefined;
  return cwd ? { next, env, cwd } : { next, env };
}
