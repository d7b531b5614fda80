import { looseStrings } from '../analysis/loose.js';
import type { Argv } from '../context/types.js';
import { mcpRunsSql } from '../facts/mcp.js';
import { isSecretVariableName } from '../facts/keys.js';
import { destructiveSql } from '../facts/sql.js';
import { isA } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';
import type { McpStep, Span } from '../types.js';

/**
 * A database client running SQL (or Redis/Mongo commands) that throws data away, wherever the text
 * comes from: an option (`psql -c`, `mysql -e`, `sqlite3 db "…"`), a heredoc or here-string, a pipe
 * from `echo`/`printf`/`cat`, or a file (`psql -f x.sql`, `mysql db < x.sql`, read through the
 * Probe, bounded; unreadable means it is judged on the rest). Also the framework commands that drop
 * or reset a database (`prisma migrate reset`, `rails db:drop`, `manage.py flush`, …).
 * Commands inside `docker exec`/`kubectl exec` are not opened by the reader and are not judged.
 * SQL handed to a database's MCP tool is judged the same way (`mcpHits`).
 */

/** How a database client takes its SQL and names its database. */
interface Client {
  /** Options whose value is SQL (short forms, long forms). */
  readonly sql: readonly [readonly string[], readonly string[]];
  /** Options whose value is a file of SQL. */
  readonly files?: readonly [readonly string[], readonly string[]];
  /** Options that pick the server or database. */
  readonly target: readonly [readonly string[], readonly string[]];
  /** Operands after the first are SQL (sqlite3 and duckdb: `sqlite3 app.db "DELETE FROM t"`). */
  readonly sqlOperands?: boolean;
  /** The text is JavaScript (mongosh) or Redis commands rather than SQL. */
  readonly language?: 'js' | 'redis';
}

const PSQL: Client = {
  sql: [['-c'], ['--command']],
  files: [['-f'], ['--file']],
  target: [
    ['-h', '-p', '-d'],
    ['--host', '--port', '--dbname'],
  ],
};
const MYSQL: Client = {
  sql: [['-e'], ['--execute']],
  target: [
    ['-h', '-P', '-D'],
    ['--host', '--port', '--database'],
  ],
};
const SQLITE: Client = {
  sql: [[], ['-cmd', '-c', '-s']],
  target: [[], []],
  sqlOperands: true,
};
const SQLCMD: Client = {
  sql: [['-Q', '-q'], []],
  files: [['-i'], []],
  target: [['-S', '-d'], []],
};
const CLICKHOUSE: Client = {
  sql: [['-q'], ['--query']],
  files: [[], ['--queries-file']],
  target: [
    ['-h', '-d'],
    ['--host', '--port', '--database'],
  ],
};
const COCKROACH: Client = {
  sql: [['-e'], ['--execute']],
  files: [['-f'], ['--file']],
  target: [['-d'], ['--url', '--host', '--database']],
};
const CQLSH: Client = {
  sql: [['-e'], ['--execute']],
  files: [['-f'], ['--file']],
  target: [['-k'], ['--keyspace']],
};
const MONGO: Client = {
  sql: [[], ['--eval']],
  files: [['-f'], ['--file']],
  target: [[], ['--host', '--port']],
  language: 'js',
};
const REDIS: Client = {
  sql: [[], []],
  target: [['-h', '-p', '-n', '-u'], []],
  language: 'redis',
};

const CLIENTS: ReadonlyMap<string, Client> = new Map([
  ['psql', PSQL],
  ['mysql', MYSQL],
  ['mariadb', MYSQL],
  ['sqlite3', SQLITE],
  ['sqlite', SQLITE],
  ['duckdb', SQLITE],
  ['sqlcmd', SQLCMD],
  ['clickhouse-client', CLICKHOUSE],
  ['cockroach', COCKROACH],
  ['cqlsh', CQLSH],
  ['mongo', MONGO],
  ['mongosh', MONGO],
  ['redis-cli', REDIS],
  ['valkey-cli', REDIS],
  ['keydb-cli', REDIS],
]);

