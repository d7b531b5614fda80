import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { ConfigError, withTomlSetting } from '@guard/adapters';
import type { Adapter, AgentId, ConfigLevel } from '@guard/adapters';
import {
  adapterFor,
  describeConfigError,
  installOptions,
  locationsFrom,
  readBytes,
  settingsOrFail,
  sha256,
  textOf,
  writeStep,
} from './config-io.js';
import { checkSystemWrite, systemFileOf, systemGuardFolder, systemOptions, systemSettingFiles } from './system.js';
import type { SystemWorld } from './system.js';
import { trustOf } from './trust.js';
import { GuardError } from '../errors.js';
import { danglingLink, modeOf, writeFileAtomic } from '../fsx.js';
import { readRecords, saveRecord } from '../state/installs.js';
import type { InstallRecord, Pin, PinLevel } from '../state/installs.js';
import type { Io } from '../io.js';
import { guardParts, isJson } from '../state/pins.js';
import { guardHomeFrom } from '../state/settings.js';

/**
 * Marks guard's freshly written hooks in `file` as trusted, for an agent that skips untrusted hooks
 * without a word (Codex). Setup reads the trust back afterwards, so this need not report success.
 * The default asks the agent's own program on PATH (codex-app-server.ts); tests may pass their own.
 */
export type TrustCodexHook = (file: string, commands: readonly string[]) => Promise<void>;

export interface SetupOptions {
  /** Write the project's config instead of the user's. */
  readonly project: boolean;
  /** Print the diff, write nothing. */
  readonly dryRun: boolean;
  readonly trustCodexHook?: TrustCodexHook;
  /**
   * Write the agent's managed (system-wide) hook file in this system (`--system`) instead of the
   * user's or the project's: it takes administrator rights, and a guard users cannot change.
   */
  readonly system?: SystemWorld;
}

/**
 * Adds guard's hook to the agent's config, keeping every other byte (`guard setup <agent>`; `guard
 * fail-closed` sets up again where guard is, for an agent with its own fail-closed switch).
 */
