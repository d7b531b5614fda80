import { AGENTS, agentKnowledge } from '@guard/adapters/agents';
import type { Environment } from '@guard/core';
import { guardCodeFolders } from './guard-code.js';

/** Where a step runs, as the hook (or `guard explain`) found it. */
export interface StepWorld {
  /** The environment the agent runs in (the hook's `io.env`, never the resident checker's own). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly tmp: string;
  /** guard's own folder. */
  readonly guardHome: string;
}

/**
 * What the engine is told about the machine: the folders, guard's own program, and every agent's
 * files as its adapter declares them, with the variables that move them (`CODEX_HOME`, …) read
 * from the environment the agent runs in. Built once per call.
 */
export function stepEnvironment(world: StepWorld): Environment {
  return {
    home: world.home,
    tmp: world.tmp,
    guardHome: world.guardHome,
    guardCode: guardCodeFolders(),
    agents: agentKnowledge(Object.values(AGENTS), { home: world.home, env: world.env }),
  };
}
