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
/** `patch --dry-run` (BSD: `-C`, `--check`) only tells whether the patch would apply. */
const PATCH_TRIES = ['--dry-run', '-C', '--check'];
/** tar's modes that write the archive: make (`-c`), add to (`-r`) or update (`-u`) it. */
const TAR_WRITES = ['-c', '--create', '-r', '--append', '-u', '--update'];
const TAR_EXTRACTS = ['-x', '--extract', '--get'];
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
  more: {
    readonly roles?: readonly Role[];
    readonly decodes?: true | readonly string[];
    readonly files?: readonly FileUse[];
  } = {},
): ProgramSpec {
  return {
    names,
    roles: ['content-reader', ...(more.roles ?? [])],
    argv: { values },
    ...(more.decodes === undefined ? {} : { decodes: more.decodes }),
    ...(more.files === undefined ? {} : { files: more.files }),
  };
}

/** The compressors' options that unpack what they are given, printing it with `-c`. */
const UNPACK = ['-d', '--decompress', '--uncompress'];
/** The compressors' options that leave the file they read where it is (print, keep, list, test). */
const KEEPS = ['-c', '--stdout', '--to-stdout', '-k', '--keep', '-l', '--list', '-t', '--test'];
/** `gzip FILE` replaces FILE by `FILE.gz` (and `gzip -d FILE.gz` the other way): FILE goes. */
const REPLACES: readonly FileUse[] = [{ op: 'delete', how: 'move', operands: 'all', unless: KEEPS }];

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
  // `xxd IN OUT` (and `xxd -r IN OUT`) writes OUT
  reader(['xxd'], ['-c', '-g', '-l', '-o', '-s', '-cols', '-len', '-seek', '-groupsize', '-offset'], {
    decodes: ['-r', '-revert'],
    files: [{ op: 'write', operands: 1 }],
  }),
  reader(['hexdump', 'hd'], ['-e', '-f', '-n', '-s']),
  reader(['strings'], ['-n', '-t', '-e', '-T', '--bytes', '--radix', '--encoding', '--target']),
  reader(['base64', 'base32', 'basenc', 'gbase64', 'b64'], ['-w', '--wrap'], { decodes: ['-d', '-D', '--decode'] }),
  reader(['gzip'], ['-S', '--suffix'], { decodes: UNPACK, files: REPLACES }),
  reader(['zcat'], ['-S', '--suffix'], { decodes: true }),
  reader(['bzip2'], [], { decodes: UNPACK, files: REPLACES }),
  reader(['xz'], ['-T', '--threads', '-F', '--format', '-C', '--check', '-M', '--memlimit'], {
    decodes: UNPACK,
    files: REPLACES,
  }),
  // zstd keeps what it packs unless `--rm`; `-o FILE` is what it writes
  reader(['zstd'], ['-o', '-D', '-T', '--format'], {
    decodes: UNPACK,
    files: [
      { op: 'delete', how: 'move', operands: 'all', when: ['--rm'] },
      { op: 'write', options: ['-o'] },
    ],
  }),
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

/** vim's options with a value (`-c CMD`, `-u VIMRC`, `--servername NAME`), and those that open read-only. */
const VIM: ArgvSpec = {
  values: ['-c', '--cmd', '-S', '-w', '-W', '-T', '-u', '-U', '-i', '-t', '-q', '--servername', '--listen'],
};
/** fd's options whose value (and the words after it) is the command it runs on each file. */
const FD_RUNS = ['-x', '--exec', '-X', '--exec-batch'];
const VIM_READS = ['-R', '-M', '--version', '-h', '--help'];
/** The file an Ex command in `-c`/`--cmd` writes (`-c 'w! FILE'`), read-only or not. */
const EX_WRITES: FileUse = { op: 'write', options: ['-c', '--cmd'], within: 'ex' };
const VIM_WRITES: readonly FileUse[] = [{ op: 'write', how: 'edit', operands: 'all', unless: VIM_READS }, EX_WRITES];

