import type { AgentId } from '@guard/adapters';
import { AGENT_IDS } from '@guard/adapters/agents';
import { foundAgents } from '../agents/found.js';
import { checkSystemWrite, systemAgents } from '../agents/system.js';
import { setUpHook, type SetupOptions } from '../agents/install.js';
import { GuardError } from '../errors.js';
import type { Io } from '../io.js';

/** The real machine's system side, for `--system` (program.ts hands it in). */
export { systemWorld } from '../agents/system.js';

/** `guard setup <agent> [--project] [--dry-run]`: adds guard's hook to the agent's config (agents/install.ts). */
export function setup(agent: AgentId, options: SetupOptions, io: Io): Promise<void> {
  return setUpHook(agent, options, io);
}

/**
 * `guard setup --all [--project] [--dry-run]`: sets guard up in every agent found on this machine
 * (its program on PATH, or its folder), each file said as it is done; the agents not found are named
 * as skipped and not touched. One agent whose file cannot be edited does not stop the others; it
 * fails the command at the end. With `--system`: every agent that has a managed hook file on this
 * platform, found here or not (an administrator's PATH and home do not show what the users run).
 */
export async function setupAll(options: SetupOptions, io: Io): Promise<void> {
  const { system } = options;
  // once for all of them: no rights (or a guard users can change) is the same answer for each
  if (system !== undefined && !options.dryRun) checkSystemWrite(system, 'guard setup --all --system', true);
  const found =
    system === undefined
      ? foundAgents(io)
      : systemAgents(system).map(({ agent }) => ({ agent, why: 'has a system-wide hook file' }));
  const skipped = AGENT_IDS.filter((agent) => !found.some((entry) => entry.agent === agent));
  const failed: AgentId[] = [];
  for (const { agent, why } of found) {
    io.out(`${agent} (${why}):\n`);
    const label = '  ';
    const indented: Io = {
      ...io,
      out: (text) => io.out(text.replace(/^(?=.)/gm, label)),
      err: (text) => io.err(text.replace(/^(?=.)/gm, label)),
    };
    try {
      await setUpHook(agent, options, indented);
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      indented.err(`${error.message}\n${error.hint ? `${error.hint}\n` : ''}`);
      failed.push(agent);
    }
  }
  if (found.length === 0) io.out('No agent was found on this machine (on PATH or by its folder); nothing changed.\n');
  if (skipped.length > 0 && system !== undefined)
    io.out(`Skipped, no system-wide hook file guard knows of on this platform: ${skipped.join(', ')}.\n`);
  else if (skipped.length > 0)
    io.out(`Skipped, not found here: ${skipped.join(', ')} (\`guard setup <agent>\` sets one up anyway).\n`);
  if (failed.length > 0) {
    throw new GuardError(
      `guard could not be set up in ${failed.join(', ')} (see above); the other agents are done.`,
      `Fix what is named above, then run \`guard setup --all${system === undefined ? '' : ' --system'}\` again.`,
    );
  }
}