export async function setUpHook(agent: AgentId, setup: SetupOptions, io: Io): Promise<void> {
  const adapter = adapterFor(agent);
  const { system } = setup;
  const level: PinLevel = system !== undefined ? 'system' : setup.project ? 'project' : 'user';
  const again = `guard setup ${agent}${system !== undefined ? ' --system' : setup.project ? ' --project' : ''}`;
  const file =
    system !== undefined ? systemFileOf(adapter, system) : adapter.configPath(level as ConfigLevel, locationsFrom(io));
  if (file === undefined) {
    throw new GuardError(
      `${adapter.displayName} has no system-wide hook file guard knows of on this platform. guard wrote nothing.`,
      `Run \`guard setup ${agent}\` for your own user instead.`,
    );
  }
  const guardHome = guardHomeFrom(io.env, io.home());
  const settings = await settingsOrFail(guardHome, io.systemRoot);
  // what setup did to a system file is kept in guard's system folder, beside it only the administrator writes
  const recordsHome = system !== undefined ? systemGuardFolder(system) : guardHome;
  // the settings a managed install also writes in other system files (Codex's requirements.toml)
  const also = system !== undefined ? systemSettingFiles(adapter, system) : [];
  if (system !== undefined && !setup.dryRun)
    checkSystemWrite(system, again, true, [file, ...also.map((one) => one.file)]);

  const beforeBytes = readEditable(file, again);
  const before = textOf(file, beforeBytes);
  let after: string;
  const userOptions = installOptions(agent, settings.failClosed, io);
  const options = system !== undefined ? systemOptions(userOptions) : userOptions;
  try {
    after = adapter.install(before, options);
  } catch (error) {
    throw refusal(file, error, again);
  }
  // every file's new text is known before any is written: one refused, none is
  const settingChanges = also.map(({ file: at, setting }): Change => {
    const bytes = readEditable(at, again);
    const text = textOf(at, bytes);
    try {
      return { file: at, beforeBytes: bytes, before: text, after: withTomlSetting(text, setting), why: setting.why };
    } catch (error) {
      throw refusal(at, error, again);
    }
  });
  const rest = adapter.uninstall(after, options.system === true ? { system: true } : undefined);
  const pin: Pin = {
    agent,
    level,
    options,
    parts: guardParts(after, rest),
    json: isJson(after),
    ...(rest === '' ? { whole: true } : {}),
  };
  const hookChange: Change = { file, beforeBytes, before, after, pin };
  const changed = [...settingChanges, hookChange].filter(
    (one) => one.beforeBytes === undefined || one.after !== one.before,
  );
  if (!changed.includes(hookChange)) {
    io.out(`Already set up: ${file} (nothing changed).\n`);
    // the file as it is now is what setup leaves: pinned as such (a record from before pins gets one)
    if (!setup.dryRun) pinAsIs(recordsHome, system, file, beforeBytes as Buffer, pin);
  }

  if (setup.dryRun) {
    const { unifiedDiff } = await import('./line-diff.js');
    for (const one of changed) {
      const label = one.beforeBytes === undefined ? '/dev/null' : one.file;
      const verb = one.beforeBytes === undefined ? 'Would create' : 'Would update';
      io.out(`${verb} ${one.file} (dry run: nothing written)${one.why === undefined ? '' : `: it ${one.why}`}:\n`);
      io.out(unifiedDiff(one.before, one.after, label, one.file));
    }
    if (system === undefined) io.out(shadowNotes(adapter, file, before, after));
    else if (changed.length > 0) io.out(systemNotes(adapter, system));
    return;
  }
  if (changed.length === 0) {
    // a hook set up before the agent was installed (or trusted) gets its trust now (a managed one needs none)
    if (adapter.trust && !system && trustOf(adapter, file, after, io)?.state !== 'trusted')
      await trustHooks(adapter, file, after, setup, io);
    return;
  }

  // the hook file last: should it fail, the settings written before it are given back
  const done: Written[] = [];
  const hadRecords = existsSync(recordsHome);
  try {
    for (const one of changed) done.push(writeChange(one, recordsHome, system));
  } catch (error) {
    const stuck = [...done].reverse().filter((written) => !undoChange(written, recordsHome));
    if (!hadRecords && stuck.length === 0) removeEmptyUpTo(recordsHome, recordsHome);
    if (!(error instanceof GuardError)) throw error;
    const back = done.filter((one) => !stuck.includes(one)).map((one) => one.change.file);
    const gaveBack = back.length === 0 ? '' : ` It gave back what it had written: ${back.join(', ')}.`;
    if (stuck.length > 0) {
      // said as it is: a file guard wrote and could not give back is not "nothing written"
      const undo = stuck.map(({ change }) =>
        change.beforeBytes === undefined ? `remove ${change.file}` : `copy ${change.file}.guard-backup over it`,
      );
      throw new GuardError(
        `${error.message.replace(/\.$/, '')}, and guard could not give back what it had written to ${stuck.map(({ change }) => change.file).join(', ')}.${gaveBack}`,
        `Put it back by hand (${undo.join('; ')}), then run the command again.`,
      );
    }
    const said = error.message.includes('guard wrote nothing')
      ? error.message
      : `${error.message.replace(/\.$/, '')}; guard wrote nothing.`;
    throw new GuardError(`${said}${gaveBack}`, error.hint);
  }

  // said hook file first
  for (const { change, madeBackup } of [...done].reverse()) {
    if (change === hookChange) {
      const events = adapter.capabilities.events.join(', ');
      const hadGuard = adapter.installedCommands(before, options).length > 0;
      if (beforeBytes === undefined) io.out(`Created ${file} with guard's hook (events: ${events}).\n`);
      else
        io.out(`Updated ${file}: ${hadGuard ? "refreshed guard's hook" : "added guard's hook"} (events: ${events}).\n`);
    } else {
      io.out(`${change.beforeBytes === undefined ? 'Created' : 'Updated'} ${change.file}: it ${change.why ?? ''}.\n`);
    }
    if (madeBackup) io.out(`Kept a copy of the original in ${change.file}.guard-backup.\n`);
  }
  if (!changed.includes(hookChange)) return;
  if (system === undefined) io.out(shadowNotes(adapter, file, before, after));
  if (settings.failClosed)
    io.out('fail-closed is on: where the agent has its own fail-closed switch, it is set too.\n');
  if (system !== undefined) io.out(systemNotes(adapter, system));
  if (setup.project) {
    const trust = adapter.projectNeedsTrust ? ', and only once you trust this folder there' : '';
    io.out(`This file applies only when ${adapter.displayName} works in this project${trust}.\n`);
  }

  if (adapter.trust && system !== undefined) {
    // the trust step is the user's layer's: a managed hook runs without it
    io.out(`Next: start a new ${adapter.displayName} session; a system-wide hook needs no trust there.\n`);
    return;
  }
  if (!adapter.trust || system !== undefined) {
    io.out(`Next: ${adapter.capabilities.afterSetup}\n`);
    return;
  }
  await trustHooks(adapter, file, after, setup, io);
}

