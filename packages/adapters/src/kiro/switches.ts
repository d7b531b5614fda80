import { posix } from 'node:path';
import type { HookSwitches, HooksOff, Locations, SettingsFile } from '../adapter.js';
import { guardCommandAgent } from '../hook-config.js';
import { readSettings } from '../settings-hooks.js';
import { isFields } from '../wire.js';
import { kiroHome } from './agent.js';
import { GUARD_AGENT } from './files.js';

/** Kiro's own default agent, which has no file (and so no hooks). */
const BUILT_IN = 'kiro_default';
const SETTING = 'chat.defaultAgent';

/** One agent file: its name, where it is, and whether it runs guard's hook before each tool. */
interface AgentFile {
  readonly name: string;
  readonly path: string;
  readonly project: boolean;
  readonly guarded: boolean;
}

/**
 * What keeps guard's hooks from running in Kiro CLI: its hooks belong to an agent, and a chat runs
 * the hooks of the agent it started with. The default agent (`chat.defaultAgent` in
 * `~/.kiro/settings/cli.json`, else Kiro's built-in one, which has no file) decides for every chat
 * started without `--agent`; a project's agent takes the place of the person's agent of the same name
 * in that folder; and any agent of the person's own without guard's hook runs unchecked when chosen.
 * Read from the documentation (unverified on a binary).
 */
export const hookSwitches: HookSwitches = {
  files: (where) => [settingsPath(where)],
  folders: (where) => [userAgents(where), projectAgents(where)],
  check: (files, where) => check(files, where),
};

function settingsPath(where: Locations): string {
  return posix.join(kiroHome(where), 'settings', 'cli.json');
}

function userAgents(where: Locations): string {
  return posix.join(kiroHome(where), 'agents');
}

function projectAgents(where: Locations): string {
  return posix.join(where.projectRoot, '.kiro', 'agents');
}

function check(files: readonly SettingsFile[], where: Locations): HooksOff[] {
  const settings = files.find((file) => file.path === settingsPath(where));
  const chosen = readSettings({}, settings)?.[SETTING];
  const name = typeof chosen === 'string' && chosen !== '' ? chosen : BUILT_IN;
  const agents = files.flatMap((file) => agentOf(file, where));
  const named = (wanted: string, project: boolean): AgentFile | undefined =>
    agents.find((agent) => agent.name === wanted && agent.project === project);
  const off: HooksOff[] = [];
  // the agent a chat started without --agent runs: the project's of that name, else the person's
  // (guard's own agent is guard's file: its state, its entries gone or changed, is for the pins to say)
  const own = named(name, false);
  const here = named(name, true) ?? own;
  const byDefault =
    name === BUILT_IN
      ? 'Kiro CLI starts a chat with its built-in default agent, which runs no hooks'
      : `${settings?.path ?? settingsPath(where)} makes "${name}" the agent a chat starts with`;
  if (name !== GUARD_AGENT && (here === undefined || !here.guarded)) {
    const which = here === undefined ? '' : ` (${here.path})`;
    const scope = here?.project === true && own?.guarded === true ? 'here' : 'everywhere';
    off.push({
      message: `${byDefault}${which}, and it has no guard hook: only a chat started with \`kiro-cli chat --agent ${GUARD_AGENT}\` is checked. Make guard's agent the default: \`kiro-cli settings ${SETTING} ${GUARD_AGENT}\`.`,
      scope,
    });
  }
  // guard's agent taken over in this folder by a project's agent of the same name
  const guardHere = named(GUARD_AGENT, true);
  if (guardHere !== undefined && !guardHere.guarded && named(GUARD_AGENT, false)?.guarded === true) {
    off.push({
      message: `${guardHere.path} takes the place of guard's agent in this folder and has no guard hook: a chat here with guard's agent is not checked.`,
      scope: 'here',
    });
  }
  // every other agent without guard's hook: chosen with --agent or /agent swap, it runs unchecked
  for (const agent of agents) {
    if (agent.guarded || agent === here || agent === guardHere) continue;
    off.push({
      message: `${agent.path} (the agent "${agent.name}") has no guard hook: a chat with it (\`--agent ${agent.name}\`, \`/agent swap\`) is not checked.`,
      scope: 'partly',
    });
  }
  return off;
}

/** An agent file in one of the two agents folders; [] for a file that is gone or does not parse (Kiro cannot load it either). */
function agentOf(file: SettingsFile, where: Locations): AgentFile[] {
  const folder = posix.dirname(file.path);
  if (folder !== userAgents(where) && folder !== projectAgents(where)) return [];
  const parsed = readSettings({}, file);
  if (parsed === undefined) return [];
  const name = typeof parsed['name'] === 'string' ? parsed['name'] : posix.basename(file.path, '.json');
  return [{ name, path: file.path, project: folder === projectAgents(where), guarded: guarded(parsed['hooks']) }];
}

/** Whether an agent's `hooks` run guard's hook (for Kiro) before each tool. */
function guarded(hooks: unknown): boolean {
  const list = isFields(hooks) ? hooks['preToolUse'] : undefined;
  if (!Array.isArray(list)) return false;
  return list.some(
    (entry) =>
      isFields(entry) &&
      typeof entry['command'] === 'string' &&
      guardCommandAgent(entry['command']) === 'kiro' &&
      (entry['matcher'] === undefined || entry['matcher'] === '*'),
  );
}
