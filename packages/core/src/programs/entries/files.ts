import type { ArgvSpec, ProgramSpec } from '../types.js';

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

/**
 * Readers whose options differ from READER's: each its own, so that a flag (`cat -n`, `od -c`,
 * `gzip -c`) is never taken for an option whose value is the file after it.
 */
const READERS_OWN: readonly ProgramSpec[] = (
  [
    [['cat', 'most', 'bzip2'], []],
    [['tac'], ['-s', '--separator']],
    [['more'], ['-n', '--lines']],
    [
      ['head', 'tail'],
      ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'],
    ],
    [
      ['bat', 'batcat'],
      ['-l', '--language', '-r', '--line-range', '-H', '--highlight-line', '--style', '--theme', '--tabs', '--wrap'],
    ],
    [['nl'], ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']],
    [['od'], ['-A', '-j', '-N', '-t', '--address-radix', '--skip-bytes', '--read-bytes', '--format', '--endian']],
    [['xxd'], ['-c', '-g', '-l', '-o', '-s', '-cols', '-len', '-seek', '-groupsize', '-offset']],
    [
      ['hexdump', 'hd'],
      ['-e', '-f', '-n', '-s'],
    ],
    [['strings'], ['-n', '-t', '-e', '-T', '--bytes', '--radix', '--encoding', '--target']],
    [
      ['base64', 'base32', 'basenc'],
      ['-w', '--wrap'],
    ],
    [
      ['gzip', 'zcat'],
      ['-S', '--suffix'],
    ],
    [['xz'], ['-T', '--threads', '-F', '--format', '-C', '--check', '-M', '--memlimit']],
    [['zstd'], ['-o', '-D', '-T', '--format']],
  ] as const
).map(([names, values]) => ({ names, roles: ['content-reader'], argv: { values } }));

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
  { names: ['sort'], roles: ['content-reader'], argv: SORT },
  { names: ['uniq'], roles: ['content-reader'], argv: UNIQ },
  { names: ['cut'], roles: ['content-reader'], argv: CUT },
  { names: ['diff', 'sdiff'], roles: ['content-reader'], argv: DIFF },
  { names: ['jq'], roles: ['pattern-first'], argv: JQ },
  {
    names: [
      'uuencode',
      'paste',
      'column',
      'fold',
      'fmt',
      'pr',
      'rev',
      'tr',
      'iconv',
      'cmp',
      'comm',
      'yq',
      'xmllint',
      'type',
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
  { names: ['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'findstr'], roles: ['pattern-first'], argv: GREP },
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
  {
    names: ['rm', 'rmdir', 'unlink', 'srm', 'trash', 'trash-put'],
    roles: ['deleter'],
    argv: { common: POWERSHELL_COMMON },
  },
  { names: ['shred'], roles: ['deleter'], argv: { values: ['-n', '-s', '--iterations', '--size'] } },
  // cmd.exe's: `del /q x`, `rd /s /q x` (their switches are not paths)
  { names: ['del', 'erase', 'rd'], roles: ['deleter'], argv: { common: POWERSHELL_COMMON, slash: true } },

  {
    names: ['touch', 'mkdir', 'md'],
    roles: ['creator'],
    argv: {
      values: ['-m', '--mode', '-d', '--date', '-r', '--reference', '-t', '-ItemType', '-Value'],
      common: POWERSHELL_COMMON,
    },
  },
  {
    names: ['cp', 'copy', 'install'],
    argv: COPY,
    files: [
      { op: 'read', how: 'copy', operands: 'sources', target: COPY_TARGET },
      { op: 'write', operands: 'destination', target: COPY_TARGET },
    ],
  },
  {
    names: ['mv', 'move', 'rename'],
    argv: COPY,
    files: [
      { op: 'delete', how: 'move', operands: 'sources', target: COPY_TARGET },
      { op: 'write', operands: 'destination', target: COPY_TARGET },
    ],
  },
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
    roles: ['lister', 'runner'],
    runs: [{ kind: 'find' }],
    argv: { words: true },
    files: [{ language: 'find' }],
  },
  { names: ['ls'], roles: ['lister'] },
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
    // `less +'!cmd'` runs a command as it starts; LESSOPEN and LESSCLOSE name commands it runs
    names: ['less'],
    roles: ['content-reader'],
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
