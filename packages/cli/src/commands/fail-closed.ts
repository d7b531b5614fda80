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
  if (on) {
    // Cursor lets a step run when its hook fails, unless guard's entries are marked failClosed;
    // setup writes that mark from this setting (agent configs are setup's business, not this command's)
    io.out(
      'fail-closed is now on: when guard itself fails (a payload it cannot read, an error), the step is blocked.\n' +
        'If guard is set up in Cursor, run `guard setup cursor` again so that Cursor also blocks when guard cannot answer at all.\n',
    );
  } else {
    io.out('fail-closed is now off: when guard itself fails, only the never list still applies and other steps go ahead.\n');
  }
}
