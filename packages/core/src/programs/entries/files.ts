import { withValues } from '../argv.js';
import type { ArgvSpec, FileUse, ProgramSpec, Role } from '../types.js';

// Programs that read, change, copy, list or delete files. Their option lists say which options
// take a value, so the analysis can tell the files apart from those values.

/** The options of the content readers (`head -n 5`, `cut -d , -f 1`) that take a value. */
const READER: ArgvSpec = { values: ['-n', '-c', '-s', '-w', '-o', '-d', '-f', '-t', '-m', '--lines', '--bytes'] };

/** PowerShell parameters every cmdlet takes, and the item cmdlets' filters, with their value after them. */
export const POWERSHELL_COMMON = [
  '-ErrorAction',
  '-ea',
  '-WarningAction',
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
  '-Include',
  '-Exclude',
  '-Credential',
  '-Stream',
  '-Depth',
];

const COPY: ArgvSpec = {
  values: ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '-g', '-Destination', '-Path'],
  common: POWERSHELL_COMMON,
};
/** Where `cp -t DIR` copies to (and `cp -Destination DIR`, cp being Copy-Item in PowerShell). */
const COPY_TARGET = ['-t', '--target-directory', '-Destination'];
/** A copy's sources read and its destination written; a move's sources taken away. */
const COPIES: readonly FileUse[] = [
  { op: 'read', how: 'copy', operands: 'sources', target: COPY_TARGET },
  { op: 'write', operands: 'destination', target: COPY_TARGET },
];
const MOVES: readonly FileUse[] = [
  { op: 'delete', how: 'move', operands: 'sources', target: COPY_TARGET },
  { op: 'write', operands: 'destination', target: COPY_TARGET },
];
/** tar's modes that write the archive: make (`-c`), add to (`-r`) or update (`-u`) it. */
const TAR_WRITES = ['-c', '--create', '-r', '--append', '-u', '--update'];
const GREP: ArgvSpec = {
  values: [
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
  ],
};

/** A content reader with the options that take a value, and roles or fields of its own. */
function reader(
  names: readonly string[],
  values: readonly string[],
  more: { readonly roles?: readonly Role[]; readonly decodes?: true | readonly string[] } = {},
): ProgramSpec {
  return {
    names,
    roles: ['content-reader', ...(more.roles ?? [])],
    argv: { values },
    ...(more.decodes === undefined ? {} : { decodes: more.decodes }),
  };
}

/** The compressors' options that unpack what they are given, printing it with `-c`. */
const UNPACK = ['-d', '--decompress', '--uncompress'];

/**
 * Readers whose options differ from READER's: each its own, so that a flag (`cat -n`, `od -c`,
 * `gzip -c`) is never taken for an option whose value is the file after it.
 */
const READERS_OWN: readonly ProgramSpec[] = [
  reader(['cat', 'most'], [], { roles: ['looker'] }),
  reader(['tac'], ['-s', '--separator']),
  reader(['more'], ['-n', '--lines'], { roles: ['looker'] }),
  reader(['head', 'tail'], ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'], {
    roles: ['looker'],
  }),
  reader(
    ['bat', 'batcat'],
    ['-l', '--language', '-r', '--line-range', '-H', '--highlight-line', '--style', '--theme', '--tabs', '--wrap'],
  ),
  reader(['nl'], ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'], { roles: ['looker'] }),
  reader(['od'], ['-A', '-j', '-N', '-t', '--address-radix', '--skip-bytes', '--read-bytes', '--format', '--endian']),
  reader(['xxd'], ['-c', '-g', '-l', '-o', '-s', '-cols', '-len', '-seek', '-groupsize', '-offset'], {
    decodes: ['-r', '-revert'],
  }),
  reader(['hexdump', 'hd'], ['-e', '-f', '-n', '-s']),
  reader(['strings'], ['-n', '-t', '-e', '-T', '--bytes', '--radix', '--encoding', '--target']),
  reader(['base64', 'base32', 'basenc', 'gbase64', 'b64'], ['-w', '--wrap'], { decodes: ['-d', '-D', '--decode'] }),
  reader(['gzip'], ['-S', '--suffix'], { decodes: UNPACK }),
  reader(['zcat'], ['-S', '--suffix'], { decodes: true }),
  reader(['bzip2'], [], { decodes: UNPACK }),
  reader(['xz'], ['-T', '--threads', '-F', '--format', '-C', '--check', '-M', '--memlimit'], { decodes: UNPACK }),
  reader(['zstd'], ['-o', '-D', '-T', '--format'], { decodes: UNPACK }),
];

