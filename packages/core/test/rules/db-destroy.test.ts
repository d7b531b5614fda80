import { describe, expect, it } from 'vitest';
import { dbDestroy } from '../../src/rules/db-destroy.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

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
  ],
  invalid: [
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
