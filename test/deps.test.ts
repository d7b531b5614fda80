// Every package in packages/ declares what its src imports, and imports what it declares: a
// dependency nobody imports is weight (and trust) for nothing; an import nobody declares works
// only by the accident of the workspace's hoisting.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(ROOT, 'packages');
const SOURCE = /\.(?:ts|cts|mts|js|cjs|mjs)$/;

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/**
 * The module names a source file loads: static and dynamic imports, re-exports, `import x =
 * require()`, `require()` and `createRequire(…)(…)` calls, and `import('…')` types.
 */
function specifiersOf(text: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const take = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isExternalModuleReference(node)) take(node.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) take(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const requires =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isCallExpression(callee) && /(?:^|\.)createRequire$/.test(callee.expression.getText(file)));
      if (requires) take(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The package a module name belongs to, or undefined for a relative path or a Node built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#')) return undefined;
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] as string)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What is wrong between a package's manifest and the module names its sources load. */
function dependencyProblems(
  manifest: Manifest,
  src: readonly string[],
  test: readonly string[] = [],
  peers: ReadonlySet<string> = new Set(),
): string[] {
  const used = (specifiers: readonly string[]): Set<string> =>
    new Set(specifiers.map(packageOf).filter((name): name is string => name !== undefined && name !== manifest.name));
  const bySrc = used(src);
  const byAny = new Set([...bySrc, ...used(test)]);
  // @types/x serves x; @types/node serves the Node built-ins
  const serves = (name: string, users: Set<string>): boolean => {
    if (users.has(name)) return true;
    const typed = /^@types\/(.+)$/.exec(name)?.[1];
    if (typed === undefined) return false;
    if (typed === 'node') return true;
    return users.has(typed.includes('__') ? `@${typed.replace('__', '/')}` : typed);
  };
  const runtime = { ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies };
  const declared = new Set([...Object.keys(runtime), ...Object.keys(manifest.devDependencies ?? {})]);
  const problems: string[] = [];
  for (const name of Object.keys(runtime)) {
    // a peer another dependency needs is declared for that dependency, not for an import of the src
    if (!serves(name, bySrc) && !peers.has(name))
      problems.push(`${name} is a dependency of ${manifest.name} but its src never imports it`);
  }
  for (const name of Object.keys(manifest.devDependencies ?? {})) {
    if (!serves(name, byAny))
      problems.push(`${name} is a devDependency of ${manifest.name} but neither its src nor its tests import it`);
  }
  for (const name of bySrc) {
    if (!Object.hasOwn(runtime, name)) {
      problems.push(
        declared.has(name)
          ? `${manifest.name}'s src imports ${name}, which it declares only as a devDependency`
          : `${manifest.name}'s src imports ${name}, which its package.json does not declare`,
      );
    }
  }
  return problems;
}

/** The peer dependencies (not optional ones) of a package's runtime dependencies, as installed. */
function peersOf(dir: string, manifest: Manifest): Set<string> {
  const peers = new Set<string>();
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const installed = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as Manifest & {
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    for (const peer of Object.keys(installed.peerDependencies ?? {}))
      if (installed.peerDependenciesMeta?.[peer]?.optional !== true) peers.add(peer);
  }
  return peers;
}

function sourcesIn(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => SOURCE.test(entry) && !entry.endsWith('.d.ts'))
    .flatMap((entry) => specifiersOf(readFileSync(join(dir, entry), 'utf8'), entry));
}

describe('specifiersOf', () => {
  it.for([
    { code: "import { a } from 'alpha';", want: ['alpha'] },
    { code: "import type { A } from '@scope/beta/sub';", want: ['@scope/beta/sub'] },
    { code: "import 'gamma/register';", want: ['gamma/register'] },
    { code: "export * from './local.js';", want: ['./local.js'] },
    { code: "export { x } from 'delta';", want: ['delta'] },
    { code: "import x = require('epsilon');", want: ['epsilon'] },
    { code: "const { parse } = await import('zeta');", want: ['zeta'] },
    { code: "const y = require('eta');", want: ['eta'] },
    { code: "const t = createRequire(import.meta.url)(\n  'theta',\n);", want: ['theta'] },
    { code: "const m = process.getBuiltinModule('node:module').createRequire(u)('iota');", want: ['iota'] },
    { code: "let p: typeof import('kappa');", want: ['kappa'] },
    // near misses: a name in a comment or in an ordinary string loads nothing
    { code: "// import { a } from 'lambda';\n/* require('mu') */", want: [] },
    { code: "const name = 'nu'; load('xi'); other.require('omicron');", want: [] },
    { code: 'const dynamic = await import(name);', want: [] },
  ])('$code', ({ code, want }) => {
    expect(specifiersOf(code)).toEqual(want);
  });
});

