import { parsePatch } from '../facts/patch.js';
import type { HostClass, UrlFacts } from '../facts/hosts.js';
import { classifyHost, urlFacts } from '../facts/hosts.js';
import type { PathFacts } from '../facts/paths.js';
import type { Invocation, Redirect } from '../shell/types.js';
import type { Span, ToolStep } from '../types.js';
import type { Arg } from './args.js';
import { argAt, gitCommand, hasFlag, operands, optionValues } from './args.js';

/**
 * What a step does to files and to the network, whatever tool it uses: the shared facts behind
 * the path rules (a write through `>`/`tee`/`cp` and a write tool are the same write).
 */
export type FileOp = 'read' | 'write' | 'create' | 'delete' | 'exec';

export interface FileEffect {
  readonly op: FileOp;
  readonly path: PathFacts;
  readonly span: Span;
  /** Program or tool that does it. */
  readonly by: string;
  readonly invocation?: Invocation;
  /**
   * How: `truncate` empties or replaces the file (`>`), `append` (`>>`), `edit` changes it in
   * place, `move` takes it away from here (the source of `mv`), `copy` reads it to elsewhere,
   * `recursive` deletes a whole tree.
   */
  readonly how?: 'truncate' | 'append' | 'edit' | 'move' | 'copy' | 'recursive';
  /** The content leaves the machine (`curl -T`, `scp` to a host). */
  readonly sends?: boolean;
  /** For writes by a write tool: the new text. */
  readonly content?: string;
}

export interface NetEffect {
  readonly host: string;
  readonly hostClass: HostClass;
  readonly url?: UrlFacts;
  readonly span: Span;
  readonly by: string;
  readonly invocation?: Invocation;
  /** Data goes out (a POST body, an upload, a copy to another computer, a raw socket). */
  readonly sends: boolean;
  readonly kind: 'http' | 'ssh' | 'git' | 'dns' | 'mail' | 'raw';
}

export interface Effects {
  readonly files: readonly FileEffect[];
  readonly net: readonly NetEffect[];
}

type PathOf = (raw: string, cwd?: string) => PathFacts;

/** The file and network effects of a step. */
export function stepEffects(step: ToolStep, text: string, invocations: readonly Invocation[], path: PathOf): Effects {
  const files: FileEffect[] = [];
  const net: NetEffect[] = [];
  const whole: Span = [0, text.length];
  switch (step.kind) {
    case 'shell':
      // index loops here and over the redirections: for-of costs an iterator until V8 optimises
      for (let i = 0; i < invocations.length; i++) {
        const inv = invocations[i] as Invocation;
        if (inv.remoteHost === undefined) shellEffects(inv, path, files, net);
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

/** Programs that print or pass on the content of the files they are given. */
const CONTENT_READERS = new Set([
  'cat',
  'tac',
  'less',
  'more',
  'most',
  'head',
  'tail',
  'bat',
  'batcat',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'base64',
  'base32',
  'basenc',
  'uuencode',
  'sort',
  'uniq',
  'cut',
  'paste',
  'column',
  'fold',
  'fmt',
  'pr',
  'rev',
  'tr',
  'iconv',
  'diff',
  'sdiff',
  'cmp',
  'comm',
  'jq',
  'yq',
  'xmllint',
  'type',
  'get-content',
  'gc',
  'dos2unix',
  'unix2dos',
  'zcat',
  'gzip',
  'bzip2',
  'xz',
  'zstd',
  'pbcopy',
  'xclip',
  'xsel',
  'clip',
  'wl-copy',
  'mail',
  'sendmail',
]);

/** Programs whose first operand is a pattern or program text, not a file. */
const PATTERN_FIRST = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'select-string',
  'sls',
  'findstr',
]);
const PATTERN_OPTIONS = new Set(['-e', '--regexp', '-f', '--file', '--expression']);
const GREP_WITH_VALUE = new Set([
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-m',
  '--max-count',
  '-A',
  '-B',
  '-C',
  '--context',
  '--include',
  '--exclude',
  '--exclude-dir',
  '-g',
  '--glob',
  '-t',
  '--type',
  '-T',
  '--type-not',
  '--color',
  '--colour',
]);

const DELETERS = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'srm',
  'remove-item',
  'ri',
  'del',
  'erase',
  'rd',
  'trash',
  'trash-put',
]);
const CREATORS = new Set(['touch', 'mkdir', 'new-item', 'ni', 'md']);

