import { describe, expect, it } from 'vitest';
import type { Example } from '../../src/rule.js';
import { gitPush } from '../../src/rules/git-push.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

runRuleTests(gitPush, {
  valid: [
    'git status',
    'git commit -m "ready to push"',
    'git commit -m "git push origin main"',
    'echo git push',
    'git pull origin main',
    'git fetch --all',
    'git stash push -m "wip"',
    'git log origin/main..HEAD',
    'git remote -v',
    // a dry run sends nothing
    'git push --dry-run',
    'git push -n origin main',
    'git push --dry-run --force origin main',
    'git push -nu origin feature/x',
    'grep -r "git push" docs',
  ],
  invalid: [
    'git push',
    'git push origin',
    'git push origin main',
    'git push -u origin feature/login',
    'git push --set-upstream origin HEAD',
    'git push origin HEAD:refs/heads/release',
    'git push origin main develop',
    'git push --tags',
    'git push --all origin',
    'git push --follow-tags origin main',
    'git push https://github.com/acme/app.git main',
    'git push git@github.com:acme/app.git',
    'git push ../backup main',
    'git push --repo=upstream main',
    'git push -o ci.skip origin main',
    // deleting a remote branch is a push too (fs.delete asks as well)
    'git push origin --delete old-branch',
    'git push origin :old-branch',
    // the way there does not matter
    'cd app && git push',
    'git -C ../lib push origin main',
    'bash -c "git push origin main"',
    'npm test && git push',
    'ssh build-host "cd repo && git push"',
  ],
});

const keyOf = (row: string | Example): string | undefined =>
  evaluateExample(row).findings.find((f) => f.ruleId === 'git.push')?.memoryKey;

describe('git.push memory keys: once per remote and branch, never for a URL', () => {
  it.for([
    { row: 'git push origin main', key: 'git.push:origin/main' },
    { row: 'git push upstream feature/x', key: 'git.push:upstream/feature/x' },
    { row: 'git push origin +main', key: 'git.push:origin/main' },
    { row: 'git push origin HEAD:refs/heads/release', key: 'git.push:origin/release' },
    { row: 'git push origin :old', key: 'git.push:origin/old' },
    { row: 'git push --tags', key: 'git.push:origin/tags' },
    { row: { step: 'git push', probe: { branch: 'feature/login' } }, key: 'git.push:origin/feature/login' },
    { row: { step: 'git push -u origin HEAD', probe: { branch: 'fix-1' } }, key: 'git.push:origin/fix-1' },
    { row: 'git push', key: 'git.push:origin/?' },
    { row: 'git push https://github.com/acme/app.git main', key: undefined },
    { row: 'git push git@github.com:acme/app.git main', key: undefined },
  ] as const)('$row', ({ row, key }) => {
    expect(evaluateExample(row).findings.some((f) => f.ruleId === 'git.push')).toBe(true);
    expect(keyOf(row)).toBe(key);
  });

  it('asks once per refspec when one push names several branches', () => {
    const keys = evaluateExample('git push origin main develop')
      .findings.filter((f) => f.ruleId === 'git.push')
      .map((f) => f.memoryKey);
    expect(keys).toEqual(['git.push:origin/main', 'git.push:origin/develop']);
  });
});
