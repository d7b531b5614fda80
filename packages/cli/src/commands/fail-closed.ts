import { adapterFor, LEVELS, locationsFrom, readBytes, textOf } from '../agents.js';
import type { Io } from '../io.js';
import { changeSettings } from './toggle.js';

/** `guard fail-closed on|off`: what happens to a step when guard itself fails. */
export async function failClosed(state: 'on' | 'off', io: Io): Promise<void> {
  const on = state === 'on';
  const changed = await changeSettings({ failClosed: on }, io);
  if (!changed) {
    io.out(`fail-closed was already ${state}; nothing changed.\n`);
    return;
  }
  io.out(
    on
      ? 'fail-closed is now on: when guard itself fails (a payload it cannot read, an error), the step is blocked.\n'
      : 'fail-closed is now off: when guard itself fails, only the never list still applies and other steps go ahead.\n',
  );
  await refreshCursor(io);
}

/**
 * Cursor lets a step run when its hook fails, unless guard's entries are marked `failClosed`: the
 * Cursor configs guard is set up in are set up again, so the mark follows the setting (setup
 * writes it from the setting, keeping every other byte as always). Configs without guard are left alone.
 */
async function refreshCursor(io: Io): Promise<void> {
  const adapter = adapterFor('cursor');
  const where = locationsFrom(io);
  const done = new Set<string>();
  for (const level of LEVELS) {
    const file = adapter.configPath(level, where);
    if (done.has(file)) continue;
    done.add(file);
    if (adapter.installedCommands(textOf(file, readBytes(file))).length === 0) continue;
    const { setup } = await import('./setup.js');
    io.out(`guard is set up in Cursor (${file}); setting its own fail-closed mark to match:\n`);
    await setup('cursor', { project: level === 'project', dryRun: false }, io);
  }
}
