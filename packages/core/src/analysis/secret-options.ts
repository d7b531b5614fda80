/**
 * Passwords and keys written out as a command's option values or settings, whatever their shape
 * (`mysql -pXk29vLq8`, `mytool --api-key 7f3a9c…`, `aws configure set aws_secret_access_key …`):
 * what the knowledge base says takes one (`secretOptions`, `secretSettings`), and any option named
 * like a secret. Key-shaped values anywhere are facts/keys.ts's. Read by secrets.in-command.
 */
import type { Argv } from '../context/types.js';
import { isSecretVariableName } from '../facts/keys.js';
import type { Program } from '../programs/index.js';
import { program, subcommandOf } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';
import { SECRET_SETTING } from './credentials.js';

/** A secret option's name that is a switch or names where the secret is, not the secret (`--show-token`, `--password-stdin`). */
const NOT_A_VALUE =
  /^keys?$|^(?:show|with|reveal|no|use|ask|prompt|generate|rotate|new|print)-|-(?:stdin|prompt|env|id|name|helper|command|cmd)$/;
/** A word that may be an option named like a secret (`--api-key`, `--password=…`), before the exact test. */
const SECRETISH = /^--?[\w-]*(?:key|token|secret|pass|cred|pwd)/i;
const NO_NAMES: ReadonlySet<string> = new Set();
/** Values that stand for a secret rather than being one. */
const PLACEHOLDER =
  /^(?:changeme|change-me|password\d*|secret\d*|example|dummy|placeholder|redacted|test(?:ing)?\d*|your[-_].*|my[-_]?(?:password|secret|token).*)$/i;

/** Where a password or key is written out in the invocation's words. */
export function writtenSecrets(inv: Invocation, argvOf: () => Argv): Span[] {
  const found = program(inv.name);
  if (found?.secretSettings === undefined && !inv.args.some((arg) => arg.startsWith('-'))) return [];
  const hasListed = found !== undefined && (found.secretOptions !== undefined || found.subcommands !== undefined);
  // most words are neither a listed option nor named like a secret: nothing to read
  if (!hasListed && found?.secretSettings === undefined && !inv.args.some((arg) => SECRETISH.test(arg))) return [];
  const argv = argvOf();
  const out: Span[] = [];
  const add = (index: number, value: string): void => {
    if (!literalSecret(value)) return;
    const span = inv.argSpans[index];
    if (span === undefined) return;
    // the value's place in the word as written (quotes may come before it)
    const at = Math.max(span[0], span[1] - value.length);
    out.push([at, span[1]]);
  };
  const listed = hasListed ? new Set([...(found.secretOptions ?? []), ...subcommandSecrets(found, argv)]) : NO_NAMES;
  for (let i = 0; i < inv.args.length; i++) {
    const word = inv.args[i] as string;
    if (!word.startsWith('-') || word === '-' || word === '--') continue;
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(0, eq) : word;
    const short = /^-[A-Za-z]$/.test(word.slice(0, 2)) && !word.startsWith('--');
    const bare = name.replace(/^-+/, '');
    const secretNamed = !short && SECRETISH.test(name) && isSecretVariableName(bare) && !NOT_A_VALUE.test(bare);
    const listedHere = listed.has(name) || (short && listed.has(word.slice(0, 2)));
    if (!secretNamed && !listedHere) continue;
    let value: string | undefined;
    if (eq > 0) value = word.slice(eq + 1);
    else if (short && word.length > 2 && listed.has(word.slice(0, 2))) value = word.slice(2);
    else {
      const next = inv.args[i + 1];
      // a listed option takes its value as the grammar reads it; one named like a secret, the next word
      const takes =
        secretNamed ||
        [...argv.options, ...(argv.sub?.options ?? [])].some((o) => o.index === i && o.value !== undefined);
      if (takes && next !== undefined && !next.startsWith('-')) {
        value = next;
        i++;
        add(i, userSecret(value));
        continue;
      }
    }
    if (value !== undefined) add(i, userSecret(value));
  }
  for (const path of found?.secretSettings ?? []) {
    const words = argv.operands.filter((a) => !a.value.startsWith('-'));
    if (!path.every((part, i) => words[i]?.value === part)) continue;
    const name = words[path.length];
    const value = words[path.length + 1];
    if (name !== undefined && value !== undefined && SECRET_SETTING.test(name.value)) add(value.index, value.value);
  }
  return out;
}

/** `user:SECRET` holds its secret after the colon; anything else is the secret. */
function userSecret(value: string): string {
  const colon = value.indexOf(':');
  return colon > 0 && !value.includes('://') ? value.slice(colon + 1) : value;
}

/** The secret options of the subcommand the words name (`docker login -p`). */
function subcommandSecrets(found: Program | undefined, argv: Argv): readonly string[] {
  return subcommandOf(found, argv.sub?.name)?.secretOptions ?? [];
}

/**
 * A value that is a secret written out: long enough, letters and digits, no variable, substitution,
 * path, file reference or placeholder (`$TOKEN`, `$(pass x)`, `@token.txt`, `./key`, `changeme`, `xxxxxxxx`).
 */
export function literalSecret(value: string): boolean {
  if (value.length < 8 || value.length > 512) return false;
  if (/[\s$`]/.test(value) || /^[-./~@<{[(%*]/.test(value) || /(.)\1{5}/.test(value)) return false;
  if (PLACEHOLDER.test(value) || /\.(?:json|ya?ml|txt|pem|key|env|cfg|ini|toml|conf|crt|p12)$/i.test(value))
    return false;
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}
