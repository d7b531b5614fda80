/**
 * The commands that print a stored credential, as the knowledge base describes them
 * (`ProgramSpec.credentials`): `gh auth token`, `pass show NAME`, `aws configure get
 * aws_secret_access_key`, `docker-credential-desktop get`. Read by secrets.read.
 */
import type { Argv } from '../context/types.js';
import type { CredentialPrint } from '../programs/index.js';
import { program } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';

/** A setting named like a secret (`aws_secret_access_key`, `//registry.npmjs.org/:_authToken`, `github.token`). */
export const SECRET_SETTING = /secret|token|passw|credential|auth|access_?key|key_?id|api_?key|private/i;

/** The command as it names the credential (`gh auth token`), or undefined when it prints none. */
export function printedCredential(inv: Invocation, argv: Argv): string | undefined {
  const prints = program(inv.name)?.credentials;
  if (prints === undefined) return undefined;
  // options after a subcommand stay operands of a leading grammar (`git config --get x.token`)
  const words = argv.operands.map((a) => a.value).filter((word) => !word.startsWith('-'));
  const found = prints.find((print) => prints1(print, inv, argv, words));
  // `stripe config --list --help` shows the help
  if (found === undefined || inv.args.includes('--help')) return undefined;
  return [inv.name, ...words.slice(0, found.path.length)].join(' ');
}

function prints1(print: CredentialPrint, inv: Invocation, argv: Argv, words: readonly string[]): boolean {
  const { path } = print;
  if (!path.every((part, i) => matches(part, words[i]))) return false;
  if (print.when !== undefined && !given(inv, argv, print.when)) return false;
  if (print.unless !== undefined && given(inv, argv, print.unless)) return false;
  const rest = words.slice(path.length);
  if (print.not !== undefined && (rest[0] === undefined || print.not.includes(rest[0]))) return false;
  if (print.alone === true && rest.length > 0) return false;
  return print.named !== true || (rest.length === 1 && SECRET_SETTING.test(rest[0] ?? ''));
}

function matches(part: string, word: string | undefined): boolean {
  if (word === undefined) return false;
  return part.endsWith('*') ? word.startsWith(part.slice(0, -1)) : word === part;
}

/**
 * One of these options is given: as the grammar reads it (`-w` inside `-gw`), with a value
 * (`--raw=true`, `-oyaml`, `--output=json`), or in cmd's spelling (`/list:target`).
 */
function given(inv: Invocation, argv: Argv, names: readonly string[]): boolean {
  if (argv.has(...names)) return true;
  return inv.args.some((arg) =>
    names.some(
      (name) =>
        arg === name ||
        arg.startsWith(`${name}=`) ||
        arg.startsWith(`${name}:`) ||
        (name.length === 2 && name.startsWith('-') && !arg.startsWith('--') && arg.startsWith(name)),
    ),
  );
}
