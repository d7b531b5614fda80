import type { ArgvSpec, ProgramSpec } from '../types.js';

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

export const NETWORK: readonly ProgramSpec[] = [
  {
    names: ['curl', 'wget', 'http', 'https', 'httpie', 'xh', 'aria2c', 'lynx', 'w3m', 'links', 'fetch'],
    roles: ['http-client', 'downloader'],
    argv: HTTP,
  },
  {
    // `-S PROGRAM` and `-o ProxyCommand=…` run a command to make the connection
    names: ['scp', 'sftp'],
    roles: ['ssh-client'],
    argv: { values: SSH_VALUES },
    runs: [
      { kind: 'option-text', options: ['-S'] },
      { kind: 'option-text', options: ['-o'], keys: SSH_COMMAND_OPTIONS },
    ],
  },
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
