import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { ConfigError, withoutTomlSetting } from '@guard/adapters';
import type { Adapter, AgentId, ConfigLevel } from '@guard/adapters';
import { AGENT_IDS } from '@guard/adapters/agents';
import { GUARD_PACKAGE } from '@guard/core';
import {
  adapterFor,
  describeConfigError,
  isInstalledPackage,
  LEVELS,
  locationsFrom,
  mentionsGuard,
  readBytes,
  sha256,
  textOf,
  writeStep,
} from '../agents/config-io.js';
import { GuardError } from '../errors.js';
import { writeFileAtomic } from '../fsx.js';
import { onlyCrlf } from '../agents/install.js';
import { readRecords, saveRecord } from '../state/installs.js';
import type { PinLevel } from '../state/installs.js';
import { asAdmin } from '../agents/admin.js';
import {
  checkSystemWrite,
  systemAgents,
  systemFileOf,
  systemGuardFolder,
  systemSettingFiles,
} from '../agents/system.js';
import type { SystemWorld } from '../agents/system.js';
import { stopCheckers } from '../state/resident.js';
import type { InstallRecord } from '../state/installs.js';
import type { Io } from '../io.js';
import { guardHomeFrom } from '../state/settings.js';

export interface UninstallOptions {
  /** Edit the project's config instead of the user's. */
  readonly project: boolean;
  /** Edit the agent's managed (system-wide) hook file in this system instead (`--system`): administrator rights. */
  readonly system?: SystemWorld;
}

/** The real machine's system side, for `--system` (program.ts hands it in). */
export { systemWorld } from '../agents/system.js';

/**
 * `guard uninstall <agent>`: removes only guard's entries. A file still exactly as setup left it
 * gets its original bytes back (or goes away when setup created it).
 */
export async function uninstall(agent: AgentId, options: UninstallOptions, io: Io): Promise<void> {
  const { system } = options;
  if (system !== undefined) {
    if (systemFileOf(adapterFor(agent), system) === undefined) {
      io.out(
        `${adapterFor(agent).displayName} has no system-wide hook file guard knows of on this platform; nothing changed.\n`,
      );
      return;
    }
    checkSystemWrite(system, `guard uninstall ${agent} --system`, false);
  }
  if (uninstallLevel(agent, system !== undefined ? 'system' : options.project ? 'project' : 'user', io, system))
    io.out(`Next: ${adapterFor(agent).afterUninstall}\n`);
}

/**
 * `guard uninstall --all --system`: guard's hook out of every agent's managed hook file, each file
 * said as it is done; the user's and the projects' files are left alone.
 */
export async function uninstallAllSystem(system: SystemWorld, io: Io): Promise<void> {
  checkSystemWrite(system, 'guard uninstall --all --system', false);
  const failed: string[] = [];
  const removed: AgentId[] = [];
  for (const { agent, file } of systemAgents(system)) {
    const adapter = adapterFor(agent);
    const folder = systemGuardFolder(system);
    if (!holdsGuard(agent, file, folder) && settingsSetUp(adapter, system, folder).length === 0) continue;
    const label = `${adapter.displayName} (system): `;
    try {
      if (uninstallLevel(agent, 'system', { ...io, out: (text) => io.out(prefixLines(label, text)) }, system))
        removed.push(agent);
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      io.err(prefixLines(label, `${error.message}\n`));
      failed.push(file);
    }
  }
  if (removed.length === 0 && failed.length === 0)
    io.out("guard was not set up in any agent's system-wide file; nothing changed.\n");
  for (const agent of removed) io.out(`Next: ${adapterFor(agent).afterUninstall}\n`);
  if (failed.length > 0) {
    throw new GuardError(
      `guard could not be taken out of ${failed.join(', ')} (see above); the other files are done.`,
      'Fix what is named above, then run `guard uninstall --all --system` again.',
    );
  }
}

/**
 * `guard uninstall --all`: every agent, at the user's level and the current project's, each file
 * said as it is done. One file that cannot be edited does not stop the others; it fails the
 * command at the end. Nothing set up anywhere is not a failure.
 */
