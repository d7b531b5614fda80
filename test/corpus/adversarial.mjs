// Inputs built to make a backtracking regular expression work hard: long runs of the characters
// and prefixes that rule patterns look for, each ending in a character that spoils a near match.
// Shared by packages/core/test/redos.test.ts (bounded work) and scripts/redos.mjs (timings).

/** The size of each input: 100 KB. */
export const ADVERSARIAL_SIZE = 100 * 1024;

const RUNS = [
  '-',
  '=',
  '/',
  '.',
  "'",
  '"',
  '\\',
  ' ',
  'a',
  'A',
  '0',
  '\t',
  '*',
  '$',
  '`',
  '#',
  '%',
  ':',
  '@',
  '+',
  '_',
  ',',
  '~',
  '\n',
  '$(',
  '${',
  '-a',
  '--a',
  'a=',
  'a.',
  '../',
  '~/',
  '.env',
  'a ',
  '| ',
  '&& ',
  '; ',
  '\\ ',
  "'a'",
  '"a"',
  'a\\',
  'rm -rf ',
  'git push -f ',
  'sudo ',
  'bash -c "',
  "sh -c '",
  'x=$(',
  'cat .env ',
  'curl http://a ',
  'echo $A_KEY ',
  'DROP TABLE ',
  'DELETE FROM a ',
  'TRUNCATE ',
  'select ',
  'a:',
  'a/',
  'a-',
  'a_',
  '%a%',
  '$env:',
  'C:\\',
];

const PREFIXED = [
  ['ghp_', 'a'],
  ['github_pat_', '_'],
  ['AKIA', 'A'],
  ['eyJ', 'a'],
  ['eyJ', 'a.'],
  ['sk-', 'a'],
  ['sk-', '-'],
  ['xoxb-', '-'],
  ['npm_', 'a'],
  ['glpat-', '-'],
  ['AIza', 'a'],
  ['-----BEGIN ', 'A'],
  ['-----BEGIN RSA PRIVATE KEY-----\n', 'A'],
  ['Authorization: Bearer ', 'a'],
  ['basic ', 'A'],
  ['aws_secret_access_key=', 'a'],
  ['https://a:', 'b'],
  ['postgres://u:', 'p'],
  ['https://', 'a.'],
  ['http://', 'a'],
  ['https://a.com/', '/'],
  ['https://a.com/?', 'a=b&'],
  ['https://', 'a-'],
  ['ssh ', 'a@'],
  ['git clone ', 'a:'],
  ['python -c "', 'os.system('],
  ['node -e "', 'require('],
  ['powershell -enc ', 'A'],
  ['echo ', 'A'],
  ['base64 -d ', 'a'],
  ['<<EOF\n', 'a\n'],
  ['>', '>'],
  ['2>', '&'],
];

function fill(prefix, unit, size) {
  const body = size - prefix.length - 1;
  return `${prefix}${unit.repeat(Math.ceil(body / unit.length)).slice(0, Math.max(body, 0))}!`;
}

/** Every adversarial input, about `size` characters each, named for the test report. */
export function adversarialInputs(size = ADVERSARIAL_SIZE) {
  return [
    ...RUNS.map((unit) => ({ name: `run of ${JSON.stringify(unit)}`, text: fill('', unit, size) })),
    ...PREFIXED.map(([prefix, unit]) => ({
      name: `${JSON.stringify(prefix)} then ${JSON.stringify(unit)}`,
      text: fill(prefix, unit, size),
    })),
  ];
}
