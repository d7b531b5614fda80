import { AGENT_IDS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import {
  adapterFor,
  hasFailClosedSwitch,
  installOptions,
  LEVELS,
  locationsFrom,
  readBytes,
  textOf,
} from '../agents/config-io.js';
import type { Io } from '../io.js';
import { guardHomeFrom, readSettings } from '../state/settings.js';
import { changeSettings } from '../state/switches.js';

const MEANING = {
  on: 'a step guard could not check (a payload it cannot read, an error, no answer in time) is blocked.',
  off: 'a step guard could not check is asked (blocked where nobody can answer); the never list still blocks what could be read.',
} as const;

/**
 * `guard fail-closed [on|off] [--json]`: what happens to a step guard could not check: blocked (on)
 * or asked (off). Without a state, shows the current one.
 */
export async function failClosed(
  state: 'on' | 'off' | undefined,
  io: Io,
  options: { readonly json: boolean } = { json: false },
): Promise<void> {
  const changed = state === undefined ? false : await changeSettings({ failClosed: state === 'on' }, io);
  const current = state ?? ((await readSettings(guardHomeFrom(io.env, io.home()))).failClosed ? 'on' : 'off');
  const on = current === 'on';
  if (options.json) io.out(`${JSON.stringify({ failClosed: on, changed }, null, 2)}\n`);
  else if (state === undefined)
    io.out(
      `fail-closed is ${current}: ${MEANING[current]}\nRun \`guard fail-closed ${on ? 'off' : 'on'}\` to change it.\n`,
    );
  else if (!changed) io.out(`fail-closed was already ${state}; nothing changed.\n`);
  else io.out(`fail-closed is now ${state}: ${MEANING[state]}\n`);
  if (!changed) return;
  for (const agent of AGENT_IDS) await refresh(agent, on, io);
}

/**
 * guard's entries follow the setting: the agent's own fail-closed switch where it has one (Cursor,
 * Claude Code: without it the agent lets a step run when the hook fails), and the answer a hook
 * command gives by itself when guard's files are gone (ask, or block). The configs of an agent with
 * a switch are set up again wherever setup would now write them otherwise, as before; those of
 * another agent only where they were as setup wrote them for the setting before (an entry that is
 * out of date for another reason, such as a Codex hook from another Node, whose trust a rewrite
 * would take away, is left to `guard setup`). Every other byte is kept, as setup always does;
 * configs without guard are left alone.
 */
async function refresh(agent: AgentId, on: boolean, io: Io): Promise<void> {
  const adapter = adapterFor(agent);
  const where = locationsFrom(io);
  const done = new Set<string>();
  for (const level of LEVELS) {
    const file = adapter.configPath(level, where);
    if (done.has(file)) continue;
    done.add(file);
    const text = textOf(file, readBytes(file));
    if (adapter.installedCommands(text).length === 0) continue;
    try {
      if (adapter.install(text, installOptions(agent, on, io)) === text) continue;
      if (!hasFailClosedSwitch(agent) && adapter.install(text, installOptions(agent, !on, io)) !== text) continue;
    } catch {
      // a file setup cannot edit: setup below says so
    }
    const { setUpHook } = await import('../agents/install.js');
    io.out(`guard is set up in ${adapter.displayName} (${file}); writing its entries to match:\n`);
    await setUpHook(agent, { project: level === 'project', dryRun: false }, io);
  }
}
