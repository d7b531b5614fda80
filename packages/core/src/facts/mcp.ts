/**
 * Whether an MCP tool changes something or sends something out, judged by the annotations its
 * server declared when they say so, else by the verb in its name (`create_issue`, `issue_write`,
 * `getCommit`, `search_and_replace`).
 */
import type { McpAnnotations } from '../types.js';

/** Verbs that change state somewhere or send data out. */
const CHANGE_VERBS = new Set([
  'add',
  'apply',
  'approve',
  'archive',
  'assign',
  'book',
  'cancel',
  'clear',
  'click',
  'close',
  'comment',
  'commit',
  'create',
  'del',
  'delete',
  'deploy',
  'destroy',
  'disable',
  'dismiss',
  'dispatch',
  'drop',
  'edit',
  'enable',
  'eval',
  'evaluate',
  'exec',
  'execute',
  'fill',
  'follow',
  'fork',
  'forward',
  'grant',
  'import',
  'insert',
  'install',
  'invite',
  'invoke',
  'kill',
  'label',
  'lock',
  'mark',
  'merge',
  'modify',
  'move',
  'mv',
  'notify',
  'order',
  'overwrite',
  'patch',
  'pay',
  'pin',
  'post',
  'press',
  'publish',
  'purchase',
  'purge',
  'push',
  'put',
  'reject',
  'release',
  'remove',
  'rename',
  'reopen',
  'replace',
  'reply',
  'reset',
  'restart',
  'revoke',
  'rm',
  'rollback',
  'run',
  'save',
  'schedule',
  'send',
  'set',
  'share',
  'star',
  'stop',
  'store',
  'submit',
  'sync',
  'tag',
  'terminate',
  'transfer',
  'trigger',
  'truncate',
  'type',
  'unarchive',
  'uninstall',
  'unlink',
  'unlock',
  'unstar',
  'update',
  'upload',
  'upsert',
  'wipe',
  'write',
]);

/** Verbs that only look. */
const READ_VERBS = new Set([
  'analyze',
  'browse',
  'check',
  'count',
  'describe',
  'diff',
  'explain',
  'fetch',
  'find',
  'get',
  'inspect',
  'list',
  'lookup',
  'navigate',
  'preview',
  'query',
  'read',
  'screenshot',
  'search',
  'show',
  'snapshot',
  'status',
  'validate',
  'view',
  'whoami',
]);

/** Words that join two verbs in one name (`get_or_create`, `search_and_replace`). */
const JOINERS = new Set(['and', 'or', 'then']);

/** True when the tool changes or sends, false when it only looks or its name says nothing. */
export function mcpToolChanges(tool: string, annotations?: McpAnnotations): boolean {
  if (annotations?.readOnlyHint === true) return false;
  if (annotations?.destructiveHint === true || annotations?.readOnlyHint === false) return true;
  const words = tool
    .slice(0, 200)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  // the first verb in the name decides; a joined second verb may only make it a change
  let verb: string | undefined;
  for (const [i, word] of words.entries()) {
    const isVerb = CHANGE_VERBS.has(word) || READ_VERBS.has(word);
    if (isVerb && verb === undefined) verb = word;
    else if (isVerb && CHANGE_VERBS.has(word) && JOINERS.has(words[i - 1] ?? '')) return true;
  }
  return verb !== undefined && CHANGE_VERBS.has(verb);
}
