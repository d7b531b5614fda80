// ESLint (`npm run lint`, run by .ci/run): typescript-eslint's type-checked recommended rules over
// the packages' sources and tests, the recommended ones over the scripts, and the import arrows
// ARCHITECTURE.md draws, as no-restricted-imports patterns:
//   - core imports nothing of ours, adapters import core only, cli imports both;
//   - core and adapters are pure: no file system, processes or network;
//   - inside core each layer imports only the layers below it (LAYERS);
//   - in cli no command imports another, and only program.ts imports the commands.
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * core's layers, bottom first: a module imports its own layer and those listed before it, never
 * one after it. `files` are the layer's modules (relative to packages/core/src), `from` how another
 * module's import names them (relative to packages/core/src, `.js` as written in imports).
 */
const LAYERS = [
  { name: 'the basic types', files: ['types.ts', 'product.ts', 'policy.ts'] },
  { name: 'programs/', files: ['programs/**'] },
  { name: 'shell/', files: ['shell/**'] },
  { name: 'facts/', files: ['facts/**'] },
  {
    name: "the context's parts",
    files: ['context/types.ts', 'context/argv.ts', 'context/pipeline.ts', 'context/scripts.ts'],
  },
  { name: 'analysis/', files: ['analysis/**'] },
  { name: "the context's builder", files: ['context/build.ts', 'context/chat-code.ts'] },
  { name: 'rule.ts', files: ['rule.ts'] },
  { name: 'rules/', files: ['rules/**'] },
  {
    name: 'the evaluation, the modes, the floor and the session',
    files: ['evaluate.ts', 'modes.ts', 'floor.ts', 'catalogue.ts', 'session.ts'],
  },
  { name: "the second opinion's shapes", files: ['second-opinion/types.ts'] },
  { name: 'chat/', files: ['chat/**'] },
  {
    name: 'the second opinion',
    files: [
      'second-opinion/candidate.ts',
      'second-opinion/brief.ts',
      'second-opinion/answer.ts',
      'second-opinion/decide.ts',
      'second-opinion/index.ts',
    ],
  },
  { name: 'the index', files: ['index.ts'] },
];

/** Node modules that reach the file system, processes, the network or the terminal. */
const IMPURE = [
  'fs',
  'fs/promises',
  'child_process',
  'os',
  'process',
  'net',
  'tls',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'worker_threads',
  'cluster',
  'readline',
  'tty',
  'vm',
  'perf_hooks',
  'timers',
  'inspector',
];
const impure = {
  regex: `^(?:node:)?(?:${IMPURE.join('|')})(?:/|$)`,
  message: 'Core and adapters are pure: file system, processes, network and clock belong to cli.',
};

const CORE_SRC = fileURLToPath(new URL('packages/core/src/', import.meta.url));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every folder under packages/core/src, relative to it ('' for src itself). */
function folders(dir = '') {
  const subfolders = readdirSync(join(CORE_SRC, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => posix.join(dir, entry.name));
  return [dir, ...subfolders.flatMap((sub) => folders(sub))];
}

/** The layer's modules that sit directly in `folder`, as globs from the repository root. */
function filesIn(layer, folder) {
  return layer.files.flatMap((glob) => {
    if (glob.endsWith('/**')) {
      const top = glob.slice(0, -3);
      return folder === top || folder.startsWith(`${top}/`) ? [`packages/core/src/${posix.join(folder, '*.ts')}`] : [];
    }
    return posix.dirname(glob) === (folder || '.') ? [`packages/core/src/${glob}`] : [];
  });
}

/** How an import written in `folder` names `glob` (a folder of modules or one module), as a regular expression. */
function importOf(glob, folder) {
  const folderGlob = glob.endsWith('/**');
  const target = folderGlob ? glob.slice(0, -3) : glob.replace(/\.ts$/, '');
  const path = posix.relative(folder, target);
  const written = path.startsWith('..') ? path : `./${path}`;
  return folderGlob ? `^${escape(written)}/` : `^${escape(written)}\\.js$`;
}

/**
 * The config blocks that hold core's layers to their order: for each folder and each layer with
 * modules in it, the imports of every layer above, spelt as they would be written there.
 */
function coreLayers() {
  const blocks = [];
  const placed = new Set();
  for (const folder of folders()) {
    LAYERS.forEach((layer, index) => {
      const files = filesIn(layer, folder);
      if (files.length === 0) return;
      for (const file of files) placed.add(file);
      const above = LAYERS.slice(index + 1);
      if (above.length === 0) return;
      blocks.push({
        name: `guard/core layer: ${layer.name} in src/${folder}`,
        files,
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                ...CORE_PATTERNS,
                ...above.map((upper) => ({
                  regex: upper.files.map((glob) => importOf(glob, folder)).join('|'),
                  message: `In core, ${upper.name} sits above ${layer.name}, which imports nothing of it (LAYERS in eslint.config.mjs).`,
                })),
              ],
            },
          ],
        },
      });
    });
  }
  // a module of core that no layer names would escape the check: name its layer in LAYERS
  for (const folder of folders()) {
    for (const entry of readdirSync(join(CORE_SRC, folder))) {
      if (!entry.endsWith('.ts')) continue;
      const file = `packages/core/src/${posix.join(folder, entry)}`;
      const folderGlob = `packages/core/src/${posix.join(folder, '*.ts')}`;
      if (!placed.has(file) && !placed.has(folderGlob))
        throw new Error(`eslint.config.mjs: ${file} is in no layer of core; add it to LAYERS.`);
    }
  }
  return blocks;
}