/** Shell interpreters and script runners whose first operand is a script they run. */
const SCRIPT_RUNNERS = new Set([
  'source',
  '.',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'ruby',
  'perl',
  'php',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'pwsh',
  'powershell',
]);

/** Programs that send an HTTP request to the URLs they are given. */
export const HTTP_CLIENTS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'xh',
  'aria2c',
  'invoke-webrequest',
  'iwr',
  'invoke-restmethod',
  'irm',
  'lynx',
  'w3m',
  'links',
]);
const SSH_CLIENTS = new Set(['ssh', 'scp', 'sftp', 'rsync', 'mosh']);
const DNS_CLIENTS = new Set(['nslookup', 'dig', 'host', 'resolve-dnsname', 'drill']);
const RAW_CLIENTS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet']);

const SSH_WITH_VALUE = new Set([
  '-p',
  '-P',
  '-i',
  '-o',
  '-l',
  '-F',
  '-J',
  '-L',
  '-R',
  '-D',
  '-b',
  '-c',
  '-E',
  '-e',
  '-m',
  '-O',
  '-Q',
  '-S',
  '-W',
  '-w',
  '-B',
]);

function shellEffects(inv: Invocation, path: PathOf, files: FileEffect[], net: NetEffect[]): void {
  const at = (arg: Arg, op: FileOp, extra: Partial<FileEffect> = {}): void => {
    // `xargs -I{} rm {}`, `find … -exec rm {} +`: a placeholder, not a file (find's own effect covers it)
    if (arg.value === '{}' && inv.via.some((v) => v.kind === 'runner')) return;
    // `<(…)` and `>(…)` are pipes to commands the reader lists on their own, not files
    if (PROCESS_SUBSTITUTION.test(arg.value)) return;
    files.push({ op, path: path(arg.value, inv.cwd), span: arg.span, by: inv.name, invocation: inv, ...extra });
  };
  // `bash < setup.sh` and `python - < tool.py` run the file they are fed
  const stdinOp: FileOp = runsStdinAsCode(inv) ? 'exec' : 'read';
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
  const name = inv.name;
  if (CONTENT_READERS.has(name)) {
    for (const arg of operands(inv, READER_WITH_VALUE)) at(arg, 'read');
  } else if (SCRIPT_RUNNERS.has(name)) {
    // only the script operand is the interpreter's; the rest are the script's own arguments
    if (inv.code === undefined && !hasFlag(inv, 'c', ['-Command', '-command', '-c', '-e', '--eval', '-r'])) {
      const first = operands(inv, READER_WITH_VALUE)[0];
      if (first && first.value !== '-') at(first, 'exec');
    }
  } else if (PATTERN_FIRST.has(name)) {
    const ops = operands(inv, GREP_WITH_VALUE);
    const patternGiven = inv.args.some((a) => PATTERN_OPTIONS.has(a) || /^--(regexp|expression|file)=/.test(a));
    const fileOps = patternGiven ? ops : ops.slice(1);
    const inPlace =
      (name === 'sed' || name === 'perl') &&
      inv.args.some((a) => a === '-i' || a.startsWith('-i') || a.startsWith('--in-place'));
    for (const arg of fileOps) at(arg, inPlace ? 'write' : 'read', inPlace ? { how: 'edit' } : {});
    for (const arg of optionValues(inv, ['-f'], ['--file'])) at(arg, 'read');
  } else if (DELETERS.has(name)) {
    const recursive =
      hasFlag(inv, 'r', ['--recursive', '-Recurse', '-recurse']) ||
      hasFlag(inv, 'R') ||
      ((name === 'rd' || name === 'del') && inv.args.some((a) => /^\/s$/i.test(a)));
    for (const arg of operands(inv, DELETE_WITH_VALUE)) {
      // cmd's own switches (`del /q`, `rd /s`) are not paths
      if ((name === 'rd' || name === 'del' || name === 'erase') && /^\/[A-Za-z]$/.test(arg.value)) continue;
      at(arg, 'delete', recursive ? { how: 'recursive' } : {});
    }
    for (const arg of optionValues(inv, [], ['-Path', '-path', '-LiteralPath']))
      at(arg, 'delete', recursive ? { how: 'recursive' } : {});
  } else if (CREATORS.has(name)) {
    for (const arg of operands(inv, CREATE_WITH_VALUE)) at(arg, 'create');
  } else {
    otherEffects(inv, at, path, files);
  }
  netEffects(inv, net);
}

