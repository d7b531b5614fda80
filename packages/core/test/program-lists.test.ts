import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../src/programs/index.js';

/**
 * What guard knows about a program is said once, in its entry in core/src/programs: a list of
 * program names anywhere else in core is knowledge kept in a second place, which the next program
 * added there misses. This test finds such lists with the TypeScript compiler: an array (a `Set`'s
 * too), a regular expression's alternatives (`rm|rmdir|unlink`) or an alternation in a string, of
 * which at least MIN_KNOWN members and half are names the knowledge base knows as programs. Ask
 * the knowledge base instead: a role (`isA()`, `namesWith()`), a field of the entry (`program()`),
 * or a subcommand's data. Comments are not code and do not count.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MIN_KNOWN = 3;

/** Every name and PowerShell alias the knowledge base knows. */
const KNOWN: ReadonlySet<string> = new Set(ENTRIES.flatMap((entry) => [...entry.names, ...(entry.aliases ?? [])]));

/**
 * Where a list of programs stays outside programs/, and why (keyed `file: the declaration that holds it`).
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // near misses that share names with programs
  'facts/code.ts: print':
    "Perl's and PHP's functions that print (`print`, `say`, `printf`, `echo`), found in inline code",
  'shell/fold.ts: NEEDS_MODULE':
    'functions in inline code (`fs.rm`, `os.link`, `shutil.copy`) that change files only when called on a file module',
  'shell/fold.ts: PATH_METHODS':
    "pathlib's methods (`Path.touch`, `Path.chmod`, `Path.unlink`) that change the file a path names",
  'rules/guard-tamper.ts: READ_ONLY_TOOL':
    'verbs an MCP tool is named by (`read_file`, `list_dir`, `cat`), not programs run',
  'analysis/mcp-args.ts: COMMAND':
    'names of MCP arguments that hold a command line (`command`, `shell`, `bash`), not programs run',
  // a rule's own knowledge of each program's verbs
  'rules/guard-tamper.ts: WHERE_IS_GUARD':
    'a program word that asks the shell where guard is (`"$(command -v guard)" off`): the shell\'s look-ups and guard\'s names, spelled as written',
};

/** The members of a list: an array's strings, or the words of an alternation (`a|b|c`) in a regex or a string. */
function membersOf(node: ts.Node): string[] | undefined {
  if (ts.isArrayLiteralExpression(node)) {
    const strings = node.elements.filter(ts.isStringLiteralLike).map((element) => element.text);
    return strings.length > 0 ? strings : undefined;
  }
  if (ts.isRegularExpressionLiteral(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
    const text = ts.isRegularExpressionLiteral(node) ? node.text.slice(1, node.text.lastIndexOf('/')) : node.text;
    const runs = text.match(ALTERNATION);
    return runs === null ? undefined : runs.flatMap((run) => run.split('|').map((word) => word.replace(/\\/g, '')));
  }
  return undefined;
}

/** Words joined by `|` with nothing else between them (`curl|wget`, `nc\.openbsd|ncat`). */
const ALTERNATION = /[A-Za-z0-9][\w+-]*(?:\\\.[\w+-]+)*(?:\|[A-Za-z0-9][\w+-]*(?:\\\.[\w+-]+)*)+/g;

/** The name of the declaration a node sits in (the variable, property or function), for the report. */
function holderOf(node: ts.Node): string {
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if (
      (ts.isVariableDeclaration(at) ||
        ts.isPropertyAssignment(at) ||
        ts.isFunctionDeclaration(at) ||
        ts.isMethodDeclaration(at)) &&
      at.name !== undefined
    )
      return at.name.getText();
  }
  return '(top level)';
}

interface Found {
  /** `file: holder`, as ALLOWED keys it. */
  readonly key: string;
  readonly where: string;
  readonly known: readonly string[];
}

/** The lists of program names in a source text. */
function programLists(file: string, text: string): Found[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const members = membersOf(node);
    if (members !== undefined) {
      const known = members.filter((member) => KNOWN.has(member.toLowerCase()));
      if (known.length >= MIN_KNOWN && known.length * 2 >= members.length) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push({ key: `${file}: ${holderOf(node)}`, where: `${file}:${line} ${holderOf(node)}`, known });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('finding a list of programs', () => {
  it.for([
    { code: "const DELETERS = new Set(['rm', 'rmdir', 'unlink']);", want: ['fixture.ts: DELETERS'] },
    { code: "const TOOLS = ['cp', 'mv', 'ln', 'chmod', 'my-own-tool'];", want: ['fixture.ts: TOOLS'] },
    { code: 'const FETCH = /^(?:curl|wget|scp)$/i;', want: ['fixture.ts: FETCH'] },
    { code: 'const NC = /^(?:nc|ncat|nc\\.openbsd)\\b/;', want: ['fixture.ts: NC'] },
    { code: "const SHELLS = new RegExp('^(?:bash|zsh|dash|fish)$');", want: ['fixture.ts: SHELLS'] },
    { code: "function f(n: string) { return ['git', 'npm', 'docker'].includes(n); }", want: ['fixture.ts: f'] },
    { code: "const rule = { programs: new Set(['kubectl', 'helm', 'terraform']) };", want: ['fixture.ts: programs'] },
    // near misses: option flags, file names, rule ids, verbs of which few are programs, two names
    { code: "const FLAGS = ['-r', '-R', '--recursive', '-f'];", want: [] },
    { code: "const FILES = new Set(['package.json', '.env', 'Makefile', 'hooks.json']);", want: [] },
    { code: "const IDS = ['fs.delete', 'git.push', 'guard.tamper'];", want: [] },
    { code: 'const VERBS = /^(?:read|get|list|search|show|describe|query|cat|head|ls)$/;', want: [] },
    { code: "const TWO = new Set(['shred', 'srm']);", want: [] },
    { code: "// const OLD = ['rm', 'rmdir', 'unlink'];\nconst text = 'rm and rmdir and unlink';", want: [] },
  ])('$code', ({ code, want }) => {
    expect(programLists('fixture.ts', code).map((found) => found.key)).toEqual(want);
  });
});

describe('core keeps no list of programs outside programs/', () => {
  const files = sources(SRC)
    .map((path) => relative(SRC, path).split(sep).join('/'))
    .filter((file) => !file.startsWith('programs/'));
  const found = files.flatMap((file) => programLists(file, readFileSync(join(SRC, file), 'utf8')));

  it('reads every source file', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('analysis/effects.ts');
  });

  it('finds none but the allowed ones', () => {
    expect(found.filter((list) => !Object.hasOwn(ALLOWED, list.key)).map((list) => list.where)).toEqual([]);
  });

  it('allows only lists that are there', () => {
    expect(Object.keys(ALLOWED).filter((key) => !found.some((list) => list.key === key))).toEqual([]);
  });
});
