// Issue 26, mechanism 4: what a part of the line writes, copies, moves or prints is followed to
// where it lands and to what later parts do with it. Judged through the whole engine.
import { describe, expect, it } from 'vitest';
import type { Example } from '../../src/rule.js';
import { evaluateExample, PROJECT } from '../rule-tester.js';

/** A step run in the project with these files there (path in the project → text). */
const withFiles = (step: string, files: Readonly<Record<string, string>>): Example => ({
  step,
  probe: { files: Object.fromEntries(Object.entries(files).map(([name, text]) => [`${PROJECT}/${name}`, text])) },
});

/** [step, the decision, a rule that must be among the findings] */
const FOLLOWED: readonly (readonly [string | Example, 'ask' | 'block', string])[] = [
  // text printed into a shell, through whatever passes it on
  ["echo 'rm -rf ~' | tee >(bash)", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' | tee >(sh) >/dev/null", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > >(bash)", 'block', 'fs.wipe'],
  ["printf 'git push --force origin main\\n' | tee >(bash -s)", 'block', 'git.rewrite-shared-history'],
  ["printf 'rm -rf ~' | tee x.sh | sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' | cat | bash", 'block', 'fs.wipe'],
  ["(echo 'rm -rf ~') | sh", 'block', 'fs.wipe'],
  ["{ echo 'ls'; echo 'rm -rf ~'; } | bash", 'block', 'fs.wipe'],
  ["printf 'rm -rf ~\\n' | xargs -I{} sh -c {}", 'block', 'fs.wipe'],
  // a file written, then copied, moved, printed or fed to what runs it
  ["echo 'rm -rf ~' > x.sh; cp x.sh y.sh; bash y.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; cp x.sh y.sh; bash x.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; mv x.sh y.sh; sh y.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > run; cp run /tmp/; sh /tmp/run", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; mkdir -p bin; mv x.sh bin/; bash bin/x.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; ln -s x.sh y.sh; sh y.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; cat x.sh | bash", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; bash < x.sh", 'block', 'fs.wipe'],
  ["echo 'rm -rf ~' > x.sh; source <(cat x.sh)", 'block', 'fs.wipe'],
  ['echo \'rm -rf ~\' > x.sh; bash -c "$(< x.sh)"', 'block', 'fs.wipe'],
  ["echo 'git push --force origin main' > t.txt; xargs -I{} sh -c {} < t.txt", 'block', 'git.rewrite-shared-history'],
  // a file on disk printed into a shell or handed to one line by line: read like a script
  [withFiles('cat cmds.txt | sh', { 'cmds.txt': 'rm -rf ~\n' }), 'ask', 'script.contains-never'],
  [withFiles('source <(cat env.sh)', { 'env.sh': 'git push --force origin main\n' }), 'ask', 'script.contains-never'],
  [withFiles('xargs -I{} sh -c {} < cmds.txt', { 'cmds.txt': 'rm -rf ~\n' }), 'ask', 'script.contains-never'],
  [withFiles('xargs -a cmds.txt -I % bash -c %', { 'cmds.txt': 'rm -rf ~\n' }), 'ask', 'script.contains-never'],
  [withFiles('cat todo | xargs -I{} sh -c {}', { todo: 'rm -rf ~\n' }), 'ask', 'script.contains-never'],
  // a copy of a program runs that program
  ['cp $(which guard) /tmp/g && /tmp/g off', 'block', 'guard.tamper'],
  ['ln -s "$(command -v guard)" ./g; ./g uninstall --all', 'block', 'guard.tamper'],
  ['cp /bin/rm ./ls; ./ls -rf ~', 'block', 'fs.wipe'],
  ['install /usr/bin/git ./g && ./g push --force origin main', 'block', 'git.rewrite-shared-history'],
  // a move is a delete of what it takes where it is lost
  ['mv ~ /tmp/x', 'block', 'fs.wipe'],
  ['mv ~/* /tmp/', 'block', 'fs.wipe'],
  ['mv /etc /tmp/etc', 'block', 'fs.wipe'],
  ['mv ~/Documents /tmp/x', 'ask', 'fs.delete'],
  ['mv ~/notes /dev/null', 'ask', 'fs.delete'],
  ['mv -t /tmp ~/Documents', 'ask', 'fs.delete'],
  ['mv src /tmp/trash', 'ask', 'fs.delete'],
  // a copy into a folder is the file it makes there
  ['cp .bashrc ~/', 'block', 'system.persistence'],
  ['cp .zshrc ~', 'block', 'system.persistence'],
  ['cp -t ~ .bashrc', 'block', 'system.persistence'],
  ['install -m 644 .profile ~/', 'block', 'system.persistence'],
  ['cp evil.sh ~/.bashrc.d/', 'block', 'system.persistence'],
];

/** Near misses: the same shapes carrying harmless text, or landing where nothing is lost. */
const HARMLESS: readonly (string | Example)[] = [
  "echo 'ls -la' | tee >(cat) >/dev/null",
  'echo hello | tee >(wc -c)',
  "echo 'ls' | tee >(bash)",
  "printf 'echo ok\\n' | tee t.sh | sh",
  "echo 'pwd' > x.sh; cat x.sh | bash",
  "echo 'npm test' > run.sh; cp run.sh ci.sh; bash ci.sh",
  "(echo 'ls') | sh",
  "printf 'a.txt\\n' | xargs -I{} sh -c 'wc -l {}'",
  "echo 'rm -rf ~' > notes.txt; cat notes.txt",
  "echo 'rm -rf ~' > x.sh; cp x.sh y.sh",
  withFiles('cat cmds.txt | sh', { 'cmds.txt': 'echo hello\nls\n' }),
  withFiles('xargs -I{} sh -c {} < cmds.txt', { 'cmds.txt': 'echo one\n' }),
  withFiles('cat list.txt | xargs -I{} echo {}', { 'list.txt': 'rm -rf ~\n' }),
  // each line is a word of the shell's text, not where it starts
  withFiles("cat list.txt | xargs -I{} sh -c 'wc -l {}'", { 'list.txt': 'rm -rf ~\n' }),
  'cp $(which node) /tmp/n && /tmp/n -v',
  'cp $(which guard) /tmp/g && /tmp/g --version',
  'cp /bin/ls ./l; ./l -la',
  'mv src lib',
  'mv build /tmp/old-build',
  'mv dist /tmp',
  'mv ~/Downloads/data.csv ./data/',
  'cp README.md docs/',
  'cp a.txt /tmp/',
  'cp -r templates/ out/',
];

describe('what flows within one line is followed to where it lands', () => {
  it.for(FOLLOWED)('%s', ([step, decision, rule]) => {
    const evaluation = evaluateExample(step);
    expect(evaluation.decision).toBe(decision);
    expect(evaluation.findings.map((f) => f.ruleId)).toContain(rule);
  });
});

describe('near misses go ahead', () => {
  it.for(HARMLESS)('%s', (step) => {
    expect(evaluateExample(step).findings).toEqual([]);
  });
});
