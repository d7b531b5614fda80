import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/evaluate.js';
import { ENV, stepFrom } from './rule-tester.js';

// What a program guard does not know may run (`mytool git push --force`): the command its words
// start is judged by the catalogue under its own rule ids, at most an ask (guard cannot tell
// whether the program runs it), with a reason that names the program; guard.tamper stays a block.
// A runner the knowledge base knows (`poetry run`) is judged as the command itself.

const judge = (command: string, failClosed = false) => evaluate(stepFrom(command), { ...ENV, failClosed });
const THROUGH = /^This may run `[^`]+` through `[^`]+`, which guard does not know: /;

interface Row {
  readonly line: string;
  readonly decision: 'ask' | 'block';
  /** Rule ids that must be among the findings. */
  readonly rules: readonly string[];
  /** The program guard does not know, named in every finding's reason; none for a known runner. */
  readonly through?: string;
}

describe('a command run through a program guard does not know', () => {
  it.for<Row>([
    {
      line: 'mytool git push --force origin main',
      decision: 'ask',
      rules: ['git.rewrite-shared-history'],
      through: 'mytool',
    },
    { line: './scripts/with-env.sh rm -rf ~', decision: 'ask', rules: ['fs.wipe'], through: 'with-env.sh' },
    { line: 'runwith prod git push origin main', decision: 'ask', rules: ['git.push'], through: 'runwith' },
    // a secret file among the words of a program guard does not know is read by it, whatever it runs
    { line: 'runwith prod cat .env', decision: 'block', rules: ['secrets.read'] },
    { line: 'frobnicate -v -- git push origin main', decision: 'ask', rules: ['git.push'], through: 'frobnicate' },
    { line: "mytool bash -c 'rm -rf ~'", decision: 'ask', rules: ['fs.wipe'], through: 'mytool' },
    { line: 'bwrap --bind / / rm -rf ~', decision: 'ask', rules: ['fs.wipe'], through: 'bwrap' },
    // guard's own name, however it is reached: a block
    { line: 'unknownwrapper guard off', decision: 'block', rules: ['guard.tamper'], through: 'unknownwrapper' },
    { line: 'zz -- guard fail-closed off', decision: 'block', rules: ['guard.tamper'], through: 'zz' },
    { line: './run guard uninstall --all', decision: 'block', rules: ['guard.tamper'], through: 'run' },
    // the same commands through runners the knowledge base knows: judged as they are
    { line: 'poetry run git push --force origin main', decision: 'block', rules: ['git.rewrite-shared-history'] },
    { line: 'mise exec -- rm -rf ~', decision: 'block', rules: ['fs.wipe'] },
    { line: 'nix develop -c cat .env', decision: 'block', rules: ['secrets.read'] },
    { line: "git submodule foreach 'git push --force'", decision: 'block', rules: ['git.rewrite-shared-history'] },
    { line: 'cross-env CI=1 guard off', decision: 'block', rules: ['guard.tamper'] },
    { line: "tmux new -d 'guard off'", decision: 'block', rules: ['guard.tamper'] },
    { line: 'dotenv -- guard off', decision: 'block', rules: ['guard.tamper'] },
  ])('$line', ({ line, decision, rules, through }) => {
    const result = judge(line);
    expect(result.decision).toBe(decision);
    expect(result.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining([...rules]));
    for (const finding of result.findings) {
      if (through === undefined) expect(finding.reason).not.toMatch(THROUGH);
      else {
        expect(finding.reason).toMatch(THROUGH);
        expect(finding.reason).toContain(`through \`${through}\``);
      }
    }
  });
});

describe('near misses: nothing risky is run, or nothing is run', () => {
  it.for([
    'mytool git status',
    'mytool git log --oneline -5',
    'mycli deploy',
    './run.sh test',
    'wrapper.sh npm test',
    'mytool echo rm -rf ~',
    'mytool guard status',
    'mytool guard explain -- rm -rf ~',
    'mycli "git push --force"',
    'mycli one two three git push --force',
    'echo git push --force',
    "grep -rn 'git push --force' docs/",
    'tldr git push',
    'git commit -m "mytool git push --force"',
    'poetry run pytest -q',
    'mise exec -- node --version',
    "tmux send-keys -t dev 'npm test' Enter",
    'git submodule foreach git status',
    "git rebase -x 'npm test' main",
  ])('%s', (line) => {
    expect(judge(line)).toMatchObject({ decision: 'allow', findings: [] });
  });
});

describe('what such an ask is', () => {
  it("a block's finding is asked every time, in every mode", () => {
    const finding = judge('mytool rm -rf ~').findings.find((f) => f.ruleId === 'fs.wipe');
    expect(finding).toMatchObject({ decision: 'ask', remember: 'never', asksInEveryMode: 'worst-case' });
    expect(finding?.memoryKey).toBeUndefined();
  });

  it("an ask's finding keeps what its yes is remembered by", () => {
    const finding = judge('mytool git push origin main').findings.find((f) => f.ruleId === 'git.push');
    expect(finding).toMatchObject({ decision: 'ask', memoryKey: 'git.push:origin/main' });
  });

  it('under fail-closed a block stays a block', () => {
    expect(judge('mytool rm -rf ~', true).decision).toBe('block');
  });

  it("never softens what the step's own commands do", () => {
    const result = judge('mytool git push --force && rm -rf ~');
    expect(result.decision).toBe('block');
    const wipe = result.findings.filter((f) => f.ruleId === 'fs.wipe' && f.decision === 'block');
    expect(wipe).toHaveLength(1);
    expect(wipe[0]?.reason).not.toMatch(THROUGH);
  });

  it('keeps the commands it only guesses out of the invocations the step is judged by', () => {
    const result = judge('mytool git push --force');
    expect(result.invocations.map((inv) => inv.name)).toEqual(['mytool']);
  });
});
