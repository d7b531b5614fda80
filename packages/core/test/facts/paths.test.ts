import { describe, expect, it } from 'vitest';
import { globMatch, isInside, pathFacts } from '../../src/facts/paths.js';
import type { PathContext } from '../../src/facts/paths.js';
import { RELAY, relayMovedTo } from '../stand-in-agent.js';

// the agents on this machine: the stand-in Relay (the real agents' files are in test/agents/)
const ctx: PathContext = {
  cwd: '/home/dev/project/src',
  projectRoot: '/home/dev/project',
  home: '/home/dev',
  tmp: '/var/folders/xy/T',
  guardHome: '/home/dev/.local/state/guard',
  agents: RELAY,
};

const { agents: _relay, ...withoutAgents } = ctx;

const winCtx: PathContext = {
  cwd: 'C:\\Users\\dev\\project',
  projectRoot: 'C:\\Users\\dev\\project',
  home: 'C:\\Users\\dev',
  tmp: 'C:\\Users\\dev\\AppData\\Local\\Temp',
  agents: RELAY,
};

describe('pathFacts: abs and place', () => {
  it.for([
    { raw: 'a.txt', abs: '/home/dev/project/src/a.txt', place: 'project' },
    { raw: './a/../b.txt', abs: '/home/dev/project/src/b.txt', place: 'project' },
    { raw: '..', abs: '/home/dev/project', place: 'project' },
    { raw: '.', abs: '/home/dev/project/src', place: 'project' },
    { raw: '/home/dev/project', abs: '/home/dev/project', place: 'project' },
    { raw: '../node_modules', abs: '/home/dev/project/node_modules', place: 'regenerable' },
    { raw: '../packages/x/dist/index.js', abs: '/home/dev/project/packages/x/dist/index.js', place: 'regenerable' },
    { raw: '__pycache__/m.pyc', abs: '/home/dev/project/src/__pycache__/m.pyc', place: 'regenerable' },
    { raw: '../.next', abs: '/home/dev/project/.next', place: 'regenerable' },
    { raw: '../target/debug', abs: '/home/dev/project/target/debug', place: 'regenerable' },
    { raw: '../coverage', abs: '/home/dev/project/coverage', place: 'regenerable' },
    { raw: '../.cache/x', abs: '/home/dev/project/.cache/x', place: 'regenerable' },
    { raw: 'm.pyc', abs: '/home/dev/project/src/m.pyc', place: 'regenerable' },
    { raw: '**/*.py[co]', abs: '/home/dev/project/src/**/*.py[co]', place: 'regenerable' },
    { raw: '../.DS_Store', abs: '/home/dev/project/.DS_Store', place: 'regenerable' },
    { raw: 'lib/util.o', abs: '/home/dev/project/src/lib/util.o', place: 'regenerable' },
    { raw: '../.mypy_cache', abs: '/home/dev/project/.mypy_cache', place: 'regenerable' },
    // near misses: similar names are ordinary project files; outside the project nothing is regenerable
    { raw: '../distribution', abs: '/home/dev/project/distribution', place: 'project' },
    { raw: '../src/builder.ts', abs: '/home/dev/project/src/builder.ts', place: 'project' },
    { raw: 'm.py', abs: '/home/dev/project/src/m.py', place: 'project' },
    { raw: 'photo.jpg.o.txt', abs: '/home/dev/project/src/photo.jpg.o.txt', place: 'project' },
    { raw: '~/m.pyc', abs: '/home/dev/m.pyc', place: 'home' },
    { raw: '~/other/node_modules', abs: '/home/dev/other/node_modules', place: 'home' },
    { raw: '/tmp/x', abs: '/tmp/x', place: 'temp' },
    { raw: '/var/tmp/cache/y', abs: '/var/tmp/cache/y', place: 'temp' },
    { raw: '/var/folders/xy/T/z', abs: '/var/folders/xy/T/z', place: 'temp' },
    { raw: '$TMPDIR/out.log', abs: '/var/folders/xy/T/out.log', place: 'temp' },
    { raw: '${TMPDIR}/out.log', abs: '/var/folders/xy/T/out.log', place: 'temp' },
    { raw: '/tmpfoo/x', abs: '/tmpfoo/x', place: 'outside' },
    { raw: '~', abs: '/home/dev', place: 'home' },
    { raw: '~/', abs: '/home/dev', place: 'home' },
    { raw: '$HOME', abs: '/home/dev', place: 'home' },
    { raw: '${HOME}/notes', abs: '/home/dev/notes', place: 'home' },
    { raw: '~/../dev/x', abs: '/home/dev/x', place: 'home' },
    { raw: '/home/dev2/x', abs: '/home/dev2/x', place: 'outside' },
    { raw: '/opt/app/conf', abs: '/opt/app/conf', place: 'outside' },
    { raw: '/etc/nginx/nginx.conf', abs: '/etc/nginx/nginx.conf', place: 'outside' },
    { raw: '/', abs: '/', place: 'root' },
    { raw: '//', abs: '/', place: 'root' },
    { raw: '/..', abs: '/', place: 'root' },
    { raw: '../../../..', abs: '/', place: 'root' },
    { raw: '/etc', abs: '/etc', place: 'root' },
    { raw: '/usr', abs: '/usr', place: 'root' },
    { raw: '/usr/lib', abs: '/usr/lib', place: 'root' },
    { raw: '/var/log', abs: '/var/log', place: 'root' },
    { raw: '/tmp', abs: '/tmp', place: 'root' },
    { raw: '/home', abs: '/home', place: 'root' },
    { raw: '/System/Library', abs: '/System/Library', place: 'root' },
    { raw: '/usr/lib/x', abs: '/usr/lib/x', place: 'outside' },
    { raw: '/dev/sda', abs: '/dev/sda', place: 'device' },
    { raw: '/dev/null', abs: '/dev/null', place: 'device' },
    { raw: '/device/x', abs: '/device/x', place: 'outside' },
    { raw: '$DIR', abs: '', place: 'unresolved' },
    { raw: '${DIR}/x', abs: '', place: 'unresolved' },
    { raw: '$(pwd)/x', abs: '', place: 'unresolved' },
    { raw: '`pwd`/x', abs: '', place: 'unresolved' },
    { raw: '$1', abs: '', place: 'unresolved' },
    { raw: '~bob/x', abs: '', place: 'unresolved' },
    { raw: '$HOMEDIR/x', abs: '', place: 'unresolved' },
    { raw: '', abs: '', place: 'unresolved' },
    { raw: 'price$', abs: '/home/dev/project/src/price$', place: 'project' },
    { raw: '"my file.txt"', abs: '/home/dev/project/src/my file.txt', place: 'project' },
    { raw: ".e''nv", abs: '/home/dev/project/src/.env', place: 'project' },
    { raw: 'a\\ b', abs: '/home/dev/project/src/a b', place: 'project' },
    // a first separator that is a backslash: a Windows line's path, not an escape
    { raw: '/tmp\\out', abs: '/tmp/out', place: 'temp' },
    { raw: 'dist\\app.js', abs: '/home/dev/project/src/dist/app.js', place: 'regenerable' },
    { raw: 'lib\\..\\..\\..\\.ssh', abs: '/home/dev/.ssh', place: 'home' },
    { raw: '$PWD/x', abs: '/home/dev/project/src/x', place: 'project' },
    { raw: '$(mktemp -d)/x', abs: '/var/folders/xy/T/tmp.mktemp/x', place: 'temp' },
    { raw: '$(mktemp -t run.XXXX)', abs: '/var/folders/xy/T/tmp.mktemp', place: 'temp' },
    { raw: '$(mktemp -d run.XXXX)', abs: '', place: 'unresolved' },
    { raw: '$(mktemp -p /srv)', abs: '', place: 'unresolved' },
    { raw: '/tmp/$(whoami)-jest', abs: '/tmp/name-jest', place: 'temp' },
    { raw: '/tmp/run-$$/out', abs: '/tmp/run-name/out', place: 'temp' },
    { raw: '/tmp/$(echo x)', abs: '', place: 'unresolved' },
    { raw: '/tmp/$RANDOMX', abs: '', place: 'unresolved' },
    { raw: '.venv/lib', abs: '/home/dev/project/src/.venv/lib', place: 'regenerable' },
    { raw: 'pkg.egg-info', abs: '/home/dev/project/src/pkg.egg-info', place: 'regenerable' },
    { raw: 'venv-notes', abs: '/home/dev/project/src/venv-notes', place: 'project' },
    { raw: '../bin/Debug/net8.0', abs: '/home/dev/project/bin/Debug/net8.0', place: 'regenerable' },
    { raw: '../bin/deploy.sh', abs: '/home/dev/project/bin/deploy.sh', place: 'project' },
  ] as const)('$raw → $abs ($place)', ({ raw, abs, place }) => {
    const f = pathFacts(raw, ctx);
    expect(f.raw).toBe(raw);
    expect(f.abs).toBe(abs);
    expect(f.place).toBe(place);
  });

  it('a project that is the root itself says nothing about where paths land', () => {
    const rooted = { ...ctx, cwd: '/', projectRoot: '/' };
    expect(pathFacts('/etc', rooted).place).toBe('root');
    expect(pathFacts('/home/dev/x', rooted).place).toBe('home');
    expect(pathFacts('/srv/www/x', rooted).place).toBe('outside');
  });

  it('a project at the top level is still the project', () => {
    const docker = { ...ctx, cwd: '/app', projectRoot: '/app' };
    expect(pathFacts('/app', docker).place).toBe('project');
    expect(pathFacts('dist', docker).place).toBe('regenerable');
    expect(pathFacts('/srv', docker).place).toBe('root');
  });

  it('a project inside the temp folder is the project', () => {
    const t = { ...ctx, cwd: '/tmp/p', projectRoot: '/tmp/p' };
    expect(pathFacts('src/a.ts', t).place).toBe('project');
    expect(pathFacts('/tmp/other', t).place).toBe('temp');
  });
});

