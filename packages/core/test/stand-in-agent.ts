import type { AgentKnowledge, AgentLists } from '../src/facts/agents.js';
import { agentKnowledge } from '../src/facts/agents.js';

/**
 * A made-up agent, Relay, as an adapter would declare it and cli would resolve it (core's tests
 * import no adapter): its folder `~/.relay`, moved by `RELAY_HOME`; a project's `.relay`; a
 * machine-wide `/etc/relay`; its program `relay` (the npm package `@relay/cli`). It also declares `AGENTS.md`, the rules file
 * many agents read, a repository's `.github/hooks` folder of hook files, and hooks folders of the
 * person's where guard writes nothing (`otherHooks`), so the rule examples
 * (docs/rules.md) hold here as they do for the real agents (test/agents/rules.test.ts).
 */
const LISTS: AgentLists = {
  hooks: [
    '~/.relay/hooks.json',
    '~/.relay/config.toml',
    '.relay/hooks.json',
    '.relay/config.toml',
    '.relay/hooks/**',
    '.github/hooks/**',
    '/etc/relay/**',
    'C:/ProgramData/Relay/**',
  ],
  // a person's own hooks folder and a project's plugins, where guard writes nothing
  otherHooks: ['~/Documents/Relay/Hooks/**', '.relaykit/plugins/**'],
  folders: ['~/.relay'],
  settings: ['.relay/config.toml', '.relay/settings.json'],
  rules: ['AGENTS.md', 'RELAY.md', '.relay/rules/**'],
  memory: ['~/.relay/projects/*/memory/**'],
  mcp: ['.relay/mcp.json'],
  variables: { RELAY_HOME: '/home/dev/.relay' },
  hooksOff: [
    String.raw`hooksOff["']?\s*[:=]\s*["']?(?:true|1)\b`,
    String.raw`relayHooks["']?\s*[:=]\s*\{[^}]*\benabled["']?\s*[:=]\s*false\b`,
  ],
  programs: [
    {
      names: ['relay'],
      packages: ['@relay/cli'],
      argv: { values: ['-c', '--config', '-p', '--profile', '--settings'] },
      hooksOff: [
        { flag: '--no-hooks' },
        { option: ['-c', '--config'], value: String.raw`(?:^|\.)hooks\s*=\s*false\b` },
        { option: ['--settings'], hooksOff: true },
        { operands: [['hooks'], ['disable', 'off']] },
        { variable: 'RELAY_NO_HOOKS' },
        { variable: 'RELAY_IGNORE_PROJECT', project: true },
      ],
    },
  ],
};

export const RELAY: AgentKnowledge = agentKnowledge(LISTS);

/** Relay with its folder moved by `RELAY_HOME` (as cli resolves it: the moved folder, and the default one still). */
export function relayMovedTo(folder: string): AgentKnowledge {
  return agentKnowledge({
    ...LISTS,
    hooks: [`${folder}/hooks.json`, `${folder}/config.toml`, ...LISTS.hooks],
    folders: [folder, ...LISTS.folders],
    variables: { RELAY_HOME: folder },
  });
}
