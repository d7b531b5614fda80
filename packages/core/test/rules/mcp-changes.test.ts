import { describe, expect, it } from 'vitest';
import type { Example } from '../../src/rule.js';
import { mcpChanges } from '../../src/rules/mcp-changes.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

const mcp = (server: string, tool: string, args: unknown = {}, extra: Partial<Example> = {}): Example => ({
  step: { kind: 'mcp', server, tool, args },
  ...extra,
});

runRuleTests(mcpChanges, {
  valid: [
    // tools that only look
    mcp('github', 'get_file_contents', { owner: 'acme', repo: 'site', path: 'README.md' }),
    mcp('github', 'list_pull_requests', { owner: 'acme', repo: 'site', state: 'open' }),
    mcp('github', 'get_commit', { owner: 'acme', repo: 'site', sha: 'abc123' }),
    mcp('github', 'search_code', { q: 'useEffect repo:acme/site' }),
    mcp('github', 'pull_request_read', { method: 'get_diff', pullNumber: 4 }),
    mcp('filesystem', 'read_file', { path: 'src/index.ts' }),
    mcp('filesystem', 'list_directory', { path: '/home/dev/project/src' }),
    mcp('filesystem', 'read_file', { path: '/tmp/build.log' }),
    mcp('postgres', 'query', { sql: 'SELECT * FROM users LIMIT 5' }),
    mcp('postgres', 'query', { sql: 'DELETE FROM sessions WHERE expires_at < now()' }),
    mcp('postgres', 'query', { sql: "UPDATE users SET role = 'admin' WHERE id = 7" }),
    mcp('context7', 'resolve-library-id', { libraryName: 'react' }),
    mcp('docs', 'search_docs', { query: '/etc/hosts format on macOS' }, { note: 'a search text, not a path' }),
    mcp('web', 'web_search', { q: '~/.config/gh/hosts.yml location' }),
    // an id that looks like an absolute path, and is not one on this machine
    mcp('context7', 'get-library-docs', { context7CompatibleLibraryID: '/facebook/react' }, { probe: { files: {} } }),
    mcp('playwright', 'browser_navigate', { url: 'http://localhost:3000' }),
    mcp('playwright', 'browser_snapshot'),
    mcp('thinking', 'sequentialthinking', { thought: 'delete the old branch later', thoughtNumber: 1 }),
    // declared read-only wins over the name
    mcp(
      'tracker',
      'create_view',
      {},
      { step: { kind: 'mcp', server: 'tracker', tool: 'create_view', args: {}, annotations: { readOnlyHint: true } } },
    ),
    // an API path that does not exist on this machine is not a file
    mcp('api', 'get_resource', { path: '/repos/acme/site' }, { probe: { files: { '/home/dev/project/x': '' } } }),
    // not an MCP call
    'gh issue create --title "Broken link"',
    { step: { kind: 'write', path: '/home/dev/notes.md', content: 'x' } },
    { step: { kind: 'other', toolName: 'create_issue', args: { title: 'x' } } },
  ],
  invalid: [
    // by name
    mcp('github', 'create_issue', { owner: 'acme', repo: 'site', title: 'Broken link' }),
    mcp('github', 'merge_pull_request', { owner: 'acme', repo: 'site', pullNumber: 4 }),
    mcp('github', 'push_files', { branch: 'main', files: [] }),
    mcp('github', 'update_issue', { issue_number: 3, state: 'closed' }),
    mcp('github', 'delete_file', { path: 'docs/old.md', message: 'remove old doc' }),
    mcp('github', 'issue_write', { method: 'update', issue_number: 3 }),
    mcp('slack', 'slack_post_message', { channel_id: 'C1', text: 'deploy done' }),
    mcp('gmail', 'sendEmail', { to: 'x@example.com' }),
    mcp('filesystem', 'write_file', { path: 'src/a.ts', content: 'x' }),
    mcp('filesystem', 'move_file', { source: 'a.ts', destination: 'b.ts' }),
    mcp('supabase', 'execute_sql', { query: 'select 1' }),
    mcp('desktop', 'execute_command', { command: 'ls' }),
    mcp('playwright', 'browser_click', { element: 'Submit', ref: 'e12' }),
    mcp('memory', 'search_and_replace', { old: 'a', new: 'b' }),
    // by declared annotations
    mcp(
      'tracker',
      'archive',
      { id: 7 },
      {
        step: {
          kind: 'mcp',
          server: 'tracker',
          tool: 'archive',
          args: { id: 7 },
          annotations: { destructiveHint: true },
        },
      },
    ),
    mcp(
      'tracker',
      'get_or_make',
      {},
      { step: { kind: 'mcp', server: 'tracker', tool: 'fetch_items', args: {}, annotations: { readOnlyHint: false } } },
    ),
    // paths outside the project, even for tools that only read
    mcp('filesystem', 'read_text_file', { path: '/home/dev/notes/plans.md' }),
    mcp('filesystem', 'read_file', { path: '../other-project/src/config.ts' }),
    mcp('filesystem', 'list_directory', { path: '/etc' }),
    mcp('filesystem', 'search_files', { path: '~/Documents', pattern: 'invoice' }),
    mcp('files', 'get_file', { path: '/srv/data/export.csv' }, { probe: { files: { '/srv/data/export.csv': 'a,b' } } }),
    mcp(
      'files',
      'get_file',
      { file_path: 'data.csv', options: { output_dir: '/srv/exports' } },
      { note: 'a name that means a path' },
    ),
    // destructive SQL in any argument
    mcp('postgres', 'query', { sql: 'DROP TABLE users' }),
    mcp('postgres', 'query', { sql: 'delete from users' }),
    mcp('db', 'run', { statements: ['SELECT 1', 'TRUNCATE orders'] }),
    mcp('postgres', 'query', { sql: "UPDATE users SET role = 'admin'" }),
  ],
});

describe('mcp.changes memory', () => {
  it('remembers a yes per server', () => {
    const finding = evaluateExample(mcp('github', 'create_issue', { title: 'x' })).findings.find(
      (f) => f.ruleId === 'mcp.changes',
    );
    expect(finding?.memoryKey).toBe('mcp.changes:github');
    expect(finding?.reason).toContain('create_issue');
  });

  it('points at the argument that holds the SQL', () => {
    const result = evaluateExample(mcp('postgres', 'query', { note: 'cleanup', sql: 'DROP TABLE users' }));
    const finding = result.findings.find((f) => f.ruleId === 'mcp.changes');
    expect(result.text.slice(...(finding?.span ?? [0, 0]))).toBe('"DROP TABLE users"');
  });
});