// A home folder inside the temp folder (containers, CI runners, sandboxes) is still a home: what
// lies in it is home, its secrets are secrets and guard's folder in it is guard's; a temp folder
// inside the home (`TMPDIR=~/tmp`) is still a temp folder. The deeper of the two decides.
describe('pathFacts: a home in the temp folder, a temp folder in the home', () => {
  const inTemp: PathContext = {
    cwd: '/tmp/ci/home/project',
    projectRoot: '/tmp/ci/home/project',
    home: '/tmp/ci/home',
    tmp: '/tmp',
    guardHome: '/tmp/ci/home/.local/state/guard',
    agents: RELAY,
  };
  const tempInHome: PathContext = { ...ctx, tmp: '/home/dev/tmp' };
  it.for([
    { world: 'home in temp', raw: '~/work', place: 'home' },
    { world: 'home in temp', raw: '~/.gnupg', place: 'home' },
    { world: 'home in temp', raw: '$HOME/notes/todo.md', place: 'home' },
    { world: 'home in temp', raw: '/tmp/ci/home/tmp/x', place: 'home' },
    { world: 'home in temp', raw: '~', place: 'home' },
    // near misses: beside the home in the temp folder is temp, the project is the project
    { world: 'home in temp', raw: '/tmp/ci/other/x', place: 'temp' },
    { world: 'home in temp', raw: '/tmp/build.log', place: 'temp' },
    { world: 'home in temp', raw: '/tmp/ci/homework/x', place: 'temp' },
    { world: 'home in temp', raw: 'dist/app.js', place: 'regenerable' },
    { world: 'home in temp', raw: 'src/app.ts', place: 'project' },
    { world: 'temp in home', raw: '~/tmp/x', place: 'temp' },
    { world: 'temp in home', raw: '$TMPDIR/out.log', place: 'temp' },
    { world: 'temp in home', raw: '~/tmpfiles/x', place: 'home' },
    { world: 'temp in home', raw: '/tmp/x', place: 'temp' },
  ])('$world: $raw is $place', ({ world, raw, place }) => {
    expect(pathFacts(raw, world === 'home in temp' ? inTemp : tempInHome).place).toBe(place);
  });

  it.for([
    { raw: '~/.ssh/id_ed25519', secret: 'ssh' },
    { raw: '~/.aws/credentials', secret: 'cloud-login' },
    { raw: '/tmp/ci/home/project/.env', secret: 'env-file' },
  ])('home in temp: $raw is still a secret ($secret)', ({ raw, secret }) => {
    expect(pathFacts(raw, inTemp).secret).toBe(secret);
  });

  it.for([
    '~/.local/state/guard/settings.yaml',
    '/tmp/ci/home/.local/state/guard',
    '~/.local/state/guard/chats/x.json',
  ])("home in temp: %s is guard's folder", (raw) => {
    expect(pathFacts(raw, inTemp).guardFile).toBe('guard-home');
  });
});

