import { describe, expect, it } from 'vitest';
import type { Example } from '../../src/rule.js';
import { fsDelete } from '../../src/rules/fs-delete.js';
import { evaluateExample, PROJECT, runRuleTests } from '../rule-tester.js';

const created = (step: Example['step'], files: readonly string[], note = 'created in this chat'): Example => ({
  step,
  session: { createdFiles: files },
  note,
});
const PATCH_DELETE = '*** Begin Patch\n*** Delete File: src/legacy.ts\n*** End Patch';
const PATCH_EDIT = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-old\n+new\n*** End Patch';

runRuleTests(fsDelete, {
  valid: [
    // regenerable folders, temp, and what this chat made
    'rm -rf node_modules',
    'rm -rf node_modules dist .next coverage',
    'rm -rf build/ out target __pycache__ .pytest_cache .turbo',
    'rm -rf packages/web/node_modules',
    'cd build && rm -rf .',
    'rm -rf /tmp/build-cache',
    'rm -f "$TMPDIR/guard.sock"',
    created('rm notes.txt', [`${PROJECT}/notes.txt`]),
    created('rm -rf scratch', [`${PROJECT}/scratch`], 'a folder made in this chat'),
    created({ kind: 'write', path: 'src/tmp.ts', mode: 'delete' }, [`${PROJECT}/src/tmp.ts`]),
    {
      step: 'rm missing.txt',
      probe: { files: { [`${PROJECT}/other.txt`]: 'x' } },
      note: 'the probe says it is not there',
    },
    // the project's template copied onto an env file that holds nothing to lose
    { step: 'cp .env.example .env', probe: { files: {} }, note: 'no .env yet' },
    {
      step: 'cp .env.example .env',
      probe: { files: { [`${PROJECT}/.env`]: '\n' } },
      note: 'an empty .env',
    },
    'cp -n .env.example .env',
    'cp --update=none .env.example .env',
    'test -f .env || cp .env.example .env',
    '[ ! -f .env ] && cp .env.example .env',
    'if [ ! -f .env ]; then cp .env.example .env; fi',
    { step: 'cp .env.example .env.test', probe: { files: {} }, note: 'no .env.test yet' },
    {
      step: 'cp .env.example config/app.yaml',
      probe: { files: { [`${PROJECT}/config/app.yaml`]: 'a: 1\n' } },
      note: 'not an env file (no stored values)',
    },
    { step: 'cp .env .env.bak', note: 'reads the secret (secrets.read), loses nothing' },
    // not deleting: everyday commands
    'ls -la',
    'git status',
    'git diff',
    'git add -A',
    'git commit -m "rm -rf src"',
    'echo "rm -rf src"',
    'npm run clean',
    'rmdir empty-folder',
    'trash old-notes.md',
    'mv src/a.ts src/b.ts',
    'mv src/a.ts lib/',
    'echo hello > out.txt',
    'npm test > test.log',
    'find . -name "*.ts" -exec wc -l {} +',
    'find node_modules -name "*.map" -delete',
    // find deletes what it picks below the starting folder, not the folder: regenerable names go ahead
    'find . -name "__pycache__" -type d -exec rm -rf {} +',
    'find . -name "*.pyc" -delete',
    'find . -type f -name "*.py[co]" -delete',
    'find . \\( -name "*.pyc" -o -name __pycache__ \\) -exec rm -rf {} +',
    'find . -name .DS_Store -delete',
    'find . -path "*/node_modules/*" -delete',
    'find packages -name dist -type d -prune -exec rm -rf {} +',
    'find /tmp -name "*.sock" -delete',
    "find . -path ./.git -prune -o -name '*.pyc' -delete",
    "find . -name src -prune -o -name '*.pyc' -exec rm -f {} +",
    // a for loop over plain words is judged word by word
    'for d in build dist; do rm -rf "$d"; done',
    'for d in node_modules .next; do rm -rf "packages/web/$d"; done',
    // $(pwd) is the working directory
    'rm -rf "$(pwd)/build"',
    'rm -rf `pwd`/node_modules',
    'cd /tmp && rm -rf "$(pwd)"/*',
    { step: { kind: 'patch', patch: PATCH_EDIT }, note: 'editing a file' },
    { step: { kind: 'write', path: 'src/app.ts', content: 'export {};\n' }, note: 'overwriting with new text' },
    // git that keeps the work
    'git checkout main',
    'git checkout -b feature/login',
    'git switch main',
    'git restore --staged src/app.ts',
    'git reset HEAD src/app.ts',
    'git reset --soft HEAD~1',
    'git clean -n',
    'git clean -fdn',
    'git stash',
    'git stash pop',
    'git stash list',
    // a fresh folder from mktemp lies in the system temp folder
    'tmpdir=$(mktemp -d) && cp -r fixtures "$tmpdir" && rm -rf "$tmpdir"',
    'rm -rf "$(mktemp -d -t build.XXXXXX)"',
    // a name that only says who or which run
    'rm -rf /tmp/$(whoami)-jest /tmp/run-$$',
    // virtual environments, tool caches and the logs a failed install leaves
    'rm -rf .venv && python3 -m venv .venv',
    'rm -rf .tox htmlcov .nyc_output',
    'rm -rf .svelte-kit .nuxt .output storybook-static',
    'rm -rf *.egg-info',
    'rm -f .eslintcache npm-debug.log*',
    // xargs fed by find deletes what find picks
    "find . -name '*.pyc' -o -name '*.pyo' | xargs rm -f",
    'find . -type d -name node_modules -prune -print0 | xargs -0 rm -rf',
    // .NET's build output; a PowerShell parameter's value is not a target
    'Remove-Item .\\obj -Recurse -Force -ErrorAction SilentlyContinue',
    'Remove-Item -Path .\\bin\\Debug -Recurse -Force',
    'rm -rf obj bin/Release',
    // PowerShell deleting what a listing hands it: build output, filtered litter, the temp folder
    'Get-ChildItem .\\dist | Remove-Item -Recurse',
    'Get-ChildItem -Recurse -Filter *.pyc | Remove-Item',
    'Get-ChildItem $env:TEMP\\pytest-* | Remove-Item -Recurse -Force',
    'Get-ChildItem .\\TestResults -Recurse | Remove-Item -Recurse -Force',
    // cmd.exe and PowerShell lines handed over as is
    'del /q dist\\*.map',
    'Remove-Item .\\dist\\* -Recurse -Force',
    'if (Test-Path .\\dist) { Remove-Item .\\dist -Recurse -Force }',
    'git branch -d merged-feature',
    'git push origin main',
    'git push --dry-run origin --delete old',
    { step: 'git reset --hard', probe: { modified: [] }, note: 'a clean work tree' },
    {
      step: 'git restore src/app.ts',
      probe: { modified: [`${PROJECT}/src/other.ts`] },
      note: 'that file has no changes',
    },
    { step: 'git clean -fd', probe: { untracked: [] }, note: 'nothing untracked' },
    // code deleting build output, or only reading
    `python3 -c 'import shutil; shutil.rmtree("__pycache__")'`,
    `node -e 'console.log(require("fs").readFileSync("package.json", "utf8"))'`,
    `node -e 'const { unlinkSync: del } = require("fs"); del("dist/old.js")'`,
    `node -e 'const { readFileSync: r } = require("fs"); console.log(r("package.json", "utf8"))'`,
    // git rm without -f refuses files with changes; --cached keeps the files
    'git rm -r src/old',
    'git rm --cached -rf .',
    'git rm -rf --dry-run src',
    { step: 'git rm -rf src/old', probe: { modified: [`${PROJECT}/src/app.ts`] }, note: 'no changes there' },
    'git read-tree HEAD',
    'git read-tree -m -u HEAD',
    { step: 'git read-tree --reset -u HEAD', probe: { modified: [] }, note: 'a clean work tree' },
    // crontab: listing it, or asking before removing it
    'crontab -l',
    'crontab -ri',
    // rsync copying without --delete, or deleting into a build folder
    'rsync -a src/ backup/',
    'rsync -a --delete src/ dist/',
  ],
  invalid: [
    // the project's template copied over an env file with values in it: they exist nowhere else
    {
      step: 'cp .env.example .env',
      probe: { files: { [`${PROJECT}/.env`]: 'API_KEY=1\n' } },
      note: '.env holds values',
    },
    { step: 'cp .env.example .env', note: 'the probe cannot say whether .env is there' },
    {
      step: 'Copy-Item .env.example .env.local',
      probe: { files: { [`${PROJECT}/.env.local`]: 'DB_PASSWORD=x\n' } },
    },
    'test -f .env && cp .env.example .env',
    'test -f .env.local || cp .env.example .env',
    'cp -f .env.example .env',
    // deleting project files from code
    `python3 -c 'import os; os.remove("src/app.py")'`,
    `python3 -c 'from pathlib import Path; Path("README.md").unlink()'`,
    `node -e 'require("fs").unlinkSync("package.json")'`,
    `perl -e 'unlink "lib/App.pm"'`,
    // under other names, or a folder in home spelled as an expression
    `node -e 'const { unlinkSync: del } = require("fs"); del("package.json")'`,
    `node -e 'const fs2 = require("node:fs"); fs2.unlink("src/index.ts", () => {})'`,
    `python3 -c 'import os, shutil; shutil.rmtree(os.path.expanduser("~/Documents"))'`,
    // git rm -f and read-tree --reset -u over changes
    'git rm -rf src',
    'git rm -f src/app.ts',
    'git rm --force -r docs',
    { step: 'git rm -f src/app.ts', probe: { modified: [`${PROJECT}/src/app.ts`] }, note: 'that file has changes' },
    'git read-tree --reset -u HEAD',
    // the crontab, with no copy kept
    'crontab -r',
    'crontab -u deploy -r',
    // rsync --delete into a folder whose files may exist nowhere else
    'rsync -a --delete src/ backup/',
    'rsync -av --delete-after ../shared/ vendor/shared/',
    // SPEC 4.2 examples
    'rm -rf src',
    'rm README.md',
    'del /q src\\*.ts',
    // mktemp with a template but no -t makes the folder where it runs; -p names another place
    'd=$(mktemp -d build.XXXX); rm -rf "$d"',
    'd=$(mktemp -d -p ~/work); rm -rf "$d"',
    // find picking project files, or the whole tree; ls of a folder prints bare names
    "find src -name '*.ts' | xargs rm",
    'find . | xargs rm -rf',
    'ls dist | xargs rm -rf',
    'cat list.txt | xargs rm',
    // a substitution that could print any path
    'rm -rf /tmp/$(cat dir.txt)',
    'rm -rf ~/$(whoami)',
    // a bin folder may hold the project's own scripts
    'rm -rf bin',
    'Remove-Item .\\src -Recurse -ErrorAction SilentlyContinue',
    // PowerShell deleting what a listing or another command hands it
    'Get-ChildItem .\\src | Remove-Item -Recurse',
    'gci src | ri -Recurse',
    'Get-ChildItem -Recurse -Filter *.ts | Remove-Item',
    'Get-ChildItem .\\logs | Where-Object { $_.Length -gt 1MB } | Remove-Item',
    'Get-Content list.txt | Remove-Item',
    'Get-ChildItem -Filter *.log | ForEach-Object { Remove-Item $_ }',
    // near names that are not made again by a tool
    'rm -rf deps',
    'rm -rf venv-notes',
    'rm -f npm-notes.log',
    'rm -rf .venv/../src',
    'Remove-Item .\\src\\* -Recurse -Force',
    'if (Test-Path .\\src) { Remove-Item .\\src -Recurse -Force }',
    'dotnet test; if ($LASTEXITCODE -ne 0) { Remove-Item .\\src -Recurse }',
    'rm -r docs/',
    'git reset --hard',
    'git reset --hard origin/main',
    'git checkout -- .',
    'git checkout .',
    'git checkout -- src/app.ts',
    'git checkout src/app.ts',
    'git checkout HEAD~1 -- package.json',
    'git checkout -f main',
    'git switch --discard-changes main',
    'git restore src/app.ts',
    'git restore .',
    'git restore --staged --worktree src/app.ts',
    'git clean -f',
    'git clean -fd',
    'git clean -fdx',
    'git stash drop',
    'git stash clear',
    'git branch -D feature/x',
    'git branch --delete --force feature/x',
    'git push origin --delete old-branch',
    'git push origin :old-branch',
    // emptying a file
    '> src/app.ts',
    ': > src/app.ts',
    'truncate -s 0 src/app.ts',
    'cp /dev/null src/app.ts',
    'cat /dev/null > notes.md',
    { step: { kind: 'write', path: 'src/app.ts', content: '' }, note: 'a write tool writing nothing' },
    // moving out of the project
    'mv src/a.ts /tmp/',
    'mv docs ~/old-docs',
    {
      step: { kind: 'write', path: 'src/a.ts', mode: 'move', toPath: '/home/dev/elsewhere/a.ts' },
      note: 'a move tool',
    },
    // find and xargs
    'find . -name "*.log" -delete',
    'find src -name "*.bak" -exec rm {} \\;',
    'find . -type f -name "*.ts" -exec rm -f {} +',
    'find . -name "*.pyc" -o -type f -delete',
    'find . -name node_modules -prune -o -type f -delete',
    'find . ! -name "*.keep" -delete',
    'find . -not -name "*.pyc" -delete',
    'find . -name "*" -delete',
    'find . -mtime +7 -delete',
    'find ~ -name "*.pyc" -delete',
    'find . -name "*.pyc" -o -name "*.py" -delete',
    "find . -path ./.git -prune -o -name '*.orig' -delete",
    'find . -path ./.git -prune -o -type f -delete',
    'for d in build src; do rm -rf "$d"; done',
    'for d in build src; do cd "$d" && rm -rf .; done',
    'for f in $(ls); do rm "$f"; done',
    'for f in *.md; do rm "$f"; done',
    'rm -rf "$(pwd)"',
    'rm -rf "$(pwd)/src"',
    'cd docs && rm -rf "$(pwd)"',
    'ls | xargs rm -rf',
    'git ls-files -z | xargs -0 rm -f',
    // other tools and spellings
    { step: { kind: 'write', path: 'src/app.ts', mode: 'delete' }, note: 'a write tool delete' },
    { step: { kind: 'patch', patch: PATCH_DELETE }, note: 'apply_patch Delete File' },
    'unlink package-lock.json',
    'shred -u notes.txt',
    'rm -rf ~/Documents/report',
    'rm -rf "$DIR/dist"',
    'sudo rm -rf src',
    'cd src && rm -rf .',
    'bash -c "rm -rf src"',
    'Remove-Item -Recurse -Force src',
    'rm -rf .',
    { step: 'rm notes.txt', session: { createdFiles: [`${PROJECT}/other.txt`] }, note: 'another file was created' },
  ],
});

