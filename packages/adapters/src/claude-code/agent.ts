import { posix } from 'node:path';
import type { Agent, Locations, McpServer } from '../adapter.js';
import { homeFolder } from '../files.js';
import { jsonServers, McpConfigError, serversIn } from '../scan.js';
import { isFields } from '../wire.js';
import { claudeCodeFiles } from './files.js';
import { canAsk, capabilities, read, toEventReply, toReply } from './payload.js';

/** Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, by default `~/.claude`. */
export function claudeHome(where: Locations): string {
  return homeFolder(claudeCodeFiles, 'CLAUDE_CONFIG_DIR', where);
}

/** Where Claude Code keeps its MCP servers (user and local scope): `.claude.json` in its config folder or the home folder. */
function claudeJson(where: Locations): string {
  const dir = where.env['CLAUDE_CONFIG_DIR'] || where.home;
  return posix.join(dir, '.claude.json');
}

// Claude Code names a project's folder under projects/ by its path, every character but a letter
// or digit made a dash (longer names are cut and hashed; those are not read).
const MAX_PROJECT_NAME = 200;

/** Claude Code as the hook sees it: payloads and replies (payload.ts), and what its chat-start scan reads. */
export const claudeCode: Agent = {
  id: 'claude-code',
  displayName: 'Claude Code',
  capabilities,
  stepEvents: ['PreToolUse'],
  files: claudeCodeFiles,
  chatStart: {
    rules(where) {
      const home = claudeHome(where);
      const project = where.projectRoot.replace(/[^a-zA-Z0-9]/g, '-');
      return {
        files: [posix.join(home, 'CLAUDE.md')],
        folders: [
          posix.join(home, 'rules'),
          posix.join(home, 'skills'),
          posix.join(home, 'agents'),
          posix.join(home, 'commands'),
          // the memory Claude Code writes for itself about this project
          ...(project.length <= MAX_PROJECT_NAME ? [posix.join(home, 'projects', project, 'memory')] : []),
        ],
      };
    },
    mcp: (where) => [
      { path: claudeJson(where), servers: (text) => claudeServers(text, where.projectRoot) },
      // the project's shared servers: Claude Code asks the person before it starts one (its
      // settings' enabledMcpjsonServers keep the answers); guard fingerprints them, never starts them
      { path: posix.join(where.projectRoot, '.mcp.json'), project: true, servers: jsonServers() },
    ],
  },
  // a payload that names its event as Claude Code does; Copilot's and Cursor's are theirs
  owns: (payload) => isFields(payload) && typeof payload['hook_event_name'] === 'string',
  // Copilot CLI runs a repository's .claude/settings*.json hooks, Cursor all three of Claude Code's
  // settings files (docs/agents-observed.md, "Hosts that run Claude Code's hook files")
  hosts: ['copilot', 'cursor'],
  read,
  canAskUnread: canAsk,
  toReply,
  toEventReply,
};

/**
 * The servers of `.claude.json`: the user's own (`mcpServers`) and this project's local ones
 * (`projects[<root>].mcpServers`), which Claude Code starts without asking. A project's shared
 * `.mcp.json` needs the person's approval first: it is read as a file of its own, never started.
 */
async function claudeServers(text: string, projectRoot: string): Promise<readonly McpServer[]> {
  // most of this file is history and caches: no parse when it names no server
  if (!text.includes('mcpServers')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new McpConfigError('not valid JSON, its servers were not checked');
  }
  const root = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const projects = (root['projects'] && typeof root['projects'] === 'object' ? root['projects'] : {}) as Record<
    string,
    unknown
  >;
  const local = projects[projectRoot] as Record<string, unknown> | undefined;
  return [...serversIn(root['mcpServers']), ...serversIn(local?.['mcpServers'])];
}
