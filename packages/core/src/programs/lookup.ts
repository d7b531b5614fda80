/**
 * The look-ups into the knowledge base: the maps from names to entries, built once when the module
 * loads (every look-up by name is O(1)), and the questions every other module asks by name. The
 * entries themselves are read as written; nothing else is built at load.
 */
import type { Grammar } from './argv.js';
import { PLAIN } from './argv.js';
import { CLOUD } from './entries/cloud.js';
import { DATABASES } from './entries/databases.js';
import { EDITOR_ENV, FILES, PAGER_ENV } from './entries/files.js';
import { GIT } from './entries/git.js';
import { INTERPRETERS } from './entries/interpreters.js';
import { NETWORK } from './entries/network.js';
import { PACKAGES } from './entries/packages.js';
import { POWERSHELL } from './entries/powershell.js';
import { RUNNERS } from './entries/runners.js';
import { SECRETS } from './entries/secrets.js';
import { SHELLS } from './entries/shells.js';
import { SYSTEM } from './entries/system.js';
import type { OptionText, Program, ProgramSpec, Role, SubcommandSpec } from './types.js';

export { EDITOR_ENV, PAGER_ENV } from './entries/files.js';

/**
 * What a program with no entry may still run: the editor, pager or password prompt it is handed
 * (`EDITOR=CMD tool edit`, `SUDO_EDITOR=CMD sudoedit f`, `SYSTEMD_PAGER=CMD systemctl status`);
 * handed, not exported before it (`export` itself has no entry).
 */
export const UNKNOWN_RUNS: readonly OptionText[] = [
  { kind: 'option-text', env: [...EDITOR_ENV, ...PAGER_ENV], suffixes: ['EDITOR', 'PAGER', 'ASKPASS'], own: true },
];

/** Every entry but PowerShell's cmdlets, in the order the names are taken (a name stays with its first entry). */
const PROGRAMS: readonly ProgramSpec[] = [
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
  ...SECRETS,
];

/** Every entry. */
export const ENTRIES: readonly ProgramSpec[] = [...PROGRAMS, ...POWERSHELL];

/** Entries by each of their names. */
const BY_NAME: ReadonlyMap<string, Program> = (() => {
  const map = new Map<string, Program>();
  for (const spec of ENTRIES) for (const name of spec.names) if (!map.has(name)) map.set(name, spec);
  return map;
})();

/** PowerShell's cmdlets by name and by alias (`ri`, `rm`, `del` → Remove-Item). */
const CMDLETS: ReadonlyMap<string, Program> = (() => {
  const map = new Map<string, Program>();
  for (const spec of POWERSHELL) for (const name of spec.names) map.set(name, spec);
  for (const spec of POWERSHELL) for (const alias of spec.aliases ?? []) if (!map.has(alias)) map.set(alias, spec);
  return map;
})();

/**
 * The entry for a program name as `Invocation.name` has it: by name, by a PowerShell alias that
 * names no other program (`ri`, `gci`, `iwr`), or by a versioned name (`python3.12` → python).
 */
export function program(name: string): Program | undefined {
  const found = BY_NAME.get(name) ?? CMDLETS.get(name);
  if (found !== undefined) return found;
  // the version after the name, taken off from the end (a scan, not a regex: a name may be 100 KB of dots)
  let end = name.length;
  while (end > 0) {
    const c = name.charCodeAt(end - 1);
    if (c !== 46 && (c < 48 || c > 57)) break;
    end--;
  }
  if (end === name.length || end === 0) return undefined;
  const base = BY_NAME.get(name.slice(0, end));
  return base?.versioned === true ? base : undefined;
}

/** Past this many, a pattern in the program's place names too many programs to read as each. */
const MAX_MATCHES = 8;

/**
 * The program names a pathname pattern in the program's place may stand for (`g?t` → git,
 * `r[m]` → rm), among the programs the knowledge base knows, shortest first; undefined when it
 * matches more than a few (or the pattern is too long to be a program name).
 */
