import { gitRewriteSharedHistory } from '../../src/rules/git-rewrite-shared-history.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(gitRewriteSharedHistory, {
  valid: [
    'git push',
    'git push origin main',
    'git push -u origin feature/login',
    'git push --follow-tags',
    'git push --set-upstream origin HEAD',
    'git push -o ci.skip origin main',
    // data, not a command
    'git commit -m "git push --force"',
    'echo git push -f',
    'grep -r "push --force" docs',
    // a + that is not a refspec
    'git push origin main+1',
    'git fetch --force',
    'git pull --force',
    'git filter-repo-helper --help',
    // an alias for an ordinary subcommand, or one the line never uses
    'git config alias.st status && git st',
    "git -c alias.pf='push --force' status",
    "git config alias.pf 'push -f' && git push",
    "git -c alias.p='!git push' p origin main",
    `python3 -c 'import subprocess as sp; sp.run(["git", "push"])'`,
    '$branches = @("main", "dev"); foreach ($b in $branches) { git push origin $b }',
  ],
  invalid: [
    'git push --force',
    'git push -f',
    'git push -f origin main',
    'git push -uf origin main',
    'git push --force-with-lease',
    'git push --force-with-lease=main:abc123',
    'git push --force-if-includes origin main',
    'git push origin +main',
    'git push origin +HEAD:refs/heads/main',
    'git push --mirror backup',
    'git filter-branch --tree-filter "rm -f secrets.txt" HEAD',
    'git filter-repo --path secrets.txt --invert-paths',
    'git-filter-repo --strip-blobs-bigger-than 10M',
    // the way there does not matter
    'cd app && git push --force',
    'sudo sh -c "cd /repo && git push --force"',
    "bash -c 'git push -f'",
    'git -C ../other push --force',
    'ls | xargs -I{} git -C {} push --force',
    // through an alias: given with -c, written by git config earlier in the line, or as shell text
    "git -c alias.pf='push --force' pf origin",
    "git config alias.pf 'push -f' && git pf origin main",
    "git config --global alias.yolo 'push --force-with-lease' && git yolo",
    "git -c alias.x='!git push -f' x",
    "vim -c '!git push --force' -c q",
    `python3 -c 'import subprocess as sp; sp.run(["git", "push", "-f"])'`,
    `node -e 'const run = require("child_process").execSync; run("git push --force")'`,
    'foreach ($b in @("main")) { git push --force origin $b }',
    '$branches = @("main", "dev"); $branches | ForEach-Object { git push --force origin $_ }',
  ],
});
