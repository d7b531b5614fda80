import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every `guard` command (a person's, an agent's, each of the suites' thousands) starts by loading
// bin.ts, then main.ts with what it imports, before commander knows the command: that start must
// stay small. A command's module is loaded by import() in its action (program.ts), so only the
// command that runs pays for it. What is loaded at the start is found here from the sources: the
// modules main.ts imports by an import or export declaration, and theirs, through the workspace's
// packages (`import type` loads nothing; with verbatimModuleSyntax every other declaration does;
// `import()` is not followed). Each row names what only commands need, and a module that does load
// it, so the search is shown to find it where it is.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = 'packages/cli/src/';

/** The modules a source text loads when it is loaded: import, export … from, import x = require(…). */
function staticImportsOf(text: string): string[] {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly !== true)
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier !== undefined)
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    else if (
      ts.isImportEqualsDeclaration(statement) &&
      !statement.isTypeOnly &&
      ts.isExternalModuleReference(statement.moduleReference)
    )
      out.push((statement.moduleReference.expression as ts.StringLiteral).text);
  }
  return out;
}

/** The modules a source text loads by import() with a literal specifier. */
function dynamicImportsOf(text: string): string[] {
  return [...text.matchAll(/\bimport\((['"])([^'"]+)\1\)/g)].map((match) => match[2] as string);
}

/**
 * Where a specifier imported by `from` (a path from the repository's root) leads: a source file of
 * the workspace (`@guard/<package>` by its package.json's `@guard/source` export), `node:<name>`
 * for Node's own, or the package's name for a library.
 */
function resolve(specifier: string, from: string): string {
  if (specifier.startsWith('.')) {
    const path = join(dirname(from), specifier);
    const source = path.replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts');
    if (!existsSync(join(ROOT, source))) throw new Error(`${from} imports ${specifier}, which has no source`);
    return source;
  }
  if (specifier.startsWith('node:') || isBuiltin(specifier)) return `node:${specifier.replace(/^node:/, '')}`;
  const guard = /^@guard\/([^/]+)(\/.+)?$/.exec(specifier);
  if (guard === null)
    return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  const folder = join('packages', guard[1] as string);
  const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
    exports: Record<string, Record<string, string>>;
  };
  const target = manifest.exports[`.${guard[2] ?? ''}`]?.['@guard/source'];
  if (target === undefined) throw new Error(`${from} imports ${specifier}, which ${folder} does not export`);
  return join(folder, target);
}

/** What each source module (a path from the repository's root) loads, read once. */
const loads = new Map<string, string[]>();
function loadsOf(module: string): string[] {
  let found = loads.get(module);
  if (found === undefined) {
    found = staticImportsOf(readFileSync(join(ROOT, module), 'utf8')).map((specifier) => resolve(specifier, module));
    loads.set(module, found);
  }
  return found;
}

/** Every module loading `entry` (a path from the repository's root) loads with it, itself included. */
function loadedWith(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (module: string): void => {
    if (seen.has(module)) return;
    seen.add(module);
    if (module.startsWith('packages/')) for (const next of loadsOf(module)) visit(next);
  };
  visit(entry);
  return seen;
}

const START = loadedWith(`${CLI}main.ts`);

describe("the CLI's start: what main.ts loads before commander knows the command", () => {
  it.for([
    { what: 'a command', only: /^packages\/cli\/src\/commands\//, where: `${CLI}commands/status.ts` },
    { what: 'the hook runtime', only: /^packages\/cli\/src\/hook\//, where: `${CLI}hook/run.ts` },
    { what: "guard's folder (state/)", only: /^packages\/cli\/src\/state\//, where: `${CLI}commands/log.ts` },
    {
      what: 'the probe and the world',
      only: /^packages\/cli\/src\/world\/(?!system-root\.ts$)/,
      where: `${CLI}commands/explain.ts`,
    },
    {
      what: "the agents' files (cli/agents/)",
      only: /^packages\/cli\/src\/agents\//,
      where: `${CLI}commands/setup.ts`,
    },
    { what: 'the HTML report', only: /^packages\/cli\/src\/report\//, where: `${CLI}commands/report.ts` },
    { what: 'the export', only: /^packages\/cli\/src\/export\//, where: `${CLI}commands/export.ts` },
    { what: 'the engine (core)', only: /^packages\/core\//, where: `${CLI}commands/explain.ts` },
    { what: "the agents' registry", only: /^packages\/adapters\/src\/agents\.ts$/, where: `${CLI}hook/run.ts` },
    {
      what: "the adapters' index (setup, status)",
      only: /^packages\/adapters\/src\/index\.ts$/,
      where: `${CLI}commands/status.ts`,
    },
    { what: 'an agent', only: /^packages\/adapters\/src\/[^/]+\//, where: `${CLI}hook/run.ts` },
    { what: 'the diff of --dry-run', only: /^diff$/, where: `${CLI}agents/line-diff.ts` },
  ])('$what: loaded by $where, not at the start', ({ only, where }) => {
    expect([...loadedWith(where)].filter((module) => only.test(module))).not.toEqual([]);
    expect([...START].filter((module) => only.test(module))).toEqual([]);
  });

  it('is main.ts, program.ts and commander, with the agent ids alone (the help names them)', () => {
    expect(START).toContain(`${CLI}program.ts`);
    expect(START).toContain('commander');
    expect(START).toContain('packages/adapters/src/ids.ts');
  });

  // program.ts registers every command and loads its module in its action: every command of
  // commands/ is an import() there, and no import declaration
  const program = readFileSync(join(ROOT, CLI, 'program.ts'), 'utf8');
  const commands = dynamicImportsOf(program).filter((specifier) => specifier.startsWith('./commands/'));
  it.for(commands)('program.ts loads %s by import()', (specifier) => {
    expect(existsSync(join(ROOT, resolve(specifier, `${CLI}program.ts`)))).toBe(true);
    expect(staticImportsOf(program)).not.toContain(specifier);
  });
  it('finds the commands program.ts loads (a handful at least: the search can fail)', () => {
    expect(commands).toEqual(
      expect.arrayContaining(['./commands/status.js', './commands/explain.js', './commands/setup.js']),
    );
  });
});

describe('the start-up search itself', () => {
  it.for([
    { text: "import { a } from './a.js';", loads: ['./a.js'] },
    { text: "import { type A } from './a.js';", loads: ['./a.js'] },
    { text: "import './a.js';", loads: ['./a.js'] },
    { text: "export { a } from './a.js';", loads: ['./a.js'] },
    { text: "import a = require('./a.cjs');", loads: ['./a.cjs'] },
    { text: "import type { A } from './a.js';", loads: [] },
    { text: "export type { A } from './a.js';", loads: [] },
    { text: "import type a = require('./a.cjs');", loads: [] },
    { text: "const a = await import('./a.js');", loads: [] },
    { text: 'export const a = 1;', loads: [] },
  ])('$text loads $loads', ({ text, loads }) => {
    expect(staticImportsOf(text)).toEqual(loads);
  });

  it.for([
    { specifier: './program.js', from: `${CLI}main.ts`, to: `${CLI}program.ts` },
    { specifier: './hook-base.cjs', from: `${CLI}hook-load.cts`, to: `${CLI}hook-base.cts` },
    { specifier: '@guard/adapters/ids', from: `${CLI}program.ts`, to: 'packages/adapters/src/ids.ts' },
    { specifier: '@guard/adapters', from: `${CLI}program.ts`, to: 'packages/adapters/src/index.ts' },
    { specifier: '@guard/core', from: `${CLI}program.ts`, to: 'packages/core/src/index.ts' },
    { specifier: 'node:fs', from: `${CLI}io.ts`, to: 'node:fs' },
    { specifier: 'fs', from: `${CLI}io.ts`, to: 'node:fs' },
    { specifier: 'commander', from: `${CLI}main.ts`, to: 'commander' },
    { specifier: '@opentelemetry/api/build/x', from: `${CLI}main.ts`, to: '@opentelemetry/api' },
  ])('$specifier from $from is $to', ({ specifier, from, to }) => {
    expect(resolve(specifier, from)).toBe(to);
  });

  it.for([
    { specifier: './no-such-module.js', from: `${CLI}main.ts` },
    { specifier: '@guard/adapters/no-such-export', from: `${CLI}main.ts` },
  ])('$specifier from $from is refused', ({ specifier, from }) => {
    expect(() => resolve(specifier, from)).toThrow(/imports/);
  });
});
