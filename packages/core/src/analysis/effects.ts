/**
 * What a step does to files and to the network, whatever tool it uses: the shared facts behind
 * the path rules (a write through `>`/`tee`/`cp` and a write tool are the same write). Which
 * program does what comes from the program knowledge base (its roles, and how it reads its words).
 */
import { argAt, argvOf } from '../context/argv.js';
import type { Arg, Argv, FileEffect, FileOp, NetEffect, RuleContext } from '../context/types.js';
import type { UrlFacts } from '../facts/hosts.js';
import { classifyHost, urlFacts } from '../facts/hosts.js';
import { requestedUrls } from '../facts/code.js';
import { parsePatch } from '../facts/patch.js';
import type { PathFacts } from '../facts/paths.js';
import type { FileLanguage, FileUse, Program, ProgramSource } from '../programs/index.js';
import { cmdletOf, cmdletWith, isA, program, sourceOf, subcommandOf } from '../programs/index.js';
import { awkScript, sedFiles } from '../shell/embedded.js';
import type { Invocation, Redirect } from '../shell/types.js';
import type { Span, ToolStep } from '../types.js';

export type { FileEffect, FileOp, NetEffect } from '../context/types.js';

export interface Effects {
  readonly files: readonly FileEffect[];
  readonly net: readonly NetEffect[];
}

type PathOf = (raw: string, cwd?: string) => PathFacts;
type ArgvOf = (inv: Invocation) => Argv;

/** The file and network effects of a step (`argv` reads an invocation's words: the context's, kept per step). */
export function stepEffects(
  step: ToolStep,
  text: string,
  invocations: readonly Invocation[],
  path: PathOf,
  argv: ArgvOf,
): Effects {
  const files: FileEffect[] = [];
  const net: NetEffect[] = [];
  const whole: Span = [0, text.length];
  switch (step.kind) {
    case 'shell':
      // index loops here and over the redirections (docs/performance.md, "Index loops, not for-of")
      for (let i = 0; i < invocations.length; i++) {
        const inv = invocations[i] as Invocation;
        if (inv.remoteHost !== undefined) continue;
        invocationFiles(inv, argv, path, files);
        netEffects(inv, argv, net);
      }
      break;
    case 'write': {
      const op = step.mode === 'delete' ? 'delete' : step.mode === 'create' ? 'create' : 'write';
      const how =
        step.mode === 'edit' ? 'edit' : step.mode === 'move' ? 'move' : step.mode === 'delete' ? undefined : 'truncate';
      files.push({
        op,
        path: path(step.path),
        span: whole,
        by: step.toolName,
        ...(how ? { how } : {}),
        ...(step.content === undefined ? {} : { content: step.content }),
      });
      if (step.mode === 'move' && step.toPath !== undefined) {
        files.push({ op: 'write', path: path(step.toPath), span: whole, by: step.toolName });
      }
      break;
    }
    case 'patch':
      for (const file of parsePatch(step.patch).files) {
        const op = file.op === 'add' ? 'create' : file.op === 'delete' ? 'delete' : 'write';
        files.push({
          op,
          path: path(file.path),
          span: file.span,
          by: 'apply_patch',
          ...(file.op === 'update' ? { how: file.moveTo ? 'move' : 'edit' } : {}),
          content: file.added,
        });
        if (file.moveTo !== undefined)
          files.push({ op: 'write', path: path(file.moveTo), span: file.span, by: 'apply_patch', content: file.added });
      }
      break;
    case 'read':
      files.push({ op: 'read', path: path(step.path), span: whole, by: step.toolName });
      break;
    case 'fetch': {
      const url = urlFacts(step.url);
      if (url)
        net.push({
          host: url.host,
          hostClass: url.hostClass,
          url,
          span: whole,
          by: step.toolName,
          sends: false,
          kind: 'http',
        });
      // a fetch tool given `file:///…` reads a file on this machine
      const local = FILE_URL.exec(step.url);
      if (local?.[1] !== undefined)
        files.push({ op: 'read', path: path(safeDecode(local[1])), span: whole, by: step.toolName });
      break;
    }
    case 'mcp':
    case 'other':
      // Arguments of MCP and unknown tools are judged by the rules that read them (mcp.changes,
      // secrets.*, guard.tamper) through `looseStrings`; no effect is assumed here.
      break;
  }
  return { files, net };
}

