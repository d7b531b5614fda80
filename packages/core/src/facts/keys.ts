/**
 * Key-shaped values in text (access keys, tokens, private key blocks, passwords in URLs), so a
 * command that carries one can be stopped and a log line can be redacted. Linear in the text.
 */

export interface KeyHit {
  /** What the value looks like (`github-token`, `aws-access-key`, `private-key`, …). */
  readonly kind: string;
  /** `[start, end)` into the text. */
  readonly span: readonly [number, number];
}

interface Shape {
  /**
   * Lower-case literals one of which every match contains: a text holding none of them is not
   * scanned with this shape's pattern (most commands hold no key at all).
   */
  readonly hints: readonly string[];
  readonly kind: string | ((value: string) => string);
  /** Global, and `d` when `group` is set. */
  readonly re: RegExp;
  /** Capture group that holds the value (0 = the whole match). */
  readonly group: number;
  /** Extra test on the value, for shapes whose prefix alone is too common. */
  readonly check?: (value: string, match: RegExpExecArray) => boolean;
}

// Every pattern starts with a literal, and each repetition is either bounded or the last item with
// nothing required after it, so a failed attempt never rescans more than a few hundred characters.
// Ordered from specific to generic: on equal spans the earlier shape names the hit.
const SHAPES: readonly Shape[] = [
  {
    hints: ['akia', 'asia', 'abia', 'acca'],
    kind: 'aws-access-key',
    re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    group: 0,
  },
  {
    hints: ['secret'],
    kind: 'aws-secret-key',
    re: /aws_?secret_?access_?key["']?[ \t]{0,8}[:=][ \t]{0,8}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dgi,
    group: 1,
  },
  {
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    kind: 'github-token',
    re: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9])/g,
    group: 0,
  },
  { hints: ['github_pat_'], kind: 'github-token', re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{50,}/g, group: 0 },
  { hints: ['glpat-'], kind: 'gitlab-token', re: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { hints: ['npm_'], kind: 'npm-token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, group: 0 },
  { hints: ['pypi-age'], kind: 'pypi-token', re: /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}/g, group: 0 },
  { hints: ['k_live_'], kind: 'stripe-key', re: /(?<![A-Za-z0-9])[sr]k_live_[A-Za-z0-9]{20,}/g, group: 0 },
  {
    hints: ['sk-'],
    kind: (v) => (v.startsWith('sk-ant-') ? 'anthropic-key' : 'openai-key'),
    re: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g,
    group: 0,
    check: (v) => /[0-9]/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v.slice(3)),
  },
  {
    hints: ['xox'],
    kind: 'slack-token',
    re: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
    group: 0,
    check: (v) => /[0-9]/.test(v),
  },
  {
    hints: ['hooks.slack.com/'],
    kind: 'slack-webhook',
    re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
    group: 0,
  },
  {
    hints: ['aiza'],
    kind: 'google-api-key',
    re: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    group: 0,
  },
  { hints: ['sk'], kind: 'twilio-key', re: /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/g, group: 0 },
  {
    hints: ['sg.'],
    kind: 'sendgrid-key',
    re: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    group: 0,
  },
  {
    hints: ['://'],
    kind: 'url-password',
    // user, password, and (looked at, not taken) the host
    re: /:\/\/([^\s/?#@:'"]{1,128}):([^\s/?#@'"]{1,256})@(?=([^\s/?#:'"]{0,253}))/dg,
    group: 2,
    check: (v, m) => !isPlaceholder(v) && !isThrowaway(v, m[1] ?? '', m[3] ?? ''),
  },
  {
    hints: ['bearer'],
    kind: 'bearer-token',
    re: /(?<![A-Za-z])bearer[ \t]{1,8}([A-Za-z0-9._~+/=-]{20,})/dgi,
    group: 1,
    check: isMixed,
  },
  {
    hints: ['basic'],
    kind: 'basic-auth',
    re: /(?<![A-Za-z])basic[ \t]{1,8}([A-Za-z0-9+/]{8,}={0,2})/dgi,
    group: 1,
    check: isBasicPair,
  },
];

/** Every shape's hints in one case-blind pattern: most texts hold none, and then skip every shape at once. */
const ANY_HINT = new RegExp(SHAPES.flatMap((shape) => shape.hints.map(escapeRegExp)).join('|'), 'i');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** At least two of lower case, upper case and digits, and not a `$VAR`-like name. */
function isMixed(value: string): boolean {
  const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/[0-9]/.test(value));
  return classes >= 2;
}

