import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { adapters, AGENT_IDS, systemHookFile, systemSettings } from '@guard/adapters';
import type { Adapter, AgentId, InstallOptions, SystemSetting } from '@guard/adapters';
import { GUARD_PACKAGE } from '@guard/core';
import { GuardError } from '../errors.js';
import { asAdmin } from './admin.js';
import { hookScriptPath } from '../self.js';
import { SYSTEM_ROOT } from '../world/system-root.js';

/**
 * The machine's system-wide side, as `guard setup --system`, `guard uninstall --system`, status and
 * doctor see it. The CLI hands in `systemWorld(io.systemRoot)` (the real root, rights and owners); tests hand in
 * a scratch root and their own answers, so no test writes a real system folder. Nothing here is read
 * from the environment or a flag.
 */
export interface SystemWorld {
  /** Where the system's folders are: SYSTEM_ROOT, or a scratch folder in a test. */
  readonly root: string;
  /** `process.platform`'s name of the platform whose paths apply. */
  readonly platform: string;
  /** Whether this process has administrator rights (root; an elevated terminal on Windows). */
  isAdmin(): boolean;
  /**
   * Of guard's own files the hook command runs (Node and guard's package), the ones a user other
   * than the administrator could change, each as `path (why)`; [] when none.
   */
  changeable(): readonly string[];
  /**
   * Of these paths (an agent's managed file, which may not exist yet) and their folders up to the
   * root, the ones a user other than the administrator could change, each as `path (why)`.
   */
  changeableAt(paths: readonly string[]): readonly string[];
}

/** The real machine: SYSTEM_ROOT, this platform, this process's rights, the owners on disk. */
export function systemWorld(root: string = SYSTEM_ROOT): SystemWorld {
  return {
    root,
    platform: process.platform,
    isAdmin: () => isAdministrator(process.platform),
    changeable: () =>
      changeableFiles([process.execPath, hookScriptPath()], process.platform, dirname(dirname(hookScriptPath()))),
    changeableAt: (paths) => changeableFiles(paths, process.platform),
  };
}

/** A system path (`/etc/…`, `C:/ProgramData/…`) under `root`: itself under the real root. */
export function underRoot(root: string, path: string): string {
  if (root === SYSTEM_ROOT) return path;
  return posix.join(root.replace(/\\/g, '/'), path.replace(/^([A-Za-z]):/, '$1'));
}

/** The agent's managed hook file on this machine; undefined where it has none on this platform. */
export function systemFileOf(adapter: Adapter, world: SystemWorld): string | undefined {
  const path = systemHookFile(adapter.files, world.platform);
  return path === undefined ? undefined : underRoot(world.root, path);
}

/** The settings the agent's managed install also writes on this system (`SystemHooks.also`), each with its file under the root. */
export function systemSettingFiles(
  adapter: Adapter,
  world: SystemWorld,
): { readonly file: string; readonly setting: SystemSetting }[] {
  return systemSettings(adapter.files, world.platform).map(({ file, setting }) => ({
    file: underRoot(world.root, file),
    setting,
  }));
}

/** The agents with a managed hook file on the world's platform, each with that file, in the registry's order. */
export function systemAgents(world: SystemWorld): { readonly agent: AgentId; readonly file: string }[] {
  return AGENT_IDS.flatMap((agent) => {
    const file = systemFileOf(adapters[agent], world);
    return file === undefined ? [] : [{ agent, file }];
  });
}

/**
 * guard's system folder, where it keeps what `--system` setups did (`installs.json`, so uninstall
 * gives every byte back): a folder only the administrator writes, beside guard's system settings.
 */
export function systemGuardFolder(world: SystemWorld): string {
  return underRoot(world.root, world.platform === 'win32' ? 'C:/ProgramData/guard' : '/etc/guard');
}

/**
 * The options a system-wide entry is written with: the user's own guard folder is not pinned
 * (each person's hook keeps its settings and chats in their own folder), so setup run with sudo
 * does not point every user at root's folder; its own answer names the administrator's commands.
 */
export function systemOptions(options: InstallOptions): InstallOptions {
  const { hookCommand, failClosed, fallback } = options;
  return {
    hookCommand,
    failClosed,
    ...(fallback === undefined ? {} : { fallback: { node: fallback.node, script: fallback.script } }),
    system: true,
  };
}

