import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluate.js';
import { FRESH_SESSION } from '../../src/context/build.js';
import { tableProbe } from '../../src/rule.js';
import { ENV, PROJECT, stepFrom } from '../rule-tester.js';

const P = PROJECT;

interface Row {
  /** What the row shows. */
  readonly name: string;
  /** The command the agent runs. */
  readonly step: string;
  /** The files on disk. */
  readonly files: Readonly<Record<string, string>>;
  /** The files this chat wrote (absolute); left out: every file above. */
  readonly wrote?: readonly string[];
  /** The rule expected to find it (and what the reason names), or none. */
  readonly rule?: string;
  readonly names?: string;
}

function run(row: Row) {
  const wrote = new Set(row.wrote ?? Object.keys(row.files));
  return evaluate(stepFrom(row.step), {
    ...ENV,
    probe: tableProbe({ files: row.files }),
    session: { ...FRESH_SESSION, wroteFiles: wrote },
  });
}

const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: 'x', scripts }, null, 2);
const FORCE = 'git push --force origin main';
const WIPE = 'rm -rf ~';

// each runner × a risky command in a file this chat wrote
const MATCH: readonly Row[] = [
  {
    name: 'npm test',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: `vitest run && ${FORCE}` }) },
    rule: 'git.rewrite-shared-history',
    names: 'package.json script "test"',
  },
  {
    name: 'npm run',
    step: 'npm run check',
    files: { [`${P}/package.json`]: pkg({ check: WIPE }) },
    rule: 'fs.wipe',
    names: 'script "check"',
  },
  {
    name: 'npm run, a pre script',
    step: 'npm run build',
    files: { [`${P}/package.json`]: pkg({ prebuild: WIPE, build: 'tsc' }) },
    rule: 'fs.wipe',
    names: 'script "prebuild"',
  },
  {
    name: 'a script named by the one run',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: 'npm run lint && vitest', lint: FORCE }) },
    rule: 'git.rewrite-shared-history',
    names: 'script "lint"',
  },
  {
    name: 'npm install runs postinstall',
    step: 'npm install',
    files: { [`${P}/package.json`]: pkg({ postinstall: WIPE }) },
    rule: 'fs.wipe',
  },
  {
    name: 'npm --prefix',
    step: 'npm --prefix web test',
    files: { [`${P}/web/package.json`]: pkg({ test: WIPE }) },
    rule: 'fs.wipe',
    names: 'web/package.json',
  },
  {
    name: 'yarn script',
    step: 'yarn build',
    files: { [`${P}/package.json`]: pkg({ build: FORCE }) },
    rule: 'git.rewrite-shared-history',
  },
  { name: 'pnpm test', step: 'pnpm test', files: { [`${P}/package.json`]: pkg({ test: WIPE }) }, rule: 'fs.wipe' },
  {
    name: 'make default target',
    step: 'make',
    files: { [`${P}/Makefile`]: `all: build\n\ttsc\nbuild:\n\t@${WIPE}\n` },
    rule: 'fs.wipe',
    names: 'Makefile target "build"',
  },
  {
    name: 'make named target',
    step: 'make release',
    files: { [`${P}/Makefile`]: `all:\n\ttsc\nrelease:\n\t${FORCE}\n` },
    rule: 'git.rewrite-shared-history',
  },
  {
    name: 'make variables',
    step: 'make clean',
    files: { [`${P}/Makefile`]: `DIR := ~\nclean:\n\trm -rf $(DIR)\n` },
    rule: 'fs.wipe',
  },
  { name: 'make -C', step: 'make -C sub', files: { [`${P}/sub/Makefile`]: `x:\n\t${WIPE}\n` }, rule: 'fs.wipe' },
  {
    name: 'make $(shell …)',
    step: 'make test',
    files: { [`${P}/Makefile`]: `V := $(shell ${FORCE})\ntest:\n\techo ok\n` },
    rule: 'git.rewrite-shared-history',
  },
  {
    name: 'pytest conftest',
    step: 'pytest -q',
    files: { [`${P}/tests/conftest.py`]: `import os\nos.system('${WIPE}')\n` },
    rule: 'fs.wipe',
    names: 'tests/conftest.py',
  },
  {
    name: 'python -m pytest test file',
    step: 'python3 -m pytest',
    files: { [`${P}/tests/test_a.py`]: `import subprocess\nsubprocess.run('${FORCE}', shell=True)\n` },
    rule: 'git.rewrite-shared-history',
  },
  {
    name: 'python .pth',
    step: 'python3 app.py',
    files: {
      [`${P}/.venv/lib/python3.12/site-packages/x.pth`]: `import os; os.system('${WIPE}')\n`,
      [`${P}/app.py`]: 'print(1)\n',
    },
    rule: 'fs.wipe',
    names: '.pth',
  },
  {
    name: 'python imports a module',
    step: 'python3 app.py',
    files: {
      [`${P}/app.py`]: 'import helpers\nhelpers.go()\n',
      [`${P}/helpers.py`]: `import os\ndef go():\n    os.system('${WIPE}')\n`,
    },
    wrote: [`${P}/helpers.py`],
    rule: 'fs.wipe',
    names: 'helpers.py',
  },
  {
    name: 'node requires a module',
    step: 'node index.js',
    files: {
      [`${P}/index.js`]: "require('./lib/util');\n",
      [`${P}/lib/util.js`]: `require('child_process').execSync('${FORCE}');\n`,
    },
    wrote: [`${P}/lib/util.js`],
    rule: 'git.rewrite-shared-history',
    names: 'lib/util.js',
  },
  {
    name: 'node -r preload',
    step: 'node -r ./hook.js app.js',
    files: { [`${P}/hook.js`]: `require('child_process').execSync('${WIPE}');\n`, [`${P}/app.js`]: '' },
    wrote: [`${P}/hook.js`],
    rule: 'fs.wipe',
  },
  {
    name: 'bash sources a file',
    step: 'bash run.sh',
    files: { [`${P}/run.sh`]: '. ./lib.sh\nmain\n', [`${P}/lib.sh`]: `main() { ${FORCE}; }\n` },
    wrote: [`${P}/lib.sh`],
    rule: 'git.rewrite-shared-history',
    names: 'lib.sh',
  },
  { name: 'source', step: 'source env.sh', files: { [`${P}/env.sh`]: `${WIPE}\n` }, rule: 'fs.wipe' },
  {
    name: 'npm test → node script the chat wrote',
    step: 'npm test',
    files: {
      [`${P}/package.json`]: pkg({ test: 'node scripts/t.js' }),
      [`${P}/scripts/t.js`]: `require('child_process').execSync('${WIPE}')\n`,
    },
    wrote: [`${P}/scripts/t.js`],
    rule: 'fs.wipe',
    names: 'scripts/t.js',
  },
  {
    name: 'vitest test file',
    step: 'npx vitest run',
    files: { [`${P}/src/a.test.ts`]: `import { execSync } from 'node:child_process';\nexecSync('${FORCE}');\n` },
    rule: 'git.rewrite-shared-history',
  },
  {
    name: 'gulpfile',
    step: 'gulp',
    files: { [`${P}/gulpfile.js`]: `require('child_process').execSync('${WIPE}')\n` },
    rule: 'fs.wipe',
  },
  {
    name: 'cannot read: a justfile',
    step: 'just build',
    files: { [`${P}/justfile`]: 'build:\n\tmake\n' },
    rule: 'shell.opaque',
    names: 'justfile',
  },
  {
    name: 'cannot read: too big',
    step: 'bash big.sh',
    files: { [`${P}/big.sh`]: `echo ${'x'.repeat(70 * 1024)}\n` },
    rule: 'shell.opaque',
    names: 'larger',
  },
  {
    name: 'cannot read: not text',
    step: 'make',
    files: { [`${P}/Makefile`]: 'all:\n\t\u0000\n' },
    rule: 'shell.opaque',
    names: 'not text',
  },
  {
    name: 'cannot read: package.json not JSON',
    step: 'npm test',
    files: { [`${P}/package.json`]: '{ "scripts": ' },
    rule: 'shell.opaque',
  },
  {
    name: 'cannot tell the folder',
    step: 'cd "$WHERE" && npm test',
    files: { [`${P}/web/package.json`]: pkg({ test: 'vitest' }) },
    rule: 'shell.opaque',
    names: 'web/package.json',
  },
];