/** The variables a program runs as its editor (`EDITOR=… crontab -e`, `git commit`) or its pager. */
export const EDITOR_ENV = ['VISUAL', 'EDITOR'];
export const PAGER_ENV = ['PAGER'];

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
  {
    names: ['shuf'],
    roles: ['content-reader'],
    argv: { values: ['-o', '--output', '-n', '--head-count', '-i', '--input-range', '--random-source'] },
    files: [{ op: 'write', options: ['-o', '--output'] }],
  },
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
      'comm',
      'xmllint',
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
  // `-o FILE` is what iconv writes; dos2unix changes its files in place, or writes the last with `-n IN OUT`
  {
    names: ['iconv'],
    roles: ['content-reader'],
    argv: { values: ['-f', '--from-code', '-t', '--to-code', '-o', '--output'] },
    files: [{ op: 'write', options: ['-o', '--output'] }],
  },
  {
    names: ['dos2unix', 'unix2dos', 'mac2unix', 'unix2mac'],
    roles: ['content-reader'],
    argv: { values: ['-c', '--convmode'] },
    files: [
      { op: 'write', how: 'edit', operands: 'all', unless: ['-n', '--newfile', '-O', '--to-stdout', '-i', '--info'] },
      { op: 'write', operands: 'destination', when: ['-n', '--newfile'] },
    ],
  },
  // yq's first operand is its expression; `-i` writes the result back into the files
  {
    names: ['yq'],
    roles: ['pattern-first'],
    argv: { values: ['-p', '--input-format', '-o', '--output-format', '--from-file', '-I', '--indent'] },
    edits: ['-i', '--inplace'],
  },
  // `prettier --write` rewrites the files it formats
  {
    names: ['prettier'],
    argv: { values: ['--config', '--ignore-path', '--plugin', '--parser', '--log-level', '--stdin-filepath'] },
    files: [{ op: 'write', how: 'edit', operands: 'all', when: ['--write', '-w'] }],
  },
  // `sponge FILE` soaks up its input, then writes it to FILE
  { names: ['sponge'], files: [{ op: 'write', how: 'truncate', append: ['-a'], operands: 0 }] },
  {
    // the line editors: what they are given they may write back (their commands come on stdin)
    names: ['ed', 'red'],
    argv: { values: ['-p', '--prompt'] },
    files: [{ op: 'write', how: 'edit', operands: 'all' }],
  },
  {
    // `patch FILE`, `-o OUT`; with no file named, the files the patch names in the folder (`-d DIR`)
    names: ['patch', 'gpatch'],
    argv: {
      values: [
        '-p',
        '--strip',
        '-d',
        '--directory',
        '-o',
        '--output',
        '-i',
        '--input',
        '-r',
        '--reject-file',
        '-B',
        '--prefix',
        '-Y',
        '--basename-prefix',
        '-z',
        '--suffix',
        '-F',
        '--fuzz',
        '-D',
        '--ifdef',
        '-V',
        '--version-control',
      ],
    },
    files: [
      { op: 'read', options: ['-i', '--input'] },
      { op: 'write', how: 'edit', operands: 0, unless: PATCH_TRIES },
      { op: 'write', options: ['-o', '--output'], unless: PATCH_TRIES },
      { op: 'write', how: 'into', options: ['-d', '--directory'], here: true, unless: PATCH_TRIES },
    ],
  },
  {
    // `split IN PREFIX` writes PREFIXaa, PREFIXab, …; `--filter CMD` hands each part to a shell
    names: ['split', 'gsplit'],
    argv: {
      values: [
        '-a',
        '--suffix-length',
        '--additional-suffix',
        '-b',
        '--bytes',
        '-C',
        '--line-bytes',
        '-l',
        '--lines',
        '-n',
        '--number',
        '-t',
        '--separator',
        '--filter',
      ],
    },
    runs: [{ kind: 'option-text', options: ['--filter'] }],
    files: [
      { op: 'read', operands: 0 },
      { op: 'write', operands: 1 },
    ],
  },
  {
    names: ['csplit', 'gcsplit'],
    argv: { values: ['-b', '--suffix-format', '-f', '--prefix', '-n', '--digits'] },
    files: [
      { op: 'read', operands: 0 },
      { op: 'write', options: ['-f', '--prefix'] },
    ],
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
    // `w FILE`, `r FILE`, `s/a/b/w FILE`
    files: [{ language: 'sed' }],
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
  // npm's deleters, run through npx: `npx rimraf DIR`, `npx del-cli 'dist/**'`
  { names: ['rimraf', 'del-cli'], roles: ['deleter'], argv: { values: ['--glob'] } },
  {
    // GNOME's file verbs
    names: ['gio'],
    subcommands: {
      trash: { files: [{ op: 'delete', how: 'move', operands: 'all' }] },
      remove: { files: [{ op: 'delete', operands: 'all' }] },
      rm: { files: [{ op: 'delete', operands: 'all' }] },
      move: { argv: COPY, files: MOVES },
      mv: { argv: COPY, files: MOVES },
      copy: { argv: COPY, files: COPIES },
      cp: { argv: COPY, files: COPIES },
      rename: { files: [{ op: 'delete', how: 'move', operands: 0 }] },
      save: { files: [{ op: 'write', how: 'truncate', operands: 0 }] },
    },
  },
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
  // `cp -l`, `cp -al`: the copy is a hard link, a second name for each source
  {
    names: ['cp', 'install', 'ditto'],
    argv: COPY,
    files: [...COPIES, { op: 'write', how: 'link', operands: 'sources', target: COPY_TARGET, when: ['-l', '--link'] }],
  },
  { names: ['mv', 'rename'], argv: COPY, files: MOVES },
  // cmd.exe's (and, in PowerShell, Copy-Item and Move-Item)
  { names: ['copy'], roles: ['cmd-command'], argv: { ...COPY, slash: true }, files: COPIES },
  { names: ['move'], roles: ['cmd-command'], argv: { ...COPY, slash: true }, files: MOVES },
  { names: ['ren', 'xcopy', 'robocopy', 'mklink'], roles: ['cmd-command'], argv: { slash: true } },
  // the link is written; what a symbolic link points at is not touched, but a hard link is a second
  // name for it, through which it is written
  {
    names: ['ln'],
    argv: COPY,
    files: [
      { op: 'write', operands: 'destination', target: COPY_TARGET },
      { op: 'write', how: 'link', operands: 'sources', target: COPY_TARGET, unless: ['-s', '--symbolic'] },
    ],
  },
  {
    names: ['link'],
    files: [
      { op: 'write', how: 'link', operands: 0 },
      { op: 'write', operands: 1 },
    ],
  },
  {
    // `mount --bind SRC DIR` puts SRC over DIR, and gives SRC a second name
    names: ['mount'],
    argv: {
      values: ['-o', '--options', '-t', '--types', '-L', '--label', '-U', '--uuid', '-O', '--test-opts', '-N'],
    },
    files: [
      { op: 'write', operands: 'destination' },
      { op: 'write', how: 'link', operands: 'sources', when: ['-B', '--bind', '-R', '--rbind', '-o', '--options'] },
    ],
  },
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
    names: ['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'],
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
    // making or adding to an archive reads the operands into it (and `--remove-files` takes them
    // away); extracting writes into the folder `-C` names, or the one it runs in
    files: [
      { op: 'write', options: ['-f', '--file'], when: TAR_WRITES },
      { op: 'read', operands: 'all', when: TAR_WRITES },
      { op: 'delete', how: 'move', operands: 'all', when: ['--remove-files'] },
      { op: 'write', options: ['-C', '--directory'], unless: [...TAR_WRITES, ...TAR_EXTRACTS] },
      { op: 'write', how: 'into', options: ['-C', '--directory'], here: true, when: TAR_EXTRACTS },
    ],
  },
  {
    // `-T -TT CMD` (`--unzip-command CMD`) tests the archive with CMD
    names: ['zip'],
    argv: { values: ['-b', '-n', '-P', '--password', '-t', '-Z', '-s', '-O', '-TT', '--unzip-command'] },
    runs: [{ kind: 'option-text', options: ['-TT', '--unzip-command'] }],
    // `-m` moves the files into the archive: they go
    files: [
      { op: 'write', operands: 0 },
      { op: 'read', operands: 'rest' },
      { op: 'delete', how: 'move', operands: 'rest', when: ['-m', '--move'] },
    ],
  },
  {
    names: ['unzip'],
    argv: { values: ['-d', '-P', '-x'] },
    files: [
      { op: 'write', how: 'into', options: ['-d'], here: true, unless: ['-l', '-v', '-t', '-Z', '-p', '-c', '-z'] },
    ],
  },
  {
    // `cpio -p DIR` copies the names it reads into DIR; `cpio -i` unpacks into the folder it runs in
    names: ['cpio'],
    argv: { values: ['-F', '--file', '-H', '--format', '-D', '--directory', '-E', '-R', '-I', '-O', '-M'] },
    files: [
      { op: 'write', how: 'into', operands: 0, when: ['-p', '--pass-through'] },
      { op: 'write', how: 'into', options: ['-D', '--directory'], here: true, when: ['-i', '--extract'] },
    ],
  },
  {
    // `7z x -oDIR`: the folder is attached to `-o`
    names: ['7z', '7za', '7zr', '7zz'],
    argv: { optional: ['-o', '-p', '-t', '-m', '-x', '-i', '-w'] },
    subcommands: {
      x: {
        argv: { optional: ['-o', '-p', '-x', '-i'] },
        files: [{ op: 'write', how: 'into', options: ['-o'], here: true }],
      },
      e: {
        argv: { optional: ['-o', '-p', '-x', '-i'] },
        files: [{ op: 'write', how: 'into', options: ['-o'], here: true }],
      },
    },
  },
  {
    // find's tests are whole words (`-name x`); it lists what it picks and runs `-exec … ;`
    names: ['find'],
    roles: ['lister', 'runner', 'looker'],
    runs: [{ kind: 'find' }],
    argv: { words: true },
    files: [{ language: 'find' }],
  },
  { names: ['ls'], roles: ['lister', 'looker'], lists: {} },
  {
    names: ['tree'],
    roles: ['looker'],
    argv: { values: ['-o', '-L', '-P', '-I'] },
    files: [{ op: 'write', options: ['-o'] }],
  },
  {
    // fd lists what its pattern picks in the folders after it; `-x CMD`/`-X CMD` runs CMD on each
    names: ['fd', 'fdfind'],
    roles: ['lister', 'runner', 'looker'],
    argv: {
      values: [
        '-e',
        '--extension',
        '-t',
        '--type',
        '-d',
        '--max-depth',
        '-E',
        '--exclude',
        '-j',
        '--threads',
        ...FD_RUNS,
      ],
    },
    lists: { pattern: true },
    runs: [{ kind: 'option-text', options: FD_RUNS }],
  },
  {
    names: ['file', 'stat', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'shellcheck'],
    roles: ['looker'],
  },
  {
    // its dot commands `.shell CMD` and `.system CMD` run CMD
    names: ['sqlite3', 'sqlite', 'duckdb'],
    roles: ['database-client'],
    argv: { values: ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-escape', '-c', '-s'], words: true },
    runs: [
      { kind: 'option-text', options: ['-cmd'], operand: 1, keys: ['.shell', '.system'], lines: true, stdin: true },
    ],
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
  {
    names: ['gpg', 'gpg2'],
    argv: {
      values: [
        '-o',
        '--output',
        '-r',
        '--recipient',
        '-u',
        '--local-user',
        '--default-key',
        '--homedir',
        '--passphrase',
        '--passphrase-file',
        '--trust-model',
      ],
    },
    files: [{ op: 'write', options: ['-o', '--output'] }],
  },
  // `crontab FILE` installs the table FILE holds; `crontab -e` runs the editor
  {
    names: ['crontab'],
    argv: { values: ['-u'] },
    files: [{ op: 'read', operands: 0 }],
    runs: [{ kind: 'option-text', env: EDITOR_ENV }],
  },
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
    // `make SHELL=CMD` runs every recipe line through CMD
    runs: [{ kind: 'make' }, { kind: 'option-text', assigned: ['SHELL'] }],
    projectCode: { kinds: ['makefile'] },
  },
  {
    // vim's Ex commands (`-c '!cmd'`, `+cmd`, `--cmd`), and Ex commands on stdin in Ex mode; what
    // it opens it may write back (`-c wq`, `-es`), but with `-R`/`-M` (read-only)
    names: ['vim', 'vi', 'nvim', 'gvim', 'vimdiff', 'nvi', 'evim'],
    argv: VIM,
    runs: [{ kind: 'vim' }],
    files: VIM_WRITES,
  },
  { names: ['view'], argv: VIM, runs: [{ kind: 'vim' }], files: [EX_WRITES] },
  { names: ['ex'], argv: VIM, runs: [{ kind: 'vim', ex: true }], files: VIM_WRITES },
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
    runs: [{ kind: 'option-text', options: ['-P', '--pager'], env: ['MANPAGER', ...PAGER_ENV] }],
  },
  {
    // compilers and linkers: `-o FILE` writes the program or object to FILE
    names: ['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'tcc', 'ld', 'rustc'],
    argv: { values: ['-o', '-I', '-L', '-D', '-U', '-x', '-include', '-isystem', '-MF', '-MT', '-MQ'], words: true },
    files: [{ op: 'write', options: ['-o'] }],
  },
];
