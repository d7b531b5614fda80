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
    { step: { kind: 'write', path: 'src/old.ts', mode: 'delete' }, note: 'a write tool deleting one project file' },
  ],
  invalid: [
    // run from inline code
    `awk 'BEGIN { system("rm -rf ~") }'`,
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
