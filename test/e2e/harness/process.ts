import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ScratchEtc } from './namespace.js';

/** How one supervised process ended. */
export interface RunResult {
  /** Exit code; null when a signal ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Killed because it ran past its limit. */
  readonly timedOut: boolean;
  /** Wall time from spawn to exit. */
  readonly ms: number;
}

export interface RunOptions {
  readonly cwd: string;
  /** The whole environment: nothing of the test runner's own leaks in. */
  readonly env: Readonly<Record<string, string>>;
  /** Hard limit; the process group is killed when it runs out. */
  readonly limitMs: number;
  /** Text for stdin; without it stdin is /dev/null. */
  readonly input?: string;
  /**
   * Runs the program in a private mount namespace where /etc is this scratch /etc laid over the
   * real one (`scratchEtc()` in ./namespace.ts): what it writes there stays in the scratch folder.
   */
  readonly etc?: ScratchEtc;
}

// Process groups still alive, so an interrupted test run cannot leave agents behind.
const live = new Set<number>();
process.once('exit', () => live.forEach(killGroup));

/** Kills a process group by its leader's PID; a group that is already gone is fine. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Runs one program in a process group of its own and always kills that group at the end, so the
 * agent's children (shells, hooks, helper servers) never outlive the test. Never rejects for the
 * program's own failure: a start error reads as exit code 127 with the cause on stderr.
 */
export function runBounded(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [program, words] = options.etc === undefined ? [file, args] : options.etc.wrap(file, args);
    const child = spawn(program, words, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const pid = child.pid;
    if (pid !== undefined) live.add(pid);
    let done = false;
    const finish = (code: number | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (pid !== undefined) {
        killGroup(pid);
        live.delete(pid);
      }
      resolve({ code, stdout, stderr, timedOut, ms: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
    }, options.limitMs);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      stderr += `${error.message}\n`;
      finish(127);
    });
    // a leftover child holding the pipes open must not keep the test waiting: end the group first
    child.on('exit', () => {
      if (pid !== undefined) killGroup(pid);
    });
    child.on('close', (code) => finish(code));
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
  });
}
