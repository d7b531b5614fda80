// Issue 26, mechanism 3: what cannot be resolved asks, saying what guard could not tell; what can
// be resolved is read as what it is. Judged through the whole engine, as a step would be.
import { describe, expect, it } from 'vitest';
import { evaluateExample } from '../rule-tester.js';

type Decision = 'allow' | 'ask' | 'block';
const RANK: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, block: 2 };

/** [line, at least this decision, the rule that must say so, what its reason must name] */
const UNKNOWN: readonly (readonly [string, Decision, string, RegExp])[] = [
  // names bound only when the line runs
  ['declare -n ref=target; $ref -rf ~', 'ask', 'shell.opaque', /decided by \$ref when/],
  ['typeset -n r=t; "$r" -rf ~/project', 'ask', 'shell.opaque', /decided by \$r when/],
  ['local -n cmd=$1; $cmd --force', 'ask', 'shell.opaque', /decided by \$cmd when/],
  ['x=rm; ${!x} -rf ~', 'ask', 'shell.opaque', /which program this runs/],
  ['sh -c "$1" _ --force', 'ask', 'shell.opaque', /decided by \$1 when/],
  ['bash -c "$1" bash "git status"', 'ask', 'shell.opaque', /decided by \$1 when/],
  ['alias x="$CMD"; x --force', 'ask', 'shell.opaque', /decided by \$CMD when/],
  ['alias run="$(cat cmd.txt)"; run', 'ask', 'shell.opaque', /decided by \$\(cat cmd\.txt\) when/],
  ['hash -p "$TOOL" ll; ll -rf ~', 'ask', 'shell.opaque', /decided by \$TOOL when/],
  ['hash ll=$TOOL; ll', 'ask', 'shell.opaque', /decided by \$TOOL when/],
  ['a=(rm -rf ~); "${a[@]}"', 'ask', 'shell.opaque', /which program this runs/],
  ['while read c; do $c; done < todo.txt', 'ask', 'shell.opaque', /decided by \$c when/],
  ['`cat tool.txt` -V', 'ask', 'shell.opaque', /decided by `cat tool\.txt` when/],
  // unbalanced or cut short: a shell would reject it or wait for the rest
  ['( ls', 'ask', 'shell.opaque', /unfinished \(a `\(` that is never closed\)/],
  ['{ ls;', 'ask', 'shell.opaque', /unfinished \(a `\{` that is never closed\)/],
  ['case $x in a) ls;;', 'ask', 'shell.opaque', /unfinished \(a `case` that is never closed\)/],
  ['if true; then ls', 'ask', 'shell.opaque', /an `if … then` with no `fi`/],
  ['for f in a b; do echo $f', 'ask', 'shell.opaque', /a loop's `do` with no `done`/],
  ['npm test &&', 'ask', 'shell.opaque', /`&&` with no command after it/],
  ['git status |', 'ask', 'shell.opaque', /`\|` with no command after it/],
  ['make ||\n', 'ask', 'shell.opaque', /`\|\|` with no command after it/],
  ['ls; fi', 'ask', 'shell.opaque', /a `fi` with nothing open/],
  ['ls )', 'ask', 'shell.opaque', /a `\)` with nothing open/],
  ["bash -c 'while true; do ls'", 'ask', 'shell.opaque', /a loop's `do` with no `done`/],
  // an unfinished line still has its risky parts judged
  ['rm -rf ~ &&', 'block', 'fs.wipe', /home folder/],
  ['if true; then git push --force origin main', 'block', 'git.rewrite-shared-history', /./],
];

/** Names the line binds in a way guard follows: read as what they are. */
const RESOLVED: readonly (readonly [string, Decision, string])[] = [
  ['hash -p /bin/rm ls; ls -rf ~', 'block', 'fs.wipe'],
  ['hash -p /usr/bin/rm cat && cat -rf ~/', 'block', 'fs.wipe'],
  ['hash g=/usr/bin/git; g push --force origin main', 'block', 'git.rewrite-shared-history'],
  ['$(which rm) -rf ~', 'block', 'fs.wipe'],
  ['"$(command -v git)" push --force origin main', 'block', 'git.rewrite-shared-history'],
  ['`type -P rm` -rf ~', 'block', 'fs.wipe'],
  ['x=rm; declare -n r=x; eval "$r -rf ~"', 'ask', 'shell.opaque'],
];

/** Near misses: ordinary loops, variables and shapes that must go ahead. */
const ALLOWED: readonly string[] = [
  'for f in *.ts; do echo "$f"; done',
  'x=$(git rev-parse HEAD); echo $x',
  'cmd=ls; $cmd -la',
  'declare -n ref=config; echo "$ref"',
  'declare -a files=(a b); echo "${files[@]}"',
  'typeset -i n=3; echo $n',
  'hash -r; npm test',
  'hash git && git status',
  'hash -p /usr/bin/python3 python; python --version',
  'alias ll="ls -la"; ll',
  'alias v="$EDITOR"',
  'sh -c \'echo "$1"\' _ hello',
  '$(which node) --version',
  '"$(command -v python3)" -m pytest',
  'while IFS= read -r line; do printf "%s\\n" "$line"; done < list.txt',
  'if [ -f x ]; then echo a; elif [ -f y ]; then echo b; else echo c; fi',
  'if a; then if b; then c; fi; fi',
  'while true; do ls; break; done',
  'case $x in (a) ls ;; (*) pwd ;; esac',
  '( cd src && ls )',
  '{ ls; pwd; }',
  '{ ls }',
  'ls }',
  'echo done; echo fi',
  'npm test &&\n  npm run build',
  'git log --oneline |\n  head -5',
  'f() { ls; }; f',
  'if (Test-Path x) { npm test }',
  'for ((i=0;i<3;i++)); do echo $i; done',
];

describe('what cannot be resolved asks, naming what guard could not tell', () => {
  it.for(UNKNOWN)('%s', ([line, decision, rule, reason]) => {
    const evaluation = evaluateExample(line);
    expect(RANK[evaluation.decision]).toBeGreaterThanOrEqual(RANK[decision]);
    const found = evaluation.findings.filter((f) => f.ruleId === rule);
    expect(found.map((f) => f.reason).join('\n')).toMatch(reason);
  });
});

describe('what the line binds and guard can follow is read as what it is', () => {
  it.for(RESOLVED)('%s', ([line, decision, rule]) => {
    const evaluation = evaluateExample(line);
    expect(evaluation.decision).toBe(decision);
    expect(evaluation.findings.map((f) => f.ruleId)).toContain(rule);
  });
});

describe('ordinary loops, variables and lines go ahead', () => {
  it.for(ALLOWED)('%s', (line) => {
    expect(evaluateExample(line).findings).toEqual([]);
  });
});

describe('a limit of the reader never turns into an allow', () => {
  it.for<[string, string]>([
    ['more words than guard reads', `echo ${'a '.repeat(6000)}; ls`],
    ['more commands than guard reads', `${'true; '.repeat(1200)}ls`],
    ['a line longer than guard reads', `echo ${'x'.repeat(300_000)}`],
    ['nesting deeper than guard follows', `${'( '.repeat(20)}ls${' )'.repeat(20)}`],
    [
      'more aliases than guard follows',
      `${Array.from({ length: 70 }, (_, i) => `alias a${i}='a${i + 1}'`).join('; ')}; a0`,
    ],
  ])('%s', ([, line]) => {
    const evaluation = evaluateExample(line);
    expect(evaluation.decision).not.toBe('allow');
    expect(evaluation.findings.map((f) => f.ruleId)).toContain('shell.opaque');
  });
});