describe('fs.delete memory keys: once per path', () => {
  const keys = (row: string | Example): (string | undefined)[] =>
    evaluateExample(row)
      .findings.filter((f) => f.ruleId === 'fs.delete')
      .map((f) => f.memoryKey);
  it.for([
    { row: 'rm -rf src', keys: [`fs.delete:${PROJECT}/src`] },
    { row: 'rm a.txt b.txt', keys: [`fs.delete:${PROJECT}/a.txt`, `fs.delete:${PROJECT}/b.txt`] },
    { row: 'cd src && rm -rf .', keys: [`fs.delete:${PROJECT}/src`] },
    { row: 'git reset --hard', keys: [`fs.delete:${PROJECT}:git reset --hard`] },
    { row: 'git -C ../lib reset --hard', keys: ['fs.delete:/home/dev/lib:git reset --hard'] },
    {
      row: 'git checkout -- src/a.ts src/b.ts',
      keys: [`fs.delete:${PROJECT}/src/a.ts:changes`, `fs.delete:${PROJECT}/src/b.ts:changes`],
    },
    { row: 'git branch -D x y', keys: [`fs.delete:${PROJECT}:branch x`, `fs.delete:${PROJECT}:branch y`] },
    { row: 'git push origin :old', keys: ['fs.delete:origin/old:remote branch'] },
    { row: 'ls | xargs rm -rf', keys: [undefined] },
    { row: 'rm -rf "$DIR/dist"', keys: [undefined] },
  ])('$row', ({ row, keys: expected }) => {
    expect(keys(row)).toEqual(expected);
  });
});

describe('fs.delete on a long line', () => {
  it('asks once for each of 2000 named files', () => {
    const files = Array.from({ length: 2000 }, (_, i) => `src/f${i}.ts`);
    const findings = evaluateExample(`rm ${files.join(' ')}`).findings.filter((f) => f.ruleId === 'fs.delete');
    expect(new Set(findings.map((f) => f.memoryKey)).size).toBe(2000);
  });
});