const CORE_PATTERNS = [
  { group: ['@guard/*'], message: 'Core imports nothing of ours: adapters and cli build on it, not the other way.' },
  { regex: '(?:^|/)(?:adapters|cli)/(?:src|dist)/', message: 'Core imports nothing of ours.' },
  impure,
];

const ADAPTER_PATTERNS = [
  { group: ['@guard/cli', '@guard/cli/*'], message: 'Adapters import core only: cli builds on them.' },
  { regex: '(?:^|/)(?:core|cli)/(?:src|dist)/', message: 'Other packages are imported by their names.' },
  impure,
];

const CLI_PATTERNS = [
  {
    regex: '(?:^|/)(?:core|adapters)/(?:src|dist)/',
    message: 'Import @guard/core and @guard/adapters by their names.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.agents/**',
      'artifacts/**',
      'coverage/**',
      '.bench/**',
      '**/fixtures/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.cts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    name: 'guard/choices',
    rules: {
      // guard matches control characters on purpose: to quote them, to keep them off a reader's terminal, to keep the bundle ASCII
      'no-control-regex': 'off',
    },
  },
  {
    name: 'guard/choices for TypeScript',
    files: ['**/*.ts', '**/*.cts', '**/*.mts'],
    rules: {
      // a parameter an interface passes that one implementation needs not is `_name`; a property a rest pattern leaves out is used
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // an async function without await keeps the promise its caller awaits (commands, test doubles); unawaited promises are no-floating-promises' to find
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    name: 'guard/CommonJS',
    files: ['**/*.cts'],
    // CommonJS on purpose (the hook's start-up, see hook-load.cts): `import x = require()` is how TypeScript writes it
    rules: { '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }] },
  },
  {
    name: 'guard/tests',
    files: ['packages/*/test/**', 'test/**', 'vitest.config.ts'],
    rules: {
      // vitest's asymmetric matchers (expect.stringMatching, expect.any) are typed any
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // tests take methods off objects to compare them (toBe), to restore them, or to call fakes that use no `this`
      '@typescript-eslint/unbound-method': 'off',
    },
  },

  // The arrows between the packages (the last block that names a file decides its options).
  {
    name: 'guard/core',
    files: ['packages/core/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: CORE_PATTERNS }] },
  },
  ...coreLayers(),
  {
    name: 'guard/adapters',
    files: ['packages/adapters/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ADAPTER_PATTERNS }] },
  },
  {
    name: 'guard/cli',
    files: ['packages/cli/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CLI_PATTERNS,
            { regex: '^(?:\\./|(?:\\.\\./)+)commands/', message: 'Only program.ts loads the commands.' },
          ],
        },
      ],
    },
  },
  {
    name: 'guard/cli program.ts',
    files: ['packages/cli/src/program.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: CLI_PATTERNS }] },
  },
  {
    name: 'guard/cli commands',
    files: ['packages/cli/src/commands/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CLI_PATTERNS,
            { regex: '^\\./', message: 'A command imports no other command: move what they share out of commands/.' },
          ],
        },
      ],
    },
  },
);