describe('pathFacts: isHome, isRoot, glob', () => {
  it.for([
    { raw: '~', isHome: true, isRoot: false, glob: false },
    { raw: '~/', isHome: true, isRoot: false, glob: false },
    { raw: '$HOME', isHome: true, isRoot: false, glob: false },
    { raw: '${HOME}/', isHome: true, isRoot: false, glob: false },
    { raw: '/home/dev/', isHome: true, isRoot: false, glob: false },
    { raw: '~/*', isHome: true, isRoot: false, glob: true },
    { raw: '/', isHome: false, isRoot: true, glob: false },
    { raw: '/*', isHome: false, isRoot: true, glob: true },
    { raw: '/.', isHome: false, isRoot: true, glob: false },
    // near misses
    { raw: '~/x', isHome: false, isRoot: false, glob: false },
    { raw: '~/*.log', isHome: false, isRoot: false, glob: true },
    { raw: '~/.*', isHome: false, isRoot: false, glob: true },
    { raw: '/etc', isHome: false, isRoot: false, glob: false },
    { raw: '/*.txt', isHome: false, isRoot: false, glob: true },
    { raw: "'/*'", isHome: false, isRoot: false, glob: false },
    { raw: '"*.txt"', isHome: false, isRoot: false, glob: false },
    { raw: '\\*.txt', isHome: false, isRoot: false, glob: false },
    { raw: 'file?.txt', isHome: false, isRoot: false, glob: true },
    { raw: 'file[12].txt', isHome: false, isRoot: false, glob: true },
    { raw: 'src/*.ts', isHome: false, isRoot: false, glob: true },
  ] as const)('$raw', ({ raw, isHome, isRoot, glob }) => {
    const f = pathFacts(raw, ctx);
    expect({ isHome: f.isHome, isRoot: f.isRoot, glob: f.glob }).toEqual({ isHome, isRoot, glob });
  });
});

