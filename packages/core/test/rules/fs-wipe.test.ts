import { describe, expect, it } from 'vitest';
import { fsWipe } from '../../src/rules/fs-wipe.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

runRuleTests(fsWipe, {
  valid: [
    // regenerable, temp and project folders: other rules (or nobody) care
    'rm -rf ./build',
    'rm -rf node_modules dist .next coverage',
    'rm -rf src',
    'rm -rf /home/dev/project/dist',
    'rm -rf /tmp/x',
    'rm -rf /tmp/*',
    'rm -rf "${TMPDIR:-/tmp}/guard-test"',
    'rm -rf /var/lib/apt/lists/*',
    // inside home, but not home itself
    'rm -rf ~/.cache/pip',
    'rm -rf ~/old-project/node_modules',
    'rm ~/notes.txt',
    'find ~ -name "*.pyc" -delete',
    'find / -name "*.tmp" -user dev -delete',
    // a variable that is set, or that only picks a folder by name
    'DIR=dist; rm -rf "$DIR"',
    'export OUT=build && rm -rf $OUT/*',
    'rm -rf "$DIR/dist"',
    'rm -rf "$(mktemp -d)"',
    // a PowerShell line handed over as is: its backslashes are separators, not escapes
    'Remove-Item $env:TEMP\\test-output -Recurse -Force',
    'Remove-Item "$env:TEMP\\pytest-*" -Recurse -Force',
    'for d in build dist; do rm -rf "$d"; done',
    'for d in build dist; do rm -rf "$d"/*; done',
    // inside a container or pod: its own folders, not this computer's (infra.destroy asks)
    "docker exec app sh -c 'rm -rf /'",
    'kubectl exec web -- rm -rf /tmp/*',
    // disks named only as data or images
    'dd if=/dev/zero of=disk.img bs=1M count=10',
    'cat build.log > /dev/null',
    'echo done > /dev/stderr',
    'wipefs -n /dev/sdb',
    'diskutil list',
    'git format-patch -1',
    'npx prettier --check .',
    'echo "rm -rf /"',
    'git commit -m "never rm -rf ~"',
    'shred -u notes.txt',
    // code deleting build output, or a path it builds at run time
    `python3 -c 'import shutil as sh; sh.rmtree("build")'`,
    `node -e 'require("fs").rmSync("dist", { recursive: true, force: true })'`,
    `python3 -c 'import shutil; shutil.rmtree(tmpdir)'`,
    // a file system made in an image file, not on a disk
    'mkfs.ext4 build/disk.img',
    'mkfs -t ext4 -F ./out/rootfs.img',
    'mkfs.vfat -C /tmp/efi.img 65536',
    'sudo mkswap /swapfile',
    // programs that run a command of their own: harmless ones, and near misses of the rows below
    'tar -czf dist.tgz --checkpoint=1000 --checkpoint-action=dot src',
    'tar -I zstd -cf a.tar.zst src',
    "rsync -av -e 'ssh -p 2222' src/ deploy:srv/",
    'ssh -o StrictHostKeyChecking=no app uptime',
    "vim -c 'set ft=json' -c wq package.json",
    "sed -i 's/rm -rf ~/echo/' notes.txt",
    'less +G app.log',
    "git -c core.pager='less -R' log",
    "make -f - <<'EOF'\nall:\n\t@rm -rf build\nEOF",
    `node -e 'import("child_process").then(({execSync: run}) => run("rm -rf dist"))'`,
    `node -e 'import("fs").then(({ rmSync: rm }) => console.log(typeof rm, "rm -rf ~"))'`,
    { step: { kind: 'write', path: 'src/old.ts', mode: 'delete' }, note: 'a write tool deleting one project file' },
    // PowerShell blocks around a harmless delete, read as PowerShell
    '$files = @("out.log","tmp.log"); foreach ($f in $files) { Remove-Item $f -ErrorAction SilentlyContinue }',
    'if (Test-Path .\\dist) { Remove-Item .\\dist -Recurse -Force }',
    "try { Remove-Item -Recurse -Force .\\build } catch { Write-Host 'nothing to clean' }",
    // zsh glob qualifiers that only pick files
    'ls *(.)',
    'ls -d *(/)',
    'ls -t *(om[1])',
    "ls *(e:'[[ $REPLY == *.ts ]]':)",
    // fs and shutil under other names, deleting build output or reading
    `node -e 'const { readFileSync: r } = require("fs"); r("package.json")'`,
    `node -e 'const { rmSync: r } = require("fs"); r("dist", { recursive: true })'`,
    `node -e 'const fs2 = require("fs"); fs2.rm("build", { recursive: true }, () => {})'`,
    `node -e 'const { rm } = require("fs/promises"); rm("dist", { recursive: true })'`,
    `python3 -c 'from shutil import rmtree as r; r("build")'`,
    `python3 -c 'import os, shutil; shutil.rmtree(os.path.expanduser("~/.cache/pip"))'`,
    `node -e 'console.log(process.env.HOME, require("os").homedir())'`,
    // a script written and then only read, or run with harmless text
    "cat > x.sh <<'EOF'\nrm -rf ~\nEOF\ncat x.sh",
    "echo 'rm -rf ~' > x.sh; less x.sh",
    "cat > x.sh <<'EOF'\nrm -rf ./build\nEOF\nbash x.sh",
    "echo 'npm run build' > build.sh && chmod +x build.sh && ./build.sh",
    "echo 'rm -rf ~' > x.sh; echo 'npm test' > x.sh; bash x.sh",
    "cat > clean.py <<'EOF'\nimport shutil\nshutil.rmtree('build')\nEOF\npython3 clean.py",
    // Start-Process starting something harmless
    'Start-Process notepad',
    "Start-Process pwsh -ArgumentList '-File','build.ps1'",
    "Start-Process cmd -ArgumentList '/c','rd','/s','/q','build'",
    "Start-Process powershell -ArgumentList '-Command','Remove-Item -Recurse .\\dist'",
    'Start-Process msedge https://example.org',
    'cmd /c start "" notepad README.md',
  ],
  invalid: [
    // run from inline code
    `awk 'BEGIN { system("rm -rf ~") }'`,
    `lua -e 'os.execute("rm -rf ~")'`,
    // calls under another name, and deleting from code
    `python3 -c 'import subprocess as sp; sp.run("rm -rf ~", shell=True)'`,
    `python3 -c 'from os import system as run; run("rm -rf ~")'`,
    `python3 -c '__import__("os").system("rm -rf ~")'`,
    `python3 -c 'getattr(__import__("os"), "sys" + "tem")("rm -rf ~")'`,
    `node -e 'const { execSync: x } = require("child_process"); x("rm -rf ~")'`,
    `node -e 'import("child_process").then(({execSync: run}) => run("rm -rf ~"))'`,
    `node --input-type=module -e 'const { execSync: x } = await import("node:child_process"); x("rm -rf /")'`,
    `python3 -c 'import shutil as sh; sh.rmtree("/home/dev")'`,
    `node -e 'require("fs").rmSync("/", { recursive: true, force: true })'`,
    `deno eval 'Deno.removeSync("/home/dev", { recursive: true })'`,
    `ruby -e 'FileUtils.rm_rf(Dir.home); FileUtils.rm_rf("/")'`,
    `vim -c 'py3 import os; os.system("rm -rf ~")'`,
    // programs that run a command written in their options or text
    "git -c alias.x='!rm -rf ~' x",
    "git config alias.clean-all '!rm -rf ~' && git clean-all",
    "git -c core.sshCommand='rm -rf ~' fetch",
    "GIT_SSH_COMMAND='rm -rf ~' git fetch",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log",
    "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='rm -rf ~' src",
    "tar -xf a.tar --to-command='rm -rf ~'",
    'rsync -e \'sh -c "rm -rf ~"\' src/ host:srv/',
    "ssh -o ProxyCommand='rm -rf ~' app",
    "scp -o ProxyCommand='rm -rf ~' a.txt app:",
    "vim -c '!rm -rf ~' -c q",
    "nvim -es -c 'silent !rm -rf ~'",
    "vim -es <<'EOF'\n!rm -rf ~\nEOF",
    "sed -n '1e rm -rf ~' notes.txt",
    "sed 's/.*/rm -rf ~/e' notes.txt",
    "echo 'all: ; rm -rf $$HOME' | make -f -",
    "less +'!rm -rf ~' notes.txt",
    "MANPAGER='rm -rf ~' man ls",
    // SPEC 4.1 examples
    'rm -rf /',
    'rm -rf /*',
    'rm -rf ~',
    'rm -rf ~/',
    'rm -rf $HOME',
    'rm -rf "$HOME"',
    'sudo rm -rf --no-preserve-root /',
    'format D:',
    'diskpart',
    'mkfs.ext4 /dev/sdb1',
    'mkfs -t ext4 /dev/sdb',
    'mkfs.ext4 -L data /dev/disk/by-id/nvme-eui.1',
    'mkfs.xfs -f "$DEV"',
    'mke2fs -t ext4 /dev/sdc1',
    'rsync -a --delete empty/ ~/',
    'sudo mkswap /dev/nvme0n1p3',
    'dd if=/dev/zero of=/dev/sda bs=1M',
    'shred -n 3 /dev/nvme0n1',
    'sudo wipefs -a /dev/sdb',
    'diskutil eraseDisk APFS Blank disk2',
    'rm -rf $DIR',
    'rm -rf "$DIR/"*',
    'rm -rf "${OUT:?}"',
    'd=$(mktemp -d); rm -rf "$d"/..',
    'rm -rf /tmp/$(whoami)/../..',
    // the same places spelled differently
    'rm -rf ~/*',
    'rm -rf ..',
    'cd ~ && rm -rf *',
    'cd / && rm -rf *',
    'rm -rf /usr',
    'rm -rf /etc',
    'rm -rf ~bob',
    'cat /dev/urandom > /dev/sda',
    'blkdiscard /dev/nvme0n1',
    'rd /s /q C:\\',
    'Remove-Item -Recurse -Force C:\\',
    'Remove-Item C:\\ -Recurse -Force',
    'Remove-Item $env:USERPROFILE\\ -Recurse -Force',
    '$env:X = "y"; Remove-Item -Recurse -Force C:\\',
    'powershell -Command "Remove-Item C:\\ -Recurse"',
    'pwsh -Command "Remove-Item -Recurse -Force C:\\Users"',
    'bash -c "rm -rf /"',
    'find / -type f -delete',
    'find ~ -delete',
    'for d in src ~; do rm -rf "$d"; done',
    'cd ~ && rm -rf "$(pwd)"',
    'for d in build /; do rm -rf "$d"; done',
    'for d; do rm -rf "$d"; done',
    'sudo find / -exec rm -rf {} +',
    'sudo sh -c "rm -rf --no-preserve-root /*"',
    { step: { kind: 'write', path: '/home/dev', mode: 'delete' }, note: 'a write tool deleting the home folder' },
    // the same blocks around a wipe
    '$files = @("a","b"); foreach ($f in $files) { Remove-Item -Recurse -Force ~ }',
    '$h = @{ a = 1; b = 2 }; Remove-Item -Recurse -Force $HOME',
    '$h = @{ a = 1; b = (Remove-Item -Recurse -Force ~) }',
    '$dirs = @("C:\\"); foreach ($d in $dirs) { Remove-Item -Recurse -Force $d }',
    'try { Remove-Item -Recurse -Force C:\\ } catch { }',
    'Write-Host "a`nb"; Remove-Item -Recurse -Force ~',
    'Write-Host "a`nb"; rm -rf ~',
    'Write-Host "$(Remove-Item -Recurse -Force ~)"',
    'iex "Remove-Item -Recurse -Force ~"',
    // zsh glob qualifiers that run code for each file
    "ls *(e:'rm -rf ~':)",
    'ls *(e{rm -rf ~})',
    "print -l **/*(.oe:'rm -rf /':)",
    // fs and shutil under other names, and the home folder as an expression
    `node -e 'const { rmSync: r } = require("fs"); r(process.env.HOME, { recursive: true })'`,
    `node -e 'const fs2 = require("fs"); fs2.rm("/", { recursive: true }, () => {})'`,
    `node -e 'const { rm } = require("fs/promises"); rm(process.env.HOME, { recursive: true })'`,
    `node -e 'const fsp = require("node:fs").promises; fsp.rm(require("os").homedir(), { recursive: true })'`,
    `node --input-type=module -e 'import { rm as wipe } from "node:fs/promises"; await wipe("/", { recursive: true })'`,
    `node --input-type=module -e 'import * as f from "fs"; f.rmSync(process.env["HOME"], { recursive: true })'`,
    `node -e 'import("fs").then(({ rmSync: r }) => r("/", { recursive: true }))'`,
    `node -e 'const r = require("fs").rmSync; r(os.homedir(), { recursive: true })'`,
    `python3 -c 'from shutil import rmtree as r; import os; r(os.path.expanduser("~"))'`,
    `python3 -c 'import shutil as s, os; s.rmtree(os.environ["HOME"])'`,
    `python3 -c 'import shutil, pathlib; shutil.rmtree(pathlib.Path.home())'`,
    `python3 -c 'import shutil, os; shutil.rmtree(os.getenv("HOME"))'`,
    `ruby -e 'require "fileutils"; FileUtils.rm_rf(ENV["HOME"])'`,
    // a script the line writes, then runs
    "cat > x.sh <<'EOF'\nrm -rf ~\nEOF\nbash x.sh",
    "cat > x.sh <<'EOF'\nrm -rf ~\nEOF\nsh ./x.sh",
    "cat > x.sh <<'EOF' && chmod +x x.sh && ./x.sh\nrm -rf ~\nEOF",
    "echo 'rm -rf ~' > x.sh; sh x.sh",
    "echo 'echo start' > x.sh; echo 'rm -rf /' >> x.sh; bash x.sh",
    "tee x.sh <<'EOF' > /dev/null\nrm -rf ~\nEOF\nsource x.sh",
    "cat > x.py <<'EOF'\nimport shutil\nshutil.rmtree('/home/dev')\nEOF\npython3 x.py",
    "cat > run <<'EOF'\n#!/usr/bin/env python3\nimport os\nos.system('rm -rf ~')\nEOF\nchmod +x run && ./run",
    "mkdir -p t && echo 'rm -rf ~' > t/x.sh && cd t && bash x.sh",
    // a shell started by Start-Process (saps, start) with the wipe as its argument list
    "Start-Process powershell -ArgumentList '-Command','Remove-Item -Recurse ~'",
    "Start-Process pwsh -ArgumentList '-NoProfile', '-Command', 'Remove-Item -Recurse -Force $HOME'",
    'Start-Process -FilePath powershell -ArgumentList "-Command Remove-Item -Recurse C:\\"',
    "Start-Process cmd -ArgumentList '/c rd /s /q C:\\'",
    'Start-Process cmd -ArgumentList /c,rd,/s,/q,C:\\',
    "saps pwsh -Args '-c','Remove-Item -Recurse ~'",
    "start pwsh -ArgumentList '-c','Remove-Item -Recurse ~'",
    'Start-Process -Verb RunAs -Wait powershell "-Command Remove-Item -Recurse ~"',
    'cmd /c start "" cmd /c rd /s /q C:\\',
    'cmd /c start /wait cmd /c rd /s /q C:\\',
    'start "clean" cmd /c rd /s /q C:\\',
  ],
});

