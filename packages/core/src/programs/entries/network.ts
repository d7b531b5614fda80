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

const RAW = ['-p', '-w', '-s', '-i', '-q', '-e', '-c'];

export const NETWORK: readonly ProgramSpec[] = [
  {
    names: ['curl', 'wget', 'http', 'https', 'httpie', 'xh', 'aria2c', 'lynx', 'w3m', 'links', 'fetch'],
    roles: ['http-client', 'downloader'],
    argv: HTTP,
  },
  { names: ['scp', 'sftp', 'rsync', 'mosh'], roles: ['ssh-client'], argv: { values: SSH_VALUES } },
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
