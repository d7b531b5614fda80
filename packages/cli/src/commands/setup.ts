import type { AgentId } from '@guard/adapters';
import { setUpHook, type SetupOptions } from '../agents/install.js';
import type { Io } from '../io.js';

/** `guard setup <agent> [--project] [--dry-run]`: adds guard's hook to the agent's config (agents/install.ts). */
export function setup(agent: AgentId, options: SetupOptions, io: Io): Promise<void> {
  return setUpHook(agent, options, io);
}