describe('pathFacts: Windows forms', () => {
  it.for([
    { raw: 'C:\\', abs: 'C:/', place: 'root', isRoot: true, isHome: false },
    { raw: 'c:/', abs: 'C:/', place: 'root', isRoot: true, isHome: false },
    { raw: 'C:', abs: 'C:/', place: 'root', isRoot: true, isHome: false },
    { raw: 'C:\\*', abs: 'C:/*', place: 'root', isRoot: true, isHome: false },
    { raw: 'C:\\Windows', abs: 'C:/Windows', place: 'root', isRoot: false, isHome: false },
    { raw: 'C:\\Windows\\System32', abs: 'C:/Windows/System32', place: 'root', isRoot: false, isHome: false },
    { raw: 'C:\\Users\\dev', abs: 'C:/Users/dev', place: 'home', isRoot: false, isHome: true },
    { raw: '%USERPROFILE%', abs: 'C:/Users/dev', place: 'home', isRoot: false, isHome: true },
    { raw: '$env:USERPROFILE\\Desktop', abs: 'C:/Users/dev/Desktop', place: 'home', isRoot: false, isHome: false },
    { raw: '%TEMP%\\x.txt', abs: 'C:/Users/dev/AppData/Local/Temp/x.txt', place: 'temp', isRoot: false, isHome: false },
    { raw: '.\\src\\a.ts', abs: 'C:/Users/dev/project/src/a.ts', place: 'project', isRoot: false, isHome: false },
    {
      raw: 'C:\\Users\\dev\\project\\dist',
      abs: 'C:/Users/dev/project/dist',
      place: 'regenerable',
      isRoot: false,
      isHome: false,
    },
    { raw: 'D:\\data\\x', abs: 'D:/data/x', place: 'outside', isRoot: false, isHome: false },
    { raw: '%APPDATA%\\x', abs: '', place: 'unresolved', isRoot: false, isHome: false },
  ] as const)('$raw → $abs', ({ raw, abs, place, isRoot, isHome }) => {
    const f = pathFacts(raw, winCtx);
    expect({ abs: f.abs, place: f.place, isRoot: f.isRoot, isHome: f.isHome }).toEqual({ abs, place, isRoot, isHome });
  });

  it('classifies Windows secrets, hooks and start-up folders', () => {
    expect(pathFacts('%USERPROFILE%\\.ssh\\id_ed25519', winCtx).secret).toBe('ssh');
    expect(pathFacts('C:\\Users\\dev\\.relay\\hooks.json', winCtx).guardFile).toBe('hook-config');
    expect(pathFacts('C:\\ProgramData\\Relay\\policy.json', winCtx).guardFile).toBe('hook-config');
    expect(pathFacts('c:/programdata/relay/policy.json', winCtx).guardFile).toBeUndefined();
    expect(
      pathFacts('C:\\Users\\dev\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Network\\Cookies', winCtx).secret,
    ).toBe('browser-data');
    expect(
      pathFacts('%USERPROFILE%\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.lnk', winCtx)
        .persistence,
    ).toBe(true);
    expect(
      pathFacts('%USERPROFILE%\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1', winCtx).persistence,
    ).toBe(true);
    expect(pathFacts('%USERPROFILE%\\Documents\\notes.ps1', winCtx).persistence).toBeUndefined();
  });
});