export function programsMatching(pattern: string): string[] | undefined {
  if (pattern.length > 256) return undefined;
  const re = globRegex(pattern.toLowerCase());
  const out: string[] = [];
  for (const name of BY_NAME.keys()) {
    if (!re.test(name) || CMDLETS.get(name) === BY_NAME.get(name)) continue;
    out.push(name);
    if (out.length > MAX_MATCHES) return undefined;
  }
  return out.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
}

/** A shell pathname pattern as an anchored regex (`*`, `?`, `[…]`, `[!…]`; every other character as itself). */
function globRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) source += '\\[';
      else {
        let set = pattern.slice(i + 1, close);
        const negated = set.startsWith('!') || set.startsWith('^');
        if (negated) set = set.slice(1);
        source += `[${negated ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The entry's own name: its first (`rbash` is the entry `sh`, `ri` the entry `remove-item`). */
export function entryName(found: Program): string {
  return found.names[0] as string;
}

/** Whether the program has this role (`isA('rbash', 'shell')`). */
export function isA(name: string, role: Role): boolean {
  return program(name)?.roles?.includes(role) === true;
}

/**
 * The names of every program with one of these roles, PowerShell aliases with no entry of their
 * own included (for `Rule.programs`; versioned names such as `python3.12` are found by program()).
 */
export function namesWith(...roles: readonly Role[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const spec of ENTRIES) {
    if (spec.roles === undefined || !spec.roles.some((role) => roles.includes(role))) continue;
    for (const name of spec.names) if (BY_NAME.get(name) === spec) out.add(name);
    for (const alias of spec.aliases ?? []) if (!BY_NAME.has(alias) && CMDLETS.get(alias) === spec) out.add(alias);
  }
  return out;
}

/**
 * The cmdlet a name stands for in a PowerShell line (`rm`, `ri` → `remove-item`; `remove-item`
 * itself), or undefined when it is no cmdlet and no alias of one.
 */
export function cmdletOf(name: string): string | undefined {
  const found = CMDLETS.get(name);
  return found === undefined ? undefined : entryName(found);
}

/** Whether the name stands for a cmdlet, by its name or an alias, with this role (`gci`, `dir`: a lister). */
export function cmdletWith(name: string, role: Role): boolean {
  return CMDLETS.get(name)?.roles?.includes(role) === true;
}

/**
 * Whether the program may change or make files its words name: a deleter or a creator, one that
 * edits in place (`sed -i`), or one whose own file uses write, make or delete (`cp`, `tee`, `curl
 * -o`, `sort -o`, find's `-delete`). Not its subcommands' (`git clone DIR`).
 */
export function writesFiles(name: string): boolean {
  const found = program(name);
  if (found === undefined) return false;
  if (found.edits !== undefined || found.roles?.some((role) => role === 'deleter' || role === 'creator') === true)
    return true;
  return found.files?.some((use) => 'language' in use || (use.op !== 'read' && use.op !== 'exec')) === true;
}

/** How an entry reads its words (with no value options when it lists none, or for no entry). */
export function readsWith(found: { readonly argv?: Grammar } | undefined): Grammar {
  return found?.argv ?? PLAIN;
}

/** How a program reads its words (a grammar with no value options when the program is unknown). */
export function grammarOf(name: string): Grammar {
  return program(name)?.argv ?? PLAIN;
}

/** A subcommand an entry (or a subcommand) lists, by its word (`push` of git). */
export function subcommandOf(
  parent:
    | { readonly subcommands?: Readonly<Record<string, SubcommandSpec>>; readonly commands?: readonly string[] }
    | undefined,
  word: string | undefined,
): SubcommandSpec | undefined {
  if (parent === undefined || word === undefined) return undefined;
  const subcommands = parent.subcommands;
  if (subcommands !== undefined && Object.hasOwn(subcommands, word)) return subcommands[word];
  return parent.commands?.includes(word) === true ? NO_OPTIONS : undefined;
}

const NO_OPTIONS: SubcommandSpec = Object.freeze({});