const MAX_FILE_BYTES = 256 * 1024;
/** Findings past this many in one step tell a person nothing new (a dump that drops every table). */
const MAX_HITS = 32;

const MONGO_DESTROY: readonly (readonly [RegExp, string])[] = [
  [/\.dropDatabase\s*\(/, 'dropDatabase()'],
  [/\.drop\s*\(\s*\)/, 'drop()'],
  [/\.deleteMany\s*\((?:\s*\{\s*\})?\s*\)/, 'deleteMany({})'],
  [/\.remove\s*\((?:\s*\{\s*\})?\s*\)/, 'remove({})'],
];
const REDIS_DESTROY = new Set(['FLUSHALL', 'FLUSHDB']);

/** Framework and server commands that drop or reset a database, by program. */
const RAILS_TASKS = new Set([
  'db:drop',
  'db:drop:all',
  'db:reset',
  'db:purge',
  'db:purge:all',
  'db:migrate:reset',
  'db:schema:load',
  'db:truncate_all',
  'db:seed:replant',
]);
const DJANGO_COMMANDS = new Set(['flush', 'reset_db']);
const ARTISAN_COMMANDS = new Set(['migrate:fresh', 'migrate:reset', 'migrate:refresh', 'db:wipe']);
type ToolJudge = (ops: readonly string[], inv: Invocation) => string | undefined;
const first =
  (verbs: ReadonlySet<string>): ToolJudge =>
  (ops) =>
    verbs.has(ops[0] ?? '') ? ops[0] : undefined;
const TOOLS: ReadonlyMap<string, ToolJudge> = new Map<string, ToolJudge>([
  [
    'prisma',
    (ops, inv) =>
      ops[0] === 'migrate' && ops[1] === 'reset'
        ? 'migrate reset'
        : ops[0] === 'db' &&
            ops[1] === 'push' &&
            inv.args.some((a) => a === '--accept-data-loss' || a === '--force-reset')
          ? 'db push, accepting data loss'
          : undefined,
  ],
  ['rails', (ops) => ops.find((o) => RAILS_TASKS.has(o))],
  ['rake', (ops) => ops.find((o) => RAILS_TASKS.has(o))],
  ['manage.py', first(DJANGO_COMMANDS)],
  ['python', (ops) => (ops[0]?.endsWith('manage.py') && DJANGO_COMMANDS.has(ops[1] ?? '') ? ops[1] : undefined)],
  ['python3', (ops) => (ops[0]?.endsWith('manage.py') && DJANGO_COMMANDS.has(ops[1] ?? '') ? ops[1] : undefined)],
  ['php', (ops) => (ops[0] === 'artisan' && ARTISAN_COMMANDS.has(ops[1] ?? '') ? ops[1] : undefined)],
  ['mix', first(new Set(['ecto.drop', 'ecto.reset']))],
  ['sequelize', first(new Set(['db:drop', 'db:migrate:undo:all']))],
  ['sequelize-cli', first(new Set(['db:drop', 'db:migrate:undo:all']))],
  ['typeorm', first(new Set(['schema:drop']))],
  ['flyway', (ops) => (ops.includes('clean') ? 'clean' : undefined)],
  ['liquibase', (ops) => ops.find((o) => o === 'dropAll' || o === 'drop-all')],
  ['dotnet', (ops) => (ops[0] === 'ef' && ops[1] === 'database' && ops[2] === 'drop' ? 'ef database drop' : undefined)],
  ['supabase', (ops) => (ops[0] === 'db' && ops[1] === 'reset' ? 'db reset' : undefined)],
  ['heroku', first(new Set(['pg:reset']))],
  ['dropdb', (ops) => (ops.length > 0 ? `dropdb ${ops[ops.length - 1] ?? ''}` : undefined)],
  // mysqladmin's bare `-p` asks for a password and takes no value, so look at the words as written
  [
    'mysqladmin',
    (_ops, inv) => (inv.args.includes('drop') ? `drop ${inv.args[inv.args.indexOf('drop') + 1] ?? ''}` : undefined),
  ],
]);

/** One piece of text a client will run, and the part of the step it came from. */
interface Feed {
  readonly text: string;
  readonly span: Span;
}

function feeds(inv: Invocation, argv: Argv, client: Client, context: RuleContext): Feed[] {
  const out: Feed[] = [];
  const [short, long] = client.sql;
  for (const arg of argv.values(...short, ...long)) out.push({ text: arg.value, span: arg.span });
  if (client.sqlOperands) for (const arg of argv.operands.slice(1)) out.push({ text: arg.value, span: arg.span });
  if (client.language === 'redis') {
    const words = argv.operands;
    if (words[0]) out.push({ text: words.map((w) => w.value).join(' '), span: words[0].span });
  }
  if (client.files)
    for (const arg of argv.values(...client.files[0], ...client.files[1]))
      pushFile(out, arg.value, arg.span, inv.cwd, context);
  if (inv.stdinText !== undefined) out.push({ text: inv.stdinText, span: inv.span });
  for (const redirect of inv.redirects)
    if (redirect.op === '<') pushFile(out, redirect.target, redirect.span, inv.cwd, context);
  // what the stage before prints: `echo "…" | psql`, `cat x.sql | psql`, `(echo a; echo b) | psql`
  for (const before of context.stageBefore(inv)?.producers ?? []) {
    if (isA(before.name, 'printer'))
      out.push({ text: before.args.filter((a) => a !== '-e' && a !== '-n').join(' '), span: before.span });
    if (before.name === 'cat') {
      if (before.stdinText !== undefined) out.push({ text: before.stdinText, span: before.span });
      for (const arg of context.argv(before).operands) pushFile(out, arg.value, arg.span, before.cwd, context);
    }
  }
  return out;
}

function pushFile(out: Feed[], raw: string, span: Span, cwd: string, context: RuleContext): void {
  const abs = context.path(raw, cwd).abs;
  const text = abs === '' ? undefined : context.probe.readText?.(abs, MAX_FILE_BYTES);
  if (text !== undefined) out.push({ text: text.slice(0, MAX_FILE_BYTES), span });
}

/** What in a piece of text destroys data, in the client's language. */
function destructions(text: string, language: Client['language']): string[] {
  if (language === 'js') return MONGO_DESTROY.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
  if (language === 'redis') {
    const out: string[] = [];
    for (const line of text.split('\n')) {
      const word = line.trim().split(/\s/, 1)[0]?.toUpperCase() ?? '';
      if (REDIS_DESTROY.has(word)) out.push(word);
    }
    return out;
  }
  return destructiveSql(text).map((d) => d.statement);
}

/** The server and database a client talks to, without passwords. */
function targetOf(inv: Invocation, argv: Argv, client: Client): string {
  const parts = argv.values(...client.target[0], ...client.target[1]).map((a) => withoutPassword(a.value));
  const database = argv.operands[0];
  if (database && client.language !== 'redis')
    parts.push(client.sqlOperands ? inv.cwd + '/' + database.value : withoutPassword(database.value));
  return [...parts, ...envScope(inv)].join(' ');
}

/** `postgres://user:pw@host/db` → `postgres://host/db`. */
function withoutPassword(value: string): string {
  const scheme = value.indexOf('://');
  const at = value.indexOf('@');
  return scheme >= 0 && at > scheme ? value.slice(0, scheme + 3) + value.slice(at + 1) : value;
}

/** Assignments in front of the command that pick an environment (`RAILS_ENV=production`), never secrets. */
function envScope(inv: Invocation): string[] {
  return Object.entries(inv.env)
    .filter(([name]) => !isSecretVariableName(name))
    .map(([name, value]) => `${name}=${withoutPassword(value)}`)
    .sort();
}

function toolHit(inv: Invocation, argv: Argv): Hit | undefined {
  const judge = TOOLS.get(inv.name);
  if (!judge) return undefined;
  const ops = argv.operands.map((a) => a.value);
  const verb = judge(ops, inv);
  if (verb === undefined) return undefined;
  const detail = verb.startsWith(inv.name) ? verb : `${inv.name} ${verb}`;
  return { span: inv.span, key: [inv.cwd, detail, ...envScope(inv)].join(' '), detail };
}

/**
 * SQL handed to a database's MCP tool (`query`, `execute_sql`, any tool of a `postgres` server),
 * judged as `psql -c` judges the same text: each string argument on its own.
 */
function mcpHits(context: RuleContext, step: McpStep): Hit[] {
  if (!mcpRunsSql(step.server, step.tool, step.args)) return [];
  const hits: Hit[] = [];
  // a server given by its launch command may carry a connection string with a password in it
  const server = step.server.replace(/\/\/[^/\s@]*@/g, '//');
  let from = 0;
  for (const value of looseStrings(step.args)) {
    const found = destructiveSql(value);
    if (found.length === 0) continue;
    const encoded = JSON.stringify(value);
    const at = context.text.indexOf(encoded, from);
    const span: Span = at < 0 ? [0, context.text.length] : [at + 1, at + encoded.length - 1];
    if (at >= 0) from = at + encoded.length;
    for (const what of new Set(found.map((d) => d.statement))) {
      if (hits.length >= MAX_HITS) return hits;
      hits.push({ span, key: `mcp ${server} ${step.tool} ${what}`, detail: what });
    }
  }
  return hits;
}

export const dbDestroy = {
  meta: {
    id: 'db.destroy',
    decision: 'ask',
    remember: 'target',
    concern: 'destructive',
    title: 'destroying database data',
    reason:
      'This deletes or overwrites tables, rows or whole databases, and a database keeps no undo; take a backup or dump first, and use a WHERE clause or a migration you can roll back.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'psql -c "DROP TABLE users"',
        'mysql shop -e "TRUNCATE orders"',
        'sqlite3 app.db "DELETE FROM sessions"',
        'psql -c "UPDATE users SET role = \'admin\';"',
        'npx prisma migrate reset',
        'redis-cli FLUSHALL',
        'dropdb shop_dev',
        { step: { kind: 'mcp', server: 'supabase', tool: 'execute_sql', args: { query: 'TRUNCATE orders' } } },
      ],
      noMatch: [
        'psql -c "SELECT count(*) FROM users"',
        'sqlite3 app.db "DELETE FROM sessions WHERE expired = 1"',
        'grep -r "DROP TABLE" src',
        'echo "DELETE FROM users"',
        'npx prisma migrate dev',
        {
          step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: 'DROP TABLE users' } },
          note: 'a search for the words runs no SQL',
        },
      ],
    },
  },
  programs: new Set([...CLIENTS.keys(), ...TOOLS.keys()]),
  check(context) {
    if (context.step.kind === 'mcp') return mcpHits(context, context.step);
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const client = CLIENTS.get(inv.name);
      if (!client) {
        const hit = TOOLS.has(inv.name) ? toolHit(inv, context.argv(inv)) : undefined;
        if (hit) hits.push(hit);
        continue;
      }
      const argv = context.argv(inv);
      let target: string | undefined;
      for (const feed of feeds(inv, argv, client, context)) {
        for (const what of new Set(destructions(feed.text, client.language))) {
          if (hits.length >= MAX_HITS) return hits;
          target ??= targetOf(inv, argv, client);
          hits.push({ span: feed.span, key: `${inv.name} ${target} ${what}`, detail: what });
        }
      }
    }
    return hits;
  },
} as const satisfies Rule;