describe('pathFacts: secret', () => {
  it.for([
    ['.env', 'env-file'],
    ['../.env', 'env-file'],
    ['.env.local', 'env-file'],
    ['.env.production', 'env-file'],
    ['.env.test', 'env-file'],
    ['.env.vault', 'env-file'],
    ['.env*', 'env-file'],
    ['*.env', 'env-file'],
    ['.envrc', 'env-file'],
    ['prod.env', 'env-file'],
    ['config/secrets.env', 'env-file'],
    ['$DIR/.env', 'env-file'],
    ['~/.ssh/id_rsa', 'ssh'],
    ['~/.ssh/id_ed25519', 'ssh'],
    ['~/.ssh/id_ecdsa', 'ssh'],
    ['~/.ssh/work_github', 'ssh'],
    ['~/.ssh/config', 'ssh'],
    ['~/.ssh/authorized_keys', 'ssh'],
    ['~/.ssh', 'ssh'],
    ['~/.ssh/', 'ssh'],
    ['~/.ssh/*', 'ssh'],
    ['/root/.ssh/id_rsa', 'ssh'],
    ['~bob/.ssh/id_rsa', 'ssh'],
    ['server.pem', 'private-key'],
    ['privkey.pem', 'private-key'],
    ['ca-key.pem', 'private-key'],
    ['rootCA-key.pem', 'private-key'],
    ['certs/server.key', 'private-key'],
    ['*.pem', 'private-key'],
    ['bundle.p12', 'private-key'],
    ['cert.pfx', 'private-key'],
    ['~/.gnupg/private-keys-v1.d/ABC.key', 'private-key'],
    ['.npmrc', 'package-token'],
    ['~/.npmrc', 'package-token'],
    ['~/.pypirc', 'package-token'],
    ['~/.netrc', 'git-credentials'],
    ['_netrc', 'git-credentials'],
    ['~/.git-credentials', 'git-credentials'],
    ['~/.aws/credentials', 'cloud-login'],
    ['~/.aws', 'cloud-login'],
    ['~/.aws/sso/cache/abc.json', 'cloud-login'],
    ['~/.config/gh/hosts.yml', 'cloud-login'],
    ['~/.docker/config.json', 'cloud-login'],
    ['~/.kube/config', 'cloud-login'],
    ['~/.azure/msal_token_cache.json', 'cloud-login'],
    ['~/.azure', 'cloud-login'],
    ['~/.config/gcloud/credentials.db', 'cloud-login'],
    ['~/.config/gcloud', 'cloud-login'],
    ['infra/terraform.tfstate', 'terraform-state'],
    ['terraform.tfstate.backup', 'terraform-state'],
    ['~/.config/google-chrome/Default/Cookies', 'browser-data'],
    ['~/.config/chromium/Profile 1/Login Data', 'browser-data'],
    ['~/.config/BraveSoftware/Brave-Browser/Default/Web Data', 'browser-data'],
    ['~/Library/Application Support/Google/Chrome/Default/Cookies', 'browser-data'],
    ['~/Library/Application Support/Microsoft Edge/Default/Login Data', 'browser-data'],
    ['~/.mozilla/firefox/abcd.default-release/cookies.sqlite', 'browser-data'],
    ['~/.mozilla/firefox/abcd.default-release/logins.json', 'browser-data'],
    ['~/Library/Application Support/Firefox/Profiles/x.default/key4.db', 'browser-data'],
    ['~/Library/Cookies/Cookies.binarycookies', 'browser-data'],
    ['~/Library/Keychains/login.keychain-db', 'keychain'],
    ['/Library/Keychains/System.keychain', 'keychain'],
    ['~/.local/share/keyrings/login.keyring', 'keychain'],
  ] as const)('%s is a secret (%s)', ([raw, kind]) => {
    expect(pathFacts(raw, ctx).secret).toBe(kind);
  });

  it.for([
    'password-reset.ts',
    'src/env.ts',
    'environment.ts',
    '.env.example',
    '.env.sample',
    '.env.template',
    '.env.dist',
    '.env.defaults',
    '.env.local.example',
    'example.env',
    '.environment',
    'venv/bin/python',
    '.env/bin/python',
    'id_ed25519.pub',
    '~/.ssh/id_ed25519.pub',
    '~/.ssh/known_hosts',
    '~/.ssh/known_hosts.old',
    'keyboard.ts',
    'monkey.pem.md',
    'docs/secrets.md',
    'tokenizer.py',
    'credentials.example.json',
    'key.ts',
    'public.pem',
    'id_rsa.pub.pem',
    'cert.pem',
    'fullchain.pem',
    'ca.pem',
    'rootCA.pem',
    'cacert.pem',
    'ca-bundle.pem',
    'server.crt',
    'public.key',
    '~/.aws/config',
    '~/.kube/cache/discovery/x.json',
    'infra/.azure/dev/config.json',
    'src/Cookies',
    'fixtures/logins.json',
    'terraform.tf',
    'docs/ssh.md',
    '.sshrc',
    'src/keychain.ts',
    '.npmrc.md',
  ])('%s is not a secret', (raw) => {
    expect(pathFacts(raw, ctx).secret).toBeUndefined();
  });

  it('adds the project policy globs', () => {
    const policy = {
      ...ctx,
      extraSecrets: ['config/prod.json', 'secrets', '*.sqlite', '~/.vault-token', '/srv/keys/**'],
    };
    expect(pathFacts('../config/prod.json', policy).secret).toBe('policy');
    expect(pathFacts('../secrets/db.txt', policy).secret).toBe('policy');
    expect(pathFacts('../a/b/secrets', policy).secret).toBe('policy');
    expect(pathFacts('../data/app.sqlite', policy).secret).toBe('policy');
    expect(pathFacts('~/.vault-token', policy).secret).toBe('policy');
    expect(pathFacts('/srv/keys/a/b', policy).secret).toBe('policy');
    expect(pathFacts('../config/dev.json', policy).secret).toBeUndefined();
    expect(pathFacts('../secrets-guide.md', policy).secret).toBeUndefined();
    expect(pathFacts('~/other/config/prod.json', policy).secret).toBeUndefined();
    expect(pathFacts('/srv/other', policy).secret).toBeUndefined();
  });
});