/**
 * The person's own hooks beside `file` that guard's entries keep the agent from running now (a line
 * each, with the fix), or ''; a file that cannot be read shadows nothing here.
 */
function shadowNotes(adapter: Adapter, file: string, before: string, after: string): string {
  const { shadows } = adapter;
  if (shadows === undefined) return '';
  const files = shadows.files(file).map((path) => {
    try {
      return { path, text: readBytes(path)?.toString('utf8') };
    } catch {
      return { path, text: undefined };
    }
  });
  return shadows
    .check(before, after, files)
    .map((line) => `Warning: ${line}\n`)
    .join('');
}

/** One file setup writes: its bytes before (undefined: no file), its text before and after. */
interface Change {
  readonly file: string;
  readonly beforeBytes: Buffer | undefined;
  readonly before: string;
  readonly after: string;
  /** The hook file's pin (absent for a setting's file). */
  readonly pin?: Pin;
  /** What a setting's file is for, in the words after "it" (absent for the hook file). */
  readonly why?: string;
}

/** A change written, and what undoing it needs: the record before, the backup and folder it made. */
interface Written {
  readonly change: Change;
  readonly record: InstallRecord | undefined;
  madeBackup: boolean;
  madeDir: string | undefined;
}

/** The bytes of a file setup is about to edit; a link to nothing is refused (which file would it be?). */
function readEditable(file: string, again: string): Buffer | undefined {
  const nowhere = danglingLink(file);
  if (nowhere !== undefined) {
    throw new GuardError(
      `${file} is a link to ${nowhere}, which does not exist, so guard cannot tell which file to edit. guard wrote nothing.`,
      `Create ${nowhere} (or remove the link), then run \`${again}\` again.`,
    );
  }
  return readBytes(file);
}

/** A file whose text the adapter cannot edit, as the error setup fails with. */
function refusal(file: string, error: unknown, again: string): unknown {
  if (!(error instanceof ConfigError)) return error;
  return new GuardError(
    `${describeConfigError(file, error)}. guard wrote nothing.`,
    `Fix that line (or move the file aside), then run \`${again}\` again.`,
  );
}