const FILE_URL = /^file:\/\/(?:localhost)?(\/[^?#]*)/i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const NONE: Partial<FileEffect> = Object.freeze({});
const SENDS: Partial<FileEffect> = Object.freeze({ sends: true });
const EDIT: Partial<FileEffect> = Object.freeze({ how: 'edit' });
const APPEND: Partial<FileEffect> = Object.freeze({ how: 'append' });
const RECURSIVE: Partial<FileEffect> = Object.freeze({ how: 'recursive' });

type At = (arg: Arg, op: FileOp, extra?: Partial<FileEffect>) => void;
type Operands = NonNullable<FileUse['operands']>;

/** Options that name the pattern (the operands are then all files). */
const PATTERN_OPTIONS = ['-e', '--regexp', '-f', '--file', '--from-file', '--expression', '-Pattern'];
/** PowerShell's names for the path an item cmdlet works on. */
const PATH_OPTIONS = ['-Path', '-LiteralPath'];

/**
 * What one shell invocation does to files: its redirections, the program file it runs, and what
 * its entry says (roles, file uses). Added to `files` (a new array when none is given); an
 * invocation on another computer (`inv.remoteHost`) is read the same way, as what it does there.
 */
export function invocationFiles(
  inv: Invocation,
  argvFor: ArgvOf,
  path: PathOf,
  files: FileEffect[] = [],
): FileEffect[] {
  const at: At = (arg, op, extra = NONE) => {
    // `xargs -I{} rm {}`, `find … -exec rm {} +`: a placeholder, not a file (find's own effect covers it)
    if (arg.value === '{}' && inv.via.some((v) => v.kind === 'runner')) return;
    // `<(…)` and `>(…)` are pipes to commands the reader lists on their own, not files
    if (PROCESS_SUBSTITUTION.test(arg.value)) return;
    files.push({ op, path: path(arg.value, inv.cwd), span: arg.span, by: inv.name, invocation: inv, ...extra });
  };
  // `bash < setup.sh` and `python - < tool.py` run the file they are fed
  let stdinOp: FileOp | undefined;
  for (let r = 0; r < inv.redirects.length; r++) {
    const redirect = inv.redirects[r] as Redirect;
    if (redirect.write) {
      files.push({
        op: 'write',
        path: path(redirect.target, inv.cwd),
        span: redirect.span,
        by: inv.name || '>',
        invocation: inv,
        how: redirect.append ? 'append' : 'truncate',
      });
    } else if (redirect.op === '<' || redirect.op === '<>') {
      stdinOp ??= runsStdinAsCode(inv) ? 'exec' : 'read';
      files.push({
        op: stdinOp,
        path: path(redirect.target, inv.cwd),
        span: redirect.span,
        by: inv.name,
        invocation: inv,
      });
    }
  }
  // `./build.sh`, `bin/tool`, `~/x.sh`: the program itself is a file on disk
  if (/[\\/]/.test(inv.program) && !inv.program.startsWith('$') && !inv.program.includes('://')) {
    files.push({ op: 'exec', path: path(inv.program, inv.cwd), span: inv.span, by: inv.name, invocation: inv });
  }
  const found = program(inv.name);
  const roles = found?.roles;
  // how the program reads its words, when a branch below needs it (most programs touch no file)
  let reading: Argv | undefined;
  const words = (): Argv => (reading ??= argvFor(inv));
  if (roles?.includes('content-reader') === true) {
    const argv = words();
    for (const arg of argv.operands) at(arg, 'read');
    for (const arg of argv.values(...PATH_OPTIONS)) at(arg, 'read');
  } else if (roles?.includes('script-runner') === true) {
    // only the script is the interpreter's; the rest are the script's own arguments
    const source = inv.code === undefined ? sourceOf(inv.name, inv.args) : undefined;
    if (source?.kind === 'script') at(argAt(inv, source.index), 'exec');
    // `perl -pi -e CODE FILE…`: the words after the code (or the script) are edited in place
    if (found?.edits !== undefined && words().has(...found.edits)) {
      const after = lastSourceWord(sourceOf(inv.name, inv.args));
      for (const arg of words().operands) if (arg.index > after) at(arg, 'write', EDIT);
    }
  } else if (roles?.includes('pattern-first') === true) {
    const argv = words();
    const ops = argv.operands;
    const fileOps = argv.has(...PATTERN_OPTIONS) ? ops : ops.slice(1);
    const inPlace = found?.edits !== undefined && argv.has(...found.edits);
    for (const arg of fileOps) at(arg, inPlace ? 'write' : 'read', inPlace ? EDIT : NONE);
    for (const arg of argv.values('-f', '--file', '--from-file', '--slurpfile', '--rawfile', ...PATH_OPTIONS))
      at(arg, 'read');
    // `grep -r --include='.env*' KEY .`, `rg -g '.env*' KEY`: the files the pattern picks in each folder
    for (const pick of argv.values('--include', '-g', '--glob', '--iglob')) {
      if (pick.value.startsWith('!') || pick.value === '') continue;
      const dirs = fileOps.length > 0 ? fileOps.map((a) => a.value) : ['.'];
      for (const dir of dirs.slice(0, 8)) at(withValue(pick, `${dir.replace(/\/+$/, '')}/${pick.value}`), 'read');
    }
  } else if (roles?.includes('deleter') === true) {
    const argv = words();
    // cmd's `rd /s` and `del /s` (its switches are options, not paths: the entries say `slash`)
    const extra = argv.has('-r', '-R', '--recursive', '-Recurse', '/s', '/S') ? RECURSIVE : NONE;
    for (const arg of argv.operands) at(arg, 'delete', extra);
    for (const arg of argv.values(...PATH_OPTIONS)) at(arg, 'delete', extra);
  } else if (roles?.includes('creator') === true) {
    const argv = words();
    for (const arg of argv.operands) at(arg, 'create');
    for (const arg of argv.values('-Path')) at(arg, 'create');
  }
  // `cp .zshrc ~`: the reader has already put the home folder in place of `~`
  const home = (arg: Arg): boolean => path(arg.value, inv.cwd).isHome;
  if (found !== undefined) fileUses(inv, found, words, at, home);
  else if (inv.name !== '' && inv.code === undefined) handedSecrets(inv, path, at);
  return files;
}

/** Secrets that a program uses without showing them: a key it signs or serves with (`--ssl-keyfile key.pem`, `ssh-add`). */
const USED_SECRETS = new Set(['ssh', 'private-key']);
/** At most this many words of one unknown program are looked at as files. */
const MAX_HANDED = 64;

/**
 * What a program guard has no entry for reads, as far as it matters here: a stored secret it is
 * handed by name (`somecmd --config .env`, `tool --credentials ~/.aws/credentials`), which it may
 * print or send. A file handed to load into the environment (`--env-file .env`, a program named
 * for it: `env-cmd -f .env`) and a key it signs or serves with are not read out.
 */
function handedSecrets(inv: Invocation, path: PathOf, at: At): void {
  if (/env/i.test(inv.name)) return;
  const words = inv.args;
  for (let i = 0; i < words.length && i < MAX_HANDED; i++) {
    const word = words[i] as string;
    // most words name no file: nothing to look up
    if (!/[./~\\]/.test(word)) continue;
    const arg: Arg = { value: word, index: i, span: inv.argSpans[i] ?? inv.span };
    const option = /^(-[\w-]*)=(.+)$/.exec(word);
    const before = option?.[1] ?? words[i - 1] ?? '';
    const value = option?.[2] ?? word;
    if ((option === null && value.startsWith('-')) || !/[./~\\]/.test(value)) continue;
    if (before.startsWith('-') && (/env/i.test(before) || before === '-e')) continue;
    const secret = path(value, inv.cwd).secret;
    if (secret !== undefined && !USED_SECRETS.has(secret)) at(option ? withValue(arg, value) : arg, 'read');
  }
}

/**
 * The files an entry's own file uses name (and its subcommand's: `git clone URL DIR`), read on the
 * invocation's words: see `FileUse` in ../programs/types.ts.
 */
function fileUses(inv: Invocation, found: Program, words: () => Argv, at: At, home: (arg: Arg) => boolean): void {
  if (found.files !== undefined) {
    const uses = found.files;
    for (let u = 0; u < uses.length; u++) {
      const use = uses[u] as FileUse | FileLanguage;
      if (!('language' in use)) applyUse(inv, use, uses, words(), at, home);
      else if (use.language === 'find') findEffects(inv, at);
      else scriptFiles(use.language, words(), at);
    }
  }
  if (found.subcommands === undefined) return;
  let argv = words().sub;
  let spec = subcommandOf(found, argv?.name);
  while (argv !== undefined && spec !== undefined) {
    const uses = spec.files;
    if (uses !== undefined)
      for (let u = 0; u < uses.length; u++) applyUse(inv, uses[u] as FileUse, uses, argv, at, home);
    if (spec.subcommands === undefined) return;
    argv = argv.sub;
    spec = subcommandOf(spec, argv?.name);
  }
}

type Uses = readonly (FileUse | FileLanguage)[];

/** Files that only name the output or a stream, not a file on disk (`w /dev/stdout`, `print > "/dev/stderr"`). */
const STREAM = /^\/dev\/(?:stdout|stderr|stdin|null|fd\/\d+|tty)$/;

/**
 * The files a sed script or an awk program names (`sed 'w FILE'`, `r FILE`, `s/a/b/w FILE`;
 * `awk '{print > "FILE"}'`): its script is the value of `-e` (sed), or its first operand when no
 * script option or file (`-f`) gives it.
 */
function scriptFiles(language: 'sed' | 'awk', argv: Argv, at: At): void {
  const given = language === 'sed' ? argv.values('-e', '--expression') : [];
  const first = argv.operands[0];
  const scripts = given.length > 0 || argv.has('-f', '--file') || first === undefined ? given : [first];
  for (const script of scripts) {
    const files = language === 'sed' ? sedFiles(script.value) : awkScript(script.value).files;
    for (const file of files) {
      if (STREAM.test(file.name)) continue;
      // neither sed nor awk expands `~`: `w ~/x` writes a folder named `~` here
      const name = file.name.startsWith('~') ? `./${file.name}` : file.name;
      at(withValue(script, name), file.op, file.append === true ? APPEND : NONE);
    }
  }
}

function applyUse(inv: Invocation, use: FileUse, uses: Uses, argv: Argv, at: At, home: (arg: Arg) => boolean): void {
  if (use.when !== undefined && !argv.has(...use.when)) return;
  if (use.unless !== undefined && argv.has(...use.unless)) return;
  const byWords = namedBy(inv, use, uses, argv);
  // `tar -x` and `git checkout` with no folder named write in the one they run in
  const named = byWords.length === 0 && use.here === true ? [{ value: '.', index: -1, span: inv.span }] : byWords;
  if (named.length === 0) return;
  const how = use.append !== undefined && argv.has(...use.append) ? 'append' : use.how;
  const sends = use.sends === true || (use.remote === true && use.operands === 'sources' && remoteDestination(argv));
  const extra: Partial<FileEffect> = how === undefined ? (sends ? SENDS : NONE) : sends ? { how, sends } : { how };
  for (let i = 0; i < named.length; i++) {
    const arg = named[i] as Arg;
    // `-` is stdin or stdout, no file
    if (arg.value !== '-' && arg.value !== '') at(arg, use.op, extra);
  }
  if (use.operands === 'destination' && use.op === 'write' && named.length === 1)
    for (const made of madeInFolder(named[0] as Arg, use, uses, argv, home)) at(made, 'write', extra);
}

/**
 * `cp evil.sh ~/.bashrc.d/`, `cp .zshrc ~`, `cp -t DIR a b`: a copy into a folder writes a file of
 * each source's name there, judged as that file. Only where the words say the destination is a
 * folder (a `-t` option, several sources, a trailing `/`, `.`, `..` or the home folder); a source
 * with a trailing `/` (rsync's "what the folder holds") names no one file.
 */
function madeInFolder(dest: Arg, use: FileUse, uses: Uses, argv: Argv, home: (arg: Arg) => boolean): Arg[] {
  if (use.target === undefined && use.remote !== true) return [];
  const sources = byPlace('sources', use, uses, argv);
  const folder =
    (use.target !== undefined && argv.values(...use.target).length > 0) ||
    sources.length > 1 ||
    FOLDER_WORD.test(dest.value) ||
    home(dest);
  if (!folder) return [];
  const out: Arg[] = [];
  for (let i = 0; i < sources.length && i < MAX_MADE; i++) {
    const name = /[^\\/]+$/.exec((sources[i] as Arg).value)?.[0];
    if (name !== undefined && name !== '.' && name !== '..')
      out.push(withValue(dest, `${dest.value.replace(/[\\/]+$/, '')}/${name}`));
  }
  return out;
}

/** A destination that can only be a folder: `dir/`, `.`, `..`, `~`, `$HOME` (and `${HOME}`). */
const FOLDER_WORD = /(?:[\\/]|^\.\.?|[\\/]\.\.?|^~|^\$HOME|^\$\{HOME\})$/;
/** Files made in a folder that are judged one by one, at most. */
const MAX_MADE = 64;

/** The words a file use names, as the files they name. */
function namedBy(inv: Invocation, use: FileUse, uses: Uses, argv: Argv): readonly Arg[] {
  if (use.assigned !== undefined) {
    const key = `${use.assigned}=`;
    const out: Arg[] = [];
    for (let i = 0; i < inv.args.length; i++)
      if ((inv.args[i] as string).startsWith(key))
        out.push(withValue(argAt(inv, i), (inv.args[i] as string).slice(key.length)));
    return out;
  }
  if (use.urls !== undefined) {
    const folder = use.urls.folder === undefined ? undefined : argv.values(...use.urls.folder)[0]?.value;
    const prefix = folder === undefined ? '' : `${folder.replace(/\/+$/, '')}/`;
    return urlArgs(inv).map((arg) => withValue(arg, prefix + remoteName(arg.value)));
  }
  const byName = use.options === undefined ? [] : argv.values(...use.options);
  const named = byName.length > 0 || use.operands === undefined ? byName : byPlace(use.operands, use, uses, argv);
  return use.within === undefined ? named : within(named, use.within);
}

/** The operands a file use names (with no option of its own given). */
function byPlace(operands: Operands, use: FileUse, uses: Uses, argv: Argv): readonly Arg[] {
  const ops = argv.operands;
  switch (operands) {
    case 'all':
      return ops;
    case 'rest':
      return ops.slice(1);
    case 'sources': {
      const copied = use.target !== undefined && argv.values(...use.target).length > 0 ? ops : ops.slice(0, -1);
      return use.remote === true ? copied.filter((arg) => !isRemoteSpec(arg.value)) : copied;
    }
    case 'destination': {
      const target = use.target === undefined ? undefined : argv.values(...use.target)[0];
      const dest = target ?? (ops.length > 1 ? ops[ops.length - 1] : undefined);
      return dest === undefined || (use.remote === true && isRemoteSpec(dest.value)) ? [] : [dest];
    }
    default: {
      // a PowerShell parameter by place: the places before it that are named take no operand
      let place = operands;
      for (const other of uses)
        if (
          !('language' in other) &&
          typeof other.operands === 'number' &&
          other.operands < operands &&
          other.options !== undefined &&
          argv.values(...other.options).length > 0
        )
          place--;
      const arg = ops[place];
      return arg === undefined ? [] : [arg];
    }
  }
}

/**
 * The file inside each value: after an `@` (`-d @body.json`), the path of git's `REV:PATH`, or the
 * file an Ex command writes (`vim -c 'w! FILE'`, `-c 'sav FILE|q'`).
 */
function within(args: readonly Arg[], where: NonNullable<FileUse['within']>): Arg[] {
  const out: Arg[] = [];
  for (const arg of args) {
    if (where === 'ex') {
      for (const command of arg.value.split('|').slice(0, 16)) {
        const file = EX_WRITE.exec(command)?.[1];
        if (file !== undefined) out.push(withValue(arg, file));
      }
      continue;
    }
    const file = where === 'at' ? AT_FILE.exec(arg.value)?.[1] : GIT_OBJECT_PATH.exec(arg.value)?.[1];
    if (file !== undefined) out.push(withValue(arg, file));
  }
  return out;
}

/** An Ex command that writes the text to a file it names (not `w !cmd`, a command's input). */
const EX_WRITE =
  /^[\s:]*(?:(?:%|\d+(?:,\d*)?|,\d+)\s*)?(?:w|write|wq|x|xit|exi|exit|sav|saveas|up|update)!?\s+(?:>>\s*)?([^\s!]\S*)\s*$/;

const AT_FILE = /@([^;,]+)/;

/** Whether a copy's last operand is on another computer (`scp f host:/tmp/`). */
function remoteDestination(argv: Argv): boolean {
  const ops = argv.operands;
  const dest = ops[ops.length - 1];
  return dest !== undefined && isRemoteSpec(dest.value);
}

/** `REV:PATH`, `:PATH` and `:N:PATH` (git's names for a file in a commit or the index): the path. */
const GIT_OBJECT_PATH = /^(?!-)(?::[0-3]:|[^:\s]*:)(?!\/\/)([^:]+)$/;
const PROCESS_SUBSTITUTION = /^[<>]\([^]*\)$/;

/** The argument with another value (field by field: docs/performance.md, "Field by field, not by spread"). */
function withValue(arg: Arg, value: string): Arg {
  return { value, index: arg.index, span: arg.span };
}

/** The modules an interpreter is told to load before its code (`perl -MLWP::Simple`, `ruby -r net/http`), as one text. */
function loadedModules(inv: Invocation, found: Program | undefined): string {
  const options = found?.code?.modules;
  if (options === undefined) return '';
  const out: string[] = [];
  inv.args.forEach((arg, i) => {
    for (const option of options) {
      if (arg === option) out.push(inv.args[i + 1] ?? '');
      else if (arg.startsWith(option)) out.push(arg.slice(option.length));
    }
  });
  return out.join(' ');
}

/** The arguments of an invocation that are URLs. */
function urlArgs(inv: Invocation): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < inv.args.length; i++) if (looksLikeUrl(inv.args[i] ?? '')) out.push(argAt(inv, i));
  return out;
}

