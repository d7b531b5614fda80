import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExtensionsFolder, Locations } from '../../packages/adapters/src/adapter.js';
import { AGENTS, agentKnowledge } from '../../packages/adapters/src/agents.js';
import { pathFacts } from '../../packages/core/src/facts/paths.js';

const HOME = '/home/dev';

/** An extension's manifest and a rules file in it, for a made-up extension in the agent's folder of them. */
function extensionFiles(folder: ExtensionsFolder | undefined): string[] {
  if (folder === undefined) return [];
  const dir = posix.join(folder.folder, 'some-extension');
  return [posix.join(dir, folder.manifest), ...folder.fallback(dir).files];
}
const PROJECT = '/home/dev/project';
const agents = Object.values(AGENTS);
const variables = [...new Set(agents.flatMap((agent) => agent.files.homes.map((home) => home.variable)))];
const worlds: readonly [string, Readonly<Record<string, string>>][] = [
  ['default folders', {}],
  ['moved folders', Object.fromEntries(variables.map((name) => [name, `/opt/moved/${name.toLowerCase()}`]))],
];

describe.for(worlds)('what the chat-start scan reads is declared (%s)', ([, env]) => {
  const where: Locations = { home: HOME, env, projectRoot: PROJECT };
  const ctx = {
    cwd: PROJECT,
    projectRoot: PROJECT,
    home: HOME,
    tmp: '/tmp',
    agents: agentKnowledge(agents, { home: HOME, env }),
  };
  const read = agents.flatMap((agent) => {
    const rules = agent.chatStart.rules(where);
    return [
      ...rules.files.map((file) => [agent.id, file] as const),
      ...rules.folders.map((folder) => [agent.id, posix.join(folder, 'note.md')] as const),
      ...agent.chatStart.mcp(where).map((config) => [agent.id, config.path] as const),
      ...extensionFiles(agent.chatStart.extensions?.(where)).map((file) => [agent.id, file] as const),
    ];
  });
  it.for(read)('%s: %s', ([, path]) => {
    expect(pathFacts(path, ctx).agentRules).toBeDefined();
  });
  // near misses: files beside the declared ones that no chat loads
  it.for([`${PROJECT}/notes/note.md`, `${HOME}/.claude.json.backup`, `${HOME}/notes/GEMINI.md.txt`])(
    'not an agent file: %s',
    (path) => {
      expect(pathFacts(path, ctx).agentRules).toBeUndefined();
    },
  );
});
