/**
 * The program knowledge base: what guard knows about each program it reads, in one place. One
 * entry per program (./entries/*.ts) says its names, its roles (shell, interpreter, HTTP client,
 * deleter, …), which of its options take a value, its subcommands, its PowerShell aliases and
 * the syntax of what it runs. The reader (../shell), the analysis and every rule ask here, by
 * `Invocation.name`, through maps built once when the module loads (every look-up is O(1)).
 * See ./README.md for how to teach guard a program.
 */
import type { Grammar } from './argv.js';
import { grammar, PLAIN } from './argv.js';
import { CLOUD } from './entries/cloud.js';
import { DATABASES } from './entries/databases.js';
import { FILES } from './entries/files.js';
import { GIT } from './entries/git.js';
import { INTERPRETERS } from './entries/interpreters.js';
import { NETWORK } from './entries/network.js';
import { PACKAGES } from './entries/packages.js';
import { POWERSHELL } from './entries/powershell.js';
import { RUNNERS } from './entries/runners.js';
import { SHELLS } from './entries/shells.js';
import { SYSTEM } from './entries/system.js';
import type { Program, ProgramSpec, Role, Run, Subcommand, SubcommandSpec } from './types.js';

export type * from './types.js';
export { grammar, hasOption, optionIs, optionsNamed, parseArgv, PLAIN, takesValue, withValues } from './argv.js';
export type { ArgvOption, Grammar, ParsedArgv } from './argv.js';
export { sourceOf } from './sources.js';
export type { ProgramSource, WordAt } from './sources.js';

/** Every entry, in the order the maps are built (an earlier entry keeps a name a later one repeats). */
export const ENTRIES: readonly ProgramSpec[] = [
  ...SHELLS,
  ...INTERPRETERS,
  ...RUNNERS,
  ...FILES,
  ...NETWORK,
  ...GIT,
  ...PACKAGES,
  ...CLOUD,
  ...DATABASES,
  ...SYSTEM,
  ...POWERSHELL,
];

function subcommandMap(
  specs: Readonly<Record<string, SubcommandSpec>> | undefined,
): ReadonlyMap<string, Subcommand> | undefined {
  if (specs === undefined) return undefined;
  const map = new Map<string, Subcommand>();
  for (const [name, spec] of Object.entries(specs)) {
    const subcommands = subcommandMap(spec.subcommands);
    map.set(name, { grammar: grammar(spec.argv), ...(subcommands === undefined ? {} : { subcommands }) });
  }
  return map;
}

function ready(spec: ProgramSpec): Program {
  const subcommands = subcommandMap(spec.subcommands);
  // a runner's own options come before the command it runs
  const runs = spec.runs?.map((how): Run => ({
    ...how,
    grammar: grammar({ ...('argv' in how ? how.argv : {}), leading: true }),
  }));
  const { runs: _written, ...rest } = spec;
  return {
    ...rest,
    ...(runs === undefined ? {} : { runs }),
    name: spec.names[0] as string,
    roleSet: new Set(spec.roles ?? []),
    grammar: spec.argv === undefined ? PLAIN : grammar(spec.argv),
    ...(subcommands === undefined ? {} : { subcommandMap: subcommands }),
  };
}

/** Entries by each of their names (a name two entries give stays with the first). */
const BY_NAME: ReadonlyMap<string, Program> = (() => {
  const map = new Map<string, Program>();
  for (const spec of ENTRIES) {
    const program = ready(spec);
    for (const name of spec.names) if (!map.has(name)) map.set(name, program);
  }
  return map;
})();

/** PowerShell's aliases → the cmdlet entry (`ri`, `rm`, `del` → Remove-Item). */
const CMDLETS: ReadonlyMap<string, Program> = (() => {
  const map = new Map<string, Program>();
  for (const spec of ENTRIES) {
    if (spec.cmdlet !== true) continue;
    const program = BY_NAME.get(spec.names[0] as string) as Program;
    for (const name of spec.names) map.set(name, program);
    for (const alias of spec.aliases ?? []) if (!map.has(alias)) map.set(alias, program);
  }
  return map;
})();

/** Names of the entries with each role (for `Rule.programs` and quick membership tests). */
const BY_ROLE: ReadonlyMap<Role, ReadonlySet<string>> = (() => {
  const map = new Map<Role, Set<string>>();
  for (const [name, program] of BY_NAME) {
    for (const role of program.roleSet) {
      let names = map.get(role);
      if (names === undefined) map.set(role, (names = new Set()));
      names.add(name);
    }
  }
  // a PowerShell alias with no entry of its own has its cmdlet's roles
  for (const [alias, program] of CMDLETS) {
    if (BY_NAME.has(alias)) continue;
    for (const role of program.roleSet) map.get(role)?.add(alias);
  }
  return map;
})();

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The entry for a program name as `Invocation.name` has it: by name, by a PowerShell alias that
 * names no other program (`ri`, `gci`, `iwr`), or by a versioned name (`python3.12` → python).
 */
export function program(name: string): Program | undefined {
  const found = BY_NAME.get(name) ?? CMDLETS.get(name);
  if (found !== undefined) return found;
  // the version after the name, taken off from the end (a scan, not a regex: a name may be 100 KB of dots)
  let end = name.length;
  for (let c = name.charCodeAt(end - 1); end > 0 && (c === 46 || (c >= 48 && c <= 57)); c = name.charCodeAt(--end - 1));
  if (end === name.length || end === 0) return undefined;
  const base = BY_NAME.get(name.slice(0, end));
  return base?.versioned === true ? base : undefined;
}

/** Whether the program has this role (`isA('rbash', 'shell')`). */
export function isA(name: string, role: Role): boolean {
  return program(name)?.roleSet.has(role) === true;
}

/** The names of every program with one of these roles, aliases included (for `Rule.programs`). */
export function namesWith(...roles: readonly Role[]): ReadonlySet<string> {
  if (roles.length === 1) return BY_ROLE.get(roles[0] as Role) ?? NO_NAMES;
  const out = new Set<string>();
  for (const role of roles) for (const name of BY_ROLE.get(role) ?? NO_NAMES) out.add(name);
  return out;
}

/**
 * The cmdlet a name stands for in a PowerShell line (`rm`, `ri` → `remove-item`; `remove-item`
 * itself), or undefined when it is no cmdlet and no alias of one.
 */
export function cmdletOf(name: string): string | undefined {
  return CMDLETS.get(name)?.name;
}

/**
 * The name an effect or rule switches on: the name itself when an entry has it (`cp`, `sort`),
 * else the cmdlet a PowerShell alias stands for (`cpi` → `copy-item`, `sc` → `set-content`).
 */
export function canonicalName(name: string): string {
  return BY_NAME.has(name) ? name : (CMDLETS.get(name)?.name ?? name);
}

/** How a program's words are read (a grammar with no value options when the program is unknown). */
export function grammarOf(name: string): Grammar {
  return program(name)?.grammar ?? PLAIN;
}
