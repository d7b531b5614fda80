import type { ToolStep } from '@guard/core';
import type { Call, HookDeps, HookIo } from '../../src/hook/call.js';
import { readCall } from '../../src/hook/call.js';
import { runHook } from '../../src/hook/run.js';
import { join } from 'node:path';
import { NOWHERE } from '../capture-io.js';

/** The system root the hook runs under here (none of the machine's system settings: tests pass their own). */
const SCRATCH_SYSTEM_ROOT = join(NOWHERE, 'system-root');

/** A call as the first stage reads it, over a fake HookIo that keeps what is written to it. */
export interface StageCall {
  readonly call: Call;
  /** What went to stdout, one item per write. */
  readonly out: string[];
  readonly err: string[];
  /** The deadlines the io was told of. */
  readonly deadlines: number[];
}

/** Reads a call of `argv` with guard's folder at `guardHome` and `stdin` (one piece). */
export async function stageCall(
  argv: readonly string[],
  guardHome: string,
  options: { stdin?: string; deps?: HookDeps; env?: Record<string, string> } = {},
): Promise<StageCall> {
  const out: string[] = [];
  const err: string[] = [];
  const deadlines: number[] = [];
  const io: HookIo = {
    stdin: pieces(options.stdin ?? ''),
    stopInput: () => undefined,
    out: (text) => void out.push(text),
    err: (text) => void err.push(text),
    env: { GUARD_HOME: guardHome, ...options.env },
    home: () => NOWHERE,
    tmp: () => '/tmp',
    parentArgs: () => ['node', 'agent'],
    deadline: (ms) => void deadlines.push(ms),
  };
  const call = await readCall(argv, io, { systemRoot: SCRATCH_SYSTEM_ROOT, ...options.deps });
  if (typeof call === 'string') throw new Error(call);
  return { call, out, err, deadlines };
}

/** Runs the whole hook on one payload, guard's folder at `guardHome`: its exit code and what it wrote. */
export async function hookReply(
  argv: readonly string[],
  guardHome: string,
  payload: unknown,
  deps: HookDeps = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: HookIo = {
    stdin: pieces(JSON.stringify(payload)),
    stopInput: () => undefined,
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    env: { GUARD_HOME: guardHome },
    home: () => NOWHERE,
    tmp: () => '/tmp',
    parentArgs: () => ['node', 'agent'],
  };
  const code = await runHook(argv, io, { systemRoot: SCRATCH_SYSTEM_ROOT, ...deps });
  return { code, stdout, stderr };
}

/** Stdin as one piece, as a pipe may deliver it. */
export async function* pieces(...texts: string[]): AsyncGenerator<string> {
  for (const text of texts) yield text;
}

/** A Codex shell step of chat c1 in the project /p. */
export function shellStep(command: string): ToolStep {
  return { agent: 'codex', chatId: 'c1', cwd: '/p', projectRoot: '/p', toolName: 'Bash', kind: 'shell', command };
}