/**
 * Readers with their own options, from their manuals: a flag (`sort -n`, `uniq -c`) is never taken
 * for an option whose value is the file after it, and a value (`cut -d =`) never for a file.
 */
const SORT: ArgvSpec = {
  values: [
    '-k',
    '--key',
    '-t',
    '--field-separator',
    '-o',
    '--output',
    '-S',
    '--buffer-size',
    '-T',
    '--temporary-directory',
    '--parallel',
    '--batch-size',
    '--compress-program',
    '--random-source',
    '--sort',
  ],
};
const UNIQ: ArgvSpec = { values: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'] };
const CUT: ArgvSpec = {
  values: ['-b', '--bytes', '-c', '--characters', '-d', '--delimiter', '-f', '--fields', '--output-delimiter'],
};
// `--from-file F` and `--to-file F` name files compared, so they are read as operands are
const DIFF: ArgvSpec = {
  values: [
    '-C',
    '-U',
    '-I',
    '--ignore-matching-lines',
    '-x',
    '--exclude',
    '-X',
    '--exclude-from',
    '-S',
    '--starting-file',
    '-L',
    '--label',
    '-F',
    '--show-function-line',
    '-W',
    '--width',
    '--tabsize',
    '-D',
    '--ifdef',
    '--line-format',
    '--old-line-format',
    '--new-line-format',
    '--unchanged-line-format',
    '--old-group-format',
    '--new-group-format',
    '--changed-group-format',
    '--unchanged-group-format',
    '--horizontal-lines',
  ],
};
/** jq's first operand is its filter (unless `-f` reads it from a file); `--arg NAME VALUE` takes two words. */
const JQ: ArgvSpec = {
  values: ['-f', '--from-file', '-L', '--indent'],
  pairs: ['--arg', '--argjson', '--slurpfile', '--rawfile'],
};

export const FILES: readonly ProgramSpec[] = [
  ...READERS_OWN,
  // `sort -o FILE`, `uniq IN OUT`, `sdiff -o FILE` write what they print
  {
    names: ['sort'],
    roles: ['content-reader', 'looker'],
    argv: SORT,
    files: [{ op: 'write', options: ['-o', '--output'] }],
  },
  { names: ['uniq'], roles: ['content-reader', 'looker'], argv: UNIQ, files: [{ op: 'write', operands: 1 }] },
  { names: ['cut'], roles: ['content-reader', 'looker'], argv: CUT },
  { names: ['diff'], roles: ['content-reader', 'looker'], argv: DIFF },
  {
    names: ['sdiff'],
    roles: ['content-reader', 'looker'],
    argv: withValues(DIFF, ['-o', '--output']),
    files: [{ op: 'write', options: ['-o', '--output'] }],
  },
  { names: ['jq'], roles: ['pattern-first', 'looker'], argv: JQ },
  { names: ['column', 'cmp', 'type'], roles: ['content-reader', 'looker'], argv: READER },
  { names: ['rev'], roles: ['content-reader'], argv: READER, decodes: true },
  // unpack what they are given, or print it unpacked
  {
    names: ['gunzip', 'gzcat', 'bunzip2', 'bzcat', 'unxz', 'xzcat', 'unzstd', 'zstdcat', 'uudecode'],
    decodes: true,
  },
  { names: ['lz4'], decodes: UNPACK },
  // a hash, a size or a count of what they read, never its text
  {
    names: ['sha256sum', 'sha1sum', 'sha512sum', 'sha224sum', 'sha384sum', 'md5sum', 'shasum', 'b2sum', 'cksum', 'wc'],
    roles: ['summarizer', 'looker'],
  },
  {
    names: [
      'uuencode',
      'paste',
      'fold',
      'fmt',
      'pr',
      'tr',
      'iconv',
      'comm',
      'yq',
      'xmllint',
      'dos2unix',
      'unix2dos',
      'pbcopy',
      'xclip',
      'xsel',
      'clip',
      'wl-copy',
      'mail',
      'sendmail',
    ],
    roles: ['content-reader'],
    argv: READER,
  },
  { names: ['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack'], roles: ['pattern-first', 'looker'], argv: GREP },
  { names: ['findstr'], roles: ['pattern-first', 'looker', 'cmd-command'], argv: GREP },
  {
    // `-i` takes its backup suffix attached only (`-i.bak`; `-ie` is the suffix `e`); GNU sed's
    // `e` command runs a command
    names: ['sed', 'gsed'],
    roles: ['pattern-first'],
    argv: { values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'], optional: ['-i', '--in-place'] },
    edits: ['-i', '--in-place'],
    runs: [{ kind: 'sed' }],
  },

  // deleters; `rmdir` takes only empty folders and `trash` keeps what it takes
  { names: ['rm', 'unlink'], roles: ['deleter'], argv: { common: POWERSHELL_COMMON } },
  { names: ['srm'], roles: ['deleter', 'shredder'], argv: { common: POWERSHELL_COMMON } },
  {
    names: ['rmdir', 'trash', 'trash-put'],
    roles: ['deleter', 'lossless-deleter'],
    argv: { common: POWERSHELL_COMMON },
  },
  { names: ['shred'], roles: ['deleter', 'shredder'], argv: { values: ['-n', '-s', '--iterations', '--size'] } },
  // cmd.exe's: `del /q x`, `rd /s /q x` (their switches are not paths)
  {
    names: ['del', 'erase', 'rd'],
    roles: ['deleter', 'cmd-command'],
    argv: { common: POWERSHELL_COMMON, slash: true },
  },

  {
    names: ['touch', 'mkdir', 'md'],
    roles: ['creator'],
    argv: {
      values: ['-m', '--mode', '-d', '--date', '-r', '--reference', '-t', '-ItemType', '-Value'],
      common: POWERSHELL_COMMON,
    },
  },
  { names: ['cp', 'install'], argv: COPY, files: COPIES },
  { names: ['mv', 'rename'], argv: COPY, files: MOVES },
  // cmd.exe's (and, in PowerShell, Copy-Item and Move-Item)
  { names: ['copy'], roles: ['cmd-command'], argv: { ...COPY, slash: true }, files: COPIES },
  { names: ['move'], roles: ['cmd-command'], argv: { ...COPY, slash: true }, files: MOVES },
  { names: ['ren', 'xcopy', 'robocopy', 'mklink'], roles: ['cmd-command'], argv: { slash: true } },
  // the link is written; what it points at is not touched
  { names: ['ln'], argv: COPY, files: [{ op: 'write', operands: 'destination', target: COPY_TARGET }] },
  {
    names: ['tee'],
    argv: { values: ['--output-error'] },
    files: [{ op: 'write', how: 'truncate', append: ['-a', '--append'], operands: 'all' }],
  },
  {
    names: ['dd'],
    files: [
      { op: 'read', assigned: 'if' },
      { op: 'write', how: 'truncate', assigned: 'of' },
    ],
  },
  {
    names: ['truncate'],
    argv: { values: ['-s', '--size', '-r', '--reference'] },
    files: [{ op: 'write', how: 'truncate', operands: 'all' }],
  },
  {
    names: ['fallocate'],
    argv: { values: ['-l', '--length', '-o', '--offset'] },
    files: [{ op: 'write', how: 'truncate', operands: 'all' }],
  },
  {
    // the first operand is the mode, the owner or the access list
    names: ['chmod', 'chown', 'chgrp', 'setfacl'],
    roles: ['attribute-changer'],
    argv: { values: ['--reference', '--from'] },
    files: [{ op: 'write', how: 'edit', operands: 'rest' }],
  },
  {
    // tar hands these options' commands to a shell: `--to-command`, `-I`/`--use-compress-program`,
    // `--checkpoint-action=exec=…`, `-F`/`--info-script`
    names: ['tar', 'bsdtar', 'gtar'],
    argv: {
      letters: true,
      values: [
        '-f',
        '--file',
        '-C',
        '--directory',
        '-I',
        '--use-compress-program',
        '--to-command',
        '--checkpoint-action',
        '-F',
        '--info-script',
        '--new-volume-script',
        '--rsh-command',
        '--rmt-command',
        '-T',
        '--files-from',
        '-X',
        '--exclude-from',
        '--exclude',
        '--transform',
        '--xform',
        '-b',
        '--blocking-factor',
        '-H',
        '--format',
        '--owner',
        '--group',
        '--mode',
        '--mtime',
        '-N',
        '--newer',
        '--checkpoint',
        '--strip-components',
      ],
    },
    runs: [
      {
        kind: 'option-text',
        options: [
          '-I',
          '--use-compress-program',
          '--to-command',
          '-F',
          '--info-script',
          '--new-volume-script',
          '--rsh-command',
          '--rmt-command',
        ],
      },
      { kind: 'option-text', options: ['--checkpoint-action'], keys: ['exec'] },
    ],
    // making or adding to an archive reads the operands into it; anything else (extracting) writes
    // into the folder `-C` names
    files: [
      { op: 'write', options: ['-f', '--file'], when: TAR_WRITES },
      { op: 'read', operands: 'all', when: TAR_WRITES },
      { op: 'write', options: ['-C', '--directory'], unless: TAR_WRITES },
    ],
  },
  {
    names: ['zip'],
    argv: { values: ['-b', '-n', '-P', '--password', '-t', '-Z', '-s', '-O'] },
    files: [
      { op: 'write', operands: 0 },
      { op: 'read', operands: 'rest' },
    ],
  },
  { names: ['unzip'], argv: { values: ['-d', '-P'] }, files: [{ op: 'write', options: ['-d'] }] },
  {
    // find's tests are whole words (`-name x`); it lists what it picks and runs `-exec … ;`
    names: ['find'],
    roles: ['lister', 'runner', 'looker'],
    runs: [{ kind: 'find' }],
    argv: { words: true },
    files: [{ language: 'find' }],
  },
  { names: ['ls'], roles: ['lister', 'looker'] },
  {
    names: ['tree'],
    roles: ['looker'],
    argv: { values: ['-o', '-L', '-P', '-I'] },
    files: [{ op: 'write', options: ['-o'] }],
  },
  {
    names: ['fd', 'fdfind', 'file', 'stat', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'shellcheck'],
    roles: ['looker'],
  },
  {
    names: ['sqlite3', 'sqlite', 'duckdb'],
    roles: ['database-client'],
    argv: { values: ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-escape', '-c', '-s'], words: true },
    // the database file (the SQL may write it too)
    files: [{ op: 'read', operands: 0 }],
  },
  {
    // `openssl rsa -in key.pem -text` prints what it reads
    names: ['openssl'],
    argv: { values: ['-in', '-out'], words: true },
    files: [
      { op: 'read', options: ['-in'] },
      { op: 'write', options: ['-out'] },
    ],
  },
  // `crontab FILE` installs the table FILE holds
  { names: ['crontab'], argv: { values: ['-u'] }, files: [{ op: 'read', operands: 0 }] },
  // they print their words (`echo` is Write-Output's alias, below)
  { names: ['printf', 'print', 'echo.', 'say'], roles: ['printer', 'looker'] },
  {
    // a Makefile from stdin, a process substitution or `--eval`: its recipes run
    names: ['make', 'gmake'],
    cwd: ['-C', '--directory'],
    argv: {
      values: [
        '-C',
        '--directory',
        '-f',
        '--file',
        '--makefile',
        '-j',
        '--jobs',
        '-I',
        '--include-dir',
        '-o',
        '-W',
        '-E',
        '--eval',
      ],
    },
    runs: [{ kind: 'make' }],
  },
  {
    // vim's Ex commands (`-c '!cmd'`, `+cmd`, `--cmd`), and Ex commands on stdin in Ex mode
    names: ['vim', 'vi', 'nvim', 'gvim', 'view', 'vimdiff', 'nvi', 'evim'],
    argv: { values: ['-c', '--cmd', '-S', '-w', '-W', '-T', '-u', '-U', '-i', '-t', '-q', '--servername'] },
    runs: [{ kind: 'vim' }],
  },
  {
    names: ['ex'],
    argv: { values: ['-c', '--cmd', '-S', '-w', '-W', '-T', '-u', '-U', '-i', '-t', '-q'] },
    runs: [{ kind: 'vim', ex: true }],
  },
  {
    // `less +'!cmd'` runs a command as it starts; LESSOPEN and LESSCLOSE name commands it runs;
    // `-o FILE` copies what it shows to FILE
    names: ['less'],
    roles: ['content-reader', 'looker'],
    files: [{ op: 'write', options: ['-o', '-O', '--log-file', '--LOG-FILE'] }],
    argv: {
      values: [
        '-b',
        '-h',
        '-j',
        '-k',
        '-o',
        '-O',
        '-p',
        '-P',
        '-t',
        '-T',
        '-x',
        '-y',
        '-z',
        '-#',
        '--pattern',
        '--tag',
        '--prompt',
      ],
    },
    runs: [{ kind: 'pager' }, { kind: 'option-text', env: ['LESSOPEN', 'LESSCLOSE'], strip: '|-' }],
  },
  {
    // man runs its pager: `-P CMD`, MANPAGER, PAGER
    names: ['man'],
    argv: {
      values: [
        '-P',
        '--pager',
        '-M',
        '--manpath',
        '-S',
        '-s',
        '--sections',
        '-L',
        '--locale',
        '-m',
        '-p',
        '-E',
        '-C',
        '-R',
        '-e',
      ],
    },
    runs: [{ kind: 'option-text', options: ['-P', '--pager'], env: ['MANPAGER', 'PAGER'] }],
  },
];