export async function uninstallAll(io: Io, system?: SystemWorld): Promise<void> {
  const where = locationsFrom(io);
  const seen = new Set<string>();
  const removed: AgentId[] = [];
  const failed: string[] = [];
  for (const agent of AGENT_IDS) {
    const adapter = adapterFor(agent);
    for (const level of LEVELS) {
      const file = adapter.configPath(level, where);
      // run from the home folder, the project's file can be the user's own; a file with nothing of
      // guard's in it is not guard's to touch or to report on, parse or not
      if (seen.has(file)) continue;
      seen.add(file);
      if (!holdsGuard(agent, file, guardHomeFrom(io.env, io.home()))) continue;
      const label = `${adapter.displayName} (${level}): `;
      const prefixed: Io = { ...io, out: (text) => io.out(prefixLines(label, text)) };
      try {
        if (uninstallLevel(agent, level, prefixed)) removed.push(agent);
      } catch (error) {
        if (!(error instanceof GuardError)) throw error;
        io.err(prefixLines(label, `${error.message}\n`));
        failed.push(file);
      }
    }
  }
  const agents = [...new Set(removed)];
  if (agents.length === 0 && failed.length === 0) {
    io.out('guard was not set up for any agent, at the user level or in this project; nothing changed.\n');
  }
  const systemWide = systemInstalls(system);
  if (systemWide.length > 0)
    io.out(
      `guard's system-wide hook stays in ${systemWide.join(', ')} (for every user); ${asAdmin('guard uninstall --all --system', system?.platform ?? process.platform)} takes it out.\n`,
    );
  for (const agent of agents) io.out(`Next: ${adapterFor(agent).afterUninstall}\n`);
  const guardHome = guardHomeFrom(io.env, io.home());
  const checkers = await stopCheckers(guardHome);
  if (checkers.stopped > 0) io.out("Stopped guard's resident checker (the process that kept guard's hook loaded).\n");
  if (checkers.running > 0)
    io.out("guard's resident checker did not stop in time; it leaves by itself after 10 minutes without a call.\n");
  if (failed.length > 0) {
    throw new GuardError(
      `guard could not be taken out of ${failed.join(', ')} (see above); the other files are done.`,
      'Fix what is named above, then run `guard uninstall --all` again.',
    );
  }
  if (existsSync(guardHome))
    io.out(
      `guard's own folder is left as it is: ${guardHome} (settings, log, chats' memory); delete it to drop those too.\n`,
    );
  if (isInstalledPackage()) io.out(`To remove the guard command itself: npm rm -g ${GUARD_PACKAGE}\n`);
}

/** The managed hook files that hold guard's hook, read without rights. */
function systemInstalls(system: SystemWorld | undefined): string[] {
  if (system === undefined) return [];
  const folder = systemGuardFolder(system);
  return systemAgents(system)
    .filter(({ agent, file }) => holdsGuard(agent, file, folder))
    .map(({ file }) => file);
}

/**
 * Whether a file names guard's hook for `agent` (whether it parses or not), or is one guard wrote
 * (a record in `recordsHome`).
 */
function holdsGuard(agent: AgentId, file: string, recordsHome: string): boolean {
  let bytes;
  try {
    bytes = readBytes(file);
  } catch {
    return true; // unreadable: uninstalling it says why
  }
  if (bytes === undefined) return false;
  return mentionsGuard(bytes, agent) || readRecords(recordsHome)[file] !== undefined;
}

