/**
 * What a shell, an interpreter or `eval` runs, judged from its words: command text handed to it
 * (`bash -c TEXT`, `pwsh -Command a b`, `cmd /c …`), inline code (`python -c CODE`), a script file
 * (`bash x.sh`, `python tool.py`), its stdin (`curl … | bash`), or nothing it reads. One definition
 * for the reader (which reads the text and the code), the effects (a script run is a file run; a
 * program that runs its stdin makes `< x.sh` a run) and the flow analysis (`sh -c "$(curl …)"`).
 */
import type { ParsedArgv } from './argv.js';
import { parseArgv, takesValue } from './argv.js';
import { entryName, program, readsWith, subcommandOf } from './lookup.js';
import type { Dialect, Language, Program, ScriptLanguage } from './types.js';

/** Where a word's text starts: the word, and an offset into it for a value written after `=` or a letter. */
export interface WordAt {
  readonly index: number;
  readonly offset: number;
}

export type ProgramSource =
  /** Shell text: one word (`sh -c TEXT`), or the words from `from` on, joined (`cmd /c a b`, `eval a b`). */
  | { readonly kind: 'text'; readonly at: WordAt; readonly joined: boolean; readonly dialect: Dialect }
  /** Inline code: one word, or several joined by newlines (`perl -e a -e b`). */
  | { readonly kind: 'code'; readonly parts: readonly WordAt[]; readonly language: Language }
  /** What runs comes from stdin (a pipe, a heredoc, `< file`). */
  | { readonly kind: 'stdin'; readonly dialect: Dialect; readonly language?: Language }
  /** A script file, named by the word at `index`. */
  | { readonly kind: 'script'; readonly index: number; readonly language: ScriptLanguage }
  /** Encoded text nobody can read before it runs (`pwsh -EncodedCommand …`). */
  | { readonly kind: 'encoded'; readonly index: number }
  | { readonly kind: 'none' };

const NONE: ProgramSource = { kind: 'none' };
const whole = (index: number): WordAt => ({ index, offset: 0 });

/** What the program `name` runs, given its words (`args`, after the program word). */
export function sourceOf(name: string, args: readonly string[]): ProgramSource {
  const found = program(name);
  if (found === undefined) return NONE;
  if (found.source === undefined) {
    // a script runner and nothing else (`tsx x.ts`): its first operand is the script
    if (found.roles?.includes('script-runner') !== true) return NONE;
    const first = parseArgv(args, readsWith(found)).rest;
    return first < args.length ? script(first, found) : NONE;
  }
  switch (found.source) {
    case 'shell':
      return posixShell(found, args);
    case 'powershell':
      return powershell(found, args);
    case 'cmd':
      return cmd(args);
    case 'code':
      return interpreter(found, args);
    case 'awk':
      return awk(found, args);
    case 'deno':
      return deno(found, args);
    case 'eval':
      return args.length > 0 ? { kind: 'text', at: whole(0), joined: true, dialect: found.dialect ?? 'posix' } : NONE;
    case 'source':
      if (args[0] === undefined) return NONE;
      return args[0] === '/dev/stdin' ? { kind: 'stdin', dialect: 'posix' } : script(0, found);
  }
}

function script(index: number, found: Program): ProgramSource {
  return found.script === undefined ? NONE : { kind: 'script', index, language: found.script };
}

/** `-`, `/dev/stdin` or nothing where the script would be: the program reads its stdin. */
function readsStdin(word: string | undefined): boolean {
  return word === undefined || word === '-' || word === '/dev/stdin';
}

/**
 * `sh [options] -c TEXT [name args…]`, `bash --command TEXT`, `bash -s args…`, `bash script args…`,
 * or `bash` reading commands from stdin. `-` alone ends the options, as `--` does.
 */
function posixShell(found: Program, args: readonly string[]): ProgramSource {
  const parsed = parseArgv(args, readsWith(found));
  let command = false;
  let stdin = false;
  const options = parsed.options;
  for (let o = 0; o < options.length; o++) {
    const option = options[o] as ParsedArgv['options'][number];
    if (option.name === '--command') {
      return option.valueIndex === undefined
        ? NONE
        : {
            kind: 'text',
            at: { index: option.valueIndex, offset: option.valueOffset ?? 0 },
            joined: false,
            dialect: 'posix',
          };
    }
    if (option.name === '-c') command = true;
    else if (option.name === '-s') stdin = true;
  }
  let first = parsed.rest;
  if (args[first] === '-' && parsed.dashdash < 0) first++;
  if (command) return first < args.length ? { kind: 'text', at: whole(first), joined: false, dialect: 'posix' } : NONE;
  if (stdin || first >= args.length || args[first] === '/dev/stdin') return { kind: 'stdin', dialect: 'posix' };
  return script(first, found);
}

/**
 * `pwsh|powershell [options] -Command text…` (`-c`, or `-com` and longer), `-File x.ps1`,
 * `-EncodedCommand …` (`-e`, `-ec`, `-enc`, …), `-Command -` or nothing (stdin). Windows
 * PowerShell takes command text without `-Command`; pwsh takes a script file there.
 */
