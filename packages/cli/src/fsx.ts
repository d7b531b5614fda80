import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** The text of a file, or undefined when it does not exist. Other errors are thrown. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The text of a regular file, or undefined when it does not exist; throws for anything else (a
 * folder, a pipe, a device, a file over `maxBytes`, no permission). Opening with O_NONBLOCK and
 * looking at what was opened before reading means a named pipe or `/dev/zero` in the file's place
 * is an error at once, not a read that waits or grows forever (which would stop the hook's deadline
 * timer too: the read is synchronous).
 */
export function readRegularText(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR is not "none": something that is not a folder stands where one should be
    if (code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > maxBytes) throw new Error(`${path} is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < buffer.length) {
      const count = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a program cannot be started in `dir`, as a sentence that names the folder and what to do, or
 * undefined when it can. A spawn in a missing folder fails with a bare ENOENT that reads as if
 * the program were missing.
 */
export function folderProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a folder; run guard from a folder that exists`;
    accessSync(dir, constants.R_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return `the folder ${dir} does not exist; create it or run guard from a folder that exists`;
    return `the folder ${dir} cannot be entered (${code ?? 'error'}); check its permissions`;
  }
}

let counter = 0;

/**
 * Writes a file so that a reader sees either the old text or the new, never a torn one: a temp
 * file in the same folder, flushed, then renamed over the target. Creates missing folders. A file
 * that exists keeps its permissions (a hand-tuned 0600 stays 0600, whatever the umask); a new one
 * gets `mode`, less the umask. A symbolic link (dotfiles kept in a repository) is followed: the
 * file it points to is written and the link stays a link; a link to nothing is an error (ENOENT).
 */
export function writeFileAtomic(linkOrPath: string, text: string | Uint8Array, mode = 0o644): void {
  const path = followLink(linkOrPath);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const kept = modeOf(path);
  const temp = join(dir, `.${process.pid}.${Date.now()}.${counter++}.guard-tmp`);
  const fd = openSync(temp, 'w', kept ?? mode);
  try {
    // the umask narrowed the mode open gave it; fchmod does not apply it
    if (kept !== undefined) fchmodSync(fd, kept);
    if (typeof text === 'string') writeSync(fd, text);
    else writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The file a path names, through any symbolic links; the path itself when it is no link. */
export function followLink(path: string): string {
  let isLink: boolean;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return path;
  }
  if (!isLink) return path;
  try {
    return realpathSync(path);
  } catch (error) {
    // a link to nothing: writing "through" it would have to guess where
    const missing = new Error(`${path} is a link to something that does not exist`) as NodeJS.ErrnoException;
    missing.code = (error as NodeJS.ErrnoException).code ?? 'ENOENT';
    throw missing;
  }
}

/** Where a symbolic link at `path` points when it points at nothing (undefined otherwise). */
export function danglingLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  try {
    realpathSync(path);
    return undefined;
  } catch {
    return readlinkSync(path);
  }
}

/** The permission bits of a file (set-id and sticky bits included), or undefined when there is none. */
export function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}
