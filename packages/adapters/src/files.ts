import { posix } from 'node:path';
import type { AgentKnowledge, AgentProgram } from '@guard/core';
import { agentKnowledge as indexed, SWITCH_OFF } from '@guard/core';
import type { Agent, AgentFiles, HooksOff, Locations, SystemSetting } from './adapter.js';

/** Where the variables come from: the environment the agent runs in, and the home folder. */
type Where = Pick<Locations, 'home' | 'env'>;

const VARIABLE = /^\$([A-Za-z_][A-Za-z0-9_]*)(?=\/|$)/;

/**
 * A path of the declaration with its `$VARIABLE` put in: the variable's value where it is set (an
 * empty one counts as unset), else its default. `~` stays as written (a pattern in a home folder).
 */
function resolved(files: AgentFiles, path: string, where: Where): string {
  const named = VARIABLE.exec(path);
  if (!named) return path;
  const home = files.homes.find((candidate) => candidate.variable === named[1]);
  if (home === undefined) throw new Error(`${path}: ${named[1]} is not one of the agent's homes`);
  const rest = path.slice(named[0].length);
  const value = where.env[home.variable];
  const base = value === undefined || value === '' ? resolved(files, home.default, where) : value;
  return rest === '' ? base : posix.join(base, rest);
}

/** A path of the declaration on this machine: its `$VARIABLE` put in (`resolved`), `~` the home. */
export function placedPath(files: AgentFiles, path: string, where: Where): string {
  const put = resolved(files, path, where);
  return put === '~' ? where.home : put.startsWith('~/') ? posix.join(where.home, put.slice(2)) : put;
}

/** The folder (or file) a variable of the declaration names on this machine: its value, or its default in this home. */
export function homeFolder(files: AgentFiles, variable: string, where: Where): string {
  return placedPath(files, `$${variable}`, where);
}

/** The step an agent's tool is, from the table its declaration holds; undefined for a tool not in it. */
export function toolKind<K extends string>(tools: Readonly<Record<string, K>>, name: string): K | undefined {
  return Object.hasOwn(tools, name) ? tools[name] : undefined;
}

/**
 * What core knows of the agents: every declaration with its variables resolved in the environment
 * the agent runs in (the hook's, never the resident checker's own), read by core's agentKnowledge().
 */
export function agentKnowledge(agents: readonly Agent[], where: Where): AgentKnowledge {
  const lists = {
    hooks: [],
    otherHooks: [],
    folders: [],
    settings: [],
    rules: [],
    memory: [],
    mcp: [],
    hooksOff: [],
  } as Record<'hooks' | 'otherHooks' | 'folders' | 'settings' | 'rules' | 'memory' | 'mcp' | 'hooksOff', string[]>;
  const variables: Record<string, string> = {};
  const programs: AgentProgram[] = [];
  for (const { files } of agents) {
    for (const key of ['hooks', 'folders', 'settings', 'rules', 'memory', 'mcp'] as const)
      for (const path of files[key]) lists[key].push(resolved(files, path, where));
    // a file that can move the hook files is held as they are
    for (const path of files.envFiles ?? []) lists.hooks.push(resolved(files, path, where));
    for (const path of files.otherHooks ?? []) lists.otherHooks.push(resolved(files, path, where));
    lists.hooksOff.push(...files.hooksOff);
    for (const home of files.homes) variables[home.variable] = homeFolder(files, home.variable, where);
    if (files.program !== undefined) programs.push(files.program);
  }
  const unique = (list: readonly string[]): string[] => [...new Set(list)];
  return indexed({
    hooks: unique(lists.hooks),
    otherHooks: unique(lists.otherHooks),
    folders: unique(lists.folders),
    settings: unique(lists.settings),
    rules: unique(lists.rules),
    memory: unique(lists.memory),
    mcp: unique(lists.mcp),
    variables,
    hooksOff: unique(lists.hooksOff),
    programs,
  });
}

/**
 * The agent's managed hook file on a platform (`process.platform`'s names), as its declaration
 * says; undefined where it has none (or none guard knows of there).
 */
export function systemHookFile(files: AgentFiles, platform: string): string | undefined {
  return files.system === undefined ? undefined : onPlatform(files.system, platform);
}

/**
 * The settings a managed install also writes on a platform, each with its file (`SystemHooks.also`);
 * [] where the agent has no managed hook file there.
 */
export function systemSettings(
  files: AgentFiles,
  platform: string,
): { readonly file: string; readonly setting: SystemSetting }[] {
  if (systemHookFile(files, platform) === undefined) return [];
  return (files.system?.also ?? []).flatMap((setting) => {
    const file = onPlatform(setting, platform);
    return file === undefined ? [] : [{ file, setting }];
  });
}

/** A declaration's path on a platform (`process.platform`'s names). */
function onPlatform(paths: Pick<SystemSetting, 'linux' | 'darwin' | 'win32'>, platform: string): string | undefined {
  if (platform === 'win32') return paths.win32;
  return platform === 'darwin' ? paths.darwin : paths.linux;
}

/**
 * The variables of the agent's declaration that switch its hooks off (`OPENCODE_PURE`), set in the
 * environment status and doctor run in: the agent started there runs without guard's hooks. Those
 * that move the system settings away count only for guard set up there (`system`).
 */
export function variablesOff(
  files: AgentFiles,
  displayName: string,
  env: Locations['env'],
  system = false,
): HooksOff[] {
  const off: HooksOff[] = [];
  for (const item of files.program?.hooksOff ?? []) {
    if (!('variable' in item)) continue;
    const value = env[item.variable];
    if (value === undefined || SWITCH_OFF.test(value.trim())) continue;
    if (item.system === true) {
      if (!system) continue;
      off.push({
        message: `${item.variable} is set in this environment, so ${displayName} reads its system settings from another file and runs no hook of guard's set up there with --system; unset it.`,
        scope: 'here',
      });
      continue;
    }
    off.push(
      item.project === true
        ? {
            message: `${item.variable} is set in this environment, so ${displayName} runs no project's hooks (guard's set up with --project included); unset it.`,
            scope: 'here',
          }
        : {
            message: `${item.variable} is set in this environment, so ${displayName} runs none of guard's hooks; unset it.`,
            scope: 'everywhere',
          },
    );
  }
  return off;
}