describe('packageOf', () => {
  it.for([
    { specifier: 'yaml', want: 'yaml' },
    { specifier: 'smol-toml', want: 'smol-toml' },
    { specifier: '@noble/hashes/sha2.js', want: '@noble/hashes' },
    { specifier: '@guard/adapters/messages', want: '@guard/adapters' },
    { specifier: 'diff/lib/index.js', want: 'diff' },
    { specifier: 'node:fs', want: undefined },
    { specifier: 'fs/promises', want: undefined },
    { specifier: './state.js', want: undefined },
    { specifier: '../core/src/index.js', want: undefined },
  ])('$specifier', ({ specifier, want }) => {
    expect(packageOf(specifier)).toBe(want);
  });
});

describe('dependencyProblems', () => {
  const name = '@guard/example';
  it.for([
    {
      name: 'everything declared is imported',
      manifest: { name, dependencies: { yaml: '1' } },
      src: ['yaml'],
      want: 0,
    },
    {
      name: 'a subpath import counts for its package',
      manifest: { name, dependencies: { '@noble/hashes': '2' } },
      src: ['@noble/hashes/sha2.js'],
      want: 0,
    },
    {
      name: '@types/x is used when x is',
      manifest: { name, dependencies: { 'shell-quote': '1' }, devDependencies: { '@types/shell-quote': '1' } },
      src: ['shell-quote'],
      want: 0,
    },
    {
      name: 'a devDependency a test imports',
      manifest: { name, devDependencies: { fixture: '1' } },
      src: [],
      test: ['fixture'],
      want: 0,
    },
    { name: 'the package itself and built-ins', manifest: { name }, src: [name, 'node:fs', './a.js'], want: 0 },
    {
      name: 'a dependency nobody imports',
      manifest: { name, dependencies: { 'shell-quote': '1' } },
      src: ['yaml'],
      want: [
        'shell-quote is a dependency of @guard/example but its src never imports it',
        "@guard/example's src imports yaml, which its package.json does not declare",
      ],
    },
    {
      name: 'a dependency only the tests import',
      manifest: { name, dependencies: { 'smol-toml': '1' } },
      src: [],
      test: ['smol-toml'],
      want: ['smol-toml is a dependency of @guard/example but its src never imports it'],
    },
    {
      name: '@types/x for an x nobody imports',
      manifest: { name, devDependencies: { '@types/shell-quote': '1' } },
      src: [],
      want: ['@types/shell-quote is a devDependency of @guard/example but neither its src nor its tests import it'],
    },
    {
      name: 'src importing what only the dev side declares',
      manifest: { name, devDependencies: { vitest: '1' } },
      src: ['vitest'],
      want: ["@guard/example's src imports vitest, which it declares only as a devDependency"],
    },
    {
      name: 'a workspace package used but not declared',
      manifest: { name },
      src: ['@guard/core'],
      want: ["@guard/example's src imports @guard/core, which its package.json does not declare"],
    },
    {
      name: 'a dependency no src imports, which another dependency needs as a peer',
      manifest: { name, dependencies: { '@opentelemetry/otlp-transformer': '1', '@opentelemetry/api': '1' } },
      src: ['@opentelemetry/otlp-transformer'],
      peers: ['@opentelemetry/api'],
      want: [],
    },
    {
      name: 'near miss: the peer another dependency needs is a different one',
      manifest: { name, dependencies: { '@opentelemetry/otlp-transformer': '1', '@opentelemetry/api': '1' } },
      src: ['@opentelemetry/otlp-transformer'],
      peers: ['@opentelemetry/api-logs'],
      want: ['@opentelemetry/api is a dependency of @guard/example but its src never imports it'],
    },
  ])('$name', ({ manifest, src, test, peers, want }) => {
    const problems = dependencyProblems(manifest, src, test, new Set(peers));
    if (typeof want === 'number') expect(problems).toHaveLength(want);
    else expect(problems).toEqual(want);
  });
});

describe('every package in packages/ imports what it declares and declares what it imports', () => {
  const names = readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('finds the packages', () => {
    expect(names).toEqual(expect.arrayContaining(['core', 'adapters', 'cli']));
  });

  // The hook bundle (packages/cli/dist/hook.bundle.cjs) holds cli's code and the adapters' and
  // core's, but leaves the packages scripts/bundle-hook.mjs names LAZY outside it; they are then
  // loaded from cli's own node_modules, so cli depends on them even where only adapters' src
  // imports them (smol-toml, for Codex's config).
  const lazy = /const LAZY = new Set\(\[([^\]]*)\]\)/.exec(readFileSync(join(ROOT, 'scripts/bundle-hook.mjs'), 'utf8'));
  const bundledOut = [...(lazy?.[1] ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1] as string);

  it('reads the packages the hook bundle leaves outside', () => {
    expect(bundledOut).toEqual(expect.arrayContaining(['yaml']));
  });

  it.for(names)('packages/%s', (dir) => {
    const manifest = JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as Manifest;
    const src = sourcesIn(join(PACKAGES, dir, 'src'));
    expect(src.length).toBeGreaterThan(0);
    const loads = dir === 'cli' ? [...src, ...bundledOut] : src;
    const test = sourcesIn(join(PACKAGES, dir, 'test'));
    expect(dependencyProblems(manifest, loads, test, peersOf(join(PACKAGES, dir), manifest))).toEqual([]);
  });
});
