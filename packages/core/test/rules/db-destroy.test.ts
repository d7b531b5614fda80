import { describe, expect, it } from 'vitest';
import { dbDestroy } from '../../src/rules/db-destroy.js';
import type { Example } from '../../src/rule.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

/** An MCP call as a rule row. */
function mcp(server: string, tool: string, args: unknown, note?: string): Example {
  return { step: { kind: 'mcp', server, tool, args }, ...(note === undefined ? {} : { note }) };
}

runRuleTests(dbDestroy, {
  valid: [
    // reading and narrow changes
    'psql -c "SELECT count(*) FROM users"',
    'psql -d shop -c "DELETE FROM users WHERE id = 1"',
    'mysql -e "UPDATE orders SET state = \'paid\' WHERE id = 7" shop',
    'psql -c "UPDATE users SET last_seen = now() WHERE id = 3"',
    'git commit -m "UPDATE users SET role"',
    'sqlite3 app.db "DELETE FROM sessions WHERE expired = 1"',
    'sqlite3 app.db ".tables"',
    'psql -c "DROP INDEX idx_users_email"',
    'psql -c "CREATE TABLE t (id int REFERENCES u(id) ON DELETE CASCADE)"',
    'psql -c "SELECT \'DROP TABLE users\' AS text"',
    'psql -c "-- DROP TABLE users\nSELECT 1"',
    'mysql -e "DROP TEMPORARY TABLE tmp_x"',
    'psql -l',
    'pg_dump shop > backup.sql',
    'redis-cli GET session:1',
    'redis-cli -n 2 KEYS "user:*"',
    'mongosh shop --eval "db.users.find({})"',
    'mongosh --eval "db.users.deleteMany({ banned: true })"',
    // SQL that is only text
    'grep -r "DROP TABLE" src',
    'echo "DELETE FROM users"',
    'git commit -m "DROP TABLE users on cleanup"',
    'cat schema.sql',
    'echo "DROP TABLE users" | grep DROP',
    // migrations as usual
    'npx prisma migrate dev',
    'npx prisma db push',
    'npx prisma generate',
    'bin/rails db:migrate',
    'rake db:seed',
    'python manage.py migrate',
    'php artisan migrate',
    'mix ecto.migrate',
    'supabase db push',
    // a file it cannot read is judged on the rest
    'psql -f migrations/001.sql',
    {
      step: 'psql -f migrations/002.sql',
      probe: {
        files: { '/home/dev/project/migrations/002.sql': 'CREATE TABLE a (id int);\nINSERT INTO a VALUES (1);' },
      },
    },
    // other kinds of step: writing SQL is not running it
    { step: { kind: 'write', path: 'migrations/003_drop.sql', content: 'DROP TABLE legacy;' } },
    {
      step: { kind: 'patch', patch: '*** Begin Patch\n*** Add File: db/drop.sql\n+DROP TABLE legacy;\n*** End Patch' },
    },
    { step: { kind: 'read', path: 'db/drop.sql' } },
    // SQL handed to a database's MCP tool that reads or changes narrowly
    mcp('postgres', 'query', { sql: 'SELECT count(*) FROM users' }),
    mcp('supabase', 'execute_sql', { project_id: 'abc', query: 'DELETE FROM sessions WHERE id = 1' }),
    mcp('neon', 'run_sql', { sql: "UPDATE users SET plan = 'pro' WHERE id = 7" }),
    mcp('postgres', 'query', { sql: "SELECT 'DROP TABLE users' AS text" }, 'a DROP inside a string'),
    mcp('mysql', 'execute_sql', { query: '-- DROP TABLE users\nSELECT 1' }, 'a DROP inside a comment'),
    mcp('postgres', 'query', { sql: 'DROP INDEX idx_users_email' }, 'an index is rebuilt from code'),
    mcp('sqlite', 'list_tables', {}),
    // a tool that runs no SQL, whose argument mentions it
    mcp('github', 'create_issue', { title: 'Cleanup', body: 'DROP TABLE users' }, 'prose in an issue'),
    mcp('docs', 'search', { query: 'DROP TABLE users' }, 'a search for the words'),
    mcp('context7', 'query-docs', { libraryId: '/pg/docs', query: 'TRUNCATE orders' }, 'a docs query'),
    mcp('memory', 'create_entities', { entities: [{ name: 'note', observations: ['DELETE FROM users'] }] }),
  ],
  invalid: [
    // SQL that throws data away, handed to a database's MCP tool: as psql -c would judge it
    mcp('postgres', 'query', { sql: 'DROP TABLE users' }),
    mcp('supabase', 'execute_sql', { project_id: 'abc', query: 'TRUNCATE orders' }),
    mcp('supabase', 'apply_migration', { name: 'cleanup', query: 'DROP SCHEMA legacy CASCADE;' }),
    mcp('neon', 'run_sql', { projectId: 'p1', sql: 'DELETE FROM users' }),
    mcp('neon', 'run_sql_transaction', { sqlStatements: ['BEGIN', 'UPDATE users SET role = 1', 'COMMIT'] }),
    mcp('mysql', 'execute_sql', { query: 'ALTER TABLE users DROP COLUMN email' }),
    mcp('sqlite', 'write_query', { query: 'delete from sessions;' }),
    mcp('cloudflare', 'd1_database_query', { database_id: 'x', sql: 'DROP TABLE logs' }),
    mcp('dbhub', 'execute_sql', { sql: 'DROP DATABASE shop' }),
    mcp('warehouse', 'query', { text: 'DROP TABLE events' }, 'a tool named query, any server'),
    mcp('acme', 'run', { sql: 'TRUNCATE audit_log' }, 'an argument named sql'),
    mcp('', 'execute_sql', { sql: 'DROP TABLE users' }, 'Cursor names no server in preToolUse'),
    mcp('npx -y @modelcontextprotocol/server-postgres postgresql://localhost/app', 'query', {
      sql: 'DROP TABLE users',
    }),
    'psql -c "DROP TABLE users"',
    'psql shop -c "drop table if exists users cascade"',
    'psql "postgres://app:pw@db.internal/shop" -c "TRUNCATE orders"',
    'psql -c "BEGIN; DELETE FROM users; COMMIT;"',
    'psql -c "SELECT 1; DROP SCHEMA public CASCADE"',
    'psql -c "ALTER TABLE users DROP COLUMN email"',
    'psql -c "UPDATE users SET role = \'admin\';"',
    'mysql shop -e "update orders set state = \'paid\'"',
    'sqlite3 app.db "UPDATE settings SET value = NULL"',
    'mysql shop -e "TRUNCATE orders"',
    'mysql -e "DROP DATABASE shop"',
    'mariadb --execute="DELETE FROM shop.orders"',
    'sqlite3 app.db "DELETE FROM sessions"',
    'duckdb data.db -c "DROP TABLE events"',
    'sqlcmd -S db1 -Q "DROP DATABASE Shop"',
    'cqlsh -e "DROP KEYSPACE metrics"',
    'mongosh shop --eval "db.dropDatabase()"',
    'mongo --eval "db.users.drop()"',
    'mongosh --eval "db.users.deleteMany({})"',
    'redis-cli FLUSHALL',
    'redis-cli -h cache.internal -n 3 flushdb',
    'echo FLUSHALL | redis-cli',
    // SQL from stdin
    'psql shop <<EOF\nDROP TABLE users;\nEOF',
    "mysql shop <<< 'TRUNCATE orders'",
    'echo "DELETE FROM users" | psql shop',
    'printf "DROP TABLE a;\\n" | sqlite3 app.db',
    'cat <<SQL | psql\nTRUNCATE users;\nSQL',
    // SQL from a file, read through the probe
    {
      step: 'psql -f reset.sql',
      probe: { files: { '/home/dev/project/reset.sql': '-- start over\nDROP TABLE IF EXISTS users;\n' } },
    },
    {
      step: 'mysql shop < dump.sql',
      probe: {
        files: { '/home/dev/project/dump.sql': 'DROP TABLE IF EXISTS `orders`;\nCREATE TABLE `orders` (id int);' },
      },
    },
    // framework and server tools
    'dropdb shop_dev',
    'dropdb -h db.internal --if-exists shop',
    'mysqladmin -u root -p drop shop',
    'npx prisma migrate reset',
    'npx prisma db push --accept-data-loss',
    'bin/rails db:drop',
    'RAILS_ENV=production bundle exec rake db:reset',
    'python manage.py flush --noinput',
    './manage.py flush',
    'php artisan migrate:fresh --seed',
    'mix ecto.reset',
    'npx sequelize-cli db:drop',
    'flyway clean',
    'dotnet ef database drop --force',
    'supabase db reset --linked',
    'heroku pg:reset DATABASE_URL --confirm my-app',
    // through wrappers
    'sudo -u postgres psql -c "DROP DATABASE shop"',
    'bash -c "psql -c \'TRUNCATE users\'"',
    'cd api && npx prisma migrate reset --force',
    'ssh db1 "psql -c \'DROP TABLE users\'"',
    'docker exec pg psql -U postgres -c "DROP DATABASE app"',
    "docker compose exec -T db psql -c 'TRUNCATE orders'",
    "kubectl exec -n prod pg-0 -- psql -c 'DROP TABLE users'",
  ],
});

