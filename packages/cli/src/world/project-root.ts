import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder at or above `cwd` that holds `.git` (a folder, or a file in a worktree), else `cwd`. */
export function findProjectRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