const READER_WITH_VALUE = new Set(['-n', '-c', '--lines', '--bytes', '-s', '-w', '-o', '-d', '-f', '-t', '-m']);
/** PowerShell parameters every cmdlet takes, and the item cmdlets' filters, with their value after them. */
const POWERSHELL_WITH_VALUE = [
  '-ErrorAction',
  '-erroraction',
  '-ea',
  '-WarningAction',
  '-warningaction',
  '-wa',
  '-InformationAction',
  '-ia',
  '-ErrorVariable',
  '-ev',
  '-WarningVariable',
  '-wv',
  '-OutVariable',
  '-ov',
  '-OutBuffer',
  '-ob',
  '-Filter',
  '-filter',
  '-Include',
  '-include',
  '-Exclude',
  '-exclude',
  '-Credential',
  '-Stream',
  '-Depth',
];
const DELETE_WITH_VALUE = new Set(['-n', '--iterations', '-s', '--size', ...POWERSHELL_WITH_VALUE]);
const CREATE_WITH_VALUE = new Set([
  '-m',
  '--mode',
  '-d',
  '--date',
  '-r',
  '--reference',
  '-t',
  '-ItemType',
  '-Value',
  ...POWERSHELL_WITH_VALUE,
]);

function otherEffects(
  inv: Invocation,
  at: (arg: Arg, op: FileOp, extra?: Partial<FileEffect>) => void,
  path: PathOf,
  files: FileEffect[],
): void {
  const name = inv.name;
  switch (name) {
    case 'cp':
    case 'copy':
    case 'copy-item':
    case 'cpi':
    case 'install':
    case 'ln':
    case 'mv':
    case 'move':
    case 'move-item':
    case 'mi':
    case 'rename': {
      const moving = name === 'mv' || name === 'move' || name === 'move-item' || name === 'mi' || name === 'rename';
      const target = optionValues(inv, ['-t'], ['--target-directory', '-Destination', '-destination']);
      const ops = operands(inv, COPY_WITH_VALUE);
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
    case 'sc':
    case 'add-content':
    case 'ac':
    case 'out-file': {
      const append = hasFlag(inv, 'a', ['--append', '-Append', '-append']) || name === 'add-content' || name === 'ac';
      const named = optionValues(inv, [], ['-Path', '-path', '-FilePath', '-filepath', '-LiteralPath']);
      const list = named.length > 0 ? named : name === 'tee' ? operands(inv) : operands(inv).slice(0, 1);
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
      for (const arg of operands(inv, new Set(['-s', '--size', '-r', '--reference'])))
        at(arg, 'write', { how: 'truncate' });
      break;
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'setfacl':
      for (const arg of operands(inv, new Set(['--reference'])).slice(1)) at(arg, 'write', { how: 'edit' });
      break;
    case 'tar':
    case 'bsdtar': {
      const flags = inv.args.find((a) => !a.startsWith('-') && /^[a-zA-Z]+$/.test(a)) ?? '';
      const all = inv.args.filter((a) => a.startsWith('-')).join('') + flags;
      const creating = /c/.test(all) && !/x/.test(all);
      const archive = optionValues(inv, ['-f'], ['--file']);
      if (creating) {
        for (const arg of archive) at(arg, 'write');
        const archiveIdx = new Set(archive.map((a) => a.index));
        for (const arg of operands(inv, new Set(['-f', '--file', '-C', '--directory']))) {
          if (!archiveIdx.has(arg.index) && arg.value !== flags) at(arg, 'read');
        }
      } else {
        for (const arg of optionValues(inv, ['-C'], ['--directory'])) at(arg, 'write');
      }
      break;
    }
    case 'zip': {
      const ops = operands(inv);
      const first = ops[0];
      if (first) at(first, 'write');
      for (const arg of ops.slice(1)) at(arg, 'read');
      break;
    }
    case 'unzip':
      for (const arg of optionValues(inv, ['-d'])) at(arg, 'write');
      break;
    case 'curl':
      for (const arg of optionValues(inv, ['-o'], ['--output'])) at(arg, 'write');
      // `curl -O URL` saves under the URL's own file name
      if (hasFlag(inv, 'O', ['--remote-name', '--remote-name-all']))
        for (const arg of urlArgs(inv)) at(withValue(arg, remoteName(arg.value)), 'write');
      for (const arg of optionValues(inv, ['-T'], ['--upload-file'])) at(arg, 'read', { sends: true });
      for (const arg of optionValues(
        inv,
        ['-d', '-F'],
        ['--data', '--data-binary', '--data-raw', '--data-urlencode', '--form', '--json'],
      )) {
        const file = /@([^;,]+)/.exec(arg.value);
        if (file?.[1] && file[1] !== '-') at(withValue(arg, file[1]), 'read', { sends: true });
      }
      break;
    case 'wget':
      for (const arg of optionValues(inv, ['-O'], ['--output-document'])) if (arg.value !== '-') at(arg, 'write');
      // without -O (alone or bundled, as in `-qO-`) wget saves under the URL's own file name
      if (
        !inv.args.some((a) => /^-[a-zA-Z]*O/.test(a) || a.startsWith('--output-document')) &&
        !inv.args.includes('--spider')
      ) {
        const folder = optionValues(inv, ['-P'], ['--directory-prefix'])[0]?.value;
        for (const arg of urlArgs(inv))
          at(
            withValue(arg, `${folder === undefined ? '' : `${folder.replace(/\/+$/, '')}/`}${remoteName(arg.value)}`),
            'write',
          );
      }
      for (const arg of optionValues(inv, [], ['--post-file', '--body-file'])) at(arg, 'read', { sends: true });
      break;
    case 'invoke-webrequest':
    case 'iwr':
    case 'invoke-restmethod':
    case 'irm':
      for (const arg of optionValues(inv, [], ['-OutFile', '-outfile'])) at(arg, 'write');
      for (const arg of optionValues(inv, [], ['-InFile', '-infile'])) at(arg, 'read', { sends: true });
      break;
    case 'scp':
    case 'rsync': {
      const ops = operands(inv, SSH_WITH_VALUE);
      const dest = ops[ops.length - 1];
      const remoteDest = dest !== undefined && isRemoteSpec(dest.value);
      for (const arg of ops.slice(0, -1))
        if (!isRemoteSpec(arg.value)) at(arg, 'read', { how: 'copy', ...(remoteDest ? { sends: true } : {}) });
      if (dest && !remoteDest && ops.length > 1) at(dest, 'write');
      break;
    }
    case 'git': {
      const git = gitCommand(inv);
      if (git?.sub === 'clone') {
        const ops = git.args.filter((a) => !a.value.startsWith('-'));
        const dest = ops[1];
        if (dest) at(dest, 'write');
      } else if (git?.sub === 'worktree' && git.args[0]?.value === 'add') {
        // `git worktree add [-b NAME] PATH [COMMIT]`: a checkout is written at PATH
        const path = worktreePath(git.args.slice(1));
        if (path) at(path, 'write');
      } else if (
        git?.sub === 'show' ||
        (git?.sub === 'cat-file' && !git.args.some((a) => a.value === '-t' || a.value === '-s' || a.value === '-e'))
      ) {
        // `git show HEAD:.env`, `git cat-file -p main:config/.env`: a file's text as a commit (or
        // the index) holds it; `cat-file -t/-s/-e` tell only its type, size or presence
        for (const arg of git.args) {
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
      const db = operands(inv, SQLITE_WITH_VALUE)[0];
      if (db) at(db, 'read');
      break;
    }
    case 'openssl':
      // `openssl rsa -in key.pem -text` prints what it reads
      for (const arg of optionValues(inv, [], ['-in'])) at(arg, 'read');
      for (const arg of optionValues(inv, [], ['-out'])) at(arg, 'write');
      break;
    case 'crontab': {
      const ops = operands(inv, new Set(['-u']));
      if (ops[0]) at(ops[0], 'read');
      break;
    }
    default:
      break;
  }
}

/** `REV:PATH`, `:PATH` and `:N:PATH` (git's names for a file in a commit or the index): the path. */
const GIT_OBJECT_PATH = /^(?!-)(?::[0-3]:|[^:\s]*:)(?!\/\/)([^:]+)$/;
const SQLITE_WITH_VALUE = new Set(['-cmd', '-separator', '-newline', '-nullvalue', '-init']);
const PROCESS_SUBSTITUTION = /^[<>]\([^]*\)$/;

/** The argument with another value (field by field: `{ ...arg, value }` gives each copy a V8 map of its own). */
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

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
const SHELL_WITH_VALUE = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);
const INTERPRETER_WITH_VALUE = new Set([
  '-W',
  '-X',
  '-r',
  '--require',
  '--import',
  '--loader',
  '-I',
  '-M',
  '--input-type',
  '--env-file',
]);
const INTERPRETERS = /^(?:python[\d.]*|pypy[\d.]*|py|node|nodejs|bun|ruby|perl|php)$/;

/**
 * True when the program reads the code it runs from standard input: a shell or interpreter with
 * no script (or `-`, `-s`, `/dev/stdin`), `pwsh -Command -`, or `iex`/`Invoke-Expression` with
 * no argument (PowerShell's pipeline input).
 */
export function runsStdinAsCode(inv: Invocation): boolean {
  const name = inv.name;
  const stdinWord = (value: string | undefined): boolean =>
    value === undefined || value === '-' || value === '/dev/stdin';
  if (name === 'iex' || name === 'invoke-expression') return inv.args.length === 0;
  if (name === 'source' || name === '.') return inv.args[0] === '/dev/stdin';
  if (name === 'pwsh' || name === 'powershell') {
    const command = inv.args.findIndex((a) => /^[-/](?:c|command|f|file)$/i.test(a));
    return (
      inv.args.length === 0 || inv.args[inv.args.length - 1] === '-' || (command >= 0 && inv.args[command + 1] === '-')
    );
  }
  if (SHELLS.has(name)) {
    if (hasFlag(inv, 'c')) return false;
    return hasFlag(inv, 's') || stdinWord(operands(inv, SHELL_WITH_VALUE)[0]?.value);
  }
  if (INTERPRETERS.test(name)) {
    if (inv.code !== undefined || inv.args.includes('-m')) return false;
    return stdinWord(operands(inv, INTERPRETER_WITH_VALUE)[0]?.value);
  }
  return false;
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
function findEffects(inv: Invocation, at: (arg: Arg, op: FileOp, extra?: Partial<FileEffect>) => void): void {
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
      if (DELETERS.has(baseName(args[j + 1] ?? ''))) {
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
  if (!deletes) return;
  endBranch();
  // with no starting point, find starts at `.`
  const points = starts.length > 0 ? starts : [{ value: '.', index: -1, span: inv.span }];
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

const COPY_WITH_VALUE = new Set([
  '-t',
  '--target-directory',
  '-S',
  '--suffix',
  '-m',
  '--mode',
  '-o',
  '-g',
  '-Destination',
  '-destination',
  '-Path',
  '-path',
  ...POWERSHELL_WITH_VALUE,
]);

/** `host:path`, `user@host:path`, `rsync://…` — a path on another computer. */
function isRemoteSpec(value: string): boolean {
  if (value.startsWith('rsync://') || value.startsWith('ssh://')) return true;
  const colon = value.indexOf(':');
  if (colon <= 0) return false;
  const before = value.slice(0, colon);
  // C:\ and ./a:b are local
  return !/^[A-Za-z]$/.test(before) && !before.includes('/');
}

function netEffects(inv: Invocation, net: NetEffect[]): void {
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
  if (HTTP_CLIENTS.has(name)) {
    const sends = httpSends(inv);
    for (let i = 0; i < inv.args.length; i++) {
      const value = inv.args[i] ?? '';
      const url = looksLikeUrl(value) ? urlFacts(value) : undefined;
      if (url) push(url.host, inv.argSpans[i] ?? inv.span, sends, 'http', url);
    }
    // `curl example.com` without a scheme
    if (!net.some((n) => n.invocation === inv)) {
      const first = operands(inv, HTTP_WITH_VALUE)[0];
      if (first && /^(?:[\w.-]+\.[a-z]{2,}|localhost)(:\d+)?(\/|$)/i.test(first.value)) {
        const url = urlFacts(`http://${first.value}`);
        if (url) push(url.host, first.span, sends, 'http', url);
      }
    }
  } else if (SSH_CLIENTS.has(name)) {
    const ops = operands(inv, SSH_WITH_VALUE);
    if (name === 'ssh' || name === 'sftp' || name === 'mosh') {
      const target = ops[0];
      if (target) push(hostOf(target.value), target.span, true, 'ssh');
    } else {
      for (const [i, arg] of ops.entries()) {
        if (isRemoteSpec(arg.value)) push(hostOf(arg.value), arg.span, i === ops.length - 1, 'ssh');
      }
    }
  } else if (DNS_CLIENTS.has(name)) {
    const target = operands(inv, new Set(['-t', '-type', '-p', '-c', '-q', '-x', '-Type', '-Server'])).find(
      (a) => !a.value.startsWith('@') && /[a-z]/i.test(a.value) && a.value.includes('.'),
    );
    if (target) push(target.value.toLowerCase(), target.span, false, 'dns');
  } else if (RAW_CLIENTS.has(name)) {
    const target = operands(inv, new Set(['-p', '-w', '-s', '-i', '-q', '-e', '-c']))[0];
    if (target && !/^\d+$/.test(target.value)) push(target.value.toLowerCase(), target.span, !hasFlag(inv, 'l'), 'raw');
  } else if (name === 'send-mailmessage') {
    const server = optionValues(inv, [], ['-SmtpServer', '-smtpserver'])[0];
    push(server ? server.value.toLowerCase() : 'smtp', server?.span ?? inv.span, true, 'mail');
  } else if (name === 'git') {
    const git = gitCommand(inv);
    if (
      git &&
      (git.sub === 'clone' ||
        git.sub === 'fetch' ||
        git.sub === 'pull' ||
        git.sub === 'ls-remote' ||
        git.sub === 'push' ||
        git.sub === 'submodule')
    ) {
      for (const arg of git.args) {
        const url = looksLikeUrl(arg.value) || /^[\w.-]+@[\w.-]+:/.test(arg.value) ? urlFacts(arg.value) : undefined;
        if (url) push(url.host, arg.span, git.sub === 'push', 'git', url);
      }
    }
  }
}

const HTTP_WITH_VALUE = new Set([
  '-o',
  '-O',
  '-H',
  '-X',
  '-d',
  '-F',
  '-u',
  '-A',
  '-e',
  '-T',
  '-b',
  '-c',
  '-m',
  '--header',
  '--request',
  '--data',
  '--user',
  '--output',
  '--max-time',
  '-w',
  '--write-out',
]);

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

/** `git worktree add` options that take a value. */
const WORKTREE_WITH_VALUE = new Set(['-b', '-B', '--reason']);

/** The folder `git worktree add` checks out into: its first operand. */
function worktreePath(args: readonly Arg[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as Arg).value;
    if (WORKTREE_WITH_VALUE.has(value)) i++;
    else if (value === '--') return args[i + 1];
    else if (!value.startsWith('-')) return args[i];
  }
  return undefined;
}