/** Takes guard out of one agent's file at one level (the system's with `system`); true when something was removed. */
function uninstallLevel(agent: AgentId, level: PinLevel, io: Io, system?: SystemWorld): boolean {
  const adapter = adapterFor(agent);
  const file =
    level === 'system' && system !== undefined
      ? systemFileOf(adapter, system)
      : adapter.configPath(level as ConfigLevel, locationsFrom(io));
  if (file === undefined) return false;
  // a system file's record is in guard's system folder
  const guardHome =
    level === 'system' && system !== undefined ? systemGuardFolder(system) : guardHomeFrom(io.env, io.home());

  const bytes = readBytes(file);
  const text = textOf(file, bytes);
  const again = `Fix that line, then run \`guard uninstall ${agent}${level === 'user' ? '' : ` --${level}`}\` again.`;
  const original = originalOf(file, readRecords(guardHome)[file]);
  let next: string;
  try {
    next = adapter.uninstall(text, {
      ...(level === 'system' ? { system: true as const } : {}),
      ...(original === undefined ? {} : { original }),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new GuardError(`${describeConfigError(file, error)}. guard changed nothing.`, again);
  }
  const hooked = bytes !== undefined && next !== text;
  // told the original, the edit is it wherever nothing else changed: a file that was there stays, even empty
  if (hooked) giveBack(file, bytes, next, guardHome, io, { what: "guard's hook", removeEmpty: original === undefined });
  else io.out(`guard is not set up in ${file}.\n`);
  // a file gone since setup leaves no record behind
  if (bytes === undefined) writeStep(guardHome, () => saveRecord(guardHome, file, undefined));
  // the settings setup --system wrote beside the hook file (Codex's requirements.toml), after it
  const settings = level === 'system' && system !== undefined ? settingsSetUp(adapter, system, guardHome) : [];
  for (const { file: at, setting } of settings) {
    const found = readBytes(at);
    if (found === undefined) {
      writeStep(guardHome, () => saveRecord(guardHome, at, undefined));
      continue;
    }
    const was = textOf(at, found);
    const what = `guard's ${setting.key} = ${String(setting.value)}`;
    const without = withoutTomlSetting(was, setting);
    // taken out by someone else since: only the record goes
    if (without === was && sha256(found) !== readRecords(guardHome)[at]?.after)
      writeStep(guardHome, () => saveRecord(guardHome, at, undefined));
    else giveBack(at, found, without, guardHome, io, { what, removeEmpty: false });
  }
  // a managed hook was never trusted in the user's records
  if (hooked && adapter.trust && level !== 'system') untrust(adapter, file, text, guardHome, io);
  // guard's system folder goes once nothing is left in it (the system settings file keeps it)
  if (level === 'system' && isEmptyDir(guardHome)) writeStep(guardHome, () => rmdirSync(guardHome));
  return hooked || settings.length > 0;
}

/** The settings files of the agent's managed install that setup --system wrote (a record in `recordsHome`). */
function settingsSetUp(adapter: Adapter, system: SystemWorld, recordsHome: string) {
  const records = readRecords(recordsHome);
  return systemSettingFiles(adapter, system).filter(({ file }) => records[file] !== undefined);
}

/**
 * The file's text before guard's first setup, as far as guard knows it: none ('') where setup
 * created it, else its backup while that holds the bytes setup found (the record's hash).
 */
function originalOf(file: string, record: InstallRecord | undefined): string | undefined {
  if (record === undefined) return undefined;
  if (record.created) return '';
  let backup: Buffer | undefined;
  try {
    backup = readBytes(`${file}.guard-backup`);
  } catch {
    return undefined;
  }
  return backup !== undefined && sha256(backup) === record.before ? backup.toString('utf8') : undefined;
}

/** Puts `label` in front of every line of `text`. */
function prefixLines(label: string, text: string): string {
  return text.replace(/^(?=.)/gm, label);
}

interface GiveBack {
  /** What guard takes out, for the messages. */
  readonly what: string;
  /** Delete the file when nothing but guard's part was in it (else only when guard created it). */
  readonly removeEmpty: boolean;
  /** Whether the backup means the same as the edited text (else the edit is written). */
  readonly sameAs?: (original: Buffer) => boolean;
}

/**
 * Gives a file guard wrote back: exactly as it was when nothing changed since guard's write (its
 * backup, or no file where guard created it), else the text without guard's part (`next`).
 */
function giveBack(file: string, bytes: Buffer, next: string, guardHome: string, io: Io, how: GiveBack): void {
  const record = readRecords(guardHome)[file];
  const backup = `${file}.guard-backup`;
  const untouched = record !== undefined && sha256(bytes) === record.after;
  const original = untouched && !record.created ? readBytes(backup) : undefined;

  if (untouched && record.created) {
    remove(file, record);
    io.out(`Removed ${file} (guard had created it).\n`);
  } else if (original !== undefined && sha256(original) === record?.before && (how.sameAs?.(original) ?? true)) {
    // The text edit gives back the original in all but a few cases (an empty list guard filled,
    // a file of only `{}` or whitespace); the backup's bytes are exact in every case.
    writeStep(file, () => writeFileAtomic(file, original.toString('utf8')));
    // The file now holds the very bytes of the copy.
    writeStep(backup, () => rmSync(backup, { force: true }));
    io.out(`Restored ${file} exactly as it was before guard's setup.\n`);
  } else if (next === '' && (how.removeEmpty || record?.created === true)) {
    // Nothing is left but guard's entries (and the header keys the agent needs with them).
    remove(file, record);
    io.out(`Removed ${file} (it held nothing but ${how.what}).\n`);
  } else {
    writeStep(file, () => writeFileAtomic(file, next));
    io.out(`Removed ${how.what} from ${file}; the rest of the file is as it was.\n`);
  }
  writeStep(guardHome, () => saveRecord(guardHome, file, undefined));
}

/**
 * Takes the agent's trust records for guard's hooks (as `hooksText` had them) out of its records
 * file (Codex: the user's config.toml).
 */
function untrust(adapter: Adapter, hooksFile: string, hooksText: string, guardHome: string, io: Io): void {
  const trust = adapter.trust;
  if (trust === undefined) return;
  const config = trust.recordsPath(locationsFrom(io));
  const bytes = readBytes(config);
  if (bytes === undefined) return;
  let keys: readonly string[];
  try {
    keys = trust.keys(hooksFile, hooksText);
  } catch {
    return; // the hooks file did not parse, so it had no hooks guard could have had trusted
  }
  const text = textOf(config, bytes);
  let next = trust.withoutRecords(text, keys, originalOf(config, readRecords(guardHome)[config]));
  if (next === text) return;
  // setup's trust turned the file's LF lines into CRLF: while it is still all CRLF, they go back too
  if (readRecords(guardHome)[config]?.crlfBySetup === true && onlyCrlf(next)) next = next.replace(/\r\n/g, '\n');
  // One config.toml holds the trust of every hooks file guard set up (user and project): its copy
  // from before guard is given back only when it says the same as the edit, only laid out as it was.
  const sameAs = (original: Buffer): boolean => trust.sameRecords(original.toString('utf8'), next);
  const what = `${adapter.displayName}'s trust in guard's hooks`;
  giveBack(config, bytes, next, guardHome, io, { what, removeEmpty: false, sameAs });
}

/** Deletes the file, then the folders guard created for it while they are empty. */
function remove(file: string, record: InstallRecord | undefined): void {
  writeStep(file, () => rmSync(file, { force: true }));
  const top = record?.created ? record.createdDir : undefined;
  if (top === undefined) return;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const inside = relative(top, dir);
    if (inside.startsWith('..') || isAbsolute(inside) || dirname(dir) === dir) return;
    if (!isEmptyDir(dir)) return;
    rmdirSync(dir);
    if (inside === '') return;
  }
}

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