/** The file name a download of `url` is saved under by default (`index.html` when the path has none). */
function remoteName(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || 'index.html';
}

/** The last word of what a script runner runs (its code, or its script), or -1. */
function lastSourceWord(source: ProgramSource): number {
  if (source.kind === 'script') return source.index;
  if (source.kind !== 'code') return -1;
  let last = -1;
  for (const part of source.parts) last = Math.max(last, part.index);
  return last;
}

/** The word that stands for the files a runner hands a command (no file is named so). */
const HANDED = '\u0000handed';

/**
 * Whether a command writes or deletes the files a runner hands it: xargs's input, which comes
 * after its words, or what find puts wherever `{}` is (`xargs rm`, `find … -exec sed -i … {} +`,
 * `-exec dd of={}`; not `xargs cat` or `xargs zip out.zip`). Read with its entry's roles and file
 * uses, as if those files were named.
 */
export function changesHanded(inv: Invocation, context: RuleContext): boolean {
  const placed = inv.args.some((arg) => arg.includes('{}'));
  const handed: Invocation = {
    ...inv,
    args: placed ? inv.args.map((arg) => arg.replaceAll('{}', HANDED)) : [...inv.args, HANDED],
    argSpans: placed ? inv.argSpans : [...inv.argSpans, inv.span],
    redirects: [],
  };
  return invocationFiles(handed, argvOf, (raw, cwd) => context.path(raw, cwd)).some(
    (effect) => (effect.op === 'write' || effect.op === 'delete') && effect.path.raw === HANDED,
  );
}

