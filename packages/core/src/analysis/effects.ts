/**
 * What a step does to files and to the network, whatever tool it uses: the shared facts behind
 * the path rules (a write through `>`/`tee`/`cp` and a write tool are the same write). Which
 * program does what comes from the program knowledge base (its roles, and how it reads its words).
 */
import { argAt } from '../context/argv.js';
import type { Arg, Argv, FileEffect, FileOp, NetEffect } from '../context/types.js';
import type { UrlFacts } from '../facts/hosts.js';
import { classifyHost, urlFacts } from '../facts/hosts.js';
import { requestedUrls } from '../facts/code.js';
import { parsePatch } from '../facts/patch.js';
import type { PathFacts } from '../facts/paths.js';
import { canonicalName, cmdletOf, isA, program, sourceOf } from '../programs/index.js';
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
        if (inv.remoteHost === undefined) shellEffects(inv, argv, path, files, net);
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

/** Options that name the pattern (the operands are then all files). */
const PATTERN_OPTIONS = ['-e', '--regexp', '-f', '--file', '--from-file', '--expression', '-Pattern'];
/** PowerShell's names for the path an item cmdlet works on. */
const PATH_OPTIONS = ['-Path', '-LiteralPath'];

function shellEffects(inv: Invocation, argvOf: ArgvOf, path: PathOf, files: FileEffect[], net: NetEffect[]): void {
  const at = (arg: Arg, op: FileOp, extra: Partial<FileEffect> = {}): void => {
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
  const roles = program(inv.name)?.roles;
  // how the program reads its words, when a branch below needs it (most programs touch no file)
  let reading: Argv | undefined;
  const words = (): Argv => (reading ??= argvOf(inv));
  if (roles?.includes('content-reader') === true) {
    const argv = words();
    for (const arg of argv.operands) at(arg, 'read');
    for (const arg of argv.values(...PATH_OPTIONS)) at(arg, 'read');
  } else if (roles?.includes('script-runner') === true) {
    // only the script is the interpreter's; the rest are the script's own arguments
    const source = inv.code === undefined ? sourceOf(inv.name, inv.args) : undefined;
    if (source?.kind === 'script') at(argAt(inv, source.index), 'exec');
    if (inv.name === 'perl') for (const index of perlEdits(inv.args)) at(argAt(inv, index), 'write', { how: 'edit' });
  } else if (roles?.includes('pattern-first') === true) {
    const argv = words();
    const ops = argv.operands;
    const fileOps = argv.has(...PATTERN_OPTIONS) ? ops : ops.slice(1);
    const inPlace = inv.name === 'sed' && argv.has('-i', '--in-place');
    for (const arg of fileOps) at(arg, inPlace ? 'write' : 'read', inPlace ? { how: 'edit' } : {});
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
    const name = inv.name;
    const recursive =
      argv.has('-r', '-R', '--recursive', '-Recurse') || ((name === 'rd' || name === 'del') && argv.has('/s', '/S'));
    for (const arg of argv.operands) {
      // cmd's own switches (`del /q`, `rd /s`) are not paths
      if ((name === 'rd' || name === 'del' || name === 'erase') && /^\/[A-Za-z]$/.test(arg.value)) continue;
      at(arg, 'delete', recursive ? { how: 'recursive' } : {});
    }
    for (const arg of argv.values(...PATH_OPTIONS)) at(arg, 'delete', recursive ? { how: 'recursive' } : {});
  } else if (roles?.includes('creator') === true) {
    const argv = words();
    for (const arg of argv.operands) at(arg, 'create');
    for (const arg of argv.values('-Path')) at(arg, 'create');
  } else {
    otherEffects(inv, words, at, path, files);
  }
  netEffects(inv, words, roles, net);
}

function otherEffects(
  inv: Invocation,
  words: () => Argv,
  at: (arg: Arg, op: FileOp, extra?: Partial<FileEffect>) => void,
  path: PathOf,
  files: FileEffect[],
): void {
  // PowerShell's aliases by the cmdlet they stand for (`cpi` is copy-item, `sc` set-content)
  const name = canonicalName(inv.name);
  if (!OTHER.has(name)) return;
  const argv = words();
  switch (name) {
    case 'cp':
    case 'copy':
    case 'copy-item':
    case 'install':
    case 'ln':
    case 'mv':
    case 'move':
    case 'move-item':
    case 'rename': {
      const moving = name === 'mv' || name === 'move' || name === 'move-item' || name === 'rename';
      const target = argv.values('-t', '--target-directory', '-Destination');
      const ops = argv.operands;
      const sources = target.length > 0 ? ops : ops.slice(0, -1);
      const dest = target[0] ?? ops[ops.length - 1];
      if (name !== 'ln')
        for (const arg of sources) at(arg, moving ? 'delete' : 'read', { how: moving ? 'move' : 'copy' });
      if (dest && (sources.length > 0 || target.length > 0)) at(dest, 'write');
      break;
    }
    case 'tee':
    case 'tee-object':
    case 'set-content':
    case 'add-content':
    case 'out-file': {
      const append = argv.has('-a', '--append', '-Append') || name === 'add-content';
      const named = argv.values('-Path', '-FilePath', '-LiteralPath');
      const list = named.length > 0 ? named : name === 'tee' ? argv.operands : argv.operands.slice(0, 1);
      for (const arg of list) at(arg, 'write', { how: append ? 'append' : 'truncate' });
      break;
    }
    case 'dd':
      for (let i = 0; i < inv.args.length; i++) {
        const value = inv.args[i] ?? '';
        const span = inv.argSpans[i] ?? inv.span;
        if (value.startsWith('of='))
          files.push({
            op: 'write',
            path: path(value.slice(3), inv.cwd),
            span,
            by: 'dd',
            invocation: inv,
            how: 'truncate',
          });
        if (value.startsWith('if='))
          files.push({ op: 'read', path: path(value.slice(3), inv.cwd), span, by: 'dd', invocation: inv });
      }
      break;
    case 'truncate':
    case 'fallocate':
      for (const arg of argv.operands) at(arg, 'write', { how: 'truncate' });
      break;
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'setfacl':
      for (const arg of argv.operands.slice(1)) at(arg, 'write', { how: 'edit' });
      break;
    case 'tar':
    case 'bsdtar': {
      // the old form without a dash (`tar czf out.tgz src`) writes its letters as the first word
      const flags = inv.args.find((a) => !a.startsWith('-') && /^[a-zA-Z]+$/.test(a)) ?? '';
      const all = inv.args.filter((a) => a.startsWith('-')).join('') + flags;
      const creating = /c/.test(all) && !/x/.test(all);
      const archive = argv.values('-f', '--file');
      if (creating) {
        for (const arg of archive) at(arg, 'write');
        const archiveIdx = new Set(archive.map((a) => a.index));
        for (const arg of argv.operands) {
          if (!archiveIdx.has(arg.index) && arg.value !== flags) at(arg, 'read');
        }
      } else {
        for (const arg of argv.values('-C', '--directory')) at(arg, 'write');
      }
      break;
    }
    case 'zip': {
      const ops = argv.operands;
      const first = ops[0];
      if (first) at(first, 'write');
      for (const arg of ops.slice(1)) at(arg, 'read');
      break;
    }
    case 'unzip':
      for (const arg of argv.values('-d')) at(arg, 'write');
      break;
    case 'curl':
      for (const arg of argv.values('-o', '--output')) at(arg, 'write');
      // `curl -O URL` saves under the URL's own file name
      if (argv.has('-O', '--remote-name', '--remote-name-all'))
        for (const arg of urlArgs(inv)) at(withValue(arg, remoteName(arg.value)), 'write');
      for (const arg of argv.values('-T', '--upload-file')) at(arg, 'read', { sends: true });
      for (const arg of argv.values(
        '-d',
        '-F',
        '--data',
        '--data-binary',
        '--data-raw',
        '--data-urlencode',
        '--form',
        '--json',
      )) {
        const file = /@([^;,]+)/.exec(arg.value);
        if (file?.[1] && file[1] !== '-') at(withValue(arg, file[1]), 'read', { sends: true });
      }
      break;
    case 'wget':
      for (const arg of argv.values('-O', '--output-document')) if (arg.value !== '-') at(arg, 'write');
      // without -O (alone or bundled, as in `-qO-`) wget saves under the URL's own file name
      if (!argv.has('-O', '--output-document', '--spider')) {
        const folder = argv.values('-P', '--directory-prefix')[0]?.value;
        for (const arg of urlArgs(inv))
          at(
            withValue(arg, `${folder === undefined ? '' : `${folder.replace(/\/+$/, '')}/`}${remoteName(arg.value)}`),
            'write',
          );
      }
      for (const arg of argv.values('--post-file', '--body-file')) at(arg, 'read', { sends: true });
      break;
    case 'invoke-webrequest':
    case 'invoke-restmethod':
      for (const arg of argv.values('-OutFile')) at(arg, 'write');
      for (const arg of argv.values('-InFile')) at(arg, 'read', { sends: true });
      break;
    case 'scp':
    case 'rsync': {
      const ops = argv.operands;
      const dest = ops[ops.length - 1];
      const remoteDest = dest !== undefined && isRemoteSpec(dest.value);
      for (const arg of ops.slice(0, -1))
        if (!isRemoteSpec(arg.value)) at(arg, 'read', { how: 'copy', ...(remoteDest ? { sends: true } : {}) });
      if (dest && !remoteDest && ops.length > 1) {
        at(dest, 'write');
        // `rsync --delete src/ dest/`: what dest holds that src does not is deleted
        if (inv.name === 'rsync' && inv.args.some((a) => a === '--del' || a.startsWith('--delete')))
          at(dest, 'delete', { how: 'recursive' });
      }
      break;
    }
    case 'git': {
      const git = argv.sub;
      if (git?.name === 'clone') {
        const ops = git.words.filter((a) => !a.value.startsWith('-'));
        const dest = ops[1];
        if (dest) at(dest, 'write');
      } else if (git?.name === 'worktree' && git.sub?.name === 'add') {
        // `git worktree add [-b NAME] PATH [COMMIT]`: a checkout is written at PATH
        const path = git.sub.operands[0];
        if (path) at(path, 'write');
      } else if (
        git?.name === 'show' ||
        (git?.name === 'cat-file' && !git.words.some((a) => a.value === '-t' || a.value === '-s' || a.value === '-e'))
      ) {
        // `git show HEAD:.env`, `git cat-file -p main:config/.env`: a file's text as a commit (or
        // the index) holds it; `cat-file -t/-s/-e` tell only its type, size or presence
        for (const arg of git.words) {
          const file = GIT_OBJECT_PATH.exec(arg.value)?.[1];
          if (file !== undefined) at(withValue(arg, file), 'read');
        }
      }
      break;
    }
    case 'find':
      findEffects(inv, at);
      break;
    case 'sqlite3':
    case 'sqlite': {
      // `sqlite3 FILE [SQL]`: the database file is read (and may be written by the SQL)
      const db = argv.operands[0];
      if (db) at(db, 'read');
      break;
    }
    case 'openssl':
      // `openssl rsa -in key.pem -text` prints what it reads
      for (const arg of argv.values('-in')) at(arg, 'read');
      for (const arg of argv.values('-out')) at(arg, 'write');
      break;
    case 'crontab': {
      const first = argv.operands[0];
      if (first) at(first, 'read');
      break;
    }
    default:
      break;
  }
}

/** `REV:PATH`, `:PATH` and `:N:PATH` (git's names for a file in a commit or the index): the path. */
const GIT_OBJECT_PATH = /^(?!-)(?::[0-3]:|[^:\s]*:)(?!\/\/)([^:]+)$/;
const PROCESS_SUBSTITUTION = /^[<>]\([^]*\)$/;

/** The argument with another value (field by field: docs/performance.md, "Field by field, not by spread"). */
function withValue(arg: Arg, value: string): Arg {
  return { value, index: arg.index, span: arg.span };
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

/**
 * The files `perl -i` (`-pi -e …`, `-i.bak`) edits in place: the words after its code (after the
 * script when there is no `-e`); none without `-i`.
 */
function perlEdits(args: readonly string[]): number[] {
  if (!args.some((arg) => /^-[A-Za-z]*i/.test(arg) && !arg.startsWith('--'))) return [];
  const out: number[] = [];
  let code = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') continue;
    if (arg.startsWith('-') && arg.length > 1) {
      // `-e CODE`, `-pe CODE`, `-E CODE`: the next word is code
      if (/^-[A-Za-z]*[eE]$/.test(arg)) {
        code = true;
        i++;
      }
      continue;
    }
    if (!code) code = true;
    else out.push(i);
  }
  return out;
}

/**
 * True when the program reads the code it runs from standard input: a shell or interpreter with
 * no script (or `-`, `-s`, `/dev/stdin`: see `sourceOf`), `pwsh -Command -`, `cmd` without `/c`, or
 * `iex`/`Invoke-Expression` with no argument (PowerShell's pipeline input). An interpreter whose
 * code the reader already has (`python -c`, a heredoc) does not read it from a pipe.
 */
export function runsStdinAsCode(inv: Invocation): boolean {
  if (cmdletOf(inv.name) === 'invoke-expression') return inv.args.length === 0;
  if (inv.code !== undefined) return false;
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
  const cmdlet = cmdletOf(inv.name);
  if (cmdlet !== 'get-childitem' && cmdlet !== 'get-item') return undefined;
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
function findEffects(
  inv: Invocation,
  at: (arg: Arg, op: FileOp, extra?: Partial<FileEffect>) => void,
  listing = false,
): void {
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

/** The programs otherEffects knows, by name (PowerShell's aliases by their cmdlet's). */
const OTHER = new Set([
  'fallocate',
  'cp',
  'copy',
  'copy-item',
  'install',
  'ln',
  'mv',
  'move',
  'move-item',
  'rename',
  'tee',
  'tee-object',
  'set-content',
  'add-content',
  'out-file',
  'dd',
  'truncate',
  'chmod',
  'chown',
  'chgrp',
  'setfacl',
  'tar',
  'bsdtar',
  'zip',
  'unzip',
  'curl',
  'wget',
  'invoke-webrequest',
  'invoke-restmethod',
  'scp',
  'rsync',
  'git',
  'find',
  'sqlite3',
  'sqlite',
  'openssl',
  'crontab',
]);

function netEffects(inv: Invocation, words: () => Argv, roles: readonly string[] | undefined, net: NetEffect[]): void {
  const name = inv.name;
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
    const requested = requestedUrls(inv.code.text);
    for (const literal of requested.urls) {
      const url = urlFacts(literal.value);
      if (url) push(url.host, inv.code.span, requested.sends, 'http', url);
    }
  }
  if (name === 'send-mailmessage') {
    const server = words().values('-SmtpServer')[0];
    push(server ? server.value.toLowerCase() : 'smtp', server?.span ?? inv.span, true, 'mail');
  } else if (name === 'git') {
    const git = words().sub;
    if (git !== undefined && GIT_NETWORK.has(git.name)) {
      for (const arg of git.words) {
        const url = looksLikeUrl(arg.value) || /^[\w.-]+@[\w.-]+:/.test(arg.value) ? urlFacts(arg.value) : undefined;
        if (url) push(url.host, arg.span, git.name === 'push', 'git', url);
      }
    }
  }
}

/** git subcommands that reach the remote named or written in their arguments. */
const GIT_NETWORK = new Set(['clone', 'fetch', 'pull', 'ls-remote', 'push', 'submodule']);

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

/** Programs that change a file's mode, owner or time stamp, or make an empty file or folder. */
const METADATA_ONLY = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'touch', 'mkdir', 'md']);

/**
 * True when the effect changes what a file holds or whether it is there (a write, a create with
 * content, a delete or move), as opposed to a read, a run, or a mode/owner/time-stamp change.
 */
export function changesFile(effect: FileEffect): boolean {
  return (effect.op === 'write' || effect.op === 'create' || effect.op === 'delete') && !METADATA_ONLY.has(effect.by);
}
