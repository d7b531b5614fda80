import { describe, expect, it } from 'vitest';
import { destructiveSql } from '../../src/facts/sql.js';

describe('destructiveSql', () => {
  it.for<readonly [string, readonly string[]]>([
    ['DROP TABLE users', ['DROP TABLE users']],
    ['drop table if exists public.users cascade;', ['DROP TABLE public.users']],
    ['DROP DATABASE "Shop"', ['DROP DATABASE "Shop"']],
    ['DROP SCHEMA app CASCADE', ['DROP SCHEMA app']],
    ['DROP KEYSPACE metrics', ['DROP KEYSPACE metrics']],
    ['TRUNCATE orders', ['TRUNCATE orders']],
    ['truncate table only orders restart identity', ['TRUNCATE orders']],
    ['DELETE FROM users', ['DELETE FROM users']],
    ['delete from users limit 10', ['DELETE FROM users']],
    ['WITH old AS (SELECT id FROM users WHERE x) DELETE FROM users', ['DELETE FROM users']],
    ['ALTER TABLE users DROP COLUMN email', ['ALTER TABLE users']],
    ['BEGIN; DELETE FROM a; DELETE FROM b WHERE id = 1; TRUNCATE c; COMMIT;', ['DELETE FROM a', 'TRUNCATE c']],
    ["SELECT 'it''s'; DROP TABLE t", ['DROP TABLE t']],
    ['/* tidy */ DROP TABLE t', ['DROP TABLE t']],
    ['DROP TABLE', ['DROP TABLE']],
    ["UPDATE users SET role = 'admin';", ['UPDATE users']],
    ['update only users set a = 1', ['UPDATE users']],
    ['UPDATE users u SET a = 1', ['UPDATE users']],
    ['UPDATE t1, t2 SET t1.a = t2.a', ['UPDATE t1']],
    ['UPDATE users SET a = (SELECT b FROM c WHERE d)', ['UPDATE users']],
    ["UPDATE users SET note = 'WHERE'", ['UPDATE users']],
  ])('%s', ([sql, expected]) => {
    expect(destructiveSql(sql).map((d) => d.statement)).toEqual(expected);
  });

  it.for([
    'SELECT * FROM users',
    'DELETE FROM users WHERE id = 1',
    "UPDATE users SET role = 'admin' WHERE id = 1",
    'update orders set state = 1 where id in (select id from x)',
    'update the readme',
    'Update README; set the title',
    'SELECT * FROM users WHERE updated_at > now()',
    'delete from users where id in (select id from banned)',
    'DELETE FROM users WHERE id IN (SELECT id FROM x); ',
    'DROP INDEX idx_a',
    'DROP VIEW v',
    'DROP FUNCTION f()',
    'DROP TEMPORARY TABLE tmp',
    'CREATE TABLE t (a int REFERENCES u(id) ON DELETE CASCADE)',
    'ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES u(id) ON DELETE CASCADE',
    'ALTER TABLE t DROP CONSTRAINT fk',
    'GRANT DELETE ON users TO app',
    'SELECT TRUNCATE(1.5, 0)',
    "INSERT INTO log VALUES ('DROP TABLE users')",
    '-- DROP TABLE users',
    '/* DELETE FROM users */ SELECT 1',
    'SELECT "DROP TABLE x" FROM t',
    '',
  ])('%s destroys nothing', (sql) => {
    expect(destructiveSql(sql)).toEqual([]);
  });

  it('reads a megabyte of hostile text in one pass', () => {
    const nested = `${'('.repeat(200_000)}${"'".repeat(4)}${' '.repeat(200_000)}`;
    const words = 'DELETE FROM '.repeat(30_000);
    const text = `${nested}; ${words}; ${'-'.repeat(100_000)}\n; DROP TABLE last`;
    expect(destructiveSql(text).map((d) => d.statement)).toEqual(['DELETE FROM DELETE', 'DROP TABLE last']);
  });
});