/** Writes one file with its backup and its record (kept first, so a write that lands is never unrecorded). */
function writeChange(change: Change, recordsHome: string, system: SystemWorld | undefined): Written {
  const { file, beforeBytes, after, pin } = change;
  const records = readRecords(recordsHome);
  const written: Written = { change, record: records[file], madeBackup: false, madeDir: undefined };
  try {
    written.madeBackup = beforeBytes !== undefined && keepOriginal(`${file}.guard-backup`, beforeBytes, modeOf(file));
    // a system folder guard makes is readable by everyone and writable by the administrator alone
    const folderMode = system !== undefined ? 0o755 : 0o777;
    if (beforeBytes === undefined)
      written.madeDir = writeStep(file, () => mkdirSync(dirname(file), { recursive: true, mode: folderMode }));
    const createdDir = beforeBytes === undefined ? topmostCreated(file, written.madeDir, records) : undefined;
    const record = nextRecord(records[file], beforeBytes, after, createdDir);
    keepRecord(recordsHome, system, file, pin === undefined ? record : { ...record, pin });
    writeStep(file, () => writeFileAtomic(file, after));
  } catch (error) {
    undoChange(written, recordsHome);
    throw error;
  }
  return written;
}

/**
 * Gives back what `writeChange` did: the file's bytes (or no file, nor the folder made for it), its
 * record, its backup; false when the file itself could not be given back (its backup and record stay).
 */
function undoChange(written: Written, recordsHome: string): boolean {
  const { change, record, madeBackup, madeDir } = written;
  const { file, beforeBytes } = change;
  try {
    if (beforeBytes === undefined) {
      rmSync(file, { force: true });
      if (madeDir !== undefined) removeEmptyUpTo(dirname(file), madeDir);
    } else if (!(readBytes(file)?.equals(beforeBytes) ?? false)) {
      writeFileAtomic(file, beforeBytes);
    }
  } catch {
    // named by the error that stopped setup; its backup and record stay
    return false;
  }
  try {
    if (madeBackup) rmSync(`${file}.guard-backup`, { force: true });
    saveRecord(recordsHome, file, record);
  } catch {
    // the file is as it was: a backup or record left over is harmless
  }
  return true;
}

/** Removes `dir` and the folders above it up to `top` while they are empty. */
function removeEmptyUpTo(dir: string, top: string): void {
  for (let at = dir; ; at = dirname(at)) {
    try {
      rmdirSync(at);
    } catch {
      return;
    }
    if (at === top || dirname(at) === at) return;
  }
}

/** What a system-wide install is to the agent, and what it needs, after the file it wrote. */
function systemNotes(adapter: Adapter, system: SystemWorld): string {
  const layer = adapter.files.system?.layer ?? '';
  const owner = system.platform === 'win32' ? 'administrators' : 'root';
  return `This file applies to every user of this machine. ${layer}.\nIt must stay owned by ${owner} and writable by ${owner} alone.\n`;
}

/**
 * Pins a file setup found already as it would write it (a record from before pins gets one). The
 * record's hashes stay: uninstall gives back the original only while the file is as guard wrote it.
 */
function pinAsIs(recordsHome: string, system: SystemWorld | undefined, file: string, bytes: Buffer, pin: Pin): void {
  const old: InstallRecord = readRecords(recordsHome)[file] ?? { after: sha256(bytes), created: false };
  if (JSON.stringify(old.pin) === JSON.stringify(pin)) return;
  keepRecord(recordsHome, system, file, { ...old, pin });
}

/**
 * Keeps setup's record of a file. guard's system folder is made first, as the agents' system
 * folders are: readable by everyone and writable by the administrator alone (not the umask's 0775).
 */
function keepRecord(recordsHome: string, system: SystemWorld | undefined, file: string, record: InstallRecord): void {
  if (system !== undefined) writeStep(recordsHome, () => mkdirSync(recordsHome, { recursive: true, mode: 0o755 }));
  writeStep(recordsHome, () => saveRecord(recordsHome, file, record));
}

/**
 * Has the agent trust guard's hooks where it can (for Codex, by default through `codex app-server`),
 * then reads the trust back. What that wrote into the agent's trust records (Codex's config.toml)
 * is recorded like setup's own writes, so uninstall can give the file back as it was.
 */