/**
 * True when the program reads the code it runs from standard input: a shell or interpreter with
 * no script (or `-`, `-s`, `/dev/stdin`: see `sourceOf`), `pwsh -Command -`, `cmd` without `/c`, or
 * `iex`/`Invoke-Expression` with no argument (PowerShell's pipeline input). An interpreter whose
 * code the reader has in the command itself (`python -c`, a heredoc) does not read it from a pipe;
 * code the reader worked out from an earlier stage (`echo … | base64 -d | python3`) is still piped.
 */
export function runsStdinAsCode(inv: Invocation): boolean {
  if (cmdletOf(inv.name) === 'invoke-expression') return inv.args.length === 0;
  if (inv.code !== undefined && inv.code.span[0] >= inv.span[0]) return false;
  return sourceOf(inv.name, inv.args).kind === 'stdin';
}

/**
 * What a listing command names, as paths (see RuleContext.listed): `find`'s picks, as if it had
 * `-delete` (find prints each pick with its starting point); PowerShell's Get-ChildItem and Get-Item
 * (and their aliases) name the items in their folders, or with `-Filter x` the `x` below them.
 */
export function listedBy(inv: Invocation, argv: Argv, path: PathOf): PathFacts[] | undefined {
  if (inv.name === 'find') {
    const picks: PathFacts[] = [];
    findEffects(
      inv,
      (arg, op) => {
        if (op === 'delete') picks.push(path(arg.value, inv.cwd));
      },
      true,
    );
    return picks.length > 0 ? picks : undefined;
  }
  if (!cmdletWith(inv.name, 'lister')) return undefined;
  const named = argv.values(...PATH_OPTIONS);
  const folders = named.length > 0 ? named.map((a) => a.value) : argv.operands.map((a) => a.value);
  const filter = argv.values('-Filter', '-Include')[0]?.value;
  return (folders.length > 0 ? folders : ['.']).map((folder) =>
    path(filter === undefined ? folder : `${folder.replace(/[\\/]+$/, '')}/**/${filter}`, inv.cwd),
  );
}

