import { availableParallelism, loadavg } from 'node:os';

/**
 * What the suite knows of the machine it runs on, for the tests that start processes: how much
 * slower than a quiet machine it runs now, and whether to run every case of the sampled tables.
 *
 * - `GUARD_TEST_SLOWDOWN=<n>` sets the slowdown (at least 1); without it, it is read from the load
 *   average: the runnable processes per core, over the last one and five minutes, whichever is higher.
 * - `GUARD_FULL=1` runs every case of the tables that run a share of them by default.
 */

function slowdown(): number {
  const set = Number(process.env['GUARD_TEST_SLOWDOWN']);
  if (process.env['GUARD_TEST_SLOWDOWN'] !== undefined && Number.isFinite(set) && set >= 1) return set;
  const [one = 0, five = 0] = loadavg();
  return Math.min(Math.max(1, Math.max(one, five) / availableParallelism()), 30);
}

/** How many times longer than on a quiet machine a process may take now (1 to 30). */
export const SLOWDOWN: number = slowdown();

/** A time limit for a quiet machine (`ms`), stretched for this one. */
export function scaled(ms: number): number {
  return Math.round(ms * SLOWDOWN);
}

/** Whether every case runs (`GUARD_FULL=1`), or the sampled tables run their share. */
export const FULL: boolean = process.env['GUARD_FULL'] === '1';
