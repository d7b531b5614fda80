import { describe, expect, it } from 'vitest';
import type { ArgvSpec } from '../../src/programs/argv.js';
import { hasOption, optionsNamed, parseArgv, withValues } from '../../src/programs/argv.js';

// The one argument parser. A row: the words, the grammar, then what it reads: the options (a
// value after `=`), the operands, and where the options end (`rest`).

interface Row {
  readonly words: string;
  readonly spec?: ArgvSpec;
  readonly options: readonly string[];
  readonly operands: readonly string[];
  readonly rest?: number;
}

const read = (words: string, spec: ArgvSpec = {}) => {
  const args = words === '' ? [] : words.split(' ');
  const parsed = parseArgv(args, spec);
  return {
    options: parsed.options.map((o) => (o.value === undefined ? o.name : `${o.name}=${o.value}`)),
    operands: parsed.operands.map((i) => args[i] as string),
    rest: parsed.rest,
  };
};

const SUDO: ArgvSpec = { values: ['-u', '--user', '-D'], leading: true };
const TAR: ArgvSpec = { values: ['-f', '--file', '-C'] };
const OLD_TAR: ArgvSpec = { ...TAR, letters: true };
const PWSH: ArgvSpec = { values: ['-Path', '-Filter', '-ea'], words: true };

describe('parseArgv', () => {
  it.for<Row>([
    // bundled short flags, and a value at the end of a bundle or attached to its letter
    { words: '-rf src', options: ['-r', '-f'], operands: ['src'] },
    { words: '-czf out.tgz src', spec: TAR, options: ['-c', '-z', '-f=out.tgz'], operands: ['src'] },
    { words: '-cfout.tgz src', spec: TAR, options: ['-c', '-f=out.tgz'], operands: ['src'] },
    { words: '-f out.tgz -C dir', spec: TAR, options: ['-f=out.tgz', '-C=dir'], operands: [] },
    // tar's old form: a first word of letters is options, those with a value taking the next words
    { words: 'czf out.tgz src', spec: OLD_TAR, options: ['-c', '-z', '-f=out.tgz'], operands: ['src'] },
    { words: 'cfC out.tgz dir src', spec: OLD_TAR, options: ['-c', '-f=out.tgz', '-C=dir'], operands: ['src'] },
    { words: 'xf a.tar -C out', spec: OLD_TAR, options: ['-x', '-f=a.tar', '-C=out'], operands: [] },
    // near misses: not the first word, not only letters, or no old form in the grammar
    { words: '-x czf', spec: OLD_TAR, options: ['-x'], operands: ['czf'] },
    { words: 'src.tar czf', spec: OLD_TAR, options: [], operands: ['src.tar', 'czf'] },
    { words: 'czf out.tgz', spec: TAR, options: [], operands: ['czf', 'out.tgz'] },
    // long options: a value after `=` or as the next word (only when the grammar says it takes one)
    { words: '--file=a.tgz --verbose x', spec: TAR, options: ['--file=a.tgz', '--verbose'], operands: ['x'] },
    { words: '--file a.tgz x', spec: TAR, options: ['--file=a.tgz'], operands: ['x'] },
    { words: '--output a.txt x', options: ['--output'], operands: ['a.txt', 'x'] },
    // `--` ends the options; a lone `-` is an operand
    { words: '-r -- -x -', options: ['-r'], operands: ['-x', '-'], rest: 2 },
    // options anywhere (GNU), or only before the first operand (a runner: the rest is its command's)
    { words: 'a -r b', options: ['-r'], operands: ['a', 'b'] },
    { words: '-u bob git push -f', spec: SUDO, options: ['-u=bob'], operands: ['git', 'push', '-f'], rest: 2 },
    { words: '-ubob -- git', spec: SUDO, options: ['-u=bob'], operands: ['git'], rest: 2 },
    // the shells' `+o name`
    { words: '+o posix -c x', spec: { values: ['+o'], plus: true }, options: ['+o=posix', '-c'], operands: ['x'] },
    { words: '+o posix', options: [], operands: ['+o', 'posix'] },
    // PowerShell's parameters: whole words, any case, `-Name:value`
    { words: '-Recurse -path src -ea 0', spec: PWSH, options: ['-Recurse', '-path=src', '-ea=0'], operands: [] },
    { words: '-Filter:*.log dir', spec: PWSH, options: ['-Filter=*.log'], operands: ['dir'] },
    { words: '-Force dir', spec: PWSH, options: ['-Force'], operands: ['dir'] },
    // cmd.exe's one-letter switches, not a path that starts with `/`
    { words: '/s /q /tmp/x', spec: { slash: true }, options: ['/s', '/q'], operands: ['/tmp/x'] },
    { words: '/s /q', options: [], operands: ['/s', '/q'] },
    // a value only ever attached (`git commit -S[KEYID]`): a bundle stops at it
    { words: '-Sn -m msg', spec: { values: ['-m'], optional: ['-S'] }, options: ['-S=n', '-m=msg'], operands: [] },
    { words: '-nS file', spec: { optional: ['-S'] }, options: ['-n', '-S'], operands: ['file'] },
    // an option that takes a name and a value (`jq --arg NAME VALUE`): its value is the second word
    {
      words: '--arg k .env . a.json',
      spec: { pairs: ['--arg'] },
      options: ['--arg=.env'],
      operands: ['.', 'a.json'],
    },
    { words: '--arg k', spec: { pairs: ['--arg'] }, options: ['--arg'], operands: ['k'] },
    // a value option at the very end has no value
    { words: 'x -f', spec: TAR, options: ['-f'], operands: ['x'] },
    { words: '', options: [], operands: [], rest: 0 },
  ])('$words', (row) => {
    const got = read(row.words, row.spec);
    expect(got.options).toEqual(row.options);
    expect(got.operands).toEqual(row.operands);
    if (row.rest !== undefined) expect(got.rest).toBe(row.rest);
  });

  it('reads from a given word on', () => {
    const args = ['git', '-C', 'dir', 'push', '-f'];
    const parsed = parseArgv(args, { values: ['-C'], leading: true }, 1);
    expect(parsed.rest).toBe(3);
    expect(parsed.options.map((o) => o.value)).toEqual(['dir']);
  });

  it('finds options, in a bundle too, and PowerShell names in any case', () => {
    const parsed = parseArgv(['-xvf', 'a.tar', '-RECURSE'], { values: ['-f', '-Recurse'] });
    expect(hasOption(parsed, ['-v'])).toBe(true);
    expect(hasOption(parsed, ['-q'])).toBe(false);
    expect(optionsNamed(parsed, ['-f']).map((o) => o.value)).toEqual(['a.tar']);
    expect(hasOption(parsed, ['-Recurse'])).toBe(true);
  });

  it('answers a question about a value option the grammar does not list', () => {
    const g = {};
    expect(parseArgv(['-Name', 'node'], g).operands).toEqual([1]);
    expect(optionsNamed(parseArgv(['-Name', 'node'], withValues(g, ['-Name'])), ['-Name'])[0]?.value).toBe('node');
  });

  it('stays linear on many words', () => {
    const args = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? '-abc' : i % 3 === 1 ? '--x=y' : 'word'));
    const parsed = parseArgv(args, { values: ['-c'] });
    expect(parsed.operands.length).toBeGreaterThan(0);
  });
});