/** find's options that come before the starting points. */
const FIND_LEADING = /^-(?:[HLP]|D|O\d?)$/;
/** Tests that pick files by name, age, size or owner: what is left is not the whole tree. */
const FIND_NARROWING =
  /^-(?:i?name|i?path|i?wholename|i?regex|newer\w*|[acm](?:time|min)|size|empty|user|group|uid|gid|perm|links|inum|samefile|i?lname)$/;
/** Tests whose pattern says which files are picked, by name or by path. */
const FIND_BY_NAME = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename']);

/**
 * `find … -delete` and `find … -exec rm {} ;` delete what find picks under its starting points,
 * not the starting points themselves. When every branch of the expression picks by name or path
 * (`-name __pycache__`, `-name a -o -name b`), the targets are those names anywhere below each
 * starting point (`./**` then `__pycache__`), judged like any other path. Otherwise it is the whole
 * tree (`recursive`), or, when another test (age, size, …) narrows it, files somewhere in it.
 */
function findEffects(inv: Invocation, at: At, listing = false): void {
  const args = inv.args;
  let i = 0;
  while (i < args.length && FIND_LEADING.test(args[i] ?? '')) i += args[i] === '-D' ? 2 : 1;
  const starts: Arg[] = [];
  for (; i < args.length; i++) {
    const value = args[i] ?? '';
    if (value.startsWith('-') || value === '(' || value === '!') break;
    starts.push(argAt(inv, i));
  }
  let deletes = false;
  let reads = false;
  let narrowed = false;
  let recursiveRm = false;
  // the name patterns, and whether every `-o` branch has one that is not negated; a branch that
  // only prunes (`-path ./.git -prune -o …`) skips what it names rather than deleting it
  const names: Arg[] = [];
  let branchNamed = false;
  let allNamed = true;
  let branchStart = 0;
  let branchPrunes = false;
  let branchDeletes = false;
  const endBranch = (): void => {
    if (!branchNamed) allNamed = false;
    if (branchPrunes && !branchDeletes) names.length = branchStart;
    branchNamed = false;
    branchPrunes = false;
    branchDeletes = false;
    branchStart = names.length;
  };
  for (let j = i; j < args.length; j++) {
    const value = args[j] ?? '';
    if (value === '-delete') {
      deletes = true;
      branchDeletes = true;
    } else if (value === '-prune') branchPrunes = true;
    else if (/^-(?:exec|execdir|ok|okdir)$/.test(value)) {
      // `-exec cat {} ;`: the files find picks are printed
      if (isA(baseName(args[j + 1] ?? ''), 'content-reader')) reads = true;
      if (isA(baseName(args[j + 1] ?? ''), 'deleter')) {
        deletes = true;
        branchDeletes = true;
        for (let k = j + 2; k < args.length && args[k] !== ';' && args[k] !== '+'; k++) {
          if (/^-[A-Za-z]*[rR]/.test(args[k] ?? '') || /^--recursive$|^-recurse$/i.test(args[k] ?? ''))
            recursiveRm = true;
        }
      }
      // the command's own words are not find's tests
      while (j + 1 < args.length && args[j + 1] !== ';' && args[j + 1] !== '+') j++;
    } else if (/^-(?:fprint0?|fprintf|fls)$/.test(value)) {
      // `-fprint FILE`, `-fprintf FILE FORMAT`, `-fls FILE`: find writes its list to FILE
      if (!listing && j + 1 < args.length) at(argAt(inv, j + 1), 'write');
      j += value === '-fprintf' ? 2 : 1;
    } else if (value === '-o' || value === '-or') {
      endBranch();
    } else if (FIND_NARROWING.test(value)) {
      narrowed = true;
      const negated = args[j - 1] === '!' || args[j - 1] === '-not';
      const pattern = args[j + 1];
      if (FIND_BY_NAME.has(value) && !negated && pattern !== undefined && !/^\**$/.test(pattern)) {
        names.push(argAt(inv, j + 1));
        branchNamed = true;
      }
      if (value !== '-empty') j++;
    }
  }
  const points = starts.length > 0 ? starts : [{ value: '.', index: -1, span: inv.span }];
  if (reads && !listing)
    for (const point of points)
      for (const name of names.slice(0, 16))
        at(withValue(name, findTarget(point.value.replace(/\/+$/, '') || '/', name.value, point.value)), 'read');
  // a listing is read as if `-delete` ended the expression: what find would delete is what it prints
  if (listing) {
    deletes = true;
    branchDeletes = true;
  }
  if (!deletes) return;
  endBranch();
  // with no starting point, find starts at `.`
  if (allNamed && names.length > 0) {
    const extra: Partial<FileEffect> = recursiveRm ? { how: 'recursive' } : {};
    for (const point of points) {
      const base = point.value.replace(/\/+$/, '') || '/';
      for (const name of names) {
        at(withValue(name, findTarget(base, name.value, point.value)), 'delete', extra);
      }
    }
    return;
  }
  for (const arg of points) at(arg, 'delete', narrowed ? {} : { how: 'recursive' });
}

