// ARCHITECTURE.md is a map of the code: every path, function, type and rule id it names in
// backticks must exist, so a rename or a move that forgets the map fails here instead of leaving
// the map to rot. Words that name no part of the repository (commands, settings keys, files on
// the user's disk such as `settings.yaml`) are left alone by the shapes below.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'fixtures', '.git', 'artifacts', 'coverage', '.bench']);

/** Every file under `dir`, relative to the root, with `/` separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const FILES = filesUnder('');
const BASENAMES = new Set(FILES.map((file) => posix.basename(file)));
/** The agents' folders in adapters: `<agent>` in a path stands for each of them. */
const AGENT_FOLDERS = readdirSync(join(ROOT, 'packages/adapters/src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The rule ids, as each rule module declares its own (`id: 'pack.name'`). */
const RULE_IDS = new Set(
  FILES.filter((file) => file.startsWith('packages/core/src/rules/')).flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bid: '([a-z]+\.[a-z-]+)'/g)].map((match) => match[1] ?? ''),
  ),
);

/** Every name declared in the code: functions, variables, types, classes, members, object keys. */
function declaredNames(): Set<string> {
  const names = new Set<string>();
  const code = FILES.filter((file) => /\.(?:ts|cts|mts|mjs|cjs|js)$/.test(file) && !file.endsWith('.d.ts'));
  for (const file of code) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isFunctionDeclaration(node) ||
          ts.isVariableDeclaration(node) ||
          ts.isClassDeclaration(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isEnumDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isMethodSignature(node) ||
          ts.isPropertySignature(node) ||
          ts.isPropertyDeclaration(node) ||
          ts.isPropertyAssignment(node) ||
          ts.isShorthandPropertyAssignment(node)) &&
        node.name !== undefined &&
        ts.isIdentifier(node.name)
      ) {
        names.add(node.name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return names;
}

/** The backticked words of a Markdown text, outside fenced code blocks. */
function backticked(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
}

/** What a backticked word claims to be, if it names a part of the repository. */
type Claim =
  | { readonly kind: 'path'; readonly paths: readonly string[] }
  | { readonly kind: 'file name'; readonly name: string }
  | { readonly kind: 'names'; readonly names: readonly string[] }
  | { readonly kind: 'rule id'; readonly id: string };

const SOURCE_FILE = /\.(?:ts|cts|mts|mjs|md)$/;
const OTHER_FILE = /\.(?:json|jsonl|yaml|yml|toml|cjs|js|lock|cache|tgz)$/;
const IDENTIFIER = '[A-Za-z_$][\\w$]*';
const CALLED = new RegExp(`^(${IDENTIFIER}(?:\\.${IDENTIFIER})*)\\([^()]*\\)$`);
const DOTTED = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER})+$`);

/**
 * A path (with `/`; `core/`, `adapters/` and `cli/` short for `packages/…`; `<agent>` for every
 * agent's folder), a source file's bare name, a called function (`name()`, `a.b(x)`), a type or
 * constant (`ToolStep`, `AGENTS`), a member (`Rule.programs`) or a rule id (`guard.tamper`).
 */
function claimOf(word: string): Claim | undefined {
  // commands, placeholders other than <agent>, the user's folders and package names are not the repository's
  if (/[\s…]|^[$~%@-]/.test(word) || /<(?!agent>)/.test(word)) return undefined;
  if (word.includes('/')) return { kind: 'path', paths: expand(word) };
  // a dotfile on the user's disk (`.guard.yaml`), a pattern of file names
  if (word.startsWith('.') || word.includes('*')) return undefined;
  if (SOURCE_FILE.test(word)) return { kind: 'file name', name: word };
  if (OTHER_FILE.test(word)) return undefined;
  // the language's own import() and require()
  if (/^(?:import|require)\(/.test(word)) return undefined;
  if (RULE_IDS.has(word) || /^[a-z]+\.[a-z]+(?:-[a-z]+)+$/.test(word)) return { kind: 'rule id', id: word };
  const called = CALLED.exec(word);
  if (called !== null) return { kind: 'names', names: lastAndTypes(called[1] ?? '') };
  if (DOTTED.test(word)) return { kind: 'names', names: lastAndTypes(word) };
  if (/^[A-Z][a-z]\w*$/.test(word) || /^[A-Z][A-Z0-9_]{2,}$/.test(word)) return { kind: 'names', names: [word] };
  return undefined;
}

/** Of `a.b.c`, the last name, and any capitalised one (a type: `Rule.programs`). */
function lastAndTypes(dotted: string): string[] {
  const parts = dotted.split('.');
  return [...new Set([...parts.filter((part) => /^[A-Z]/.test(part)), parts.at(-1) ?? ''])];
}

/** A path as the repository holds it, once per agent folder when it says `<agent>`. */
function expand(word: string): string[] {
  const full = /^(?:core|adapters|cli)\//.test(word) ? `packages/${word}` : word;
  return full.includes('<agent>') ? AGENT_FOLDERS.map((agent) => full.replaceAll('<agent>', agent)) : [full];
}

/** Whether a path (a file, a folder ending in `/`, or a glob with `*`) is in the repository. */
function exists(path: string): boolean {
  if (path.includes('*')) {
    const pattern = new RegExp(
      `^${path
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    );
    return FILES.some((file) => pattern.test(file));
  }
  const bare = path.replace(/\/$/, '');
  if (!existsSync(join(ROOT, bare))) return false;
  return path.endsWith('/') ? statSync(join(ROOT, bare)).isDirectory() : true;
}

describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const words = [...new Set(backticked(text))];
  const declared = declaredNames();

  it('names only paths, functions, types and rule ids that exist', () => {
    const missing = words.flatMap((word) => {
      const claim = claimOf(word);
      if (claim === undefined) return [];
      switch (claim.kind) {
        case 'path':
          return claim.paths.filter((path) => !exists(path)).map((path) => `${word}: no ${path}`);
        case 'file name':
          return BASENAMES.has(claim.name) ? [] : [`${word}: no file of that name`];
        case 'names':
          return claim.names
            .filter((name) => !declared.has(name))
            .map((name) => `${word}: ${name} is declared nowhere`);
        case 'rule id':
          return RULE_IDS.has(claim.id) ? [] : [`${word}: no rule with that id`];
      }
    });
    expect(missing).toEqual([]);
  });

  it('checks most of what it names (the shapes above are not too narrow)', () => {
    const checked = words.filter((word) => claimOf(word) !== undefined);
    expect(checked.length).toBeGreaterThan(100);
    expect(checked.filter((word) => word.includes('/')).length).toBeGreaterThan(60);
  });

  it('links only to files that exist', () => {
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((link) => !/^https?:/.test(link) && !existsSync(join(ROOT, link)))).toEqual([]);
  });

  it('is linked from the README', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](ARCHITECTURE.md)');
  });

  // The check can fail: words that look like the repository's but are not are found out.
  it.for<{ word: string; ok: boolean }>([
    { word: 'core/src/evaluate.ts', ok: true },
    { word: 'core/src/evaluator.ts', ok: false },
    { word: 'packages/cli/src/hook/', ok: true },
    { word: 'cli/src/hook/run.ts/', ok: false },
    { word: 'cli/src/memory.ts', ok: false },
    { word: 'adapters/src/<agent>/files.ts', ok: true },
    { word: 'adapters/src/<agent>/trust.ts', ok: false },
    { word: 'core/src/programs/entries/*.ts', ok: true },
    { word: 'core/src/programs/entries/*.tsx', ok: false },
    { word: 'self.ts', ok: true },
    { word: 'selves.ts', ok: false },
    { word: 'runHook()', ok: true },
    { word: 'runHooks()', ok: false },
    { word: 'context.argv(inv)', ok: true },
    { word: 'context.argvAt(inv)', ok: false },
    { word: 'RuleContext', ok: true },
    { word: 'RulesContext', ok: false },
    { word: 'AGENTS', ok: true },
    { word: 'AGENT_LIST', ok: false },
    { word: 'Rule.programs', ok: true },
    { word: 'Rule.programmes', ok: false },
    { word: 'guard.tamper', ok: true },
    { word: 'guard.tampering', ok: false },
    { word: 'fs.no-such-rule', ok: false },
  ])('$word exists: $ok', ({ word, ok }) => {
    const claim = claimOf(word);
    expect(claim).toBeDefined();
    const found =
      claim === undefined
        ? false
        : claim.kind === 'path'
          ? claim.paths.every(exists)
          : claim.kind === 'file name'
            ? BASENAMES.has(claim.name)
            : claim.kind === 'names'
              ? claim.names.every((name) => declared.has(name))
              : RULE_IDS.has(claim.id);
    expect(found).toBe(ok);
  });

  // …and leaves alone what names no part of the repository.
  it.for([
    'settings.yaml',
    'log.jsonl',
    '.guard.yaml',
    '$GUARD_HOME',
    '~/.local/state/guard',
    'chats/<agent>-<hash>.json',
    '<file>.guard-backup',
    'sh -c',
    '$(…)',
    '@guard/adapters/agents',
    'core/…',
    'sudo',
    'python3.12',
    'import()',
  ])('%s is not a claim about the repository', (word) => {
    expect(claimOf(word)).toBeUndefined();
  });
});
