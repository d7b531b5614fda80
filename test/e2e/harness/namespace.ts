import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changeableFiles } from '../../../packages/cli/src/agents/system.js';
import { hookScriptPath } from '../../../packages/cli/src/self.js';

// An agent's managed settings live in /etc, which no test may write. As root on Linux a process can
// have a mount namespace of its own: there an overlay puts a scratch folder over /etc, so the agent
// (and guard's setup --system, with the system root it really uses) sees /etc with the scratch
// folder's changes on top, while the real /etc stays as it was. Everything the namespace writes to
// /etc lands in the scratch folder, and the namespace ends with the process it was made for.

/** One scratch /etc: what the processes it wraps write to /etc, and how to wrap one. */
export interface ScratchEtc {
  /** Where a path under /etc is in the scratch folder: `/etc/a/b` → `<upper>/a/b`. */
  at(path: string): string;
  /** The program and arguments that run `file args` in a namespace of its own over this scratch /etc. */
  wrap(file: string, args: readonly string[]): [string, string[]];
  cleanup(): void;
}

// `sh -c SCRIPT scratch program args…`: mounts the overlay, then runs the program in its place
const SCRIPT = String.raw`mount -t overlay overlay -o "lowerdir=/etc,upperdir=$0/upper,workdir=$0/work" /etc && exec "$@"`;

/** A fresh scratch /etc (its folder under the system temp folder). */
export function scratchEtc(): ScratchEtc {
  const folder = mkdtempSync(join(tmpdir(), 'guard-etc-'));
  mkdirSync(join(folder, 'upper'));
  mkdirSync(join(folder, 'work'));
  return {
    at: (path) => join(folder, 'upper', path.replace(/^\/etc\//, '')),
    wrap: (file, args) => [
      'unshare',
      ['--mount', '--propagation', 'private', 'sh', '-c', SCRIPT, folder, file, ...args],
    ],
    cleanup: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * Why no scratch /etc can be had on this machine (not Linux, not root, no unshare or overlay, or a
 * checkout that users could change, which setup --system refuses), or
 * undefined when it can: tried once, with a file written in the namespace that must land in the
 * scratch folder and not in the real /etc.
 */
export function noScratchEtc(): string | undefined {
  if (process.platform !== 'linux') return `a private mount namespace needs Linux, not ${process.platform}`;
  if (process.getuid?.() !== 0) return 'a private mount namespace over /etc needs root';
  // guard's setup --system refuses a guard that users could change (a checkout under /tmp, say)
  const hook = hookScriptPath();
  const changeable = changeableFiles([process.execPath, hook], process.platform, join(hook, '..', '..'));
  if (changeable.length > 0) return `guard's setup --system refuses this checkout: ${changeable.join('; ')}`;
  const etc = scratchEtc();
  const probe = `/etc/guard-namespace-probe-${process.pid}`;
  try {
    if (existsSync(probe)) return `${probe} is in the real /etc`;
    const [program, args] = etc.wrap('sh', ['-c', `echo probe > ${probe}`]);
    execFileSync(program, args, { stdio: 'pipe', timeout: 30_000 });
    if (existsSync(probe)) return `a file written in the namespace reached the real /etc (${probe}): remove it`;
    return lstatSync(etc.at(probe)).isFile() ? undefined : 'the namespace wrote no file in the scratch /etc';
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `unshare or the overlay on /etc failed: ${said || (error as Error).message}`;
  } finally {
    etc.cleanup();
  }
}