describe.skip('fs.wipe rows waiting for the shell reader', () => {
  it.for([
    // reader: at top level `C:\ -Recurse` is read with POSIX escapes, so `\ ` joins the path and
    // `-Recurse` into one word; a PowerShell cmdlet line should be read in PowerShell syntax
    'Remove-Item C:\\ -Recurse',
  ])('blocks %s', (row) => {
    expect(evaluateExample(row).findings.map((f) => f.ruleId)).toContain('fs.wipe');
  });
  it.for([
    // reader: a for-loop variable is left unresolved instead of taking the loop's words
    'for d in dist build; do rm -rf "$d"; done',
  ])('allows %s', (row) => {
    expect(evaluateExample(row).findings.map((f) => f.ruleId)).not.toContain('fs.wipe');
  });
});

describe('fs.wipe on long, hostile targets', () => {
  it.for([
    { name: 'many variables, then a fixed name', command: `rm -rf "${'$a/'.repeat(20000)}x"`, wipe: false },
    { name: 'many variables and slashes only', command: `rm -rf "${'${A}/'.repeat(20000)}"`, wipe: true },
    { name: 'a long unclosed brace', command: `rm -rf "\${${'a'.repeat(50000)}"`, wipe: false },
  ])('$name', ({ command, wipe }) => {
    expect(evaluateExample(command).findings.some((f) => f.ruleId === 'fs.wipe')).toBe(wipe);
  });
});
