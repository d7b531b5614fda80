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

export const FILES: readonly ProgramSpec[] = [
  {
    names: [
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
    ],
    roles: ['content-reader'],
    argv: READER,
  },
  { names: ['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'findstr'], roles: ['pattern-first'], argv: GREP },
  {
    // `-i` takes its backup suffix attached only (`-i.bak`; `-ie` is the suffix `e`)
    names: ['sed'],
    roles: ['pattern-first'],
    argv: { values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'], optional: ['-i', '--in-place'] },
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
  { names: ['cp', 'copy', 'install', 'ln', 'mv', 'move', 'rename'], argv: COPY },
  { names: ['truncate'], argv: { values: ['-s', '--size', '-r', '--reference'] } },
  { names: ['fallocate'], argv: { values: ['-l', '--length', '-o', '--offset'] } },
  { names: ['chmod', 'chown', 'chgrp', 'setfacl'], argv: { values: ['--reference', '--from'] } },
  { names: ['tar', 'bsdtar'], argv: { values: ['-f', '--file', '-C', '--directory'] } },
  {
    // find's tests are whole words (`-name x`); it lists what it picks and runs `-exec … ;`
    names: ['find'],
    roles: ['lister', 'runner'],
    runs: [{ kind: 'find' }],
    argv: { words: true },
  },
  { names: ['ls'], roles: ['lister'] },
  {
    names: ['sqlite3', 'sqlite', 'duckdb'],
    roles: ['database-client'],
    argv: { values: ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-escape', '-c', '-s'], words: true },
  },
  { names: ['openssl'], argv: { values: ['-in', '-out'], words: true } },
  { names: ['crontab'], argv: { values: ['-u'] } },
  {
    names: ['make'],
    cwd: ['-C', '--directory'],
    argv: {
      values: ['-C', '--directory', '-f', '--file', '--makefile', '-j', '--jobs', '-I', '--include-dir', '-o', '-W'],
    },
  },
];
