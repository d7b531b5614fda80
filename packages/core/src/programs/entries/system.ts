import { GUARD_PACKAGE } from '../../product.js';
import type { ProgramSpec } from '../types.js';

// Programs that manage processes, users and the computer itself.

export const SYSTEM: readonly ProgramSpec[] = [
  // they tell what the computer is, who runs it, where a program is, or whether a test holds
  {
    names: ['pwd', 'which', 'whereis', 'whoami', 'id', 'uname', 'test', '[', 'true', 'false'],
    roles: ['looker'],
  },
  // they show a program's help: the program they name does not run (`tldr tar`, `help cd`)
  { names: ['help', 'tldr'], roles: ['looker'] },
  // `kill -s KILL 42`, `kill -9 42`
  { names: ['kill'], argv: { values: ['-s', '-n', '--signal'] } },
  {
    names: ['pkill', 'pgrep'],
    argv: {
      values: [
        '-P',
        '--parent',
        '-s',
        '--session',
        '-u',
        '--euid',
        '-U',
        '--uid',
        '-g',
        '--pgroup',
        '-G',
        '--group',
        '-t',
        '--terminal',
        '--signal',
        '-F',
        '--pidfile',
        '--ns',
        '--nslist',
      ],
    },
  },
  { names: ['gpasswd'], argv: { values: ['-a', '-d', '-M', '-A'] } },
  // which processes hold a file open: names, never what the file holds
  { names: ['lsof'], roles: ['looker'] },
  // they open a file for the person, in an editor or the program the desktop picks: nothing of it reaches the chat
  { names: ['code', 'subl', 'xdg-open'] },
  // guard itself, a program guard knows (guard.tamper judges its commands): `mytool guard off` runs it
  { names: ['guard', GUARD_PACKAGE] },
];
