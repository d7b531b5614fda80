import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { adapters, plainCommand } from '@guard/adapters';
import type { Adapter, AgentId, ConfigError, ConfigLevel, InstallOptions, Locations } from '@guard/adapters';
import { GUARD_PACKAGE, quoteWord } from '@guard/core';
import { findProjectRoot } from '../world/project-root.js';
import { GuardError } from '../errors.js';
import type { Io } from '../io.js';
import { hookScriptPath } from '../self.js';
import type { Resolved, SystemRead } from '../state/floor.js';
import { resolveSettings } from '../state/floor.js';
import { DEFAULT_SETTINGS, guardHomeFrom, movedGuardHome, readSettings, SettingsError } from '../state/settings.js';
import { readSystemSettings } from '../world/system-settings.js';
import type { Settings } from '../state/settings.js';

/** Both config levels, user first. */
export const LEVELS: readonly ConfigLevel[] = ['user', 'project'];

/** Where the agents' files are: the home folder, the environment, and the project around the cwd. */
export function locationsFrom(io: Io): Locations {
  return { home: io.home(), env: io.env, projectRoot: findProjectRoot(io.cwd()) };
}

/** The agent's adapter; every AgentId has one. */
export function adapterFor(agent: AgentId): Adapter {
  return adapters[agent];
}

/**
 * Whether the agent has its own fail-closed switch on guard's entries (Cursor's `failClosed`):
 * setup writes the file differently with fail-closed on.
 */
export function hasFailClosedSwitch(agent: AgentId): boolean {
  const adapter = adapterFor(agent);
  const probe = hookCommand(agent);
  return (
    adapter.install('', { hookCommand: probe, failClosed: true }) !==
    adapter.install('', { hookCommand: probe, failClosed: false })
  );
}

/** Whether this guard runs from the installed npm package (not from a checkout). */
export function isInstalledPackage(script: string = hookScriptPath()): boolean {
  const parts = script.split(/[\\/]/);
  const at = parts.lastIndexOf(GUARD_PACKAGE);
  return at > 0 && parts[at - 1] === 'node_modules';
}

/**
 * The command an agent runs: the absolute Node binary and the absolute hook script, each quoted,
 * then `hook <agent>`. Never `npx` (slow) and never a bare `guard` (depends on the agent's PATH).
 */
export function hookCommand(
  agent: AgentId,
  node: string = process.execPath,
  script: string = hookScriptPath(),
  platform: string = process.platform,
): string {
  return `${quotePath(node, platform)} ${quotePath(script, platform)} hook ${agent}`;
}

// Always double quotes, the form every earlier install wrote (status compares the bytes). Windows
// paths cannot hold a double quote, and cmd.exe reads the rest literally.
function quotePath(path: string, platform: string): string {
  return platform === 'win32' ? `"${path}"` : quoteWord(path, 'double');
}

/**
 * The words of a hook command, read the way a POSIX shell reads guard's own quoting (double and
 * single quotes, backslash escapes). Good enough to find the program and script of a command guard
 * wrote; for anything else the caller reports what it found.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i += 1) {
    const char = command[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < command.length && '"$`\\'.includes(command[i + 1] as string))
        word += command[++i];
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (char === '&' && !inWord && words.length === 0) {
      // PowerShell's call operator in front of a quoted program (Copilot's powershell entry)
      continue;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * How one path of a hook command compares with this guard's own: the same file, another file that
 * exists (another install, another Node), an absolute path to nothing, or no absolute path at all.
 */
export type PathMatch = 'this' | 'other' | 'missing' | 'relative';

/** What a hook command found in a config points at, and whether both files are there. */
export interface CommandCheck {
  readonly command: string;
  /** The program the agent starts (the Node binary for guard's own commands). */
  readonly node: string;
  /** The script Node runs. */
  readonly script: string;
  /** Both are absolute paths to files that exist. */
  readonly resolves: boolean;
  /** Why it does not resolve. */
  readonly problem?: string;
  /** The program compared with the Node running this guard. */
  readonly nodeIs: PathMatch;
  /** The script compared with this guard's hook script (this install). */
  readonly scriptIs: PathMatch;
}

const EVENT_TAIL = /\s+--event\s+\S+\s*$/;

/**
 * A hook command without its own answer for when guard's files are gone, the per-event tail and
 * PowerShell's call operator: one per install.
 */
export function baseCommand(command: string): string {
  return plainCommand(command)
    .replace(/^\s*&\s+/, '')
    .replace(EVENT_TAIL, '');
}

