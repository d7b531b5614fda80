/**
 * Whether an MCP tool changes something or sends something out, judged by the annotations its
 * server declared when they say so, else by the verb in its name (`create_issue`, `issue_write`,
 * `getCommit`, `search_and_replace`).
 */
import type { McpAnnotations } from '../types.js';

/** Verbs that change state somewhere or send data out. */
const CHANGE_VERBS = new Set([
  'add',
  'apply',
  'approve',
  'archive',
  'assign',
  'book',
  'cancel',
  'clear',
  'click',
  'close',
  'comment',
  'commit',
  'create',
  'del',
  'delete',
  'deploy',
  'destroy',
  'disable',
  'dismiss',
  'dispatch',
  'drop',
  'edit',
  'enable',
  'eval',
  'evaluate',
  'exec',
  'execute',
  'fill',
  'follow',
  'fork',
  'forward',
  'grant',
  'import',
  'insert',
  'install',
  'invite',
  'invoke',
  'kill',
  'label',
  'lock',
  'mark',
  'merge',
  'modify',
  'move',
  'mv',
  'notify',
  'order',
  'overwrite',
  'patch',
  'pay',
  'pin',
  'post',
  'press',
  'publish',
  'purchase',
  'purge',
  'push',
  'put',
  'reject',
  'release',
  'remove',
  'rename',
  'reopen',
  'replace',
  'reply',
  'reset',
  'restart',
  'revoke',
  'rm',
  'rollback',
  'run',
  'save',
  'schedule',
  'send',
  'set',
  'share',
  'star',
  'stop',
  'store',
  'submit',
  'sync',
  'tag',
  'terminate',
  'transfer',
  'trigger',
  'truncate',
  'type',
  'unarchive',
  'uninstall',
  'unlink',
  'unlock',
  'unstar',
  'update',
  'upload',
  'upsert',
  'wipe',
  'write',
]);

/** Verbs that only look. */
const READ_VERBS = new Set([
  'analyze',
  'browse',
  'check',
  'count',
  'describe',
  'diff',
  'explain',
  'fetch',
  'find',
  'get',
  'inspect',
  'list',
  'lookup',
  'navigate',
  'preview',
  'query',
  'read',
  'screenshot',
  'search',
  'show',
  'snapshot',
  'status',
  'validate',
  'view',
  'whoami',
]);

/** Words that join two verbs in one name (`get_or_create`, `search_and_replace`). */
const JOINERS = new Set(['and', 'or', 'then']);

/** True when the tool changes or sends, false when it only looks or its name says nothing. */
export function mcpToolChanges(tool: string, annotations?: McpAnnotations): boolean {
  if (annotations?.readOnlyHint === true) return false;
  if (annotations?.destructiveHint === true || annotations?.readOnlyHint === false) return true;
  const words = nameWords(tool);
  // the first verb in the name decides; a joined second verb may only make it a change
  let verb: string | undefined;
  for (const [i, word] of words.entries()) {
    const isVerb = CHANGE_VERBS.has(word) || READ_VERBS.has(word);
    if (isVerb && verb === undefined) verb = word;
    else if (isVerb && CHANGE_VERBS.has(word) && JOINERS.has(words[i - 1] ?? '')) return true;
  }
  return verb !== undefined && CHANGE_VERBS.has(verb);
}

/**
 * A tool runs the SQL it is given when its name says `sql` (`execute_sql`, `run_sql`), or is made
 * only of these words with one of the first group among them (`query`, `write_query`,
 * `execute`, `d1_database_query`); `query_docs` has a word of its own and searches documents.
 */
const SQL_TOOL_VERBS = new Set(['query', 'queries', 'execute', 'exec', 'statement', 'statements', 'transaction']);
const SQL_TOOL_WORDS = new Set([...SQL_TOOL_VERBS, 'run', 'read', 'write', 'raw', 'db', 'database', 'd1', 'select']);

/**
 * Words in a server's name (or the URL or launch command some agents give instead) that say it
 * is a database's: its tools run the SQL they are handed, whatever they are called
 * (`apply_migration`).
 */
const DATABASE_SERVER_WORDS = new Set([
  'bigquery',
  'clickhouse',
  'cockroach',
  'cockroachdb',
  'd1',
  'database',
  'databases',
  'db',
  'dbhub',
  'duckdb',
  'libsql',
  'mariadb',
  'motherduck',
  'mssql',
  'mysql',
  'neon',
  'oracle',
  'pg',
  'planetscale',
  'postgres',
  'postgresql',
  'redshift',
  'snowflake',
  'sql',
  'sqlite',
  'sqlite3',
  'sqlserver',
  'supabase',
  'tidb',
  'timescale',
  'timescaledb',
  'turso',
]);

/** Argument names that hold SQL to run, whatever the tool is called (compared lower-case, without `_` and `-`). */
const SQL_ARGUMENTS = new Set(['sql', 'sqlquery', 'sqlstatement', 'sqlstatements', 'sqltext']);

/** The words of a tool's or server's name (`getCommit` → get, commit), lower-case. */
function nameWords(name: string): string[] {
  return name
    .slice(0, 200)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * Whether an MCP tool runs the SQL in its arguments against a database: a tool named for it
 * (`query`, `execute_sql`, `run_sql`), any tool of a database's server (`postgres`, `supabase`),
 * or an argument named for SQL (`{"sql": …}`). A `search` tool of a docs server whose query
 * mentions `DROP TABLE` runs nothing.
 */
export function mcpRunsSql(server: string, tool: string, args: unknown): boolean {
  const words = nameWords(tool);
  if (
    words.includes('sql') ||
    (words.some((word) => SQL_TOOL_VERBS.has(word)) && words.every((word) => SQL_TOOL_WORDS.has(word)))
  )
    return true;
  if (nameWords(server).some((word) => DATABASE_SERVER_WORDS.has(word))) return true;
  return (
    args !== null &&
    typeof args === 'object' &&
    !Array.isArray(args) &&
    Object.keys(args).some((key) => SQL_ARGUMENTS.has(key.toLowerCase().replace(/[_-]/g, '')))
  );
}
