import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * core names no agent: what an agent's files are, which variables move them and how its program
 * starts without hooks is declared in its adapter and reaches the engine as data
 * (Environment.agents). This test finds every name of an agent, or of its dotted folder, in
 * packages/core/src: in identifiers, strings, templates, regular expressions and comments alike.
 * core may not import the adapters, so the names are listed here: the agents guard supports and
 * the next ones it may (the reference's next-agents list).
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

const AGENT_NAMES = [
  'codex',
  'claude',
  'gemini',
  'cursor',
  'copilot',
  'antigravity',
  'windsurf',
  'codeium',
  'kiro',
  'opencode',
  'qwen',
  'droid',
  'cline',
  'crush',
  'auggie',
  'aider',
  'goose',
  'grok',
  'openhands',
];
/** A name as a word of its own, in any case, dotted or not (`.codex`, `Claude`, `GEMINI.md`, `codex_hooks`). */
const NAMED = new RegExp(`(?<![A-Za-z0-9-])(?:${AGENT_NAMES.join('|')})(?![A-Za-z0-9-])`, 'i');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every token of a file's text and every comment that names an agent, as `line: text`. */
function namesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<number, string>();
  const check = (at: number, what: string): void => {
    if (NAMED.test(what)) found.set(at, `${source.getLineAndCharacterOfPosition(at).line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ])
      check(range.pos, text.slice(range.pos, range.end));
    // a leaf: an identifier, a keyword, a literal (string, template part, regular expression)
    if (node.getChildCount(source) === 0) check(node.getStart(source), node.getText(source));
    else for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found.values()];
}

describe('agent names in packages/core/src', () => {
  it('none, in code, strings, expressions or comments', () => {
    const hits = Object.fromEntries(
      sources(SRC)
        .map((file) => [relative(SRC, file).split('\\').join('/'), namesIn(file, readFileSync(file, 'utf8'))] as const)
        .filter(([, found]) => found.length > 0),
    );
    expect(hits).toEqual({});
  });

  // The test itself must be able to fail: the names it is built to find are found.
  it.for([
    { code: "const a = 'codex';", count: 1 },
    { code: "const f = '.claude/settings.json';", count: 1 },
    { code: 'const r = /\\.gemini\\b|copilot/;', count: 1 },
    { code: 'const t = `~/.cursor/${x}`;', count: 1 },
    { code: "const n = ['GEMINI.md', 'CLAUDE.local.md'];", count: 2 },
    { code: "if (inv.name === 'claude') x();", count: 1 },
    { code: 'let cursor = 0;', count: 1 },
    { code: '// Codex reads this\nconst a = 1;', count: 1 },
    { code: '/** the Windsurf hooks */\nconst a = 1;', count: 1 },
    { code: "const v = 'codex_hooks';", count: 1 },
    // near misses: other words that hold the letters
    { code: "const a = 'codexTrust'; const b = 'cursors'; const c = 'hook-codex-x';", count: 0 },
    { code: "const d = 'android'; const e = 'incline'; const f = 'geminid';", count: 0 },
    { code: "const g = '.agents/hooks.json'; const h = 'AGENTS.md'; const i = '.github/hooks';", count: 0 },
  ])('finds $count in: $code', ({ code, count }) => {
    expect(namesIn('probe.ts', code)).toHaveLength(count);
  });
});
