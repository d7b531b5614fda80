import { describe, expect, it } from 'vitest';
import { fsWriteOutside } from '../../src/rules/fs-write-outside.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

const patch = (body: string): { kind: 'patch'; patch: string } => ({
  kind: 'patch',
  patch: `*** Begin Patch\n${body}\n*** End Patch`,
});

runRuleTests(fsWriteOutside, {
  valid: [
    // inside the project
    'echo hi > notes.txt',
    'npm run build > build.log 2>&1',
    'cp src/a.ts src/b.ts',
    'mv src/a.ts lib/a.ts',
    "sed -i 's/foo/bar/' src/app.ts",
    'tar -czf dist/app.tgz src',
    'cd packages/web && echo x > out.txt',
    { step: { kind: 'write', path: 'src/app.ts', content: 'export {};\n' } },
    { step: { kind: 'write', path: '/home/dev/project/README.md', mode: 'edit', content: '# x' } },
    { step: patch('*** Add File: src/new.ts\n+export {};') },
    // the temp folder
    'npm test > /tmp/test.log',
    'npm test 2>&1 | tee /tmp/out.log',
    'cp src/a.ts /tmp/',
    'mv build.log /tmp',
    'curl -o /tmp/node.tar.gz https://nodejs.org/dist/node.tar.gz',
    'git clone https://github.com/acme/lib /tmp/lib',
    // a worktree in the temp folder or inside the project
    'git worktree add -b review/pr-42 /tmp/pr-42 origin/main',
    'git worktree add .worktrees/fix-1',
    'git worktree list',
    'git worktree remove /tmp/pr-42',
    'cd /tmp && echo x > a.txt',
    'echo x > "$TMPDIR/x"',
    { step: { kind: 'write', path: '/tmp/scratch.json', content: '{}' } },
    // not writes
    'cat package.json > /dev/null',
    'echo done > /dev/stderr',
    'cat ~/.gitconfig',
    'ls ~',
    'mkdir -p ~/.cache/tool',
    'touch ~/.hushlogin',
    'chmod 600 ~/.ssh/config',
    { step: { kind: 'read', path: '/etc/hosts' } },
    {
      step: { kind: 'mcp', server: 'files', tool: 'read_file', args: { path: '/etc/hosts' } },
      note: 'MCP paths are mcp.changes business',
    },
    // where the target cannot be read (a loop variable, most of the time)
    'for f in *.md; do sed -i "s/a/b/" "$f"; done',
    // data, not commands
    'git commit -m "echo x > ~/.bashrc"',
    'echo "cp a ~/b"',
    'New-Item -ItemType Directory -Force -Path "$env:TEMP\\guard-test"',
  ],
  invalid: [
    'echo "export PATH=$PATH:~/bin" >> ~/notes/env.txt',
    // a checkout written next to the project, or in the home folder
    'git worktree add ../project-review origin/main',
    'git worktree add -b feat --reason wip ~/code/feat',
    'echo x > ~/notes.txt',
    'New-Item -ItemType Directory -Force -Path "$env:USERPROFILE\\tools"',
    'echo x | tee ~/x.txt',
    'echo x | sudo tee /etc/apt/sources.list.d/x.list',
    'cp config.example.json ~/other-app/config.json',
    'cp tool /usr/local/bin/',
    'mv src/a.ts ~/backup/',
    "sed -i 's/a/b/' ~/.gitconfig",
    "sed -i 's/a/b/' /etc/hosts",
    'echo "127.0.0.1 api.local" >> /etc/hosts',
    'dd if=app.img of=/opt/app.img',
    'curl -o ~/bin/tool https://example.com/tool',
    'git clone https://github.com/acme/lib ~/src/lib',
    'tar -xzf app.tgz -C ~/apps',
    'unzip app.zip -d /opt/app',
    'ln -s /home/dev/project/bin/tool ~/bin/tool',
    'cd .. && echo x > sibling.txt',
    'echo x > ../other/file.txt',
    'bash -c "echo x > ~/x"',
    'New-Item -Path ~/x.txt -Value hi',
    { step: { kind: 'write', path: '/home/dev/notes/todo.md', content: 'x' } },
    {
      step: { kind: 'write', path: '~/.config/tool/settings.json', mode: 'edit', content: '{}' },
      note: 'an edit tool on a home file',
    },
    { step: { kind: 'write', path: '../other/src/a.ts', mode: 'create', content: 'x' } },
    { step: { kind: 'write', path: 'src/a.ts', mode: 'move', toPath: '/home/dev/elsewhere/a.ts' } },
    { step: patch('*** Add File: /home/dev/other/x.ts\n+export {};') },
    { step: patch('*** Update File: src/a.ts\n*** Move to: ../lib/a.ts\n@@\n-a\n+b') },
    {
      step: { kind: 'other', toolName: 'Frobnicate', args: { target: '/etc/hosts', text: 'x' } },
      note: 'an unknown tool might write its paths',
    },
  ],
});

describe('fs.write-outside memory keys: once per path', () => {
  it.for([
    { row: 'echo x > ~/notes.txt', key: 'fs.write-outside:/home/dev/notes.txt' },
    { row: 'cd .. && echo x > a.txt', key: 'fs.write-outside:/home/dev/a.txt' },
    { row: 'cp a ~/b', key: 'fs.write-outside:/home/dev/b' },
  ])('$row', ({ row, key }) => {
    expect(
      evaluateExample(row)
        .findings.filter((f) => f.ruleId === 'fs.write-outside')
        .map((f) => f.memoryKey),
    ).toEqual([key]);
  });
});
