/**
 * What guard's log keeps of a step: its text with every secret it can recognise taken out, the
 * named ones (facts/keys.ts) and the unnamed ones (a password after `-p`, a URL's password, a long
 * random-looking value such as a cloud secret key), and never a file's contents (a patch keeps its
 * file headers only, a tool's arguments lose their long strings). Pure and linear in the text.
 */
import type { ToolStep } from '../types.js';
import { redact } from './keys.js';

/** Strings longer than this in a tool's arguments are contents, not names. */
const MAX_ARG_STRING = 200;

/** The step text the log keeps (before it is cut to the log's length). */
export function logText(step: ToolStep, text: string): string {
  switch (step.kind) {
    case 'patch':
      // the files a patch touches, not what it writes into them
      return redactForLog(
        text
          .split('\n')
          .filter((line) => line.startsWith('*** '))
          .join('\n'),
      );
    case 'mcp':
    case 'other':
      return redactForLog(withoutContents(text));
    default:
      return redactForLog(text);
  }
}

// `"content":"…long…"` in a tool's JSON arguments
const LONG_STRING = new RegExp(String.raw`"((?:[^"\\]|\\.){${MAX_ARG_STRING},})"`, 'g');

function withoutContents(json: string): string {
  return json.replace(LONG_STRING, (_, body: string) => `"[${body.length} characters]"`);
}

// A secret given on a command line, taken out by where it stands whatever it looks like (all lower
// case, all hex): after a password or token option (`--token-file PATH` names a file, and stays),
// attached to mysql's `-p`, in `sshpass -p`, a URL's `user:password@`, curl's `-u user:password`,
// and the value of a header that carries one (`Authorization: Bearer …`, `X-Api-Key: …`).
const PASSWORDS: readonly RegExp[] = [
  /(--pass(?:word|wd)?[= ])("[^"]*"|'[^']*'|[^\s'"]+)/gi,
  /(--(?:[a-z0-9]+[-_]){0,3}(?:token|api[-_]?key|access[-_]?key|secret[-_]?key|client[-_]?secret)[= ])("[^"]*"|'[^']*'|[^\s'"]+)/gi,
  /(\b(?:authorization|proxy-authorization)["']?[ \t]*:[ \t]*["']?(?:(?:bearer|token|basic|digest|apikey)[ \t]+)?)([^\s'"]+)/gi,
  /(\b(?:x-)?(?:api[-_]?key|api[-_]?token|auth[-_]?token|access[-_]?token|private[-_]?token|secret)["']?[ \t]*:[ \t]*["']?)([^\s'"]+)/gi,
  /(\b(?:mysql\w*|mariadb\w*)\b[^|;&\n]{0,400}?\s-p)([^\s'"-][^\s]*|"[^"]*"|'[^']*')/g,
  /(\bsshpass\s+-p\s*)("[^"]*"|'[^']*'|\S+)/g,
  /(\b[a-z][\w+.-]*:\/\/[^\s/:@'"]+:)([^\s@'"/]+)(?=@)/gi,
  /(\s(?:-u|--user)\s+['"]?[^\s:'"]+:)([^\s'"]+)/g,
];

// A run of characters a generated secret is made of (base64, base64url, hex), long enough to be one.
const TOKEN = /[A-Za-z0-9+/=_-]{20,}/g;

/**
 * `text` with named keys and unnamed secrets replaced by `[redacted:<kind>]`. An unnamed secret is
 * a value after a password option, or a long token that mixes upper case, lower case and digits
 * with the spread of characters of random data (a 40-character cloud secret key), not a word, a
 * path or an identifier.
 */
export function redactForLog(text: string): string {
  let out = redact(text);
  for (const pattern of PASSWORDS)
    out = out.replace(pattern, (_, before: string, value: string) =>
      value.startsWith('[redacted:') ? `${before}${value}` : `${before}[redacted:password]`,
    );
  out = out.replace(KEY_OPTION, (whole: string, before: string, value: string) =>
    value.startsWith('[redacted:') || !keyLike(value) ? whole : `${before}[redacted:password]`,
  );
  return out.replace(TOKEN, (token) => (looksRandom(token) ? '[redacted:high-entropy]' : token));
}

// `-K KEY`: openssl's raw key in hex, and tools that copy it. Elsewhere `-K` is a flag or names a
// file or a host (curl's config file, tar's starting file, ssh's flag before a host): a value that
// looks like a key is long and names no file, and one that is not a key but looks so is only hidden.
const KEY_OPTION = /(\s-K[ \t]+)("[^"]*"|'[^']*'|[^\s'"]+)/g;

function keyLike(value: string): boolean {
  const bare = value.replace(/^['"]|['"]$/g, '');
  return bare.length >= 12 && !/[./\\]/.test(bare);
}

function looksRandom(token: string): boolean {
  if (!/[A-Z]/.test(token) || !/[a-z]/.test(token) || !/[0-9]/.test(token)) return false;
  // path-like runs (`src/components/Button2`) are words between slashes
  if (token.split(/[/_-]/).every((part) => part.length < 16)) return false;
  return entropy(token) >= 4.2;
}

/** Shannon entropy of the characters of `text`, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
