import { AGENTS, agentKnowledge } from '@guard/adapters/agents';
import type { Environment } from '@guard/core';
import { dirname } from 'node:path';
import { guardCodeFolders } from './guard-code.js';
import { systemSettingsPath } from './system-settings.js';

/** Where a step runs, as the hook (or `guard explain`) found it. */
export interface StepWorld {
  /** The environment the agent runs in (the hook's `io.env`, never the resident checker's own). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly tmp: string;
  /** guard's own folder. */
  readonly guardHome: string;
  /** The root of the machine's system folders (world/system-root.ts), where guard's system settings are. */
  readonly systemRoot: string;
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
    // guard's system folder (the organisation's settings floor, the system installs' records) is
    // guard's as much as its code: no step changes it
    guardCode: [...guardCodeFolders(), dirname(systemSettingsPath(world.systemRoot))],
    agents: agentKnowledge(Object.values(AGENTS), { home: world.home, env: world.env }),
  };
}
