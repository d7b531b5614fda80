import { describe, expect, it } from 'vitest';
import type { Example } from '../../src/rule.js';
import { pkgUnlisted } from '../../src/rules/pkg-unlisted.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

const NODE = ['lodash', 'react', 'react-dom', '@types/node', 'vitest'];
const PYTHON = ['requests', 'django', 'flask-login'];
const lists = (step: string, packages: readonly string[] = [...NODE, ...PYTHON], note?: string): Example => ({
  step,
  probe: { packages },
  ...(note ? { note } : {}),
});

runRuleTests(pkgUnlisted, {
  valid: [
    // listed, whatever the version or spelling of the version
    lists('npm install lodash'),
    lists('npm install lodash@4.17.21'),
    lists('npm i -D @types/node@20'),
    lists('pnpm add react react-dom'),
    lists('yarn add vitest'),
    lists('pip install requests==2.31'),
    lists('pip install Django'),
    lists('pip install Flask_Login', undefined, 'PEP 503: case, - _ . are the same name'),
    lists('go get github.com/spf13/cobra/doc', ['github.com/spf13/cobra'], 'a package inside a listed module'),
    // installs of the lists themselves
    lists('npm install'),
    lists('npm ci'),
    lists('pip install -r requirements.txt'),
    lists('uv sync'),
    lists('pip install -e .'),
    // installer tooling and global tools are not project packages (pkg.install names them)
    lists('pip install --upgrade pip setuptools wheel'),
    lists('npm install -g typescript'),
    lists('cargo install ripgrep'),
    lists('gem install rails', ['sinatra'], "gem install puts a tool in the user's gems, not the project"),
    lists('brew install jq'),
    lists('sudo apt-get install -y ripgrep'),
    // a folder with no list is not judged
    { step: 'npm install left-pad', note: 'no list' },
    { step: 'pip install reqeusts', note: 'no list' },
    // not installs
    lists('npm test'),
    lists('npx lodahs'),
    lists('echo npm install lodahs'),
  ],
  invalid: [
    lists('npm install lodahs', undefined, 'a typo of a listed package'),
    lists('npm i -D @types/nodes'),
    lists('npm install left-pad'),
    lists('pnpm add zod'),
    lists('yarn add reactt'),
    lists('bun add express'),
    lists('pip install reqeusts'),
    lists('pip install requests-toolbelt'),
    lists('python -m pip install djang0'),
    lists('uv add fastapi'),
    lists('uv pip install httpx'),
    lists('poetry add pydantic'),
    lists('cargo add serde', ['tokio']),
    lists('go get github.com/evil/cobra@v1', ['github.com/spf13/cobra']),
    lists('bundle add sidekiq', ['sinatra']),
    lists('composer require guzzlehttp/guzzle', ['monolog/monolog']),
    lists('npm install github:someone/lodash'),
    lists('npm install lodash lodahs'),
    lists('cd web && npm install axios'),
    lists('bash -c "npm install lodahs"'),
  ],
});

describe('pkg.unlisted names each unlisted package and is never remembered', () => {
  it.for([
    { step: 'npm install lodash lodahs left-pad', named: ['(lodahs)', '(left-pad)'] },
    { step: 'pip install requests reqeusts==1.0', named: ['(reqeusts)'] },
  ])('$step', ({ step, named }) => {
    const findings = evaluateExample(lists(step)).findings.filter((f) => f.ruleId === 'pkg.unlisted');
    expect(findings.map((f) => f.reason.slice(f.reason.lastIndexOf('(')).replace(/\.$/, ''))).toEqual(named);
    expect(findings.every((f) => f.memoryKey === undefined && f.remember === 'never')).toBe(true);
  });
});
