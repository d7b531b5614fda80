import { existsSync } from 'node:fs';
import { AGENT_IDS, ConfigError, readFallback } from '@guard/adapters';
import type { Adapter, AgentId, Capabilities, HooksOff, SystemHooks, TrustReport } from '@guard/adapters';
import type { Mode } from '@guard/core';
import {
  adapterFor,
  baseCommand,
  checkCommand,
  describeConfigError,
  hasFailClosedSwitch,
  installOptions,
  LEVELS,
  locationsFrom,
  readBytes,
  floorOrFail,
  textOf,
} from './config-io.js';
import type { CommandCheck } from './config-io.js';
import { hooksOffAt, pinDrifts } from './pins.js';
import type { AgentDrift } from './pins.js';
import { setupCommand } from './admin.js';
import { systemFileOf, systemGuardFolder, systemOptions, systemWorld } from './system.js';
import type { SystemWorld } from './system.js';
import { trustOf } from './trust.js';
import { GuardError } from '../errors.js';
import type { Io } from '../io.js';
import { hookScriptPath } from '../self.js';
import { pausedUntil } from '@guard/core';
import type { OpinionBars } from '@guard/core';
import { readHealth } from '../state/opinion.js';
import { runningCheckers } from '../state/resident.js';
import { guardHomeFrom } from '../state/settings.js';
import type { SecondOpinionConfig, Settings } from '../state/settings.js';
import type { Resolved, SystemFloor, SystemRead } from '../state/floor.js';
import { floorOf, NO_FLOOR } from '../state/floor.js';
import type { PinLevel } from '../state/installs.js';

// How guard stands in each agent's files, read without changing anything: what `guard status`
// shows (and prints as JSON) and what `guard doctor` starts its checks from.

/** One config file of one agent, as guard finds it. */
export interface LevelStatus {
  /** The user's file, the project's, or the agent's managed one for the whole machine (`setup --system`). */
  readonly level: PinLevel;
  readonly path: string;
  readonly exists: boolean;
  /** guard's hook is in the file. */
  readonly installed: boolean;
  /** Why the file cannot be read as this agent's config (`file:line: message`). */
  readonly error?: string;
  /** guard's commands in the file (one per install; the per-event tails left out). */
  readonly commands: readonly CommandStatus[];
  /** `guard setup` would leave the file as it is (same command, same fail-closed switch). */
  readonly upToDate?: boolean;
  /**
   * Whether guard's commands answer by themselves when guard's files are gone (the package removed,
   * the Node they name moved): `written`; `missing` (an older setup: `guard setup` adds it);
   * `windows` (no command form keeps cmd.exe's and PowerShell's quoting, so setup writes the plain one).
   */
  readonly ownAnswer?: OwnAnswer;
  /** The agent's own fail-closed switch is set on guard's entries (only for agents that have one). */
  readonly agentFailClosed?: boolean;
  /**
   * What of the system settings floor guard's entries here are looser than: `failClosed` when the
   * floor keeps fail-closed on but the entries are as setup writes them with it off (the agent's own
   * switch unset, or the answer the command gives when guard's files are gone an ask). Absent: not looser.
   */
  readonly belowFloor?: 'failClosed';
  /**
   * Agents that skip untrusted hooks silently (Codex) only: whether the agent trusts guard's hooks.
   * The name is part of `guard status --json`.
   */
  readonly codexTrust?: TrustReport;
}

/** What an entry looser than the system settings floor does, by what it is looser than (status and doctor say it). */
export const BELOW_FLOOR: Readonly<Record<NonNullable<LevelStatus['belowFloor']>, string>> = {
  failClosed:
    'they keep fail-closed on, but these entries are written for fail-closed off, so a step guard could not check may run',
};

/** Whether guard's commands in a file answer by themselves when guard's files are gone (LevelStatus). */
export type OwnAnswer = 'written' | 'missing' | 'windows';

/** One of guard's hook commands in a file, and what to do when it is not this guard's. */
export interface CommandStatus extends CommandCheck {
  /**
   * What is wrong with the command and what to run, when its script or Node is not this guard's:
   * the install it points to moved, went away or is another one; the Node it names changed or is gone.
   */
  readonly advice?: string;
}

