// Prints how long the shell reader takes on the bounded worst cases and on typical lines.
// Not a test (times depend on the machine): run `npx tsc --build` first, then
// `node packages/core/test/shell/measure-bounds.mjs`. Times are CPU time, best of five.
import { readCommand } from '../../dist/index.js';

const options = { cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp' };
const nestBashC = (n) => Array.from({ length: n }).reduce((s) => `bash -c ${JSON.stringify(s)}`, 'rm -rf x');

const cases = {
  '1 MB of "a "': 'a '.repeat(512 * 1024),
  '1 MB single-quoted string': `echo '${'x'.repeat(1024 * 1024)}'`,
  '1 MB double-quoted string': `echo "${'x'.repeat(1024 * 1024)}"`,
  '10,000-stage pipeline': Array.from({ length: 10_000 }, () => 'cat').join(' | '),
  '16-deep bash -c': nestBashC(16),
  '17-deep bash -c': nestBashC(17),
  '17-deep eval': `${'eval '.repeat(17)}rm -rf x`,
  '1 MB of $(': '$('.repeat(512 * 1024),
  '1 MB of backticks': '`'.repeat(1024 * 1024),
  '1 MB of sudo': `${'sudo '.repeat(200 * 1024)}rm`,
  '1 MB of X=1;': 'X=1;'.repeat(256 * 1024),
  '1 MB heredoc': `cat <<EOF\n${'line\n'.repeat(200 * 1024)}EOF`,
  '1 MB python -c': `python -c "${"os.system('ls');".repeat(60_000)}"`,
  '33,000 × ls;': 'ls;'.repeat(33_000),
  '25,000 × a=b;': 'a=b;'.repeat(25_000),
  'URL + 25,000 × a=b&': `https://a.com/?${'a=b&'.repeat(25_000)}`,
  '1 MB of $': '$'.repeat(1024 * 1024),
  '1 MB of "a"': '"a"'.repeat(350_000),
  '1 MB of \\': '\\'.repeat(1024 * 1024),
  '1 MB of $((': '$(('.repeat(350_000),
};

const cpu = (fn) => {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 5; k++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
};

for (const [name, line] of Object.entries(cases)) {
  let result;
  const ms = cpu(() => (result = readCommand(line, options)));
  const reasons = [...new Set(result.opaque.map((o) => o.reason))].join(', ') || 'none';
  console.log(
    `${name.padEnd(28)} ${String(Math.round(line.length / 1024)).padStart(6)} KiB ${ms.toFixed(1).padStart(7)} ms  ${result.invocations.length} invocations, opaque: ${reasons}`,
  );
}

const typical = [
  'git status',
  'npm test',
  'ls -la src',
  'git commit -m "fix: handle empty input"',
  'cd packages/core && npx vitest run test/shell',
  'rg -n "readCommand" packages | head -20',
  'cat package.json | jq .scripts',
  'sudo sh -c "cd /repo && git push --force"',
  `python3 -c "import os; os.system('rm -rf build')"`,
  'find . -name "*.log" -exec rm {} \\;',
];
const runs = 20_000;
const ms = cpu(() => {
  for (let i = 0; i < runs; i++) readCommand(typical[i % typical.length], options);
});
console.log(`typical lines: ${((ms * 1000) / runs).toFixed(1)} µs per line`);
