import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

// The resident checker (hook-server.cts) as guard's commands see it: its sockets in guard's folder,
// `run/hook-<build id>.sock` (hook-base.cts socketPath), one per build that has one running, and
// how to stop them. A checker leaves within its check interval (2 s) once its socket file is gone.

/** The most a stop waits for a checker to leave (its check interval is 2 s). */
const STOP_WAIT_MS = 5_000;
const SOCKET = /^hook-[0-9a-f]{16}\.sock$/;

/** The checkers' sockets in guard's folder (answering or not). */
export function checkerSockets(guardHome: string): string[] {
  const run = join(guardHome, 'run');
  try {
    return readdirSync(run)
      .filter((name) => SOCKET.test(name))
      .sort()
      .map((name) => join(run, name));
  } catch {
    return [];
  }
}

/** Whether a checker answers at `socket`: it accepts a connection (which it drops unread). */
export function answering(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.on('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

/** How many checkers answer in guard's folder. */
export async function runningCheckers(guardHome: string): Promise<number> {
  const found = await Promise.all(checkerSockets(guardHome).map(answering));
  return found.filter(Boolean).length;
}

/** What stopping the checkers did: how many left, and how many still answered when the wait ended. */
export interface Stopped {
  readonly stopped: number;
  readonly running: number;
}

/**
 * Stops every checker of guard's folder: removes its socket (and the start lock), which makes it
 * leave, and waits until it has (a connection held open meanwhile closes). The run folder goes too
 * when nothing else is in it.
 */
export async function stopCheckers(guardHome: string): Promise<Stopped> {
  const ends = await Promise.all(checkerSockets(guardHome).map(stopOne));
  const run = join(guardHome, 'run');
  rmSync(join(run, 'start.lock'), { force: true });
  try {
    rmdirSync(run);
  } catch {
    // not there, or not empty (something else of guard's, or a checker started meanwhile)
  }
  return {
    stopped: ends.filter((end) => end === 'stopped').length,
    running: ends.filter((end) => end === 'running').length,
  };
}

/** Stops the checker at one socket: none answered there, it left, or it still ran when the wait ended. */
function stopOne(socket: string): Promise<'none' | 'stopped' | 'running'> {
  return new Promise((resolve) => {
    const conn = connect(socket);
    let connected = false;
    conn.on('error', () => {
      if (connected) return; // the checker went away: 'close' follows
      // nobody answers: a socket file left by a checker that was killed
      rmSync(socket, { force: true });
      resolve('none');
    });
    conn.on('connect', () => {
      connected = true;
      rmSync(socket, { force: true });
      const timer = setTimeout(() => {
        resolve('running');
        conn.destroy();
      }, STOP_WAIT_MS);
      conn.on('close', () => {
        clearTimeout(timer);
        resolve('stopped');
      });
    });
  });
}
