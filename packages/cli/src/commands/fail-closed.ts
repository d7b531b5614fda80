import { AGENT_IDS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { adapterFor, hasFailClosedSwitch, LEVELS, locationsFrom, readBytes, textOf } from '../agents/config-io.js';
import type { Io } from '../io.js';
import { changeSettings } from '../state/switches.js';

/** `guard fail-closed on|off`: what happens to a step guard could not check: blocked (on) or asked (off). */
export async function failClosed(state: 'on' | 'off', io: Io): Promise<void> {
  const on = state === 'on';
  const changed = await changeSettings({ failClosed: on }, io);
  if (!changed) {
    io.out(`fail-closed was already ${state}; nothing changed.\n`);
    return;
  }
  io.out(
    on
      ? 'fail-closed is now on: a step guard could not check (a payload it cannot read, an error, no answer in time) is blocked.\n'
      : 'fail-closed is now off: a step guard could not check is asked (blocked where nobody can answer); the never list still blocks what could be read.\n',
  );
  for (const agent of AGENT_IDS) if (hasFailClosedSwitch(agent)) await refresh(agent, io);
}

/**
 * An agent with its own fail-closed switch (Cursor) lets a step run when its hook fails, unless
 * guard's entries carry the switch: the configs of that agent guard is set up in are set up again,
 * so the switch follows the setting (setup writes it from the setting, keeping every other byte as
 * always). Configs without guard are left alone.
 */
async function refresh(agent: AgentId, io: Io): Promise<void> {
  const adapter = adapterFor(agent);
  const where = locationsFrom(io);
  const done = new Set<string>();
  for (const level of LEVELS) {
    const file = adapter.configPath(level, where);
    if (done.has(file)) continue;
    done.add(file);
    if (adapter.installedCommands(textOf(file, readBytes(file))).length === 0) continue;
    const { setUpHook } = await import('../agents/install.js');
    io.out(`guard is set up in ${adapter.displayName} (${file}); setting its own fail-closed mark to match:\n`);
    await setUpHook(agent, { project: level === 'project', dryRun: false }, io);
  }
}