function powershell(found: Program, args: readonly string[]): ProgramSource {
  const grammar = readsWith(found);
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const first = word.charCodeAt(0);
    if (first !== 45 /* - */ && first !== 47 /* / */) {
      return entryName(found) === 'powershell'
        ? { kind: 'text', at: whole(i), joined: true, dialect: 'powershell' }
        : script(i, found);
    }
    if (word === '-') return { kind: 'stdin', dialect: 'powershell' };
    const option = word.replace(/^(?:--?|\/)/, '').toLowerCase();
    if (option === 'c' || (option.length >= 3 && 'command'.startsWith(option))) {
      if (args[i + 1] === '-') return { kind: 'stdin', dialect: 'powershell' };
      return i + 1 < args.length ? { kind: 'text', at: whole(i + 1), joined: true, dialect: 'powershell' } : NONE;
    }
    if (option === 'f' || (option.length >= 2 && 'file'.startsWith(option))) {
      if (args[i + 1] === '-') return { kind: 'stdin', dialect: 'powershell' };
      return i + 1 < args.length ? script(i + 1, found) : NONE;
    }
    const name = `-${option}`;
    const valued = takesValue(grammar, name);
    if (!valued && option.startsWith('e')) return { kind: 'encoded', index: i };
    if (valued) i++;
  }
  return args.length === 0 ? { kind: 'stdin', dialect: 'powershell' } : NONE;
}

/** `cmd /c text…` or `cmd /k text…` after switches like `/s /q /d`; with none of them, stdin. */
function cmd(args: readonly string[]): ProgramSource {
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (/^\/[ck]$/i.test(word))
      return i + 1 < args.length ? { kind: 'text', at: whole(i + 1), joined: true, dialect: 'cmd' } : NONE;
    if (!word.startsWith('/')) return NONE;
  }
  return { kind: 'stdin', dialect: 'cmd' };
}

/**
 * `python -c CODE`, `node -e CODE`, `perl -e a -e b`, `-cCODE`, `--eval=CODE`; else the script
 * its first operand names, or stdin with none (or `-`). After `python -m mod` it runs a module.
 */
function interpreter(found: Program, args: readonly string[]): ProgramSource {
  const language = found.language ?? 'other';
  const spec = found.code;
  const parsed = parseArgv(args, readsWith(found));
  const parts: WordAt[] = [];
  const options = parsed.options;
  for (let o = 0; o < options.length; o++) {
    const option = options[o] as ParsedArgv['options'][number];
    if (spec?.stop?.includes(option.name) === true && parts.length === 0) return NONE;
    if (spec?.file?.includes(option.name) === true && option.valueIndex !== undefined && parts.length === 0)
      return script(option.valueIndex, found);
    if (option.valueIndex !== undefined && spec?.options.includes(option.name) === true) {
      parts.push({ index: option.valueIndex, offset: option.valueOffset ?? 0 });
      if (spec.many !== true) break;
    }
  }
  if (parts.length > 0) return { kind: 'code', parts, language };
  const first = parsed.rest;
  if (readsStdin(args[first])) return { kind: 'stdin', dialect: 'posix', language };
  return subcommandScript(found, args, first);
}

/**
 * The script of a runner with subcommands (`bun run x.ts`, `deno run x.ts`, `bun x.ts`): the first
 * operand, unless it is a subcommand; after `run`, the operand after it.
 */
function subcommandScript(found: Program, args: readonly string[], first: number): ProgramSource {
  const subcommand = subcommandOf(found, args[first]);
  if (subcommand === undefined) return script(first, found);
  if (args[first] !== 'run') return NONE;
  const after = parseArgv(args, readsWith(found), first + 1);
  if (readsStdin(args[after.rest]) && after.rest < args.length)
    return { kind: 'stdin', dialect: 'posix', language: found.language ?? 'other' };
  return after.rest < args.length ? script(after.rest, found) : NONE;
}

/** awk's program is its first operand, unless `-f FILE` names a file that holds it. */
function awk(found: Program, args: readonly string[]): ProgramSource {
  const parsed = parseArgv(args, readsWith(found));
  for (const option of parsed.options) if (option.name === '-f' || option.name === '--file') return NONE;
  const first = parsed.operands[0];
  return first === undefined ? NONE : { kind: 'code', parts: [whole(first)], language: 'awk' };
}

/** `deno eval [options] CODE`; `deno run x.ts` runs a script. */
function deno(found: Program, args: readonly string[]): ProgramSource {
  const parsed = parseArgv(args, readsWith(found));
  if (args[parsed.rest] !== 'eval') return subcommandScript(found, args, parsed.rest);
  const after = parseArgv(args, readsWith(found), parsed.rest + 1);
  return after.rest < args.length ? { kind: 'code', parts: [whole(after.rest)], language: 'deno' } : NONE;
}
