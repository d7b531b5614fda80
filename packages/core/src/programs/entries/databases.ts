import type { ProgramSpec } from '../types.js';

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
  },
  {
    names: ['mysql', 'mariadb'],
    roles: ['database-client'],
    argv: {
      values: ['-e', '--execute', '-D', '--database', '-h', '--host', '-P', '--port', '-u', '--user', '-S', '--socket'],
    },
    // `-pSECRET` (a lone `-p` asks for it)
    secretOptions: ['-p', '--password'],
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
