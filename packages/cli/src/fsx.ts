import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
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

let counter = 0;

/**
 * Writes a file so that a reader sees either the old text or the new, never a torn one: a temp
 * file in the same folder, flushed, then renamed over the target. Creates missing folders.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${process.pid}.${Date.now()}.${counter++}.guard-tmp`);
  const fd = openSync(temp, 'w', mode);
  try {
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
