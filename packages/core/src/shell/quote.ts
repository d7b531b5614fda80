/**
 * How a word is written so that a POSIX shell reads it back as exactly that word.
 *
 * - `'plain'`: bare when no character in it means anything to a shell, else in single quotes; a
 *   word with control characters is written `$'…'` with escapes, so it stays on one visible line
 *   (bash, zsh and ksh read that form; dash does not). For showing a command to a person.
 * - `'single'`: always in single quotes, every other character as it is (newlines included). For
 *   building a command line that the reader reads back.
 * - `'double'`: always in double quotes, with `$`, `` ` ``, `"` and `\` escaped. The form of the
 *   paths in guard's hook commands: the entries earlier installs wrote stay the same, byte for
 *   byte, so `guard status` still finds them up to date.
 */
export type QuoteStyle = 'plain' | 'single' | 'double';

// Characters no POSIX shell treats specially in a word; `~` only away from the start and from after
// `=` or `:` (where shells expand it to a home folder), `=` not at the start (zsh's `=program`).
const PLAIN = /^[\w@%+:,./-][\w@%+=:,./~-]*$/;
const TILDE = /[=:]~/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `word` quoted for a POSIX shell in the given style (see QuoteStyle). */
export function quoteWord(word: string, style: QuoteStyle = 'plain'): string {
  if (style === 'double') return `"${word.replace(/["$`\\]/g, '\\$&')}"`;
  if (style === 'plain') {
    if (PLAIN.test(word) && !TILDE.test(word)) return word;
    if (CONTROL.test(word)) return `$'${word.replace(/[\\']|[\u0000-\u001f\u007f-\u009f]/g, escape)}'`;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function escape(char: string): string {
  if (char === '\\' || char === "'") return `\\${char}`;
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  const code = char.charCodeAt(0);
  // \u for the C1 controls: `\x85` would be the lone byte 0x85, not the character's UTF-8
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
