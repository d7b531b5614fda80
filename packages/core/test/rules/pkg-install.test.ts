import { describe, expect, it } from 'vitest';
import { pkgInstall } from '../../src/rules/pkg-install.js';
import { evaluateExample, PROJECT, runRuleTests } from '../rule-tester.js';

runRuleTests(pkgInstall, {
  valid: [
    // running, building, testing and listing are not installing
    'npm test',
    'npm run build',
    'mix test',
    'mix compile',
    'mix deps.tree',
    'npm run install:hooks',
    'npm ls lodash',
    'npm view react version',
    'npm outdated',
    'npm exec -- tsc --noEmit',
    'npx tsc --noEmit',
    'npx vitest run',
    'pnpm test',
    'pnpm run lint',
    'pnpm dlx create-vite app',
    'yarn test',
    'yarn build',
    'yarn --version',
    'bun run dev',
    'bun test',
    'pip list',
    'pip show requests',
    'pip freeze > requirements.txt',
    'python -m pip --version',
    'python -m pytest',
    'uv run pytest',
    'uvx ruff check .',
    'poetry run pytest',
    'cargo build --release',
    'cargo test',
    'go build ./...',
    'go test ./...',
    'go mod tidy',
    'go install ./cmd/tool',
    'bundle exec rspec',
    'composer dump-autoload',
    'dotnet build',
    'apt-get update',
    'brew list',
    // data, not a command
    'echo "npm install lodash"',
    'git commit -m "pip install requests"',
  ],
  invalid: [
    // Elixir's mix fetches from Hex
    'mix deps.get',
    'mix deps.update phoenix',
    // SPEC 4.2 examples
    'npm install',
    'pnpm add zod',
    'pip install -r requirements.txt',
    'uv sync',
    'cargo add serde',
    'go get github.com/spf13/cobra@v1.8.0',
    // bare installs of the project's own lists
    'npm i',
    'npm ci',
    'pnpm install --frozen-lockfile',
    'yarn',
    'yarn install',
    'bun install',
    'bundle install',
    'bundle',
    'composer install',
    'poetry install',
    'pipenv install',
    'go mod download',
    'dotnet restore',
    'pip install -e .',
    'pip install .',
    // named packages
    'npm install lodash',
    'npm i -D @types/node@20',
    'npm install -g typescript',
    'pnpm add -D vitest --filter @acme/web',
    'yarn add react react-dom',
    'yarn workspace web add axios',
    'yarn global add serve',
    'bun add -d vitest',
    'pip install requests',
    'pip3 install --upgrade pip',
    'pip install \'requests>=2\' "flask[async]==3.0"',
    'python3 -m pip install httpx',
    'uv add fastapi',
    'uv pip install ruff',
    'uv tool install ruff',
    'poetry add pydantic',
    'pipx install black',
    'cargo install ripgrep',
    'go install golang.org/x/tools/gopls@latest',
    'gem install rails',
    'bundle add sidekiq',
    'composer require guzzlehttp/guzzle',
    'dotnet add package Newtonsoft.Json',
    'dotnet add app.csproj package Serilog',
    'deno add jsr:@std/path',
    'brew install jq',
    'sudo apt-get install -y ripgrep',
    'conda install numpy',
    // the way there does not matter
    'cd web && npm install',
    'npm --prefix web install',
    'pnpm -C packages/core add zod',
    'npx --yes pnpm@10 add lodash',
    'bash -c "npm install left-pad"',
  ],
});

const found = (command: string) => evaluateExample(command).findings.filter((f) => f.ruleId === 'pkg.install');

describe('pkg.install memory keys: once per package, once per project folder for the lists', () => {
  it.for([
    { command: 'npm install lodash@4', keys: ['pkg.install:npm:lodash'] },
    { command: 'npm i -D @types/node@^20.1', keys: ['pkg.install:npm:@types/node'] },
    { command: 'npm install my-alias@npm:lodash@4', keys: ['pkg.install:npm:lodash'] },
    { command: 'pip install requests==2.0', keys: ['pkg.install:pypi:requests'] },
    { command: 'pip install Flask_Login', keys: ['pkg.install:pypi:flask-login'] },
    { command: 'cargo add serde@1', keys: ['pkg.install:crates:serde'] },
    { command: 'go get github.com/spf13/cobra@v1.8.0', keys: ['pkg.install:go:github.com/spf13/cobra'] },
    { command: 'composer require guzzlehttp/guzzle:^7.0', keys: ['pkg.install:packagist:guzzlehttp/guzzle'] },
    { command: 'npm install', keys: [`pkg.install:project:${PROJECT}`] },
    { command: 'pip install -r requirements.txt', keys: [`pkg.install:project:${PROJECT}`] },
    { command: 'cd web && npm ci', keys: [`pkg.install:project:${PROJECT}/web`] },
    {
      command: 'pip install -r requirements.txt black',
      keys: [`pkg.install:project:${PROJECT}`, 'pkg.install:pypi:black'],
    },
    { command: 'yarn add react react-dom', keys: ['pkg.install:npm:react', 'pkg.install:npm:react-dom'] },
  ])('$command', ({ command, keys }) => {
    expect(found(command).map((f) => f.memoryKey)).toEqual(keys);
  });

  it('names the package in the reason', () => {
    expect(found('npm install left-pad@1.3.0')[0]?.reason).toContain('(left-pad)');
  });
});

describe('pkg.install on hostile package words', () => {
  it.for([
    { name: 'a run of @', command: `npm install ${'@'.repeat(50000)}`, keys: 0 },
    { name: 'a long scoped name', command: `npm install @${'a/'.repeat(20000)}b@1`, keys: 1 },
    { name: 'a long PEP 508 spec', command: `pip install "x${'[a]'.repeat(20000)}==1"`, keys: 1 },
  ])('$name', ({ command, keys }) => {
    expect(found(command).filter((f) => f.memoryKey !== undefined)).toHaveLength(keys);
  });
});
