import type { ArgvSpec, FileUse, ProgramSpec, Runs } from '../types.js';

// Programs that reach other computers: HTTP clients (which also hand over what they fetched), ssh
// and copies to other computers, name look-ups and raw connections.

/** The HTTP clients' options that take a value (curl's spelling, which the others mostly share). */
const HTTP: ArgvSpec = {
  values: [
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
    '-w',
    '--header',
    '--request',
    '--data',
    '--user',
    '--output',
    '--max-time',
    '--write-out',
  ],
};
/** ssh's, scp's and sftp's options that take a value. */
export const SSH_VALUES = [
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
];

/** ssh settings whose value is a command run on this computer (`-o ProxyCommand=…`). */
export const SSH_COMMAND_OPTIONS = ['ProxyCommand', 'LocalCommand', 'KnownHostsCommand'];

const RAW = ['-p', '-w', '-s', '-i', '-q', '-e', '-c'];

/** scp's and sftp's: `-S PROGRAM` and `-o ProxyCommand=…` run a command to make the connection. */
const SSH_RUNS: readonly Runs[] = [
  { kind: 'option-text', options: ['-S'], env: ['SSH_ASKPASS'] },
  { kind: 'option-text', options: ['-o'], keys: SSH_COMMAND_OPTIONS },
];

/** A copy from or to another computer: the last operand is the destination, the others the sources. */
const REMOTE_COPY: readonly FileUse[] = [
  { op: 'read', how: 'copy', operands: 'sources', remote: true },
  { op: 'write', operands: 'destination', remote: true },
];

export const NETWORK: readonly ProgramSpec[] = [
  {
    // `-O` saves under the URL's own name; `-d @FILE`, `-F name=@FILE` and `-T FILE` send a file
    names: ['curl'],
    roles: ['http-client', 'downloader'],
    argv: HTTP,
    // `-u user:SECRET` (with no colon curl asks for it)
    secretOptions: ['-u', '--user', '--proxy-user', '-U'],
    files: [
      { op: 'write', options: ['-o', '--output'] },
      { op: 'write', urls: {}, when: ['-O', '--remote-name', '--remote-name-all'] },
      { op: 'read', sends: true, options: ['-T', '--upload-file'] },
      {
        op: 'read',
        sends: true,
        options: ['-d', '-F', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--form', '--json'],
        within: 'at',
      },
    ],
  },
  {
    // without `-O` (alone or bundled, as in `-qO-`) wget saves under the URL's own name
    names: ['wget'],
    roles: ['http-client', 'downloader'],
    argv: HTTP,
    files: [
      { op: 'write', options: ['-O', '--output-document'] },
      {
        op: 'write',
        urls: { folder: ['-P', '--directory-prefix'] },
        unless: ['-O', '--output-document', '--spider'],
      },
      { op: 'read', sends: true, options: ['--post-file', '--body-file'] },
    ],
  },
  {
    names: ['http', 'https', 'httpie', 'xh', 'aria2c', 'lynx', 'w3m', 'links', 'fetch'],
    roles: ['http-client', 'downloader'],
    argv: HTTP,
  },
  {
    // `-S PROGRAM` and `-o ProxyCommand=…` run a command to make the connection
    names: ['scp'],
    roles: ['ssh-client'],
    argv: { values: SSH_VALUES },
    runs: SSH_RUNS,
    files: REMOTE_COPY,
  },
  { names: ['sftp'], roles: ['ssh-client'], argv: { values: SSH_VALUES }, runs: SSH_RUNS },
  { names: ['mosh'], roles: ['ssh-client'], argv: { values: ['-p', '--port', '--ssh', '--server', '--predict'] } },
  {
    // `-e CMD` (and RSYNC_RSH) is the command that makes the connection, run here
    names: ['rsync'],
    roles: ['ssh-client'],
    argv: {
      values: [
        '-e',
        '--rsh',
        '--rsync-path',
        '-f',
        '--filter',
        '--exclude',
        '--include',
        '--exclude-from',
        '--include-from',
        '--files-from',
        '--backup-dir',
        '--suffix',
        '--chmod',
        '--chown',
        '--log-file',
        '--password-file',
        '--port',
        '--timeout',
        '--bwlimit',
        '--partial-dir',
        '-T',
        '--temp-dir',
        '--compare-dest',
        '--copy-dest',
        '--link-dest',
        '--max-size',
        '--min-size',
        '--out-format',
        '--info',
        '--debug',
        '-M',
        '--remote-option',
        '-B',
        '--block-size',
      ],
    },
    runs: [{ kind: 'option-text', options: ['-e', '--rsh'], env: ['RSYNC_RSH'] }],
    // `--delete` (in any of its forms) deletes what the destination holds that the source does not
    // `--remove-source-files` takes what it copied away; `--link-dest DIR` makes hard links to DIR's files
    files: [
      ...REMOTE_COPY,
      { op: 'delete', how: 'move', operands: 'sources', remote: true, when: ['--remove-source-files'] },
      { op: 'write', how: 'link', options: ['--link-dest'] },
      {
        op: 'delete',
        how: 'recursive',
        operands: 'destination',
        remote: true,
        when: [
          '--del',
          '--delete',
          '--delete-before',
          '--delete-during',
          '--delete-delay',
          '--delete-after',
          '--delete-excluded',
          '--delete-missing-args',
        ],
      },
    ],
  },
  {
    names: ['nslookup', 'dig', 'host', 'drill'],
    roles: ['dns-client'],
    argv: { values: ['-t', '-type', '-p', '-c', '-q', '-x'], words: true },
  },
  // netcat in its spellings: `-e PROG`/`-c CMD` run a program for the other end
  {
    names: ['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd'],
    roles: ['raw-client'],
    argv: { values: RAW },
  },
  { names: ['socat'], roles: ['raw-client'], argv: { values: RAW } },
  { names: ['telnet'], roles: ['raw-client'], argv: { values: RAW } },
];
