import type { ProgramSpec } from '../types.js';
import { EDITOR_ENV, PAGER_ENV } from './files.js';

// Databases' command-line clients: which options take a value (the SQL, the file of SQL, the
// server, …). What each option means is db.destroy's business (rules/db-destroy.ts).

export const DATABASES: readonly ProgramSpec[] = [
  {
    names: ['psql'],
    roles: ['database-client'],
    argv: {
      values: [
        '-c',
        '--command',
        '-d',
        '--dbname',
        '-f',
        '--file',
        '-h',
        '--host',
        '-p',
        '--port',
        '-U',
        '--username',
        '-v',
        '--set',
        '--variable',
        '-o',
        '--output',
        '-L',
        '--log-file',
        '-P',
        '--pset',
        '-F',
        '-R',
        '-T',
      ],
    },
    // `\! CMD` runs CMD; the pager and the editor (`\e`) are commands too
    runs: [
      { kind: 'option-text', options: ['-c', '--command'], keys: ['\\!'], lines: true, stdin: true },
      { kind: 'option-text', env: ['PSQL_PAGER', 'PSQL_EDITOR', ...PAGER_ENV, ...EDITOR_ENV] },
    ],
  },
  {
    // `system CMD` and `\! CMD` run CMD; `--pager CMD` is a command
    names: ['mysql', 'mariadb'],
    roles: ['database-client'],
    argv: {
      values: [
        '-e',
        '--execute',
        '-D',
        '--database',
        '-h',
        '--host',
        '-P',
        '--port',
        '-u',
        '--user',
        '-S',
        '--socket',
        '--pager',
      ],
    },
    // `-pSECRET` (a lone `-p` asks for it)
    secretOptions: ['-p', '--password'],
    runs: [
      { kind: 'option-text', options: ['-e', '--execute'], keys: ['system', '\\!'], lines: true, stdin: true },
      { kind: 'option-text', options: ['--pager'] },
    ],
  },
  {
    names: ['sqlcmd'],
    roles: ['database-client'],
    argv: { values: ['-S', '-d', '-U', '-P', '-Q', '-q', '-i', '-o'] },
  },
  {
    names: ['clickhouse-client'],
    roles: ['database-client'],
    argv: {
      values: ['-q', '--query', '-d', '--database', '-h', '--host', '--port', '-u', '--user', '--queries-file'],
    },
  },
  {
    names: ['cockroach'],
    roles: ['database-client'],
    argv: { values: ['-e', '--execute', '-d', '--database', '--url', '--host', '-u', '--user', '-f', '--file'] },
  },
  {
    names: ['cqlsh'],
    roles: ['database-client'],
    argv: {
      values: ['-e', '--execute', '-f', '--file', '-k', '--keyspace', '-u', '--username', '-p', '--password'],
    },
  },
  {
    names: ['mongo', 'mongosh'],
    roles: ['database-client'],
    argv: {
      values: [
        '--eval',
        '-u',
        '--username',
        '-p',
        '--password',
        '--host',
        '--port',
        '--authenticationDatabase',
        '-f',
        '--file',
      ],
    },
  },
  {
    names: ['redis-cli', 'valkey-cli', 'keydb-cli'],
    roles: ['database-client'],
    argv: { values: ['-h', '-p', '-a', '-n', '-u', '-s', '-r', '-i', '--user', '--pass'] },
    secretOptions: ['-a', '--pass'],
  },
];
