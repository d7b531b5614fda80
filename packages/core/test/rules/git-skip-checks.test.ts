import { gitSkipChecks } from '../../src/rules/git-skip-checks.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(gitSkipChecks, {
  valid: [
    // everyday git
    'git status',
    'git diff --stat',
    'git log --oneline -n 5',
    'git add -A && git commit -m "feat: login form"',
    'git commit -am "fix typo"',
    'git push origin feature/login',
    // the words only appear as data
    'git commit -m "docs: never use --no-verify"',
    'git commit -m --no-verify',
    'echo git commit --no-verify',
    'grep -rn "HUSKY=0" .github',
    // -n means something else on these subcommands
    'git push -n origin main',
    'git merge -n feature/x',
    'git rebase -n main',
    'git clean -n',
    'git commit -mn',
    // hook variables on commands that are not git runs of hooks
    'HUSKY=0 npm ci',
    'SKIP=1 npm test',
    'HUSKY=1 git commit -m x',
    'SKIP= git commit -m x',
    'export HUSKY=0',
    '$env:NODE_ENV = "test"; git commit -m "x"',
    // hooks pointed at a real folder: how hook managers install themselves
    'git config core.hooksPath .husky',
    'git config --get core.hooksPath',
    'npx husky install',
    'git -c core.hooksPath=/dev/null status',
    // everything after -- is a path
    'git commit -- --no-verify',
  ],
  invalid: [
    'git commit --no-verify -m "wip"',
    'git commit -n -m "wip"',
    'git commit -nm "wip"',
    'git commit -anm "wip"',
    'git commit --amend --no-edit -n',
    'git push --no-verify',
    'git push --no-verify origin main',
    'git merge --no-verify feature/x',
    'git pull --no-verify',
    'git rebase --no-verify main',
    'git am -n 0001-fix.patch',
    'SKIP=eslint git commit -m "fix"',
    'SKIP=eslint,prettier git commit -m "fix"',
    'HUSKY=0 git commit -m "x"',
    'HUSKY=0 git push',
    'HUSKY_SKIP_HOOKS=1 git commit -m x',
    'LEFTHOOK=0 git commit -m x',
    'sudo -u dev HUSKY=0 git commit -m x',
    'env HUSKY=0 git push',
    'export HUSKY=0 && git commit -m "x"',
    '$env:HUSKY = 0; git commit -m "x"',
    '$env:SKIP="lint"; git push',
    'export SKIP=lint; git push',
    'git -c core.hooksPath=/dev/null commit -m "x"',
    'git -c core.hooksPath= push',
    // a one-run override swaps the project's hooks for others (often an empty folder)
    'git -c core.hooksPath=.empty-hooks commit -m x',
    'git config core.hooksPath /dev/null',
    'git config --global core.hooksPath /dev/null',
    'git config --unset core.hooksPath',
    // the way there does not matter
    'cd app && git commit --no-verify -m x',
    'bash -c "git commit -n -m wip"',
    'git -C ../lib commit --no-verify -m x',
  ],
});
