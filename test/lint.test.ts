// The import arrows of eslint.config.mjs can fail: each row lints one import, written in one module
// of the repository, through the project's own config (only no-restricted-imports runs, so the rows
// need no type information), and says whether the config lets it through.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

/** The no-restricted-imports messages for `code` as if it were the file `file`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: `${ROOT}${file}` });
  expect(result?.messages.filter((m) => m.ruleId !== 'no-restricted-imports')).toEqual([]);
  return result?.messages.map((m) => m.message) ?? [];
}

describe('the import arrows', () => {
  it.for([
    // core imports nothing of ours, and nothing impure
    {
      file: 'packages/core/src/evaluate.ts',
      code: "import { adapters } from '@guard/adapters';",
      says: /nothing of ours/,
    },
    { file: 'packages/core/src/evaluate.ts', code: "import { main } from '@guard/cli';", says: /nothing of ours/ },
    {
      file: 'packages/core/src/rules/x.ts',
      code: "import { a } from '../../../adapters/src/index.js';",
      says: /nothing/,
    },
    { file: 'packages/core/src/facts/x.ts', code: "import { readFileSync } from 'node:fs';", says: /pure/ },
    { file: 'packages/core/src/chat/x.ts', code: "import { execFile } from 'child_process';", says: /pure/ },
    { file: 'packages/core/src/facts/x.ts', code: "import { join } from 'node:path';", says: undefined },
    // core's layers: shell knows no rules, programs sit below the reader, the context below the rules
    {
      file: 'packages/core/src/shell/x.ts',
      code: "import type { Rule } from '../rule.js';",
      says: /rule\.ts sits above shell/,
    },
    {
      file: 'packages/core/src/shell/x.ts',
      code: "export { rules } from '../rules/index.js';",
      says: /rules\/ sits above shell/,
    },
    {
      file: 'packages/core/src/shell/x.ts',
      code: "import { argvOf } from '../context/argv.js';",
      says: /context's parts/,
    },
    { file: 'packages/core/src/shell/x.ts', code: "import { urlFacts } from '../facts/hosts.js';", says: /facts\// },
    { file: 'packages/core/src/shell/x.ts', code: "import { program } from '../programs/index.js';", says: undefined },
    {
      file: 'packages/core/src/programs/x.ts',
      code: "import { readCommand } from '../shell/index.js';",
      says: /shell\//,
    },
    { file: 'packages/core/src/programs/entries/x.ts', code: "import { isA } from '../index.js';", says: undefined },
    {
      file: 'packages/core/src/programs/entries/x.ts',
      code: "import { rules } from '../../index.js';",
      says: /the index/,
    },
    { file: 'packages/core/src/context/types.ts', code: "import { buildContext } from './build.js';", says: /builder/ },
    { file: 'packages/core/src/context/types.ts', code: "import type { Rule } from '../rule.js';", says: /rule\.ts/ },
    { file: 'packages/core/src/context/types.ts', code: "import { argAt } from './argv.js';", says: undefined },
    {
      file: 'packages/core/src/analysis/x.ts',
      code: "import type { RuleContext } from '../context/types.js';",
      says: undefined,
    },
    {
      file: 'packages/core/src/analysis/x.ts',
      code: "import { buildContext } from '../context/build.js';",
      says: /builder/,
    },
    { file: 'packages/core/src/rules/x.ts', code: "import { evaluate } from '../evaluate.js';", says: /evaluation/ },
    { file: 'packages/core/src/rules/x.ts', code: "import type { Rule } from '../rule.js';", says: undefined },
    { file: 'packages/core/src/chat/x.ts', code: "import { evaluate } from '../evaluate.js';", says: undefined },
    // adapters import core only
    { file: 'packages/adapters/src/codex/x.ts', code: "import { main } from '@guard/cli';", says: /core only/ },
    {
      file: 'packages/adapters/src/x.ts',
      code: "import { evaluate } from '../../core/src/index.js';",
      says: /by their names/,
    },
    { file: 'packages/adapters/src/x.ts', code: "import { writeFileSync } from 'fs';", says: /pure/ },
    { file: 'packages/adapters/src/x.ts', code: "import { quoteWord } from '@guard/core';", says: undefined },
    // cli: no command imports another; only program.ts loads the commands
    {
      file: 'packages/cli/src/commands/doctor.ts',
      code: "import { status } from './status.js';",
      says: /no other command/,
    },
    {
      file: 'packages/cli/src/commands/doctor.ts',
      code: "import { collectStatus } from '../agents/inspect.js';",
      says: undefined,
    },
    {
      file: 'packages/cli/src/hook/run.ts',
      code: "import { setup } from '../commands/setup.js';",
      says: /Only program\.ts/,
    },
    {
      file: 'packages/cli/src/main.ts',
      code: "import { status } from './commands/status.js';",
      says: /Only program\.ts/,
    },
    { file: 'packages/cli/src/program.ts', code: "import { setup } from './commands/setup.js';", says: undefined },
    { file: 'packages/cli/src/main.ts', code: "import { evaluate } from '@guard/core';", says: undefined },
  ])('$file: $code', async ({ file, code, says }) => {
    const found = await complaints(file, code);
    if (says === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(says)]);
  });
});
