/**
 * The program knowledge base: what guard knows about each program it reads, in one place. One
 * entry per program (./entries/*.ts) says its names, its roles (shell, interpreter, HTTP client,
 * deleter, …), which of its options take a value, its subcommands, its PowerShell aliases and
 * the syntax of what it runs. The reader (../shell), the analysis and every rule ask here, by
 * `Invocation.name`, through maps from names to entries built once when the module loads (every
 * look-up by name is O(1)); the entries themselves are read as written, nothing is compiled at
 * load (the hook loads this on every call). ARCHITECTURE.md ("Teach guard a program") says how to add one.
 */
export type * from './types.js';
export { hasOption, optionIs, optionsNamed, parseArgv, PLAIN, takesValue, withValues } from './argv.js';
export type { ArgvOption, Grammar, ParsedArgv } from './argv.js';
export {
  cmdletOf,
  cmdletWith,
  EDITOR_ENV,
  ENTRIES,
  entryName,
  grammarOf,
  isA,
  namesWith,
  PAGER_ENV,
  program,
  programsMatching,
  readsWith,
  subcommandOf,
  UNKNOWN_RUNS,
  writesFiles,
} from './lookup.js';
export { marksProduction, serviceCommand, verbOf } from './service-verbs.js';
export type { ServiceAct, ServiceCommand } from './service-verbs.js';
export { cloudChange, powershellOnly } from './entries/powershell.js';
export { sourceOf } from './sources.js';
export type { ProgramSource, WordAt } from './sources.js';