// `user:password` in base64, as `Authorization: Basic …` carries it.
function isBasicPair(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return false;
  }
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}

// A password in a URL that only stands for one (`${PASSWORD}`, `<password>`, `****`), or a local
// database's or broker's stock password that every tutorial prints (`postgres:postgres@localhost`).
function isPlaceholder(value: string): boolean {
  return (
    /^[$%{<*]/.test(value) ||
    /^(?:password|passwd|pass|pwd|secret|x+|\*+|\.+|postgres|root|admin|guest|test|dev|example|changeme|mysql|minioadmin)$/i.test(
      value,
    )
  );
}

/**
 * A password for a database on this machine or in a compose file's network (`app:app@localhost`,
 * `postgres:devpass@db`): the user's name again, or a word for local use, on a host that is this
 * computer or a bare service name.
 */
function isThrowaway(password: string, user: string, host: string): boolean {
  const local =
    /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|host\.docker\.internal|[a-z][a-z0-9_-]{0,62})$/i.test(host);
  return (
    local && (password === user || /^(?:dev|devpass|local|app|secret|pass(?:word)?1?|test(?:ing)?)$/i.test(password))
  );
}

const PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// One line of a key body, read in place (sticky); a line ends at a newline or a `\n` escape.
const PEM_LINE = /(?:[A-Za-z0-9+/=]+|(?:Proc-Type|DEK-Info|Comment|Version): [^\r\n\\]*)(?=[\r\n\\]|$)/y;

// A private key block runs to its END line, or, when that is missing, over the base64 lines after
// it (lines end at a newline or at a `\n` escape, as in JSON strings).
function findPrivateKeys(text: string, hits: KeyHit[]): void {
  PEM_BEGIN.lastIndex = 0;
  // the END search is skipped once it has failed from an earlier position (no END after it)
  let noEndFrom = Number.POSITIVE_INFINITY;
  for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
    const start = m.index;
    const headerEnd = start + m[0].length;
    let end = -1;
    if (headerEnd < noEndFrom) {
      const found = text.indexOf('-----END', headerEnd);
      if (found < 0) noEndFrom = headerEnd;
      else {
        const close = text.indexOf('-----', found + 8);
        end = close >= 0 && close - found < 64 ? close + 5 : found + 8;
      }
    }
    if (end < 0) end = base64LinesEnd(text, headerEnd);
    hits.push({ kind: 'private-key', span: [start, end] });
    PEM_BEGIN.lastIndex = end;
  }
}

function base64LinesEnd(text: string, from: number): number {
  let end = from;
  let at = from;
  for (;;) {
    for (;;) {
      const c = text[at];
      if (c === '\n' || c === '\r' || c === ' ' || c === '\t') at++;
      else if (c === '\\' && (text[at + 1] === 'n' || text[at + 1] === 'r')) at += 2;
      else break;
    }
    PEM_LINE.lastIndex = at;
    const line = PEM_LINE.exec(text);
    if (line === null) return end;
    end = at + line[0].trimEnd().length;
    at += line[0].length;
  }
}

const B64URL = /[A-Za-z0-9_-]/;

function runEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && B64URL.test(text[i] as string)) i++;
  return i;
}

// `eyJ….eyJ….sig`: header and payload are base64 JSON objects. After a failed start the search
// resumes past the whole run, which every later start inside it would share.
function findJwts(text: string, hits: KeyHit[]): void {
  let from = 0;
  for (let i = text.indexOf('eyJ', from); i >= 0; i = text.indexOf('eyJ', from)) {
    if (i > 0 && B64URL.test(text[i - 1] as string)) {
      from = runEnd(text, i);
      continue;
    }
    const a = runEnd(text, i);
    if (a - i >= 10 && text[a] === '.' && text.startsWith('eyJ', a + 1)) {
      const b = runEnd(text, a + 1);
      if (b - a - 1 >= 10 && text[b] === '.') {
        const c = runEnd(text, b + 1);
        if (c - b - 1 >= 8) {
          hits.push({ kind: 'jwt', span: [i, c] });
          from = c;
          continue;
        }
      }
    }
    from = Math.max(a, i + 1);
  }
}

