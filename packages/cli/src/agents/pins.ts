import { readdirSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { AGENT_IDS, systemHookFile, systemSettings, variablesOff } from '@guard/adapters';
import type { Adapter, AgentId, HooksOff, Locations } from '@guard/adapters';
import { adapterFor, readBytes, sha256, textOf } from './config-io.js';
import { readRecords } from '../state/installs.js';
import type { InstallRecord, Pin } from '../state/installs.js';
import { fileDrift } from '../state/pins.js';
import { systemWorld, underRoot } from './system.js';
import type { SystemWorld } from './system.js';
import type { Drift } from '../state/pins.js';

/** A drift of an agent guard knows (status and doctor name it by its id). */
export interface AgentDrift extends Drift {
  readonly agent: AgentId;
}

// The pins on the agents' hook files (issue 25): setup records what it wrote into each (installs.json,
// with the options it wrote guard's entries with); here each is compared with the file as it is now.
// A file whose other parts changed (the agent's own settings, the person's edits) has not drifted:
// only guard's entries count, read as "setup with the same options would leave the file as it is".

/**
 * Every pinned hook file whose guard's entries drifted, and every agent with a pinned file whose own
 * settings now keep all its hooks from running.
 */
export function pinDrifts(guardHome: string, where: Locations, system?: SystemWorld): AgentDrift[] {
  const drifts: AgentDrift[] = [];
  const pinned = new Set<AgentId>();
  for (const [path, record] of Object.entries(readRecords(guardHome))) {
    const agent = pinnedAgent(record);
    if (agent === undefined || record.pin === undefined) continue;
    pinned.add(agent);
    const found = driftOf(path, record, record.pin, agent);
    if (found !== undefined) drifts.push(found);
  }
  for (const agent of pinned) {
    const off = hooksOffAt(adapterFor(agent), where, false, system).find((entry) => entry.scope === 'everywhere');
    if (off === undefined) continue;
    const name = adapterFor(agent).displayName;
    drifts.push({
      agent,
      name,
      level: 'user',
      path: '',
      kind: 'hooks-off',
      detail: off.message,
      fix: `Undo that switch in ${name}'s settings (guard cannot, and will not, do it for you).`,
    });
  }
  return drifts;
}

/**
 * What keeps the agent's hooks from running: its own settings files (read, never changed), and the
 * variables its declaration names as switches, set in this environment (with `system`, guard is
 * set up in the agent's system settings: those that move them count too). The agent's declared
 * system files among them are read under `world`'s root (a scratch one in tests).
 */
export function hooksOffAt(
  adapter: Adapter,
  where: Locations,
  system = false,
  world: SystemWorld = systemWorld(),
): readonly HooksOff[] {
  const switches = adapter.hookSwitches;
  const set = variablesOff(adapter.files, adapter.displayName, where.env, system);
  if (switches === undefined) return set;
  const listed = (switches.folders?.(where) ?? []).flatMap((folder) => jsonFilesIn(folder));
  const declared = new Set([
    systemHookFile(adapter.files, world.platform),
    ...systemSettings(adapter.files, world.platform).map((one) => one.file),
  ]);
  const placed = (path: string): string => (declared.has(path) ? underRoot(world.root, path) : path);
  const files = [...switches.files(where).map(placed), ...listed].map((path) => {
    let text: string | undefined;
    try {
      text = readBytes(path)?.toString('utf8');
    } catch {
      // unreadable: as good as missing here; the agent cannot read it either
    }
    return { path, text };
  });
  return [...switches.check(files, where), ...set];
}

/** The `.json` files in a folder, by name ([] when it cannot be listed: the agent cannot list it either). */
function jsonFilesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => posix.join(folder, name));
  } catch {
    return [];
  }
}

function pinnedAgent(record: InstallRecord): AgentId | undefined {
  const agent = record.pin?.agent;
  return AGENT_IDS.find((id) => id === agent);
}

/** How one pinned file stands: undefined while guard's entries are as setup wrote them. */
export function driftOf(path: string, record: InstallRecord, pin: Pin, agent: AgentId): AgentDrift | undefined {
  const adapter = adapterFor(agent);
  const drift = (kind: Parameters<typeof fileDrift>[4], at?: string): AgentDrift => ({
    ...fileDrift(agent, adapter.displayName, pin.level, path, kind, at),
    agent,
  });
  let bytes: Buffer | undefined;
  try {
    bytes = readBytes(path);
  } catch {
    return drift('unreadable', modified(path));
  }
  if (bytes === undefined) return drift('gone');
  if (sha256(bytes) === record.after) return undefined;
  const at = modified(path);
  let text: string;
  try {
    text = textOf(path, bytes);
    if (adapter.install(text, pin.options) === text) return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return drift('unreadable', at);
  }
  return drift(adapter.installedCommands(text, pin.options).length === 0 ? 'removed' : 'changed', at);
}

function modified(path: string): string | undefined {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return undefined;
  }
}
