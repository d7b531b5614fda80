import { homedir, tmpdir } from 'node:os';
import { ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import type { HookDeps, HookIo } from './call.js';
import { readCall } from './call.js';
import { decide } from './decide.js';
import { ancestorArgs } from './parent.js';
import { record } from './record.js';
import { replyStage } from './reply.js';
import type { RawStdio } from './stdio.js';
import { rawStdio } from './stdio.js';
import { readStep } from './step.js';

export type { HookDeps, HookIo } from './call.js';
export { ancestorArgs };

/** The process's own stdin, stdout and stderr (`stdio`: another reader of them, the hook client's). */
export function processHookIo(stdio: RawStdio = rawStdio()): HookIo {
  return {
    stdin: stdio.chunks,
    stopInput: stdio.stop,
    out: (text) => stdio.write(1, text),
    err: (text) => stdio.write(2, text),
    env: process.env,
    home: homedir,
    tmp: tmpdir,
    parentArgs: () => ancestorArgs(process.ppid),
    // the deadline counts from the process's start: Node's own start is part of the agent's wait
    started: performance.timeOrigin,
  };
}

/** A HookIo over the CLI's Io (for `main()`; the bin's own hook path uses processHookIo). */
export function hookIoFrom(io: Io): HookIo {
  return {
    stdin: (async function* () {
      yield await io.readStdin();
    })(),
    stopInput: () => undefined,
    out: io.out,
    err: io.err,
    env: io.env,
    home: () => io.home(),
    tmp: () => io.tmp(),
    parentArgs: () => ancestorArgs(process.ppid),
  };
}

/**
 * `guard hook <agent> [--event NAME]`: reads one payload from stdin, judges it, writes the
 * agent's reply to stdout exactly once, and logs one line. Always answers within the deadline,
 * whatever the input; returns the exit code the agent expects (a usage error in the hook
 * command itself, which is a setup mistake, exits 2).
 *
 * The call goes through its stages in order: read the call (call.ts), read the step (step.ts),
 * decide (decide.ts), reply (reply.ts), record (record.ts). Whatever throws before the reply, and
 * the deadline, are answered by the reply stage from what is known by then; every write comes
 * after the reply.
 */
export async function runHook(
  argv: readonly string[],
  io: HookIo = processHookIo(),
  deps: HookDeps = {},
): Promise<number> {
  const call = await readCall(argv, io, deps);
  if (typeof call === 'string') {
    io.err(call);
    return ExitCode.Usage;
  }
  const reply = replyStage(call);
  const work = async (): Promise<number> => {
    const step = await readStep(call);
    const decision = await decide(call, step, reply);
    return record(call, reply.give(decision), decision);
  };
  const failed = (error: unknown): number => record(call, reply.fail(error));
  // the deadline's answer is recorded as any other; a decision that comes after it keeps only what
  // does not depend on being the answer given
  const expired = reply.expired.then((answered) => record(call, answered));
  try {
    return await Promise.race([work().catch(failed), expired]);
  } finally {
    reply.stop();
    io.stopInput();
  }
}