/**
 * Whether the program and script of a hook command exist (no process is started), and whether they
 * are this guard's: `here` is the Node running it and its hook script.
 */
export function checkCommand(
  command: string,
  here: { readonly node: string; readonly script: string } = { node: process.execPath, script: hookScriptPath() },
): CommandCheck {
  const [node = '', script = ''] = splitCommand(command);
  const problem = [pathProblem(node, 'the Node program'), pathProblem(script, 'the hook script')].find(
    (text) => text !== undefined,
  );
  return {
    command,
    node,
    script,
    resolves: problem === undefined,
    ...(problem === undefined ? {} : { problem }),
    nodeIs: matchOf(node, here.node),
    scriptIs: matchOf(script, here.script),
  };
}

function matchOf(path: string, own: string): PathMatch {
  if (!isAbsolute(path)) return 'relative';
  if (path === own) return 'this';
  return existsSync(path) ? 'other' : 'missing';
}

function pathProblem(path: string, what: string): string | undefined {
  if (path === '') return `${what} is missing from the command`;
  if (!isAbsolute(path)) return `${what} "${path}" is not an absolute path, so it depends on the agent's PATH`;
  if (!existsSync(path)) return `${what} ${path} does not exist`;
  return undefined;
}

/** guard's settings held to the system settings floor, with a bad settings file turned into a clear error. */
export async function settingsOrFail(guardHome: string, systemRoot: string): Promise<Settings> {
  return (await floorOrFail(guardHome, systemRoot)).resolved.settings;
}

/**
 * The user's settings held to the system settings (state/floor.ts): what applies, where each value
 * came from, what of the user's is not used; and the system settings as read.
 */
export async function floorOrFail(
  guardHome: string,
  systemRoot: string,
): Promise<{ readonly resolved: Resolved; readonly system: SystemRead }> {
  let user: Settings;
  try {
    user = await readSettings(guardHome);
  } catch (error) {
    if (error instanceof SettingsError) {
      throw new GuardError(
        `${error.message.replace(/\.$/, '')} (in ${guardHome}).`,
        'Fix or delete settings.yaml, then run the command again.',
      );
    }
    throw error;
  }
  const system = await readSystemSettings(systemRoot);
  return { resolved: resolveSettings(system, user, DEFAULT_SETTINGS), system };
}

/**
 * Whether a file's bytes name guard's hook for `agent` (every hook command setup writes ends in
 * `hook <agent>`), whether or not the file parses.
 */
export function mentionsGuard(bytes: Buffer | string, agent: AgentId): boolean {
  return bytes.includes(`hook ${agent}`);
}

/** The bytes of a file, or undefined when it does not exist; other failures become a GuardError. */
export function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new GuardError(
      `Cannot read ${path} (${code ?? String(error)}).`,
      'Check that the file is readable, then run the command again.',
    );
  }
}

/** SHA-256 of some bytes, hex. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `<file>:<line>: <message>` for a config guard cannot read. */
export function describeConfigError(path: string, error: ConfigError): string {
  return `${path}${error.line === undefined ? '' : `:${error.line}`}: ${error.message}`;
}

/** The file's text, refusing bytes that are not UTF-8 (re-encoding them would change the file). */
export function textOf(file: string, bytes: Buffer | undefined): string {
  if (bytes === undefined) return '';
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new GuardError(
      `${file} is not UTF-8 text, so guard cannot edit it without changing it. guard wrote nothing.`,
      'Save the file as UTF-8, then run the command again.',
    );
  }
  return text;
}

/** Runs one write, turning a file-system failure into a clear error that names the path. */
export function writeStep<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof GuardError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new GuardError(
      `Cannot write ${path} (${code}).`,
      'Check that the folder is writable, then run the command again.',
    );
  }
}

/**
 * What setup (and status, to tell whether an entry is as setup would write it) hands the adapter:
 * off Windows, with the files the command runs, so that it answers by itself when they are gone.
 */
export function installOptions(
  agent: AgentId,
  failClosed: boolean,
  io: Io,
  platform: string = process.platform,
): InstallOptions {
  const moved = movedGuardHome(io.env, io.home());
  return {
    hookCommand: hookCommand(agent, process.execPath, hookScriptPath(), platform),
    failClosed,
    ...(platform === 'win32'
      ? {}
      : { fallback: { node: process.execPath, script: hookScriptPath(), home: guardHomeFrom(io.env, io.home()) } }),
    ...(moved === undefined ? {} : { guardHome: moved }),
  };
}