// the same runners where the chat did not write the file, wrote a harmless one, or only reads it
const NO_MATCH: readonly Row[] = [
  {
    name: 'npm test, package.json not written by the chat',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: FORCE }) },
    wrote: [],
  },
  {
    name: 'npm test, the chat wrote another file',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: FORCE }), [`${P}/README.md`]: 'x' },
    wrote: [`${P}/README.md`],
  },
  {
    name: 'npm test, harmless scripts',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: 'vitest run', build: 'tsc -p .' }) },
  },
  {
    name: 'npm test, a risky script not run',
    step: 'npm test',
    files: { [`${P}/package.json`]: pkg({ test: 'vitest run', deploy: FORCE }) },
  },
  { name: 'npm ls runs no script', step: 'npm ls', files: { [`${P}/package.json`]: pkg({ postinstall: WIPE }) } },
  {
    name: 'make, a risky target not made',
    step: 'make build',
    files: { [`${P}/Makefile`]: `build:\n\ttsc\nnuke:\n\t${WIPE}\n` },
  },
  {
    name: 'make, harmless',
    step: 'make',
    files: { [`${P}/Makefile`]: 'CC ?= cc\nall: app\napp: main.c\n\t$(CC) -o $@ $<\n' },
  },
  {
    name: 'pytest, harmless conftest',
    step: 'pytest',
    files: { [`${P}/conftest.py`]: 'import pytest\n@pytest.fixture\ndef x():\n    return 1\n' },
  },
  {
    name: 'pytest, a conftest elsewhere',
    step: 'pytest',
    files: { [`/home/dev/other/conftest.py`]: `import os\nos.system('${WIPE}')\n` },
  },
  {
    name: 'python, a module not imported',
    step: 'python3 app.py',
    files: { [`${P}/app.py`]: 'print(1)\n', [`${P}/danger.py`]: `import os\nos.system('${WIPE}')\n` },
    wrote: [`${P}/danger.py`],
  },
  {
    name: 'node, harmless module',
    step: 'node index.js',
    files: { [`${P}/index.js`]: "require('./util')\n", [`${P}/util.js`]: 'module.exports = 1;\n' },
  },
  {
    name: 'reading the package.json',
    step: 'cat package.json',
    files: { [`${P}/package.json`]: pkg({ test: FORCE }) },
  },
  {
    name: 'reading the Makefile',
    step: 'grep -n release Makefile',
    files: { [`${P}/Makefile`]: `release:\n\t${FORCE}\n` },
  },
  { name: 'editing the script', step: 'vim run.sh', files: { [`${P}/run.sh`]: `${WIPE}\n` } },
  {
    name: 'bash -n checks syntax of a harmless script',
    step: 'bash -n run.sh',
    files: { [`${P}/run.sh`]: 'echo hi\n' },
  },
  {
    name: 'a justfile the chat did not write',
    step: 'just build',
    files: { [`${P}/justfile`]: 'build:\n\tmake\n' },
    wrote: [],
  },
  {
    name: 'a known folder the chat wrote nothing in',
    step: 'cd web && npm test',
    files: { [`${P}/api/package.json`]: pkg({ test: FORCE }) },
  },
  { name: 'the written file is gone', step: 'npm test', files: {}, wrote: [`${P}/package.json`] },
];

describe('code this chat wrote, run later', () => {
  it.for(MATCH)('$name: found', (row) => {
    const result = run(row);
    const finding = result.findings.find((f) => f.ruleId === row.rule);
    expect(finding, JSON.stringify(result.findings.map((f) => [f.ruleId, f.reason]))).toBeDefined();
    expect(finding?.reason).toMatch(/which this chat wrote/);
    if (row.names !== undefined) expect(finding?.reason).toContain(row.names);
  });

  it.for(NO_MATCH)('$name: nothing found', (row) => {
    const result = run(row);
    const about = result.findings.filter((f) => f.reason.includes('which this chat wrote'));
    expect(about.map((f) => [f.ruleId, f.reason])).toEqual([]);
  });

  it('reads nothing in a chat that wrote no code', () => {
    const asked: string[] = [];
    const probe = { readText: (path: string) => (asked.push(path), pkg({ test: FORCE })), exists: () => true };
    evaluate(stepFrom('npm test'), {
      ...ENV,
      probe,
      session: { ...FRESH_SESSION, wroteFiles: new Set([`${P}/notes.md`]) },
    });
    evaluate(stepFrom('npm test'), { ...ENV, probe, session: FRESH_SESSION });
    expect(asked).toEqual([]);
  });
});
