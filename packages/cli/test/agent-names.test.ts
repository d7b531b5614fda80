import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS } from '@guard/adapters';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * cli names no agent: what an agent is, where its files are and how it answers is in its folder in
 * packages/adapters, and cli asks the registry (AGENTS, adapters) or a capability. This test finds
 * every literal in packages/cli/src that names an agent (a string, template or regular expression
 * that holds an agent's id or name as a word, or an object key that is an id) and holds them to
 * the few places that must, for I/O only cli can do. Comments are not code and do not count.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// Every registered agent by id and by name, each word of a name but the everyday ones ("GitHub
// Copilot", "Claude Code", "Gemini CLI").
const EVERYDAY = new Set(['github', 'code', 'cli']);
const NAMES = [
  ...new Set(
    Object.values(AGENTS)
      .flatMap((agent) => [agent.id, ...agent.displayName.split(' ')])
      .map((name) => name.toLowerCase()),
  ),
].filter((name) => !EVERYDAY.has(name));
const NAMED = new RegExp(`(?<![\\w-])(?:${NAMES.join('|')})(?![\\w-])`, 'i');

/**
 * Where cli still names an agent, and why:
 * - codex-app-server.ts runs `codex app-server` to have Codex trust guard's hooks and to ask it
 *   which hooks it loads: Codex's own program and protocol, which only cli can run. It takes
 *   Codex's name, program and menu from `adapters.codex`, and setup and doctor reach it only
 *   through an adapter's `trust` capability.
 */
const ALLOWED: Readonly<Record<string, number>> = {
  'agents/codex-app-server.ts': 1,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The literals in a file's text that name an agent, as `line: literal`. */
function namesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const hit = (node: ts.Node, literal: string): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push(`${line}: ${literal}`);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      if (NAMED.test(node.text)) hit(node, node.getText(source));
    } else if (ts.isIdentifier(node) && node.parent !== undefined && isKey(node)) {
      if (NAMES.includes(node.text.toLowerCase())) hit(node, node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** An identifier that names a property (an object key, a member), not a variable. */
function isKey(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    ((ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isShorthandPropertyAssignment(parent) ||
      ts.isEnumMember(parent)) &&
      parent.name === node) ||
    (ts.isPropertyAccessExpression(parent) && parent.name === node)
  );
}

describe('agent names in packages/cli/src', () => {
  const files = sources(SRC);
  const hits = Object.fromEntries(
    files
      .map((file) => [relative(SRC, file).split('\\').join('/'), namesIn(file, readFileSync(file, 'utf8'))] as const)
      .filter(([, found]) => found.length > 0),
  );

  it('only where cli must run an agent itself', () => {
    expect(Object.fromEntries(Object.entries(hits).map(([file, found]) => [file, found.length]))).toEqual(ALLOWED);
  });

  it('a handful at most', () => {
    expect(Object.values(ALLOWED).reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(5);
  });

  // The test itself must be able to fail: the literals it is built to find are found.
  it.for([
    { code: "const a = 'codex';", count: 1 },
    { code: "switch (agent) { case 'cursor': break; }", count: 1 },
    { code: 'const LOADERS = { codex: 1, copilot: 2 };', count: 2 },
    { code: 'const text = `open Codex in a terminal, ${x} type /hooks`;', count: 1 },
    { code: "const m = 'Quit Antigravity completely';", count: 1 },
    { code: "const f = join(home, '.gemini', 'GEMINI.md');", count: 2 },
    { code: 'const r = /hook\\s+(codex|cursor)/;', count: 1 },
    { code: "const path = '.claude/settings.json';", count: 1 },
    { code: "const id = 'claude-code'; const other = 'gemini';", count: 2 },
    { code: "const m = 'Start a new Claude Code session';", count: 1 },
    { code: 'if (x.codex) {}', count: 1 },
    // near misses: not agent names
    { code: "const a = 'codexTrust'; const b = 'cursors'; const c = 'hook-codex-x';", count: 0 },
    { code: "const e = 'exit code 2'; const f = 'the cli folder';", count: 0 },
    { code: '// codex, cursor and copilot in a comment\nconst codexTrust = 1;', count: 0 },
    { code: 'function trust(codex: string) { return codex; }', count: 0 },
  ])('finds $count in: $code', ({ code, count }) => {
    expect(namesIn('probe.ts', code)).toHaveLength(count);
  });
});
