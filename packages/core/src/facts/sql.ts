/**
 * Statements in SQL text that throw data away: `DROP TABLE|DATABASE|SCHEMA|KEYSPACE|COLLECTION`,
 * `TRUNCATE`, `DELETE FROM` and `UPDATE … SET` with no `WHERE`, and `ALTER TABLE … DROP COLUMN`. One left-to-right
 * pass over the text (no regular expression runs on it), so any input is read in linear time.
 * String literals and comments are skipped; quoted identifiers count as names.
 */

/** One statement that destroys data, as words: `DROP TABLE users`, `DELETE FROM orders`. */
export interface SqlDestruction {
  readonly statement: string;
}

/** Text beyond this is not read (the shell reader bounds a command line to about this size too). */
const MAX_SQL = 1_000_000;

/** What `DROP` must be followed by to lose rows; `DROP INDEX`/`VIEW`/`FUNCTION` are rebuilt from code. */
const DROPPED_HOLDERS = new Set(['TABLE', 'DATABASE', 'SCHEMA', 'KEYSPACE', 'COLLECTION']);

const DESTRUCTIVE_WORD = /drop|delete|truncate|update/i;

/** Keywords are at most this long (`COLLECTION`); longer words are only ever names. */
const KEYWORD_MAX = 10;
/** Words at the head of a statement that decide what it is (`DROP TABLE IF EXISTS name`). */
const HEAD_WORDS = 7;

/** What one statement has shown so far, read word by word. */
interface Statement {
  /** Upper-cased head words ('' for quoted identifiers and long words) and their text; `count` are set. */
  readonly head: string[];
  readonly headText: string[];
  count: number;
  previous: string;
  /** `DELETE FROM <name>` seen outside parentheses ('' until the name is read). */
  deleteFrom: string | undefined;
  awaitingName: boolean;
  hasWhere: boolean;
  dropsColumn: boolean;
  depth: number;
}

function reset(st: Statement): void {
  // the arrays are reused: only the first `count` entries are read
  st.count = 0;
  st.previous = '';
  st.deleteFrom = undefined;
  st.awaitingName = false;
  st.hasWhere = false;
  st.dropsColumn = false;
  st.depth = 0;
}

function addWord(st: Statement, upper: string, raw: string): void {
  if (st.count < HEAD_WORDS) {
    st.head[st.count] = upper;
    st.headText[st.count] = raw;
    st.count++;
  }
  if (st.awaitingName) {
    st.deleteFrom = raw;
    st.awaitingName = false;
  }
  if (upper === 'FROM' && st.previous === 'DELETE' && st.deleteFrom === undefined) {
    st.deleteFrom = '';
    st.awaitingName = true;
  } else if (upper === 'WHERE' && (st.deleteFrom !== undefined || st.head[0] === 'UPDATE')) {
    st.hasWhere = true;
  } else if (upper === 'COLUMN' && st.previous === 'DROP') {
    st.dropsColumn = true;
  }
  st.previous = upper;
}