/**
 * Refuses, writing nothing, a system-wide change without administrator rights; and a setup whose
 * hook would run a guard (or a Node) a user can change, or go into files (`files`) a user can
 * change: a system hook is worth only what it runs and where it is.
 */
export function checkSystemWrite(
  world: SystemWorld,
  command: string,
  setup: boolean,
  files: readonly string[] = [],
): void {
  if (!world.isAdmin()) {
    throw new GuardError(
      `Writing an agent's system-wide settings needs administrator rights, which this process does not have. guard wrote nothing.`,
      `Run ${asAdmin(command, world.platform)} instead (\`${command} --dry-run\` shows what it would write, without rights).`,
    );
  }
  if (!setup) return;
  const open = world.changeable();
  const at = files.length === 0 ? [] : world.changeableAt(files);
  if (open.length === 0 && at.length > 0) {
    throw new GuardError(
      `A user could change the agent's system-wide file, so it would not hold guard's hook for long: ${listed(at)}. guard wrote nothing.`,
      `Make it and its folders owned by ${world.platform === 'win32' ? 'administrators' : 'root'} and writable by them alone, then run ${asAdmin(command, world.platform)} again.`,
    );
  }
  if (open.length === 0) return;
  throw new GuardError(
    `A system-wide hook must run a guard that users cannot change, and a user could change these files it would run: ${listed(open)}. guard wrote nothing.`,
    `Install guard for the system, in a prefix only the administrator writes (${asAdmin(`npm install -g ${GUARD_PACKAGE}`, world.platform)}, with npm's prefix and Node owned by root), then run that guard's \`${command}\`.`,
  );
}

/** The first few of a list, and how many more. */
function listed(paths: readonly string[]): string {
  return `${paths.slice(0, 5).join('; ')}${paths.length > 5 ? `; and ${paths.length - 5} more` : ''}`;
}

/** Whether this process runs with administrator rights. */
function isAdministrator(platform: string): boolean {
  if (platform !== 'win32') return process.getuid?.() === 0;
  try {
    // only an elevated process may list the server's sessions
    execFileSync('net', ['session'], { stdio: 'ignore', windowsHide: true });
    return true;
  } catch {
    return false;
  }
}

/** At most this many files of guard's package are looked at (an installed package holds far fewer). */
const MAX_FILES = 20_000;

/**
 * Of `files` (guard's Node and hook script; an agent's managed file), with everything in
 * `packageDir` (guard's package), the ones and their folders up to the root that a user other than
 * root owns or that a group or everyone may write; a path that does not exist is left out (its
 * folder counts). On Windows owners cannot be read this way: every file is named, so a system setup
 * there is refused rather than trusted blindly. `admin` is the owner that counts as root: root's
 * user id, but for a test that runs as another user.
 */
export function changeableFiles(files: readonly string[], platform: string, packageDir?: string, admin = 0): string[] {
  if (platform === 'win32') return files.map((file) => `${file} (guard cannot tell on Windows who may change it)`);
  const found = new Map<string, string>();
  const look = (path: string): void => {
    if (found.has(path)) return;
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      found.set(path, code === 'ENOENT' ? '' : `${path} (cannot be read: ${code ?? 'error'})`);
      return;
    }
    const why =
      stat.uid !== admin
        ? `owned by user ${stat.uid}`
        : !stat.isSymbolicLink() && (stat.mode & 0o022) !== 0
          ? 'writable by its group or by everyone'
          : undefined;
    found.set(path, why === undefined ? '' : `${path} (${why})`);
  };
  const withFolders = (path: string): void => {
    for (let at = path; ; at = dirname(at)) {
      look(at);
      if (dirname(at) === at) break;
    }
  };
  for (const file of files) {
    withFolders(file);
    try {
      withFolders(realpathSync(file));
    } catch {
      // named above as unreadable
    }
  }
  // guard's package: dist/ and what it loads beside it
  if (packageDir !== undefined) walk(packageDir, look);
  return [...found.values()].filter((why) => why !== '');
}

/** Looks at every file and folder under `dir` (links not followed), up to MAX_FILES. */
function walk(dir: string, look: (path: string) => void): void {
  let budget = MAX_FILES;
  const stack = [dir];
  while (stack.length > 0 && budget > 0) {
    const at = stack.pop() as string;
    let names: string[];
    try {
      names = statSync(at).isDirectory() && !lstatSync(at).isSymbolicLink() ? readdirSync(at) : [];
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(at, name);
      look(path);
      budget -= 1;
      stack.push(path);
    }
  }
}