/**
 * The path a name or path test of find picks below a starting point: `-name x` is any `x` below
 * it; a `-path` pattern that begins with the starting point is that path, any other is anywhere
 * below it.
 */
function findTarget(base: string, pattern: string, start: string): string {
  const prefix = base === '/' ? '/' : `${base}/`;
  if (!pattern.includes('/')) return `${prefix}**/${pattern}`;
  if (pattern.startsWith(`${start.replace(/\/+$/, '')}/`)) return pattern;
  return `${prefix}**/${pattern.replace(/^[*/]+/, '')}`;
}

function baseName(program: string): string {
  return (program.split(/[\\/]/).pop() ?? '').toLowerCase();
}

/** `host:path`, `user@host:path`, `rsync://…` — a path on another computer. */
function isRemoteSpec(value: string): boolean {
  if (value.startsWith('rsync://') || value.startsWith('ssh://')) return true;
  const colon = value.indexOf(':');
  if (colon <= 0) return false;
  const before = value.slice(0, colon);
  // C:\ and ./a:b are local
  return !/^[A-Za-z]$/.test(before) && !before.includes('/');
}

function netEffects(inv: Invocation, argvFor: ArgvOf, net: NetEffect[]): void {
  const name = inv.name;
  const found = program(name);
  const roles = found?.roles;
  const words = (): Argv => argvFor(inv);
  const push = (host: string, span: Span, sends: boolean, kind: NetEffect['kind'], url?: UrlFacts): void => {
    if (!host) return;
    net.push({
      host,
      hostClass: url?.hostClass ?? classifyHost(host),
      ...(url ? { url } : {}),
      span,
      by: name,
      invocation: inv,
      sends,
      kind,
    });
  };
  if (roles?.includes('http-client') === true) {
    const sends = httpSends(inv);
    const before = net.length;
    for (let i = 0; i < inv.args.length; i++) {
      const value = inv.args[i] ?? '';
      const url = looksLikeUrl(value) ? urlFacts(value) : undefined;
      if (url) push(url.host, inv.argSpans[i] ?? inv.span, sends, 'http', url);
    }
    // `curl example.com` without a scheme
    if (net.length === before) {
      const first = words().operands[0];
      if (first && /^(?:[\w.-]+\.[a-z]{2,}|localhost)(:\d+)?(\/|$)/i.test(first.value)) {
        const url = urlFacts(`http://${first.value}`);
        if (url) push(url.host, first.span, sends, 'http', url);
      }
    }
  } else if (roles?.includes('ssh-client') === true) {
    const ops = words().operands;
    if (name === 'ssh' || name === 'sftp' || name === 'mosh') {
      const target = ops[0];
      if (target) push(hostOf(target.value), target.span, true, 'ssh');
    } else {
      for (const [i, arg] of ops.entries()) {
        if (isRemoteSpec(arg.value)) push(hostOf(arg.value), arg.span, i === ops.length - 1, 'ssh');
      }
    }
  } else if (roles?.includes('dns-client') === true) {
    const argv = words();
    const target = [...argv.operands, ...argv.values('-Name')].find(
      (a) => !a.value.startsWith('@') && /[a-z]/i.test(a.value) && a.value.includes('.'),
    );
    if (target) push(target.value.toLowerCase(), target.span, false, 'dns');
  } else if (roles?.includes('raw-client') === true) {
    const argv = words();
    const target = argv.operands[0];
    if (target && !/^\d+$/.test(target.value)) push(target.value.toLowerCase(), target.span, !argv.has('-l'), 'raw');
  }
  // `python3 -c 'urllib.request.urlopen("https://…")'`, `node -e 'fetch("https://…")'`: the code's own requests
  if (inv.code !== undefined) {
    const requested = requestedUrls(inv.code.text, loadedModules(inv, found));
    for (const literal of requested.urls) {
      const url = urlFacts(literal.value);
      if (url) push(url.host, inv.code.span, requested.sends, 'http', url);
    }
  }
  if (name === 'send-mailmessage') {
    const server = words().values('-SmtpServer')[0];
    push(server ? server.value.toLowerCase() : 'smtp', server?.span ?? inv.span, true, 'mail');
  } else if (found?.subcommands !== undefined) {
    // a subcommand that reaches the remote named or written in its words (`git push URL`)
    const sub = words().sub;
    const remote = subcommandOf(found, sub?.name)?.remote;
    if (sub !== undefined && remote !== undefined) {
      for (const arg of sub.words) {
        const url = looksLikeUrl(arg.value) || /^[\w.-]+@[\w.-]+:/.test(arg.value) ? urlFacts(arg.value) : undefined;
        if (url) push(url.host, arg.span, remote === 'sends', 'git', url);
      }
    }
  }
}

