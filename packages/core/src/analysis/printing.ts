/**
 * What a shell invocation prints of the environment: all of it (`printenv`, bare `env`,
 * `export -p`, `Get-ChildItem env:`), or secret-named variables (`echo $OPENAI_API_KEY`,
 * `printenv GITHUB_TOKEN`). Shared by env.print and script.prints-key.
 */
import type { RuleContext } from '../context/types.js';
import { isSecretVariableName } from '../facts/keys.js';
import { cmdletWith, isA } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** A secret-named variable an invocation prints. */
export interface PrintedName {
  readonly name: string;
  readonly span: Span;
}

/** Cmdlets that list what a provider holds (`Get-ChildItem env:`, by any alias: `gci`, `ls`, `dir`). */
const envProvider = (name: string): boolean => cmdletWith(name, 'lister');
// `$NAME`, `${NAME…}` (with `#`/`!` before for length or indirection), `$env:NAME`, `%NAME%`
const VARIABLE =
  /\$\{([#!]?)([A-Za-z_][A-Za-z0-9_]{0,100})([^}]{0,200})\}|\$env:([A-Za-z_][A-Za-z0-9_]{0,100})|\$([A-Za-z_][A-Za-z0-9_]{0,100})|%([A-Za-z_][A-Za-z0-9_]{0,100})%/gi;
const ENV_DRIVE = /^env:[\\/]?(.*)$/i;
const DECLARE_PRINT = /^-[a-z]*p/;
const BARE_ENV = /^\$env:([A-Za-z_][A-Za-z0-9_]*)$/i;

/** `node -p CODE`, `node --print CODE`: the interpreter prints the value of the code. */
export function printsCodeValue(inv: Invocation): boolean {
  return (
    inv.code?.language === 'node' &&
    inv.args.some((a) => a === '-p' || a === '-pe' || a === '--print' || a.startsWith('--print='))
  );
}

/** True when the invocation prints every environment variable (or every exported one). */
export function dumpsEnvironment(inv: Invocation, context: RuleContext): boolean {
  const { name, args } = inv;
  switch (name) {
    case 'printenv':
      return context.argv(inv).operands.length === 0;
    case 'env':
      // what is left after the reader took `env … CMD` apart: options and assignments only
      return args.every((a) => a.startsWith('-') || a.includes('='));
    case 'export':
      return args.length === 0 || (args.length === 1 && args[0] === '-p');
    case 'set':
      return args.length === 0;
    case 'ps':
      // BSD's `e` (`ps eww`, `ps auxe`) prints each process's environment after its command; `-e` is every process
      return /^[aAcfhjlLmrSTuvwxXZ]*e[aAcfhjlLmrSTuvwxXZ]*$/.test(args[0] ?? '');
    case 'declare':
    case 'typeset':
      return args.length > 0 && args.every((a) => /^-[xpg]+$/.test(a));
    default:
      if (envProvider(name)) {
        return envDriveNames(inv).some((n) => n === '' || n === '*');
      }
      return false;
  }
}

/** Names after `env:` in a PowerShell provider path (`Get-ChildItem env:`, `gci -Path Env:\X`). */
function envDriveNames(inv: Invocation): string[] {
  const out: string[] = [];
  for (const arg of inv.args) {
    const m = ENV_DRIVE.exec(arg);
    if (m) out.push(m[1] ?? '');
  }
  return out;
}

/**
 * Secret-named variables whose values the invocation prints (`echo "$GITHUB_TOKEN"`,
 * `printf %s $AWS_SECRET_ACCESS_KEY`, `printenv NPM_TOKEN`, `Write-Output $env:API_KEY`,
 * `gci env:API_KEY`, a bare `$env:API_KEY`). `${#KEY}` (length) and `${KEY:+set}` show nothing
 * of the value; an argument in single quotes is printed as written.
 */
export function printedSecretNames(inv: Invocation, context: RuleContext): PrintedName[] {
  const text = context.text;
  const out: PrintedName[] = [];
  const add = (name: string, span: Span): void => {
    if (isSecretVariableName(name)) out.push({ name, span });
  };
  const bare = BARE_ENV.exec(inv.program);
  if (bare?.[1] !== undefined) add(bare[1], inv.span);
  if (inv.name === 'printenv') {
    for (const arg of context.argv(inv).operands) add(arg.value, arg.span);
  } else if ((inv.name === 'declare' || inv.name === 'typeset') && inv.args.some((a) => DECLARE_PRINT.test(a))) {
    // `declare -p NAME` prints the assignment with its value
    for (const arg of context.argv(inv).operands) add(arg.value, arg.span);
  } else if (envProvider(inv.name)) {
    inv.args.forEach((arg, i) => {
      const name = ENV_DRIVE.exec(arg)?.[1];
      if (name) add(name, inv.argSpans[i] ?? inv.span);
    });
  } else if (isA(inv.name, 'printer')) {
    inv.args.forEach((arg, i) => {
      const span = inv.argSpans[i] ?? inv.span;
      const raw = text.slice(span[0], span[1]);
      if (raw.length > 1 && raw.startsWith("'") && raw.endsWith("'")) return;
      VARIABLE.lastIndex = 0;
      for (let m = VARIABLE.exec(arg); m !== null; m = VARIABLE.exec(arg)) {
        if (m[2] !== undefined) {
          // `${#KEY}` is its length, `${!KEY}` another variable, `${KEY:+x}` only says it is set
          if (m[1] === '' && !/^:?\+/.test(m[3] ?? '')) add(m[2], span);
        } else {
          const name = m[4] ?? m[5] ?? m[6];
          if (name !== undefined) add(name, span);
        }
      }
    });
  }
  return out;
}
