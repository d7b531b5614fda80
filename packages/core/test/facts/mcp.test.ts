import { describe, expect, it } from 'vitest';
import { mcpToolChanges } from '../../src/facts/mcp.js';
import type { McpAnnotations } from '../../src/types.js';

describe('mcpToolChanges', () => {
  it.for([
    'create_issue',
    'createIssue',
    'issue_write',
    'github_create_pull_request',
    'merge_pull_request',
    'add_comment',
    'slack_post_message',
    'send_email',
    'write_file',
    'edit_file',
    'move_file',
    'delete_branch',
    'execute_sql',
    'run_query',
    'execute_command',
    'browser_click',
    'browser_type',
    'search_and_replace',
    'get_or_create_user',
    'push_files',
    'deploy-site',
  ])('%s changes', (tool) => {
    expect(mcpToolChanges(tool)).toBe(true);
  });

  it.for([
    'get_file_contents',
    'get_commit',
    'getCommit',
    'list_commits',
    'list_pull_requests',
    'get_merge_request',
    'search_code',
    'read_file',
    'read_multiple_files',
    'pull_request_read',
    'query',
    'fetch',
    'browser_navigate',
    'browser_snapshot',
    'browser_take_screenshot',
    'resolve-library-id',
    'sequentialthinking',
    'directory_tree',
    'get_post_and_comments',
    '',
  ])('%s only looks or says nothing', (tool) => {
    expect(mcpToolChanges(tool)).toBe(false);
  });

  it.for<readonly [string, McpAnnotations, boolean]>([
    ['create_issue', { readOnlyHint: true }, false],
    ['get_thing', { destructiveHint: true }, true],
    ['get_thing', { readOnlyHint: false }, true],
    ['get_thing', { readOnlyHint: false, destructiveHint: false }, true],
    ['get_thing', { openWorldHint: true }, false],
    ['write_file', {}, true],
  ])('%s with %o declared: %s', ([tool, annotations, expected]) => {
    expect(mcpToolChanges(tool, annotations)).toBe(expected);
  });
});
