import { describe, expect, it } from 'vitest';
import { readCommand } from '../../src/shell/index.js';

const OPTIONS = { cwd: '/home/dev/project', home: '/home/dev' };

/** The words of the last invocation of the line (what the substitution made of its program or path). */
function lastWords(line: string): string[] {
  const read = readCommand(line, OPTIONS);
  const last = read.invocations[read.invocations.length - 1];
  return last === undefined ? [] : [last.program, ...last.args];
}

// what a substitution prints, computed: printf's escapes and conversions, echo -e, base64 -d, rev, tr
const COMPUTED: readonly [string, string[]][] = [
  [`rm "$(printf '\\x2e%s' notes.md)"`, ['rm', '.notes.md']],
  [`rm "$(printf '\\056notes.md')"`, ['rm', '.notes.md']],
  [`rm "$(printf '%b' '\\0056notes.md')"`, ['rm', '.notes.md']],
  [`rm "$(printf '%s/%s' a b)"`, ['rm', 'a/b']],
  [`rm "$(printf '%c%s' .x notes)"`, ['rm', '.notes']],
  [`rm "$(printf '%%s%s' x)"`, ['rm', '%sx']],
  [`rm "$(echo -e '\\x2enotes')"`, ['rm', '.notes']],
  [`rm "$(echo Lm5vdGVz | base64 -d)"`, ['rm', '.notes']],
  [`rm "$(echo Lm5vdGVz | base64 --decode)"`, ['rm', '.notes']],
  [`rm "$(echo setoN. | rev)"`, ['rm', '.Notes']],
  [`rm "$(echo .NOTES | tr A-Z a-z)"`, ['rm', '.notes']],
  [`rm "$(echo .notes | tr 'no' 'NO')"`, ['rm', '.NOtes']],
  [`$(printf 'ec%s' ho) hi`, ['echo', 'hi']],
  [`$(printf '\\x65cho') hi`, ['echo', 'hi']],
  [`$(echo ZWNobw== | base64 -d) hi`, ['echo', 'hi']],
  [`$(echo ohce | rev) hi`, ['echo', 'hi']],
];

// near misses: what cannot be computed stays as it was
const NOT_COMPUTED: readonly [string, string[]][] = [
  // a file operand is read, not stdin; a width in a conversion; printf -v sets a variable
  [`rm "$(echo Lm5vdGVz | base64 -d notes.b64)"`, ['rm', '$(echo Lm5vdGVz | base64 -d notes.b64)']],
  [`rm "$(printf '%5s' x)"`, ['rm', "$(printf '%5s' x)"]],
  [`rm "$(echo abc | tr '[:lower:]' '[:upper:]')"`, ['rm', "$(echo abc | tr '[:lower:]' '[:upper:]')"]],
  // echo without -e keeps its backslashes
  [`rm "$(echo '\\x2enotes')"`, ['rm', '\\x2enotes']],
];

describe('what a substitution prints', () => {
  it.for(COMPUTED)('%s reads as %j', ([line, words]) => {
    expect(lastWords(line)).toEqual(words);
  });
  it.for(NOT_COMPUTED)('%s is not computed', ([line, words]) => {
    expect(lastWords(line)).toEqual(words);
  });
  it('a program name from a substitution it cannot compute stays opaque', () => {
    const read = readCommand('$(some-tool --name) x', OPTIONS);
    expect(read.opaque.map((part) => part.reason)).toContain('dynamic-program');
  });
  it('text fed to a filter past its bound is not recoded', () => {
    const long = 'QUFB'.repeat(20_000);
    expect(lastWords(`rm "$(echo ${long} | base64 -d)"`)[1]).toContain('base64 -d');
  });
});