async function trustHooks(adapter: Adapter, file: string, after: string, options: SetupOptions, io: Io): Promise<void> {
  const records = adapter.trust;
  if (records === undefined) return;
  const trust = options.trustCodexHook ?? (await import('./codex-app-server.js')).appServerTrust(io);
  const config = records.recordsPath(locationsFrom(io));
  const configBefore = readBytes(config);
  await trust(file, adapter.installedCommands(after));
  const configAfter = readBytes(config);
  if (configAfter !== undefined && (configBefore === undefined || !configAfter.equals(configBefore))) {
    const guardHome = guardHomeFrom(io.env, io.home());
    // without the copy, uninstall still takes guard's trust entries out of the text
    if (configBefore !== undefined)
      writeStep(config, () => keepOriginal(`${config}.guard-backup`, configBefore, modeOf(config)));
    // the record kept from an earlier setup (the file as it left it) keeps its crlfBySetup
    const record = nextRecord(readRecords(guardHome)[config], configBefore, configAfter.toString('utf8'));
    // the agent's write turned LF lines into CRLF
    const crlfBySetup =
      record.crlfBySetup === true ||
      (configBefore !== undefined && onlyLf(configBefore.toString('utf8')) && onlyCrlf(configAfter.toString('utf8')));
    writeStep(guardHome, () => saveRecord(guardHome, config, crlfBySetup ? { ...record, crlfBySetup } : record));
  }
  const name = adapter.displayName;
  const trusted = trustOf(adapter, file, after, io)?.state === 'trusted';
  io.out(
    trusted
      ? `Next: ${name} already trusts this hook; start a new ${name} session.\n`
      : `Next: ${records.byHand}, and trust the guard hook; until then ${name} skips it without a word.\n`,
  );
}

/** Text with line ends, every one of them a bare LF. */
function onlyLf(text: string): boolean {
  return text.includes('\n') && !text.includes('\r');
}

/** Text with line ends, every one of them CRLF. */
export function onlyCrlf(text: string): boolean {
  return text.includes('\r\n') && !/(?<!\r)\n/.test(text);
}

/**
 * The topmost folder guard created that holds `file`: the one made for it now, or one made earlier
 * for another file guard still has there (Antigravity's ~/.gemini/config/hooks.json and Gemini
 * CLI's ~/.gemini/settings.json share ~/.gemini), so the last of them to go takes it along.
 */
function topmostCreated(
  file: string,
  madeNow: string | undefined,
  records: Readonly<Record<string, InstallRecord>>,
): string | undefined {
  let top = madeNow;
  for (const record of Object.values(records)) {
    const dir = record.created ? record.createdDir : undefined;
    if (dir === undefined || !isWithin(dirname(file), dir)) continue;
    if (top === undefined || isWithin(top, dir)) top = dir;
  }
  return top;
}

/** Whether `path` is `dir` or inside it. */
function isWithin(path: string, dir: string): boolean {
  const inside = relative(dir, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/**
 * What guard now knows of a file it wrote. A file still exactly as guard last wrote it keeps its first
 * record: uninstall can then give back the bytes from before guard's first write.
 */
function nextRecord(
  old: InstallRecord | undefined,
  beforeBytes: Buffer | undefined,
  after: string,
  createdDir?: string,
): InstallRecord {
  if (old !== undefined && beforeBytes !== undefined && sha256(beforeBytes) === old.after)
    return { ...old, after: sha256(after) };
  return {
    after: sha256(after),
    created: beforeBytes === undefined,
    ...(beforeBytes === undefined ? {} : { before: sha256(beforeBytes) }),
    ...(createdDir === undefined ? {} : { createdDir }),
  };
}

/**
 * Keeps the original bytes in `backup` the first time only; true when it made the copy now. The copy
 * is no easier to read than the original (`mode`, less the umask).
 */
function keepOriginal(backup: string, bytes: Buffer, mode = 0o666): boolean {
  try {
    writeFileSync(backup, bytes, { flag: 'wx', mode: mode & 0o777 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new GuardError(
      `Cannot back up the original to ${backup} (${(error as NodeJS.ErrnoException).code ?? String(error)}). guard wrote nothing.`,
      'Check that the folder is writable, then run the command again.',
    );
  }
}