describe('pathFacts: agentRules', () => {
  it.for([
    // the stand-in agent's files (an adapter's declaration), in each form of path pattern
    ['../AGENTS.md', 'rules'],
    ['packages/x/AGENTS.md', 'rules'],
    ['RELAY.md', 'rules'],
    ['~/RELAY.md', 'rules'],
    ['/srv/other/RELAY.md', 'rules'],
    ['$SOMEWHERE/RELAY.md', 'rules'],
    ['../.relay/rules/style.md', 'rules'],
    ['../.relay/rules', 'rules'],
    ['~/.relay/rules/deep/er/x.md', 'rules'],
    ['../.relay/settings.json', 'settings'],
    ['../.relay/config.toml', 'settings'],
    ['../.relay/mcp.json', 'mcp'],
    ['~/.relay/projects/-home-dev-project/memory/MEMORY.md', 'memory-note'],
    ['/home/other/.relay/projects/p/memory', 'memory-note'],
    ['~other/.relay/projects/p/memory/a.md', 'memory-note'],
    ['../.git/hooks/pre-commit', 'git-hooks'],
    ['../.git/hooks', 'git-hooks'],
    ['../.git/config', 'git-hooks'],
    ['../.husky/pre-push', 'git-hooks'],
    ['../.pre-commit-config.yaml', 'git-hooks'],
    ['../lefthook.yml', 'git-hooks'],
    ['../.github/workflows/ci.yml', 'ci'],
    ['../.github/actions/setup/action.yml', 'ci'],
    ['../.gitlab-ci.yml', 'ci'],
    ['../.circleci/config.yml', 'ci'],
    ['../azure-pipelines.yml', 'ci'],
    ['../Jenkinsfile', 'ci'],
    ['../.buildkite/pipeline.yml', 'ci'],
  ] as const)('%s → %s', ([raw, kind]) => {
    expect(pathFacts(raw, ctx).agentRules).toBe(kind);
  });

  it.for([
    'README.md',
    'docs/agents.md',
    'src/agents/index.ts',
    // near misses of the stand-in agent's files
    'relay.md',
    'RELAY.md.bak',
    '../relay/rules/a.md',
    '../.relay/notes.md',
    '../.relay/rules.md',
    '~/.relay/projects/-home-dev-project/abc.jsonl',
    '~/.relay/projects/memory/a.md',
    '/srv/.relay/projects/p/memory/a.md',
    '../.relay/mcp.json.bak',
    '../.github/CODEOWNERS',
    '../.github/dependabot.yml',
    '../.git/HEAD',
    '../.gitignore',
    '../src/hooks/useThing.ts',
    '../workflows/x.yml',
    '../mcp.json',
    '../husky.config.js',
  ])('%s is not an agent rules file', (raw) => {
    expect(pathFacts(raw, ctx).agentRules).toBeUndefined();
  });
});

