import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
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
 * gets `mode`, less the umask.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const kept = modeOf(path);
  const temp = join(dir, `.${process.pid}.${Date.now()}.${counter++}.guard-tmp`);
  const fd = openSync(temp, 'w', kept ?? mode);
  try {
    // the umask narrowed the mode open gave it; fchmod does not apply it
    if (kept !== undefined) fchmodSync(fd, kept);
    writeSync(fd, text);
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

/** The permission bits of a file (set-id and sticky bits included), or undefined when there is none. */
export function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}
