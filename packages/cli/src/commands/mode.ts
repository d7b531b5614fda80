import type { Mode } from '@guard/core';
import { MODE_SUMMARY } from '@guard/core';
import type { Io } from '../io.js';
import { guardHomeFrom, readSettings } from '../state/settings.js';
import { changeSettings } from '../state/switches.js';

export interface ModeOptions {
  readonly json: boolean;
}

/** The same few lines after every answer: what the modes are and what none of them changes. */
const ABOUT = [
  'standard  asks about every step on the ask list (the default)',
  'extended  lets steps outside the project go ahead (writing there, a new site, installing packages)',
  "full      lets the whole ask list go ahead, except what the chat's raised bar asks (untrusted",
  '          content, a key seen) and what guard cannot read or resolve',
  'In every mode the never list blocks; only you change the mode (`guard mode <mode>` in a terminal).',
];

/**
 * `guard mode [standard|extended|full] [--json]` (SPEC §12): without a mode, shows the current one;
 * with one, keeps it in settings.yaml (comments and other keys kept) and logs the change.
 */
export async function mode(wanted: Mode | undefined, options: ModeOptions, io: Io): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const changed = wanted === undefined ? false : await changeSettings({ mode: wanted }, io);
  const current = wanted ?? (await readSettings(guardHome)).mode;
  if (options.json) {
    io.out(`${JSON.stringify({ mode: current, changed }, null, 2)}\n`);
    return;
  }
  const head =
    wanted === undefined
      ? `guard's mode is ${current}: ${MODE_SUMMARY[current]}.`
      : changed
        ? `guard's mode is now ${current}: ${MODE_SUMMARY[current]}.`
        : `guard's mode was already ${current}; nothing changed.`;
  io.out(`${[head, '', ...ABOUT].join('\n')}\n`);
}
