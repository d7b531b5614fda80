import { looseStrings } from '../analysis/loose.js';
import type { Place } from '../facts/paths.js';
import { mcpToolChanges } from '../facts/mcp.js';
import { destructiveSql } from '../facts/sql.js';
import type { Hit, Rule } from '../rule.js';
import type { Span } from '../types.js';

/** The reason for the first use of a server that is new or changed (SPEC §6: fingerprinted at chat start). */
const NEW_SERVER =
  'This MCP server is new, or its command, arguments, environment or address changed, since guard last let one of its tools run, and a server runs with your rights; check that it is the one you meant to add before its first use.';

/** A path outside the project handed to any tool, one that only reads included. */
const OUTSIDE_PATH =
  'This MCP tool is handed a path outside the project, where it can read or change files that other programs and projects depend on and that git does not track; keep the call inside the project, or let the person approve this path.';

/** Where a path in an MCP call's arguments leaves the project (temp, devices and unresolved names do not count). */
const OUTSIDE: ReadonlySet<Place> = new Set(['home', 'root', 'outside']);

export const mcpChanges = {
  meta: {
    id: 'mcp.changes',
    decision: 'ask',
    remember: 'server',
    concern: 'rules-or-machine',
    title: 'an MCP tool that changes or sends',
    reason:
      'This MCP tool changes something or sends something out on your behalf (a repository, a message, a database, files outside the project), which guard cannot undo; check what it is about to do, or use a read-only tool.',
    owasp: ['ASI02'],
    examples: {
      match: [
        {
          step: {
            kind: 'mcp',
            server: 'github',
            tool: 'create_issue',
            args: { owner: 'acme', repo: 'site', title: 'Broken link' },
          },
        },
        {
          step: {
            kind: 'mcp',
            server: 'filesystem',
            tool: 'read_text_file',
            args: { path: '/home/dev/notes/plans.md' },
          },
        },
        { step: { kind: 'mcp', server: 'postgres', tool: 'query', args: { sql: 'DROP TABLE users' } } },
        {
          step: {
            kind: 'mcp',
            server: 'tracker',
            tool: 'archive',
            args: { id: 7 },
            annotations: { destructiveHint: true },
          },
        },
        {
          step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: 'hooks' } },
          session: { newServers: { docs: '5c1f0a9e3b7d2e4f6a81' } },
          note: 'a read-only tool of a server that is new or changed since its tools last ran with a yes',
        },
        {
          step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: 'hooks' } },
          session: { newServers: { '*': '0d3e5f7a9b1c2d4e6f80' } },
          note: 'an MCP settings file could not be read at chat start: any server asks before its first use',
        },
      ],
      noMatch: [
        {
          step: {
            kind: 'mcp',
            server: 'github',
            tool: 'get_file_contents',
            args: { owner: 'acme', repo: 'site', path: 'README.md' },
          },
        },
        { step: { kind: 'mcp', server: 'postgres', tool: 'query', args: { sql: 'SELECT * FROM users LIMIT 5' } } },
        {
          step: { kind: 'mcp', server: 'tracker', tool: 'create_view', args: {}, annotations: { readOnlyHint: true } },
        },
        'gh issue create --title "Broken link"',
        {
          step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: 'hooks' } },
          session: { newServers: { wiki: '5c1f0a9e3b7d2e4f6a81' } },
          note: 'another server is the new one',
        },
      ],
    },
  },
  check(context) {
    const { step, text } = context;
    if (step.kind !== 'mcp') return [];
    const key = step.server;
    const hits: Hit[] = [];
    // the first use of a new or changed server; a yes is kept for that print, not for the name
    const print = context.session.serverToAsk?.(step.server);
    if (print !== undefined)
      hits.push({
        span: [0, text.length],
        key: `${key}#${print}`,
        detail: `${key}: new or changed`,
        reason: NEW_SERVER,
      });
    if (mcpToolChanges(step.tool, step.annotations)) hits.push({ span: [0, text.length], key, detail: step.tool });
    for (const file of context.files) {
      const { place, abs } = file.path;
      // a string that only looks like a path (`/repos/o/r` for an API) is not one when it does not exist
      if (OUTSIDE.has(place) && context.probe.exists?.(abs) !== false)
        hits.push({ span: file.span, key, detail: abs, path: abs, reason: OUTSIDE_PATH });
    }
    // one destructive statement is enough to ask; the rest would repeat the same question
    const sql = looseStrings(step.args).find((value) => destructiveSql(value).length > 0);
    if (sql !== undefined) {
      const encoded = JSON.stringify(sql);
      const at = text.indexOf(encoded);
      const span: Span = at < 0 ? [0, text.length] : [at, at + encoded.length];
      hits.push({ span, key, detail: destructiveSql(sql)[0]?.statement ?? 'SQL' });
    }
    return hits;
  },
} as const satisfies Rule;