/** One agent: its files and what it can do. */
export interface AgentStatus {
  readonly agent: AgentId;
  readonly name: string;
  readonly levels: readonly LevelStatus[];
  readonly capabilities: Capabilities;
  /**
   * Where guard is set up for this agent: what in the agent's own settings keeps guard's hooks from
   * running (everywhere, or in the folder status runs in); [] when nothing does.
   */
  readonly hooksOff: readonly HooksOff[];
  /**
   * The agent's hook files guard pinned at setup whose guard's entries are no longer as setup left
   * them (removed, changed, the file gone or unreadable), or whose hooks the agent's own settings
   * now keep from running ([] when none): what to run is in each.
   */
  readonly drift: readonly AgentDrift[];
  /** For an agent with a managed hook file on this platform: which of guard's hooks it runs. */
  readonly layers?: Layers;
}

/** Which of guard's hooks an agent with a managed (system-wide) hook file runs. */
export interface Layers {
  /** The user's (or the project's), the system's, both, or none. */
  readonly runs: 'user' | 'system' | 'both' | 'none';
  /** With both: which answers first (`together`: side by side). */
  readonly first?: SystemHooks['first'];
  /** What the managed layer is to the agent, in a sentence. */
  readonly layer: string;
}

/** `guard status --json`. */
export interface StatusJson {
  readonly enabled: boolean;
  readonly failClosed: boolean;
  /** `guard mode`: how much runs without asking (SPEC §12). */
  readonly mode: Mode;
  readonly guardHome: string;
  /** Where the settings came from: the system settings floor, the user's settings, the defaults. */
  readonly settingsFrom: SettingsFrom;
  /** The hook script `guard setup` writes into configs, and whether it is built. */
  readonly hookScript: { readonly path: string; readonly exists: boolean };
  /** The second opinion (SPEC §11): off, or on with its model, and whether it is paused. */
  readonly secondOpinion: OpinionStatus;
  /** The resident checkers (processes that keep guard's hook loaded between calls) answering in guard's folder. */
  readonly resident: { readonly running: number };
  readonly agents: readonly AgentStatus[];
}

/** The system settings as read, where each value came from, and what of the user's is not used (state/floor.ts). */
export interface SettingsFrom {
  readonly system: { readonly path: string; readonly state: SystemRead['state']; readonly problem?: string };
  readonly from: Resolved['from'];
  readonly ignored: readonly string[];
  readonly lockedRules: readonly string[];
}

/** How the second opinion stands. */
export type OpinionStatus =
  | { readonly on: false }
  | { readonly on: true; readonly problem: string }
  | {
      readonly on: true;
      readonly url: string;
      readonly endpoint: string;
      readonly model: string;
      readonly keyEnv?: string;
      /** The key's variable is set in the environment `guard status` runs in. */
      readonly keySet?: boolean;
      readonly timeoutMs: number;
      readonly bars: OpinionBars;
      /** ISO time the pause ends, when paused. */
      readonly pausedUntil?: string;
      /** Why it paused (the last failure), when paused. */
      readonly pausedWhy?: string;
      readonly failuresInARow: number;
    };

/** The second opinion's settings back from its status (for `guard doctor`), when it is on and usable. */
export function opinionConfig(status: OpinionStatus): SecondOpinionConfig | undefined {
  if (!status.on || 'problem' in status) return undefined;
  const { url, endpoint, model, keyEnv, timeoutMs, bars } = status;
  return { url, endpoint, model, ...(keyEnv === undefined ? {} : { keyEnv }), timeoutMs, bars };
}

/** The second opinion in one line: off, or on with its model, URL, time limit and pause. */
export function opinionLine(status: OpinionStatus): string {
  if (!status.on) return 'off (`guard second-opinion on --url … --model …` turns it on)';
  if ('problem' in status)
    return `on, but its settings cannot be used (${status.problem}): every step it would judge goes ahead on the rules alone, logged as not judged; run \`guard second-opinion on …\` again`;
  const key =
    status.keyEnv === undefined ? '' : `, key from $${status.keyEnv}${status.keySet === true ? '' : ' (not set here)'}`;
  const state =
    status.pausedUntil !== undefined
      ? `PAUSED until ${status.pausedUntil}${status.pausedWhy === undefined ? '' : ` (${status.pausedWhy})`}: the rules decide alone until then`
      : status.failuresInARow > 0
        ? `not paused (${status.failuresInARow} failure${status.failuresInARow === 1 ? '' : 's'} in a row)`
        : 'not paused';
  return `on, model ${status.model} at ${status.endpoint}${key}, ${status.timeoutMs} ms per judgement; ${state}`;
}