/** Every data-destroying statement in `text`, in order. */
export function destructiveSql(text: string): SqlDestruction[] {
  const out: SqlDestruction[] = [];
  const source = text.length > MAX_SQL ? text.slice(0, MAX_SQL) : text;
  // every destructive statement spells one of these words; most SQL spells none
  if (!DESTRUCTIVE_WORD.test(source)) return out;
  const st: Statement = {
    head: new Array<string>(HEAD_WORDS).fill(''),
    headText: new Array<string>(HEAD_WORDS).fill(''),
    count: 0,
    previous: '',
    deleteFrom: undefined,
    awaitingName: false,
    hasWhere: false,
    dropsColumn: false,
    depth: 0,
  };
  const length = source.length;
  let i = 0;
  while (i < length) {
    const code = source.charCodeAt(i);
    if (code === 59 /* ; */) {
      if (st.count > 0) {
        const found = judge(st);
        if (found !== undefined) out.push({ statement: found });
      }
      reset(st);
      i++;
    } else if (code === 45 /* - */ && source.charCodeAt(i + 1) === 45) {
      const nl = source.indexOf('\n', i);
      i = nl < 0 ? length : nl + 1;
    } else if (code === 47 /* / */ && source.charCodeAt(i + 1) === 42 /* * */) {
      const close = source.indexOf('*/', i + 2);
      i = close < 0 ? length : close + 2;
    } else if (code === 39 /* ' */) {
      i = afterLiteral(source, i);
    } else if (code === 34 /* " */ || code === 96 /* ` */ || code === 91 /* [ */) {
      const close = source.indexOf(code === 91 ? ']' : source.charAt(i), i + 1);
      const stop = close < 0 ? length : close + 1;
      if (st.depth === 0) addWord(st, '', source.slice(i, Math.min(stop, i + 200)));
      i = stop;
    } else if (isWordStart(code)) {
      let j = i + 1;
      while (j < length && isWordPart(source.charCodeAt(j))) j++;
      if (st.depth === 0) {
        // past the head only a few keywords and one name matter: avoid a string per word
        if (st.count < HEAD_WORDS || st.awaitingName) {
          const raw = source.slice(i, Math.min(j, i + 200));
          addWord(st, j - i <= KEYWORD_MAX ? raw.toUpperCase() : '', raw);
        } else {
          addWord(st, tailKeyword(source, i, j), '');
        }
      }
      i = j;
    } else {
      if (code === 40 /* ( */) st.depth++;
      else if (code === 41 /* ) */ && st.depth > 0) st.depth--;
      i++;
    }
  }
  if (st.count > 0) {
    const found = judge(st);
    if (found !== undefined) out.push({ statement: found });
  }
  return out;
}

/** Keywords that matter after a statement's head. */
const TAIL_KEYWORDS = ['DELETE', 'FROM', 'WHERE', 'DROP', 'COLUMN'];

/** The tail keyword spelled by `source[start, end)` in any case, or ''. */
function tailKeyword(source: string, start: number, end: number): string {
  for (const keyword of TAIL_KEYWORDS) {
    if (keyword.length !== end - start) continue;
    let k = 0;
    // ASCII letters only: clearing bit 5 upper-cases them
    while (k < keyword.length && (source.charCodeAt(start + k) & ~32) === keyword.charCodeAt(k)) k++;
    if (k === keyword.length) return keyword;
  }
  return '';
}

/** Index after the string literal that starts at `start` ('' inside is a quote; backslashes are plain, as in standard SQL). */
function afterLiteral(source: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = source.indexOf("'", from);
    if (quote < 0) return source.length;
    if (source.charCodeAt(quote + 1) !== 39) return quote + 1;
    from = quote + 2;
  }
}

function judge(st: Statement): string | undefined {
  const word = (at: number): string => (at < st.count ? (st.head[at] ?? '') : '');
  const name = (at: number): string => (at < st.count ? ` ${st.headText[at] ?? ''}` : '');
  const first = word(0);
  if (first === 'DROP') {
    const holder = word(1);
    if (!DROPPED_HOLDERS.has(holder)) return undefined;
    const at = word(2) === 'IF' && word(3) === 'EXISTS' ? 4 : 2;
    return `DROP ${holder}${name(at)}`;
  }
  if (first === 'TRUNCATE') {
    let at = 1;
    while (word(at) === 'TABLE' || word(at) === 'ONLY') at++;
    return `TRUNCATE${name(at)}`;
  }
  if (first === 'ALTER' && word(1) === 'TABLE') return st.dropsColumn ? `ALTER TABLE${name(2)}` : undefined;
  // `DELETE FROM` anywhere outside parentheses (also after `WITH … AS (…)`), not `ON DELETE CASCADE`
  if (st.deleteFrom !== undefined && !st.hasWhere)
    return st.deleteFrom === '' ? 'DELETE FROM' : `DELETE FROM ${st.deleteFrom}`;
  // `UPDATE [ONLY] name [[AS] alias] SET …` with no WHERE overwrites every row
  if (first === 'UPDATE' && !st.hasWhere) {
    for (let at = 2; at < st.count; at++) if (word(at) === 'SET') return `UPDATE${name(word(1) === 'ONLY' ? 2 : 1)}`;
  }
  return undefined;
}

function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isWordPart(code: number): boolean {
  // letters, digits, `_`, `$`, `.` (so `public.users` stays one name)
  return isWordStart(code) || (code >= 48 && code <= 57) || code === 36 || code === 46;
}