describe('pathFacts: guardFile', () => {
  it.for([
    ['~/.local/state/guard/settings.yaml', 'guard-home'],
    ['~/.local/state/guard', 'guard-home'],
    ['~/.local/state', 'guard-home'],
    ['~/.local', 'guard-home'],
    ['../.guard.yaml', 'policy'],
    // the stand-in agent's hook files and folders, by every form of path pattern
    ['~/.relay/hooks.json', 'hook-config'],
    ['~/.relay/config.toml', 'hook-config'],
    ['../.relay/hooks.json', 'hook-config'],
    ['/srv/other/.relay/hooks.json', 'hook-config'],
    ['$SOMEWHERE/.relay/hooks.json', 'hook-config'],
    ['../.github/hooks', 'hook-config'],
    ['../.github/hooks/guard.json', 'hook-config'],
    ['../.github/hooks/a/b.json', 'hook-config'],
    ['~/.relay', 'hook-config'],
    ['/home/other/.relay', 'hook-config'],
    ['/etc/relay', 'hook-config'],
    ['/etc/relay/managed.json', 'hook-config'],
    ['$RELAY_HOME/hooks.json', 'hook-config'],
    ['${RELAY_HOME}/config.toml', 'hook-config'],
    ['$relay_home/hooks.json', 'hook-config'],
    ['$GUARD_HOME/state.json', 'guard-home'],
    ['/usr/lib/node_modules/agent-step-guard', 'install'],
    ['/usr/lib/node_modules/agent-step-guard/dist/hook-entry.cjs', 'install'],
    ['~/.npm-global/lib/node_modules/agent-step-guard/package.json', 'install'],
    ['C:\\Users\\dev\\AppData\\Roaming\\npm\\node_modules\\agent-step-guard\\dist\\bin.js', 'install'],
    // issue 12: any project policy file, a nested repository's or a subfolder's too
    ['.guard.yaml', 'policy'],
    ['../docs/.guard.yaml', 'policy'],
  ] as const)('%s → %s', ([raw, kind]) => {
    expect(pathFacts(raw, ctx).guardFile).toBe(kind);
  });

  it.for([
    '../guard.yaml',
    '../docs/guard.yaml.txt',
    '../.guard.yml.example',
    '~/.local/share/x',
    '~/.local/state/other/x',
    '~',
    '/',
    '/home',
    '../.github',
    '../.github/workflows/ci.yml',
    '../src/hooks.json',
    '/usr/lib/node_modules/agent-step-guardian/index.js',
    '/usr/lib/node_modules',
    '../vendor/agent-step-guard/x.js',
    '../agent-step-guard/dist/bin.js',
  ])('%s is not a guard file', (raw) => {
    expect(pathFacts(raw, ctx).guardFile).toBeUndefined();
  });

  it("knows guard's own program by the folders that hold it, wherever they are", () => {
    const here = { ...ctx, guardCode: ['/opt/src/guard/packages/cli', '/opt/src/guard/packages/core'] };
    expect(pathFacts('/opt/src/guard/packages/cli/dist/bin.js', here).guardFile).toBe('install');
    expect(pathFacts('/opt/src/guard/packages/core/dist/index.js', here).guardFile).toBe('install');
    expect(pathFacts('/opt/src/guard/packages', here).guardFile).toBe('install');
    expect(pathFacts('/opt/src/guard', here).guardFile).toBe('install');
    expect(pathFacts('/opt/src/guard/README.md', here).guardFile).toBeUndefined();
    expect(pathFacts('/opt/src/guard/packages/adapters/dist/x.js', here).guardFile).toBeUndefined();
    expect(pathFacts('/opt', here).guardFile).toBeUndefined();
    expect(pathFacts('/opt/src/guard/packages/cli/dist/bin.js', ctx).guardFile).toBeUndefined();
  });

  it("follows an agent's moved folder and guard's", () => {
    const moved = { ...ctx, agents: relayMovedTo('/opt/relay'), guardHome: '/srv/guard' };
    expect(pathFacts('/opt/relay/hooks.json', moved).guardFile).toBe('hook-config');
    expect(pathFacts('/opt/relay/config.toml', moved).guardFile).toBe('hook-config');
    expect(pathFacts('/opt/relay', moved).guardFile).toBe('hook-config');
    expect(pathFacts('$RELAY_HOME/hooks.json', moved).abs).toBe('/opt/relay/hooks.json');
    expect(pathFacts('$RELAY_HOME/hooks.json', ctx).abs).toBe('/home/dev/.relay/hooks.json');
    expect(pathFacts('$RELAY_HOME/hooks.json', withoutAgents).place).toBe('unresolved');
    expect(pathFacts('/srv/guard/log.jsonl', moved).guardFile).toBe('guard-home');
    // the default folder is still protected; near misses are not
    expect(pathFacts('~/.relay/hooks.json', moved).guardFile).toBe('hook-config');
    expect(pathFacts('/opt/relay/sessions/x.jsonl', moved).guardFile).toBeUndefined();
    expect(pathFacts('/opt/relay/hooks.json.bak', moved).guardFile).toBeUndefined();
    expect(pathFacts('/opt/relayx/hooks.json', moved).guardFile).toBeUndefined();
    expect(pathFacts('/opt', moved).guardFile).toBeUndefined();
    expect(pathFacts('/srv/other', moved).guardFile).toBeUndefined();
    expect(pathFacts('/srv', moved).guardFile).toBeUndefined();
  });

  it('moved into the temp folder, still a hook file: protection wins over temp', () => {
    const moved = { ...ctx, agents: relayMovedTo('/var/folders/xy/T/relay') };
    const facts = pathFacts('/var/folders/xy/T/relay/hooks.json', moved);
    expect(facts).toMatchObject({ place: 'temp', guardFile: 'hook-config' });
    expect(pathFacts('/var/folders/xy/T/other/hooks.json', moved).guardFile).toBeUndefined();
  });

  it('knows no agent when none is declared', () => {
    expect(pathFacts('~/.relay/hooks.json', withoutAgents).guardFile).toBeUndefined();
    expect(pathFacts('RELAY.md', withoutAgents).agentRules).toBeUndefined();
    expect(pathFacts('../.github/workflows/ci.yml', withoutAgents).agentRules).toBe('ci');
  });
});

