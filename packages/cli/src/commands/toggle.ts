import type { Io } from '../io.js';
import { changeSettings } from '../state/switches.js';

/** `guard on` / `guard off`: the global switch. */
export async function toggle(state: 'on' | 'off', io: Io): Promise<void> {
  const enabled = state === 'on';
  const changed = await changeSettings({ enabled }, io);
  if (enabled) {
    io.out(
      changed
        ? 'guard is now on: each step is checked again before it runs.\n'
        : 'guard was already on; nothing changed.\n',
    );
  } else {
    io.out(
      `${changed ? "guard is now off: every step goes ahead and is logged as 'guard off'." : 'guard was already off; nothing changed.'} Run \`guard on\` to turn it back on.\n`,
    );
  }
}
