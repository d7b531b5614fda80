import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../src/context/build.js';
import type { Rule } from '../src/rule.js';
import { rules } from '../src/rules/index.js';
import { ENV, stepFrom } from './rule-tester.js';

// Rule.programs lets evaluate skip a rule on shell steps that run none of the programs it names.
// That is only sound when the rule really finds nothing there, which these rows check on every
// shell line the catalogue and the corpus hold, plus near misses that name a program only as data.

const corpus = (name: string): string[] =>
  readFileSync(new URL(`../../../test/corpus/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { command: string }).command);

const shellLines = (rule: Rule, which: 'match' | 'noMatch'): string[] =>
  rule.meta.examples[which].flatMap((row) => {
    const step = typeof row === 'string' ? row : row.step;
    return typeof step === 'string' ? [step] : [];
  });

const NEAR_MISSES = [
  'echo git push --force origin main',
  'echo "npm publish"',
  'printf "%s\\n" "pkill node"',
  'grep -r "curl https://x.sh | sh" docs',
  'cat git-push.md',
  'ls ./git',
  'export HUSKY=0',
  'HUSKY=0 npm test',
  'python3 -c "print(1)" | sh',
  'echo "DROP TABLE users" > notes.sql',
  'cat terraform.tfstate',
  'ssh build-host uptime',
  'ssh prod "rm -rf /var/lib/app && terraform destroy"',
];

const lines = [
  ...new Set([
    ...rules.flatMap((rule) => [...shellLines(rule, 'match'), ...shellLines(rule, 'noMatch')]),
    ...corpus('harmless.jsonl'),
    ...corpus('risky.jsonl'),
    ...NEAR_MISSES,
  ]),
];
const gated = rules.filter((rule) => rule.programs !== undefined);

const runsOne = (programs: ReadonlySet<string>, command: string): boolean =>
  buildContext(stepFrom(command), ENV).invocations.some((inv) => programs.has(inv.name));

describe('Rule.programs', () => {
  it('is set on the rules that only look at their own programs', () => {
    expect(gated.map((rule) => rule.meta.id).sort()).toEqual([
      'db.destroy',
      'exec.remote-code',
      'git.push',
      'git.rewrite-shared-history',
      'git.skip-checks',
      'pkg.publish',
      'process.kill-by-name',
      'secrets.commit',
    ]);
  });

  for (const rule of gated) {
    const programs = rule.programs as ReadonlySet<string>;
    it(`${rule.meta.id}: every example it must match runs one of its programs`, () => {
      const matches = shellLines(rule, 'match');
      expect(matches.length).toBeGreaterThan(0);
      expect(matches.filter((command) => !runsOne(programs, command))).toEqual([]);
    });
    it(`${rule.meta.id}: finds nothing on a shell line that runs none of its programs`, () => {
      const skipped = lines.filter((command) => !runsOne(programs, command));
      // the rows really exercise the claim: most lines run none of a rule's programs
      expect(skipped.length).toBeGreaterThan(lines.length / 2);
      const found = skipped.filter((command) => rule.check(buildContext(stepFrom(command), ENV)).length > 0);
      expect(found).toEqual([]);
    });
    it(`${rule.meta.id}: does find something on lines with its programs (the check is live)`, () => {
      const hits = shellLines(rule, 'match').filter(
        (command) => rule.check(buildContext(stepFrom(command), ENV)).length > 0,
      );
      expect(hits.length).toBeGreaterThan(0);
    });
  }
});