/** How the second opinion stands, from the settings and its health file. */
export function opinionStatus(settings: Settings, guardHome: string, io: Io): OpinionStatus {
  const second = settings.secondOpinion;
  if (!second.on) return { on: false };
  if ('problem' in second) return second;
  const { config } = second;
  const health = readHealth(guardHome);
  const paused = pausedUntil(health, Date.now());
  return {
    on: true,
    url: config.url,
    endpoint: config.endpoint,
    model: config.model,
    ...(config.keyEnv === undefined ? {} : { keyEnv: config.keyEnv, keySet: Boolean(io.env[config.keyEnv]) }),
    timeoutMs: config.timeoutMs,
    bars: config.bars,
    ...(paused === undefined
      ? {}
      : {
          pausedUntil: new Date(paused).toISOString(),
          ...(health.why === undefined ? {} : { pausedWhy: health.why }),
        }),
    failuresInARow: paused === undefined ? health.failures : 0,
  };
}

/**
 * How one agent's config file stands, read without changing anything. The system level needs the
 * system (`SystemWorld`); an agent with no managed file on its platform has no such level (undefined).
 */
export function inspectLevel(
  agent: AgentId,
  level: PinLevel,
  io: Io,
  settings: Settings,
  system?: SystemWorld,
  floor: SystemFloor = NO_FLOOR,
): LevelStatus | undefined {
  const adapter = adapterFor(agent);
  const path =
    level === 'system'
      ? system === undefined
        ? undefined
        : systemFileOf(adapter, system)
      : adapter.configPath(level, locationsFrom(io));
  if (path === undefined) return undefined;
  const base = { level, path };
  let text: string;
  let exists: boolean;
  try {
    const bytes = readBytes(path);
    exists = bytes !== undefined;
    text = textOf(path, bytes);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    return { ...base, exists: true, installed: false, error: error.message, commands: [] };
  }
  if (!exists) return { ...base, exists, installed: false, commands: [] };

  const again = setupCommand(agent, level, system?.platform ?? process.platform);
  const found = adapter.installedCommands(text, level === 'system' ? { system: true } : undefined);
  const commands = [...new Set(found.map(baseCommand))].map((command) =>
    withAdvice(checkCommand(command), adapter.displayName, again),
  );
  try {
    const options = installOptions(agent, settings.failClosed, io);
    const upToDate = adapter.install(text, level === 'system' ? systemOptions(options) : options) === text;
    const installed = commands.length > 0;
    return {
      ...base,
      exists,
      installed,
      commands,
      ...(installed ? { upToDate, ownAnswer: ownAnswerOf(found) } : {}),
      ...failClosedForms(agent, text, found, level === 'system', floor),
      // a managed hook needs no trust (Codex trusts it by policy)
      ...trustIf(installed && level !== 'system', adapter, path, text, io),
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ...base, exists, installed: false, error: describeConfigError(path, error), commands };
  }
}

function trustIf(
  installed: boolean,
  adapter: Adapter,
  path: string,
  text: string,
  io: Io,
): { codexTrust?: TrustReport } {
  const trust = installed ? trustOf(adapter, path, text, io) : undefined;
  return trust === undefined ? {} : { codexTrust: trust };
}

/** The check with a sentence on what is not this guard's in it, and what to run. */
function withAdvice(check: CommandCheck, agentName: string, again: string): CommandStatus {
  const here = { node: process.execPath, script: hookScriptPath() };
  const said: string[] = [];
  if (check.nodeIs === 'relative' || check.scriptIs === 'relative') {
    said.push(
      `This command does not name Node and guard's hook script by full paths, so it depends on ${agentName}'s PATH and folder.`,
    );
  } else {
    if (check.scriptIs === 'missing') {
      said.push(
        `The guard this command runs is gone (${check.script} does not exist: guard was moved, reinstalled elsewhere or removed), so ${agentName} cannot run its hook.`,
      );
    } else if (check.scriptIs === 'other') {
      said.push(`This command runs another guard (${check.script}), not this one (${here.script}).`);
    }
    if (check.nodeIs === 'missing') {
      said.push(
        `The Node program it names is gone (${check.node} does not exist: Node was upgraded, moved or removed), so the hook cannot start.`,
      );
    } else if (check.nodeIs === 'other') {
      said.push(`It names another Node (${check.node}) than the one running guard now (${here.node}).`);
    }
  }
  if (said.length === 0) return check;
  return { ...check, advice: `${said.join(' ')} Run ${again} to point it at this guard and this Node.` };
}

/** Whether guard's commands (as a shell runs them; PowerShell's have no such form) answer by themselves. */
export function ownAnswerOf(commands: readonly string[], platform: string = process.platform): OwnAnswer {
  const shell = commands.filter((command) => !command.trimStart().startsWith('&'));
  if (shell.every((command) => readFallback(command) !== undefined)) return 'written';
  return platform === 'win32' ? 'windows' : 'missing';
}

