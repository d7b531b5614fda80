/**
 * Statements in SQL text that throw data away: `DROP TABLE|DATABASE|SCHEMA|KEYSPACE|COLLECTION`,
 * `TRUNCATE`, `DELETE FROM` with no `WHERE`, and `ALTER TABLE … DROP COLUMN`. One left-to-right
 * pass over the text (no regular expression runs on it), so any input is read in linear time.
 * String literals and comments are skipped; quoted identifiers count as names.
 */

/** One statement that destroys data, as words: `DROP TABLE users`, `DELETE FROM orders`. */
export interface SqlDestruction {
  readonly statement: string;
}

/** Text beyond this is not read (a statement this deep in a script still counts when it starts earlier). */
const MAX_SQL = 1_000_000;

/** What `DROP` must be followed by to lose rows; `DROP INDEX`/`VIEW`/`FUNCTION` are rebuilt from code. */
const DROPPED_HOLDERS = new Set(['TABLE', 'DATABASE', 'SCHEMA', 'KEYSPACE', 'COLLECTION']);

interface Word {
  /** Upper-case for keywords; quoted identifiers keep their text and never match a keyword. */
  readonly upper: string;
  readonly text: string;
}

interface Statement {
  /** Words outside parentheses, in order. */
  readonly words: Word[];
  hasWhere: boolean;
}

/** Every data-destroying statement in `text`, in order. */
export function destructiveSql(text: string): SqlDestruction[] {
  const out: SqlDestruction[] = [];
  for (const statement of statements(text.length > MAX_SQL ? text.slice(0, MAX_SQL) : text)) {
    const found = judge(statement);
    if (found !== undefined) out.push({ statement: found });
  }
  return out;
}

function judge({ words, hasWhere }: Statement): string | undefined {
  const first = words[0]?.upper;
  if (first === 'DROP') {
    let at = 1;
    if (words[at]?.upper === 'TEMPORARY' || words[at]?.upper === 'TEMP') return undefined;
    const holder = words[at]?.upper ?? '';
    if (!DROPPED_HOLDERS.has(holder)) return undefined;
    at++;
    if (words[at]?.upper === 'IF' && words[at + 1]?.upper === 'EXISTS') at += 2;
    return named(`DROP ${holder}`, words[at]);
  }
  if (first === 'TRUNCATE') {
    let at = 1;
    while (words[at]?.upper === 'TABLE' || words[at]?.upper === 'ONLY') at++;
    return named('TRUNCATE', words[at]);
  }
  if (first === 'ALTER' && words[1]?.upper === 'TABLE') {
    for (let i = 2; i + 1 < words.length; i++) {
      if (words[i]?.upper === 'DROP' && words[i + 1]?.upper === 'COLUMN') return named('ALTER TABLE', words[2]);
    }
    return undefined;
  }
  // `DELETE FROM` anywhere outside parentheses (also after `WITH … AS (…)`), not `ON DELETE CASCADE`
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i]?.upper === 'DELETE' && words[i + 1]?.upper === 'FROM') return hasWhere ? undefined : named('DELETE FROM', words[i + 2]);
  }
  return undefined;
}

function named(what: string, name: Word | undefined): string {
  return name === undefined ? what : `${what} ${name.text}`;
}

function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isWordPart(code: number): boolean {
  // letters, digits, `_`, `$`, `.` (so `public.users` stays one name)
  return isWordStart(code) || (code >= 48 && code <= 57) || code === 36 || code === 46;
}

/** Splits SQL into statements at `;`, keeping only what the judge needs. */
function statements(text: string): Statement[] {
  const out: Statement[] = [];
  let current: Statement = { words: [], hasWhere: false };
  let depth = 0;
  let deleting = false;
  const end = (): void => {
    if (current.words.length > 0) out.push(current);
    current = { words: [], hasWhere: false };
    depth = 0;
    deleting = false;
  };
  const addWord = (word: Word): void => {
    if (depth > 0) return;
    // a statement only needs its head and its top-level WHERE; cap the words kept
    if (current.words.length < 64) current.words.push(word);
    if (word.upper === 'FROM' && current.words[current.words.length - 2]?.upper === 'DELETE') deleting = true;
    if (deleting && word.upper === 'WHERE') current.hasWhere = true;
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const ch = text[i];
    if (ch === ';') {
      end();
      i++;
    } else if (ch === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (ch === "'") {
      // '' inside a literal is a quote; backslashes are ordinary characters (standard SQL)
      let j = i + 1;
      for (;;) {
        const q = text.indexOf("'", j);
        if (q < 0) {
          j = text.length;
          break;
        }
        if (text[q + 1] === "'") {
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      i = j;
    } else if (ch === '"' || ch === '`' || ch === '[') {
      const closer = ch === '[' ? ']' : ch;
      const close = text.indexOf(closer, i + 1);
      const stop = close < 0 ? text.length : close;
      addWord({ upper: '', text: text.slice(i, Math.min(stop + 1, text.length)) });
      i = stop + 1;
    } else if (isWordStart(code)) {
      let j = i + 1;
      while (j < text.length && isWordPart(text.charCodeAt(j))) j++;
      const word = text.slice(i, j);
      addWord({ upper: word.toUpperCase(), text: word });
      i = j;
    } else {
      if (ch === '(') depth++;
      else if (ch === ')' && depth > 0) depth--;
      i++;
    }
  }
  end();
  return out;
}
