import { readCommand } from './shell/index.js';
import type { Invocation, Opaque } from './shell/types.js';
import type { ToolStep, Verdict } from './types.js';

/** What the engine needs to know about the machine, passed in (core does no I/O). */
export interface Environment {
  readonly home: string;
  readonly tmp: string;
}

/** A verdict plus what the engine read to reach it (for `guard explain` and the log). */
export interface Evaluation extends Verdict {
  /** The step text every span indexes into (see stepText). */
  readonly text: string;
  readonly invocations: readonly Invocation[];
  readonly opaque: readonly Opaque[];
}

/** PLACEHOLDER until the rule catalogue lands: reads shell steps, finds nothing. */
export function evaluate(step: ToolStep, env: Environment): Evaluation {
  if (step.kind !== 'shell') {
    return { decision: 'allow', findings: [], agentMessage: '', userMessage: '', text: '', invocations: [], opaque: [] };
  }
  const read = readCommand(step.command, { cwd: step.cwd, home: env.home, tmp: env.tmp });
  return {
    decision: 'allow',
    findings: [],
    agentMessage: '',
    userMessage: '',
    text: step.command,
    invocations: read.invocations,
    opaque: read.opaque,
  };
}
