import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pathFacts, SECRET_SCREEN } from '@guard/core';
import { createProbe } from '../../src/world/probe.js';

const base = mkdtempSync(join(tmpdir(), 'guard-probe-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Writes files under a fresh folder and returns it. */
function folder(name: string, files: Readonly<Record<string, string>>): string {
  const dir = join(base, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A word for sh, single-quoted. */
const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}

describe('readText and exists', () => {
  const dir = folder('files', { 'small.txt': 'hello', 'big.txt': 'x'.repeat(5000), 'utf8.txt': 'héllo' });
  symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
  mkdirSync(join(dir, 'sub'));
  const fifo = join(dir, 'pipe');
  const hasFifo =
    process.platform !== 'win32' &&
    (() => {
      try {
        execFileSync('mkfifo', [fifo]);
        return true;
      } catch {
        return false;
      }
    })();
  const probe = createProbe({ maxBytes: 1000 });

  it.for([
    { file: 'small.txt', limit: 100, text: 'hello' },
    { file: 'small.txt', limit: 3, text: 'hel' },
    { file: 'big.txt', limit: 4000, text: 'x'.repeat(1000), note: 'the probe cap wins over a larger ask' },
    { file: 'utf8.txt', limit: 100, text: 'héllo' },
    { file: 'missing.txt', limit: 100, text: undefined },
    { file: 'sub', limit: 100, text: undefined, note: 'a folder is not text' },
    { file: 'dangling', limit: 100, text: undefined },
  ])('readText($file, $limit)', ({ file, limit, text }) => {
    expect(probe.readText?.(join(dir, file), limit)).toBe(text);
  });

  it.runIf(hasFifo)('answers undefined for a named pipe at once instead of waiting for a writer', () => {
    expect(probe.readText?.(fifo, 100)).toBeUndefined();
  });

  it.for([
    { file: 'small.txt', exists: true },
    { file: 'sub', exists: true },
    { file: 'dangling', exists: true, note: 'a link to nowhere is still there to delete' },
    { file: 'missing.txt', exists: false },
    { file: 'small.txt/below', exists: false },
  ])('exists($file) is $exists', ({ file, exists }) => {
    expect(probe.exists?.(join(dir, file))).toBe(exists);
  });
});

describe.runIf(process.platform !== 'win32')('realpath', () => {
  const dir = folder('real', { 'target/file.txt': 'x', 'plain.txt': 'y' });
  symlinkSync(join(dir, 'target'), join(dir, 'link'));
  // one probe for every row and asked twice, as a `guard explain --jsonl` run asks: its answers are
  // remembered, and a missing folder answers for what lies below it
  const probe = createProbe();
  it.for([
    { path: 'plain.txt', real: 'plain.txt' },
    { path: 'link/file.txt', real: 'target/file.txt' },
    { path: 'link', real: 'target' },
    { path: 'link/new.txt', real: 'target/new.txt' },
    { path: 'link/new/deeper.txt', real: 'target/new/deeper.txt' },
    { path: 'link/new/other.txt', real: 'target/new/other.txt' },
    { path: 'missing/a/b', real: 'missing/a/b' },
    { path: 'missing/a/c', real: 'missing/a/c' },
    { path: 'plain.txt/below', real: 'plain.txt/below' },
    { path: 'link/../plain.txt', real: 'plain.txt' },
  ])('realpath($path) is $real', ({ path, real }) => {
    // the temp folder itself may sit behind a link (macOS): compare with its real path
    const top = probe.realpath?.(dir);
    expect(top).toBeDefined();
    for (let i = 0; i < 2; i++) expect(probe.realpath?.(join(dir, path))).toBe(join(top ?? '', real));
  });

  it('answers undefined for a relative path, and a path from the root when nothing below it exists', () => {
    expect(probe.realpath?.('relative/path')).toBeUndefined();
    expect(probe.realpath?.('/guard-no-such-folder/x')).toBe('/guard-no-such-folder/x');
  });

  it('keeps its answers for its own life; a new probe (a new hook call or explain) sees a link made since', () => {
    const top = probe.realpath?.(dir) ?? '';
    const later = join(dir, 'later');
    expect(probe.realpath?.(join(later, 'f'))).toBe(join(top, 'later/f'));
    symlinkSync(join(dir, 'target'), later);
    expect(probe.realpath?.(join(later, 'f'))).toBe(join(top, 'later/f'));
    expect(createProbe().realpath?.(join(later, 'f'))).toBe(join(top, 'target/f'));
  });
});

describe('git', () => {
  let repo = '';
  let marker = '';
  beforeAll(() => {
    repo = folder('repo', {
      '.gitignore': '.env.local\ndist/\n',
      'README.md': 'one\n',
      'package.json': '{}\n',
      'src/index.ts': 'export {};\n',
    });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'init');
    writeFileSync(join(repo, 'README.md'), 'two\n');
    writeFileSync(join(repo, '.env'), 'KEY=1\n');
    writeFileSync(join(repo, '.env.local'), 'KEY=2\n');
    mkdirSync(join(repo, 'dist'));
    writeFileSync(join(repo, 'dist', 'out.js'), '\n');
    writeFileSync(join(repo, 'src', 'new file.ts'), '\n');
    // a repository may name a command git runs on status; the probe must never run it
    marker = join(base, 'fsmonitor-ran');
    const monitor = join(base, 'monitor.sh');
    writeFileSync(monitor, `#!/bin/sh\n: > ${sq(marker)}\n`);
    chmodSync(monitor, 0o755);
    git(repo, 'config', 'core.fsmonitor', monitor);
  });

  it('lists untracked, not ignored files as absolute paths, from any folder of the repository', () => {
    const untracked = createProbe().gitUntracked?.(join(repo, 'src'));
    expect(untracked).toEqual(expect.arrayContaining([join(repo, '.env'), join(repo, 'src', 'new file.ts')]));
    expect(untracked).not.toContain(join(repo, '.env.local'));
    expect(untracked).not.toContain(join(repo, 'dist', 'out.js'));
    expect(untracked).not.toContain(join(repo, 'README.md'));
    expect(existsSync(marker)).toBe(false);
  });

  it('lists tracked files with changes', () => {
    const modified = createProbe().gitModified?.(repo);
    expect(modified).toContain(join(repo, 'README.md'));
    expect(modified).not.toContain(join(repo, 'package.json'));
    expect(modified).not.toContain(join(repo, '.env'));
  });

  it('tells which paths git ignores, leaving out paths outside the repository', () => {
    const probe = createProbe();
    const asked = [
      join(repo, '.env.local'),
      join(repo, 'dist', 'out.js'),
      join(repo, '.env'),
      join(repo, 'README.md'),
      '/etc/passwd',
      'relative.txt',
    ];
    expect(probe.gitIgnored?.(repo, asked)).toEqual(new Set([join(repo, '.env.local'), join(repo, 'dist', 'out.js')]));
    // cached answers come back the same
    expect(probe.gitIgnored?.(repo, asked.slice(0, 3))).toEqual(
      new Set([join(repo, '.env.local'), join(repo, 'dist', 'out.js')]),
    );
    expect(probe.gitIgnored?.(repo, [join(repo, 'README.md')])).toEqual(new Set());
  });

  it('reads the branch from HEAD, and none when HEAD is detached', () => {
    expect(createProbe().gitBranch?.(join(repo, 'src'))).toBe('main');
    const detached = folder('detached', { 'a.txt': 'a' });
    git(detached, 'init', '-q', '-b', 'main');
    git(detached, 'add', '.');
    git(detached, 'commit', '-q', '-m', 'a');
    git(detached, 'checkout', '-q', '--detach');
    expect(createProbe().gitBranch?.(detached)).toBeUndefined();
  });

  it('follows a worktree gitdir file for the branch', () => {
    const worktree = join(base, 'worktree');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature/x', worktree);
    expect(readFileSync(join(worktree, '.git'), 'utf8')).toMatch(/^gitdir: /);
    expect(createProbe().gitBranch?.(worktree)).toBe('feature/x');
  });

  it('asks git about the named paths alone when given a scope, and reads none of the rest', () => {
    const probe = createProbe();
    expect(probe.gitUntracked?.(repo, { paths: [join(repo, 'src')] })).toEqual([join(repo, 'src', 'new file.ts')]);
    expect(probe.gitModified?.(repo, { paths: [join(repo, 'README.md')] })).toEqual([join(repo, 'README.md')]);
    expect(probe.gitModified?.(repo, { paths: [join(repo, 'src')] })).toEqual([]);
    // a path outside the repository has nothing in it to ask about; the top is the whole tree
    expect(probe.gitUntracked?.(repo, { paths: ['/elsewhere/x'] })).toEqual([]);
    expect(probe.gitUntracked?.(join(repo, 'src'), { paths: [repo] })).toEqual(
      expect.arrayContaining([join(repo, '.env'), join(repo, 'src', 'new file.ts')]),
    );
    expect(probe.gitUnchecked?.(repo)).toBe(false);
  });

  it('puts each question to git as narrowly as asked (pathspecs, no untracked files unless wanted)', () => {
    const bin = folder('logging-git', {});
    const calls = join(bin, 'calls.log');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nprintf '%s|' "$@" >> ${sq(calls)}\necho >> ${sq(calls)}\nexec ${sq(real)} "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    vi.stubEnv('PATH', `${bin}:${process.env.PATH ?? ''}`);
    try {
      const probe = createProbe();
      probe.gitModified?.(repo, { paths: [join(repo, 'README.md')] });
      probe.gitUntracked?.(repo, { paths: [join(repo, 'src')] });
      probe.gitModified?.(repo);
      // the whole tree: untracked files listed, not a status; tracked ones screened by name, then
      // a status of those alone (README.md is the one the screen lets through here)
      // (a new probe: the one above would answer from the status of the whole tree it made)
      const whole = createProbe();
      whole.gitUntracked?.(repo);
      const wanted = { test: (path: string) => path.endsWith('.md'), screen: ['*.md'] };
      expect(whole.gitModified?.(join(repo, 'src'), undefined, wanted)).toEqual([join(repo, 'README.md')]);
      // and answered from the status of the whole tree when one was made
      expect(probe.gitModified?.(repo, undefined, wanted)).toEqual([join(repo, 'README.md')]);
      const ran = readFileSync(calls, 'utf8').trim().split('\n');
      expect(ran).toEqual([
        expect.stringMatching(/\|status\|.*--untracked-files=no\|--\|:\(top,literal\)README\.md\|$/),
        expect.stringMatching(/\|status\|.*--untracked-files=all\|--\|:\(top,literal\)src\|$/),
        expect.stringMatching(/\|status\|.*--untracked-files=no\|--\|$/),
        expect.stringMatching(/\|ls-files\|-z\|--others\|--exclude-standard\|$/),
        expect.stringMatching(/\|ls-files\|-z\|--cached\|--ignored\|--exclude=\*\.md\|$/),
        expect.stringMatching(/\|status\|.*--untracked-files=no\|--\|:\(top,literal\)README\.md\|$/),
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('answers undefined outside a repository', () => {
    const plain = folder('plain', { 'a.txt': 'a' });
    const probe = createProbe();
    // the temp folder itself may sit inside a repository on some machines; only judge when not
    if (existsSync(join(tmpdir(), '.git'))) return;
    expect(probe.gitUntracked?.(plain)).toBeUndefined();
    expect(probe.gitModified?.(plain)).toBeUndefined();
    expect(probe.gitIgnored?.(plain, [join(plain, 'a.txt')])).toBeUndefined();
    expect(probe.gitBranch?.(plain)).toBeUndefined();
    // not a repository is not "could not check"
    expect(probe.gitUnchecked?.(plain)).toBe(false);
  });
});

describe.runIf(process.platform !== 'win32')('whole-tree questions put in parts', () => {
  // every kind of secrets file pathFacts knows (its own tests' table, in a repository), with names
  // in other cases and names read as patterns, and files beside them that are no secret
  const secrets = [
    '.env',
    'a/.env.local',
    '.env.production',
    'b/.env.vault',
    '.envrc',
    'prod.env',
    'config/secrets.env',
    '.ENV',
    '.env*',
    '*.env',
    '.e?v',
    'home/.ssh/id_rsa',
    'home/.ssh/work_github',
    'home/.ssh/config',
    'id_ed25519',
    'deploy/id_ecdsa',
    'server.pem',
    'Server.PEM',
    'ca-key.pem',
    'certs/server.key',
    'bundle.p12',
    'cert.pfx',
    'home/.gnupg/private-keys-v1.d/ABC.key',
    'home/.gnupg/secring.gpg',
    '.npmrc',
    'home/.pypirc',
    'home/.netrc',
    '_netrc',
    'home/.git-credentials',
    'home/.aws/credentials',
    'home/.aws/sso/cache/abc.json',
    'home/.config/gh/hosts.yml',
    'home/.docker/config.json',
    'home/.kube/config',
    'home/.azure/msal_token_cache.json',
    'home/.config/gcloud/credentials.db',
    'infra/terraform.tfstate',
    'terraform.tfstate.backup',
    'home/.config/google-chrome/Default/Cookies',
    'home/.config/chromium/Profile 1/Login Data',
    'home/.mozilla/firefox/abcd.default-release/logins.json',
    'home/Library/Application Support/Firefox/Profiles/x.default/key4.db',
    'home/Library/Cookies/Cookies.binarycookies',
    'home/Library/Keychains/login.keychain-db',
    'home/.local/share/keyrings/login.keyring',
  ];
  const others = ['src/app.ts', '.env.example', 'public.pem', 'home/.ssh/known_hosts', 'home/.aws/config', 'README.md'];

  it('finds the same changed secrets files as a status of the whole tree', () => {
    const repo = folder('secrets-repo', Object.fromEntries([...secrets, ...others].map((path) => [path, 'one\n'])));
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'all');
    for (const path of [...secrets, ...others]) writeFileSync(join(repo, path), 'two\n');
    const ctx = { cwd: repo, projectRoot: repo, home: join(repo, 'home'), tmp: tmpdir() };
    const test = (path: string): boolean => pathFacts(path, ctx).secret !== undefined;
    const whole = createProbe().gitModified?.(repo);
    expect(whole).toHaveLength(secrets.length + others.length);
    // the table holds what it says: every one a secrets file to pathFacts, none of the others
    expect((whole ?? []).filter(test).sort()).toEqual(secrets.map((path) => join(repo, path)).sort());
    const screened = createProbe().gitModified?.(repo, undefined, { test, screen: SECRET_SCREEN });
    expect([...(screened ?? [])].sort()).toEqual(secrets.map((path) => join(repo, path)).sort());
  });

  it('lists the same untracked files as a status of the whole tree, an untracked repository inside as a folder', () => {
    const repo = folder('untracked-repo', { '.gitignore': 'dist/\n*.log\n', 'kept.ts': '' });
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    for (const path of ['.env', 'src/new.ts', 'deep/er/.npmrc', 'dist/out.js', 'debug.log', 'odd name \u00e9.txt'])
      folder(join('untracked-repo', dirname(path)), { [path.split('/').pop() ?? '']: 'x' });
    git(join(repo, 'deep'), 'init', '-q');
    const listed = createProbe().gitUntracked?.(repo);
    const fromStatus = createProbe().gitUntracked?.(repo, { paths: [join(repo, 'deep'), join(repo, 'src')] });
    expect([...(listed ?? [])].sort()).toEqual(
      [join(repo, '.env'), join(repo, 'deep/'), join(repo, 'odd name \u00e9.txt'), join(repo, 'src', 'new.ts')].sort(),
    );
    expect(fromStatus).toEqual(expect.arrayContaining([join(repo, 'deep/'), join(repo, 'src', 'new.ts')]));
  });
});

describe.runIf(process.platform !== 'win32')('a git that hangs', () => {
  it('is given up after the timeout, and not waited for again in the same process', () => {
    const bin = folder('slow-bin', {});
    const calls = join(bin, 'calls.log');
    const sleep = `${sq(process.execPath)} -e 'setTimeout(() => {}, 10000)'`;
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho run >> ${sq(calls)}\nexec ${sleep}\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const repo = folder('slow-repo', { '.git/HEAD': 'ref: refs/heads/main\n' });
    vi.stubEnv('PATH', bin);
    try {
      const probe = createProbe({ timeoutMs: 200 });
      expect(probe.gitUnchecked?.(repo)).toBe(false);
      expect(probe.gitUntracked?.(repo)).toBeUndefined();
      // so a rule can tell "could not check" from "no repository"
      expect(probe.gitUnchecked?.(repo)).toBe(true);
      expect(probe.gitIgnored?.(repo, [join(repo, 'x')])).toBeUndefined();
      expect(probe.gitModified?.(repo, { paths: [join(repo, 'a')] })).toBeUndefined();
      expect(readFileSync(calls, 'utf8')).toBe('run\n');
      // the branch is read from the file, no git needed
      expect(probe.gitBranch?.(repo)).toBe('main');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe.runIf(process.platform !== 'win32')('a budget that is already spent', () => {
  it('runs no git at all and says it could not check', () => {
    const bin = folder('counting-bin', {});
    const calls = join(bin, 'calls.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho run >> ${sq(calls)}\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const repo = folder('late-repo', { '.git/HEAD': 'ref: refs/heads/main\n' });
    vi.stubEnv('PATH', bin);
    try {
      const probe = createProbe({ answerBy: Date.now() - 1 });
      expect(probe.gitModified?.(repo)).toBeUndefined();
      expect(probe.gitUnchecked?.(repo)).toBe(true);
      expect(existsSync(calls)).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('projectPackages', () => {
  it.for([
    {
      name: 'npm',
      files: {
        'package.json': JSON.stringify({
          dependencies: { React: '^19' },
          devDependencies: { vitest: '4' },
          optionalDependencies: { fsevents: '*' },
          peerDependencies: { '@types/node': '*' },
          scripts: { test: 'x' },
        }),
      },
      packages: ['react', 'vitest', 'fsevents', '@types/node'],
    },
    {
      name: 'pyproject',
      files: {
        'pyproject.toml': [
          '[project]',
          'dependencies = ["Requests[socks]>=2.31", "typing_extensions; python_version < \'3.11\'"]',
          '[project.optional-dependencies]',
          'test = ["pytest>=8"]',
          '[dependency-groups]',
          'dev = ["Ruff"]',
          '[tool.poetry.dependencies]',
          'python = "^3.11"',
          'Django = "^5"',
          '[tool.poetry.group.docs.dependencies]',
          'mkdocs = "*"',
        ].join('\n'),
      },
      packages: ['requests', 'typing-extensions', 'pytest', 'ruff', 'django', 'mkdocs'],
    },
    {
      name: 'requirements',
      files: {
        'requirements.txt':
          '# pinned\nnumpy==2.0  # math\n-r requirements-dev.txt\n--index-url https://example.org/simple\n-e .\n./local/pkg\nhttps://example.org/x.whl\nZope.Interface>=6\n',
        'requirements-dev.txt': 'black\n',
        'requirements.in': 'not-read\n',
      },
      packages: ['numpy', 'zope-interface', 'black'],
    },
    {
      name: 'uv',
      files: {
        'uv.lock': 'version = 1\n\n[[package]]\nname = "anyio"\nversion = "4"\n\n[[package]]\nname = "Flask_Login"\n',
      },
      packages: ['anyio', 'flask-login'],
    },
    {
      name: 'cargo',
      files: {
        'Cargo.toml':
          '[package]\nname = "app"\n[dependencies]\nserde = "1"\nrand_core = { package = "rand-core-fork", version = "1" }\n[dev-dependencies]\ninsta = "1"\n[target.\'cfg(unix)\'.dependencies]\nlibc = "0.2"\n[workspace.dependencies]\ntokio = "1"\n',
      },
      packages: ['serde', 'rand_core', 'rand-core-fork', 'insta', 'libc', 'tokio'],
    },
    {
      name: 'go',
      files: {
        'go.mod':
          'module example.com/app\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\n\nrequire (\n\tgolang.org/x/sync v0.7.0 // indirect\n\tgithub.com/Stretchr/testify v1.9.0\n)\n',
      },
      packages: ['github.com/spf13/cobra', 'golang.org/x/sync', 'github.com/stretchr/testify'],
    },
    {
      name: 'gem',
      files: { Gemfile: "source 'https://rubygems.org'\ngem 'rails', '~> 7'\n  gem \"rspec\"\n# gem 'old'\n" },
      packages: ['rails', 'rspec'],
    },
    {
      name: 'composer',
      files: {
        'composer.json':
          '{"require": {"php": ">=8", "Monolog/Monolog": "^3"}, "require-dev": {"phpunit/phpunit": "^11"}}',
      },
      packages: ['php', 'monolog/monolog', 'phpunit/phpunit'],
    },
    { name: 'empty-list', files: { 'package.json': '{"name": "x"}' }, packages: [] },
    {
      name: 'npm-workspaces',
      files: {
        'package.json': JSON.stringify({
          workspaces: ['packages/*', 'tools/cli', '!packages/skip', 'other/**/deep'],
          devDependencies: { typescript: '5' },
        }),
        'packages/a/package.json': '{"dependencies": {"zod": "3"}}',
        'packages/b/package.json': '{"devDependencies": {"vitest": "4"}}',
        'packages/not-a-folder': '',
        'tools/cli/package.json': '{"dependencies": {"commander": "14"}}',
        'other/x/deep/package.json': '{"dependencies": {"not-read": "1"}}',
      },
      packages: ['typescript', 'zod', 'vitest', 'commander'],
    },
    {
      name: 'yarn-workspaces',
      files: {
        'package.json': '{"workspaces": {"packages": ["apps/*"]}}',
        'apps/web/package.json': '{"dependencies": {"next": "15"}}',
      },
      packages: ['next'],
    },
    {
      name: 'pnpm-workspace',
      files: {
        'package.json': '{"private": true}',
        'pnpm-workspace.yaml':
          'packages:\n  # the apps\n  - \'packages/*\'\n  - "apps/web"\n\ncatalog:\n  - not/a/folder\n',
        'packages/core/package.json': '{"dependencies": {"shell-quote": "1"}}',
        'apps/web/package.json': '{"dependencies": {"react": "19"}}',
        'not/a/folder/package.json': '{"dependencies": {"not-read": "1"}}',
      },
      packages: ['shell-quote', 'react'],
    },
  ])('$name', ({ name, files, packages }) => {
    expect(createProbe().projectPackages?.(folder(`pkg-${name}`, files))).toEqual(new Set(packages));
  });

  it.for([
    { name: 'nothing', files: { 'README.md': '# x' } },
    { name: 'broken-json', files: { 'package.json': '{"dependencies": ' } },
    { name: 'folder-named-like-a-list', files: { 'package.json/x': '' } },
  ])('undefined when the folder has no readable list ($name)', ({ name, files }) => {
    expect(createProbe().projectPackages?.(folder(`none-${name}`, files))).toBeUndefined();
  });

  it('answers from its cache for the rest of the process', () => {
    const dir = folder('cached', { 'package.json': '{"dependencies": {"a": "1"}}' });
    const probe = createProbe();
    expect(probe.projectPackages?.(dir)).toEqual(new Set(['a']));
    writeFileSync(join(dir, 'package.json'), '{"dependencies": {"b": "1"}}');
    expect(probe.projectPackages?.(dir)).toEqual(new Set(['a']));
  });

  it('reads a broken pyproject.toml as listing nothing rather than failing', () => {
    expect(
      createProbe().projectPackages?.(folder('bad-toml', { 'pyproject.toml': '[project\ndependencies = [' })),
    ).toEqual(new Set());
  });
});