/** Every key-shaped value in the text, in order, without overlaps. */
export function findKeys(text: string): readonly KeyHit[] {
  const found: KeyHit[] = [];
  findPrivateKeys(text, found);
  findJwts(text, found);
  if (!ANY_HINT.test(text)) return withoutOverlaps(found);
  const lower = text.toLowerCase();
  // every shape is asked on every step: an index loop (docs/performance.md, "Index loops, not for-of")
  for (let s = 0; s < SHAPES.length; s++) {
    const shape = SHAPES[s] as Shape;
    if (!holdsAny(lower, shape.hints)) continue;
    shape.re.lastIndex = 0;
    for (let m = shape.re.exec(text); m !== null; m = shape.re.exec(text)) {
      const span: readonly [number, number] | undefined =
        shape.group === 0 ? [m.index, m.index + m[0].length] : m.indices?.[shape.group];
      if (span === undefined) continue;
      const value = text.slice(span[0], span[1]);
      if (shape.check !== undefined && !shape.check(value, m)) continue;
      const kind = typeof shape.kind === 'string' ? shape.kind : shape.kind(value);
      found.push({ kind, span });
    }
  }
  return withoutOverlaps(found);
}

// Most texts hold no hint, so every shape asks: an index loop (docs/performance.md, "Index loops, not for-of").
function holdsAny(lower: string, hints: readonly string[]): boolean {
  for (let i = 0; i < hints.length; i++) if (lower.includes(hints[i] as string)) return true;
  return false;
}

// Sorted by start; where two overlap the longer one stays (the earlier-found one on a tie).
function withoutOverlaps(hits: readonly KeyHit[]): KeyHit[] {
  // most texts hold no key: nothing to order
  if (hits.length < 2) return [...hits];
  const order = hits.map((hit, i) => ({ hit, i }));
  order.sort(
    (x, y) =>
      x.hit.span[0] - y.hit.span[0] || y.hit.span[1] - y.hit.span[0] - (x.hit.span[1] - x.hit.span[0]) || x.i - y.i,
  );
  const out: KeyHit[] = [];
  for (const { hit } of order) {
    const last = out[out.length - 1];
    if (last !== undefined && hit.span[0] < last.span[1]) continue;
    out.push(hit);
  }
  return out;
}

/** The text with each hit replaced by `[redacted:<kind>]` (hits default to `findKeys(text)`). */
export function redact(text: string, hits: readonly KeyHit[] = findKeys(text)): string {
  let out = '';
  let at = 0;
  for (const hit of withoutOverlaps(hits)) {
    const start = Math.max(hit.span[0], at);
    const end = Math.min(hit.span[1], text.length);
    if (end <= start) continue;
    out += `${text.slice(at, start)}[redacted:${hit.kind}]`;
    at = end;
  }
  return out + text.slice(at);
}

// Name parts that mark a secret (`OPENAI_API_KEY`, `githubToken`, `PGPASSWORD`).
const SECRET_PARTS = new Set(['KEY', 'KEYS', 'APIKEY', 'SECRETKEY', 'PRIVATEKEY', 'ACCESSKEY', 'PWD', 'CREDS']);
const SECRET_ENDINGS = [
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'CREDENTIAL',
  'CREDENTIALS',
];
// A last part that says the variable names where a secret lives or how it looks, not the secret.
const DESCRIPTIVE_ENDINGS = new Set([
  'PATH',
  'FILE',
  'DIR',
  'URL',
  'URI',
  'NAME',
  'TYPE',
  'LENGTH',
  'LEN',
  'SIZE',
  'TTL',
  'EXPIRY',
  'EXPIRES',
  'HEADER',
  'PREFIX',
]);

/**
 * True for names like `*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*PASSWD*`, `*CREDENTIAL*`,
 * matched on name parts (split at `_`, `-`, `.` and camelCase), so `KEYBOARD_LAYOUT`, `MONKEY`
 * and `TOKENIZER_PATH` do not count; `PWD` alone (the working directory) does not either.
 */
export function isSecretVariableName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return false;
  if (DESCRIPTIVE_ENDINGS.has(parts[parts.length - 1] as string) && parts.length > 1) return false;
  if (parts.length === 1 && parts[0] === 'PWD') return false;
  return parts.some((p) => SECRET_PARTS.has(p) || SECRET_ENDINGS.some((e) => p.endsWith(e)));
}