describe('pathFacts: persistence', () => {
  it.for([
    '~/.bashrc',
    '~/.bash_profile',
    '~/.bash_login',
    '~/.profile',
    '~/.zshrc',
    '~/.zprofile',
    '~/.zshenv',
    '~/.zlogin',
    '$HOME/.bashrc',
    '/root/.bashrc',
    '/home/other/.zshrc',
    '~/.config/fish/config.fish',
    '~/.config/fish/conf.d/x.fish',
    '~/.config/powershell/Microsoft.PowerShell_profile.ps1',
    '~/.config/autostart/x.desktop',
    '~/Library/LaunchAgents/com.x.plist',
    '/Library/LaunchAgents/com.x.plist',
    '/Library/LaunchDaemons/com.x.plist',
    '/etc/crontab',
    '/etc/cron.d/job',
    '/etc/cron.daily/job',
    '/var/spool/cron/crontabs/dev',
    '/etc/systemd/system/x.service',
    '~/.config/systemd/user/x.service',
    '/etc/rc.local',
    '/etc/profile.d/x.sh',
    '~bob/.bashrc',
    '~/.bash_aliases',
    '$PROFILE',
    '$profile.CurrentUserAllHosts',
  ])('%s starts something by itself', (raw) => {
    expect(pathFacts(raw, ctx).persistence).toBe(true);
  });

  it.for([
    '../.bashrc',
    '../dotfiles/.zshrc',
    '~/.bashrc.bak',
    '~/docs/.profile',
    '~/.config/fish/functions/x.fish',
    '/etc/hosts',
    '/etc/systemd/journald.conf',
    '~/Library/Preferences/x.plist',
    '$DIR/.bashrc',
    'src/cron.ts',
    '$PROFILE_DIR',
    'docs/$PROFILE',
  ])('%s does not', (raw) => {
    expect(pathFacts(raw, ctx).persistence).toBeUndefined();
  });
});

describe('isInside', () => {
  it.for([
    ['/a/b', '/a', true],
    ['/a', '/a', true],
    ['/a/b/c', '/a/b', true],
    ['/anything', '/', true],
    ['C:/x', 'C:/', true],
    ['/ab', '/a', false],
    ['/a', '/a/b', false],
    ['/home/dev2', '/home/dev', false],
    ['', '/a', false],
    ['/a', '', false],
  ] as const)('%s in %s → %s', ([child, parent, inside]) => {
    expect(isInside(child, parent)).toBe(inside);
  });
});

describe('globMatch', () => {
  it.for([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['**/*.ts', 'dir/sub/a.ts', true],
    ['**/*.ts', 'a.ts', true],
    ['src/**', 'src/a/b', true],
    ['src/**', 'src', true],
    ['src/**/x', 'src/x', true],
    ['src/**/x', 'src/a/b/x', true],
    ['src/**/x', 'src/a/b/y', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['a?c', 'abbc', false],
    ['*', '', true],
    ['', '', true],
    ['.env*', '.env.local', true],
    ['*secret*', 'my-secret-file', true],
    ['*secret*', 'my-secrt-file', false],
    ['/etc/*', '/etc/passwd', true],
    ['/etc/*', '/etc/a/b', false],
  ] as const)('%s vs %s → %s', ([glob, path, result]) => {
    expect(globMatch(glob, path)).toBe(result);
  });

  it('stays polynomial on adversarial stars', () => {
    const text = 'a'.repeat(2_000);
    expect(globMatch(`${'*a'.repeat(200)}b`, text)).toBe(false);
    expect(globMatch(`${'**/'.repeat(200)}b`, `${'a/'.repeat(2_000)}c`)).toBe(false);
    expect(globMatch(`${'*a'.repeat(200)}`, text)).toBe(true);
  });
});

describe('pathFacts: adversarial input', () => {
  it('answers for 100 KB paths', () => {
    const inputs = [
      `${'../'.repeat(33_000)}x`,
      '/a'.repeat(50_000),
      `~/${'.ssh/'.repeat(20_000)}`,
      `'`.repeat(100_000),
      '\\'.repeat(100_000),
      '$'.repeat(100_000),
      '*'.repeat(100_000),
      `C:${'\\x'.repeat(50_000)}`,
    ];
    for (const raw of inputs) {
      const f = pathFacts(raw, ctx);
      expect(f.raw).toBe(raw);
      expect(typeof f.place).toBe('string');
    }
  });
});