/**
 * The file against what setup writes with fail-closed on and off, for the command (and the files
 * its own answer checks) found in it: whether guard's entries carry the agent's own fail-closed
 * switch (agents without one get nothing), and whether they are looser than a floor that keeps
 * fail-closed on (exactly the form for fail-closed off, where that differs from the form for on).
 */
function failClosedForms(
  agent: AgentId,
  text: string,
  commands: readonly string[],
  system: boolean,
  floor: SystemFloor,
): Pick<LevelStatus, 'agentFailClosed' | 'belowFloor'> {
  const first = commands[0];
  if (first === undefined) return {};
  const fallback = commands.map(readFallback).find((found) => found !== undefined)?.files;
  const writes = (failClosed: boolean): boolean =>
    adapterFor(agent).install(text, {
      hookCommand: baseCommand(first),
      failClosed,
      ...(fallback === undefined ? {} : { fallback }),
      ...(system ? { system: true as const } : {}),
    }) === text;
  const closed = writes(true);
  return {
    ...(hasFailClosedSwitch(agent) ? { agentFailClosed: closed } : {}),
    ...(floor.failClosed && !closed && writes(false) ? { belowFloor: 'failClosed' as const } : {}),
  };
}

/** Which of guard's hooks the agent runs, from its levels; undefined for an agent without a managed file here. */
function layersOf(adapter: Adapter, levels: readonly LevelStatus[]): Layers | undefined {
  const declared = adapter.files.system;
  const system = levels.find((level) => level.level === 'system');
  if (declared === undefined || system === undefined) return undefined;
  const user = levels.some((level) => level.level !== 'system' && level.installed);
  const runs = system.installed ? (user ? 'both' : 'system') : user ? 'user' : 'none';
  return { runs, ...(runs === 'both' ? { first: declared.first } : {}), layer: declared.layer };
}

/** Everything `guard status` reports; the system's managed files from `system` (the real one by default). */
export async function collectStatus(io: Io, system: SystemWorld = systemWorld(io.systemRoot)): Promise<StatusJson> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const { resolved, system: floor } = await floorOrFail(guardHome, io.systemRoot);
  const { settings } = resolved;
  const script = hookScriptPath();
  // the system files' pins are in guard's system folder (a hooks-off switch is the user's: said once)
  const systemDrifts = pinDrifts(systemGuardFolder(system), locationsFrom(io), system).filter(
    (drift) => drift.kind !== 'hooks-off',
  );
  const drifts = [...pinDrifts(guardHome, locationsFrom(io), system), ...systemDrifts];
  return {
    enabled: settings.enabled,
    failClosed: settings.failClosed,
    mode: settings.mode,
    guardHome,
    settingsFrom: {
      system: {
        path: floor.path,
        state: floor.state,
        ...(floor.state === 'unreadable' ? { problem: floor.problem } : {}),
      },
      from: resolved.from,
      ignored: resolved.ignored,
      lockedRules: resolved.lockedRules,
    },
    hookScript: { path: script, exists: existsSync(script) },
    secondOpinion: opinionStatus(settings, guardHome, io),
    resident: { running: await runningCheckers(guardHome) },
    agents: AGENT_IDS.map((agent) => {
      // run from the home folder, the project's file can be the user's own: list it once
      const levels = [...LEVELS, 'system' as const]
        .map((level) => inspectLevel(agent, level, io, settings, system, floorOf(floor)))
        .filter((level): level is LevelStatus => level !== undefined)
        .filter((level, index, all) => all.findIndex((other) => other.path === level.path) === index);
      const layers = layersOf(adapterFor(agent), levels);
      return {
        agent,
        name: adapterFor(agent).displayName,
        levels,
        capabilities: adapterFor(agent).capabilities,
        hooksOff: levels.some((level) => level.installed)
          ? hooksOffFor(
              adapterFor(agent),
              io,
              levels.some((level) => level.level === 'system' && level.installed),
              system,
            )
          : [],
        drift: drifts.filter((drift) => drift.agent === agent),
        ...(layers === undefined ? {} : { layers }),
      };
    }),
  };
}

/** What the agent's own settings files say that keeps its hooks from running (read, never changed). */
export function hooksOffFor(
  adapter: Adapter,
  io: Io,
  system = false,
  world: SystemWorld = systemWorld(io.systemRoot),
): readonly HooksOff[] {
  return hooksOffAt(adapter, locationsFrom(io), system, world);
}