function looksLikeUrl(value: string): boolean {
  return /^(https?|ftp|ftps|wss?|ssh|git):\/\//i.test(value);
}

function hostOf(spec: string): string {
  let value = spec.replace(/^(ssh|rsync):\/\//, '');
  const at = value.lastIndexOf('@');
  if (at >= 0) value = value.slice(at + 1);
  value = value.split(/[:/]/)[0] ?? '';
  return value.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Whether an HTTP client call sends data out (a body, a form, an upload, a non-GET method). */
export function httpSends(inv: Invocation): boolean {
  for (let i = 0; i < inv.args.length; i++) {
    const value = inv.args[i] ?? '';
    if (/^-(d|F|T)/.test(value) && !value.startsWith('--')) return true;
    if (
      /^--(data|data-binary|data-raw|data-urlencode|form|form-string|json|upload-file|post-data|post-file|body-data|body-file)(=|$)/.test(
        value,
      )
    )
      return true;
    if (
      (value === '-X' || value === '--request' || value === '--method' || value === '-Method') &&
      /^(POST|PUT|PATCH|DELETE)$/i.test(inv.args[i + 1] ?? '')
    )
      return true;
    if (/^-X(POST|PUT|PATCH)$/i.test(value)) return true;
    if (value === '-Body' || value === '-InFile') return true;
  }
  // httpie: `http POST url field=value`
  if (
    (inv.name === 'http' || inv.name === 'https' || inv.name === 'xh') &&
    /^(POST|PUT|PATCH)$/i.test(inv.args[0] ?? '')
  )
    return true;
  return false;
}

/**
 * True when the effect changes what a file holds or whether it is there (a write, a create with
 * content, a delete or move), as opposed to a read, a run, a mode or owner change, or an empty
 * file or folder made (`attribute-changer` and `creator` programs).
 */
export function changesFile(effect: FileEffect): boolean {
  return (
    (effect.op === 'write' || effect.op === 'create' || effect.op === 'delete') &&
    !isA(effect.by, 'attribute-changer') &&
    !isA(effect.by, 'creator')
  );
}