describe('db.destroy memory keys and reasons', () => {
  const findingOf = (command: string) => evaluateExample(command).findings.find((f) => f.ruleId === 'db.destroy');

  it.for<readonly [string, string]>([
    ['psql -d a -c "DROP TABLE users"', 'psql -d b -c "DROP TABLE users"'],
    ['psql -c "DROP TABLE users"', 'psql -c "DROP TABLE orders"'],
    ['rails db:drop', 'RAILS_ENV=production rails db:drop'],
    ['npx prisma migrate reset', 'cd other && npx prisma migrate reset'],
    ['redis-cli -n 1 FLUSHDB', 'redis-cli -n 2 FLUSHDB'],
  ])('%s and %s are different targets', ([a, b]) => {
    expect(findingOf(a)?.memoryKey).toBeDefined();
    expect(findingOf(b)?.memoryKey).toBeDefined();
    expect(findingOf(a)?.memoryKey).not.toBe(findingOf(b)?.memoryKey);
  });

  it('keeps passwords out of the key', () => {
    const finding = findingOf('PGPASSWORD=hunter2 psql "postgres://app:s3cret@db.internal/shop" -c "TRUNCATE orders"');
    expect(finding?.memoryKey).toContain('db.internal');
    expect(finding?.memoryKey).not.toContain('s3cret');
    expect(finding?.memoryKey).not.toContain('hunter2');
  });

  it("points at the SQL in an MCP call's arguments, and keeps a server's password out of the key", () => {
    const step = {
      kind: 'mcp' as const,
      server: 'npx -y @modelcontextprotocol/server-postgres postgresql://app:s3cret@db.internal/shop',
      tool: 'query',
      args: { sql: 'DROP TABLE users' },
    };
    const evaluation = evaluateExample({ step });
    const finding = evaluation.findings.find((f) => f.ruleId === 'db.destroy');
    expect(finding?.reason).toContain('DROP TABLE users');
    expect(evaluation.text.slice(...(finding?.span ?? [0, 0]))).toBe('DROP TABLE users');
    expect(finding?.memoryKey).toContain('db.internal');
    expect(finding?.memoryKey).not.toContain('s3cret');
  });

  it('names the statement in the reason and points at the SQL', () => {
    const command = 'psql shop -c "DROP TABLE users"';
    const finding = findingOf(command);
    expect(finding?.reason).toContain('DROP TABLE users');
    expect(command.slice(...(finding?.span ?? [0, 0]))).toBe('"DROP TABLE users"');
  });
});

describe.skip('db.destroy rows blocked by the reader', () => {
  // reader: `docker exec` / `docker compose exec` / `kubectl exec` do not open the command they run
  it.todo('docker compose exec db psql -U postgres -c "DROP TABLE users"');
  it.todo('kubectl exec -it pg-0 -- psql -c "TRUNCATE orders"');
});
