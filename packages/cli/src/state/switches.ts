import { GuardError } from '../errors.js';
import type { Io } from '../io.js';
import { readSystemSettings } from '../world/system-settings.js';
import { appendLog } from './decision-log.js';
import type { WantedChange } from './floor.js';
import { floorRefusal } from './floor.js';
import type { Settings } from './settings.js';
import { guardHomeFrom, readSettings, SettingsError, settingsPath, updateSettings } from './settings.js';

/** The switches `guard on|off`, `guard fail-closed on|off` and `guard mode` change. */
export type Switch = Pick<Settings, 'enabled' | 'failClosed' | 'mode'>;

/**
 * Sets switches in settings.yaml (comments and other keys kept) and logs the change. Writes
 * nothing when they already have these values. Returns whether anything changed.
 */
export async function changeSettings(changes: Partial<Switch>, io: Io): Promise<boolean> {
  const guardHome = guardHomeFrom(io.env, io.home());
  await refuseBelowFloor(changes, io);
  try {
    const current = await readSettings(guardHome);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => current[key as keyof Switch] !== value),
    );
    if (Object.keys(changed).length === 0) return false;
    await updateSettings(guardHome, changed);
    try {
      appendLog(guardHome, { time: new Date().toISOString(), how: 'switch', changed });
    } catch (error) {
      io.err(
        `guard: the change was saved, but could not be logged (${error instanceof Error ? error.message : String(error)}).\n`,
      );
    }
    return true;
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    throw new GuardError(
      `${error.message.replace(/\.$/, '')} (${settingsPath(guardHome)}); nothing was changed.`,
      'Fix or delete settings.yaml, then run the command again.',
    );
  }
}

/**
 * Refuses a change the system settings do not allow (a loosening below their floor): says so, exit
 * 1, and nothing is changed. A change that tightens, or that the floor does not govern, passes.
 */
export async function refuseBelowFloor(change: WantedChange, io: Io): Promise<void> {
  const refusal = floorRefusal(await readSystemSettings(io.systemRoot), change);
  if (refusal !== undefined)
    throw new GuardError(
      `${refusal.charAt(0).toUpperCase()}${refusal.slice(1)}; nothing was changed.`,
      'Your organisation sets this floor; ask whoever manages guard on this machine. `guard status` shows which settings come from where.',
    );
}
