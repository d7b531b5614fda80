import { posix } from 'node:path';
import type { HookSwitches } from '../adapter.js';
import type { HookSwitch } from '../settings-hooks.js';
import { hooksOff } from '../settings-hooks.js';
import { copilotHome } from './agent.js';

const SWITCHES: readonly HookSwitch[] = [
  {
    key: ['disableAllHooks'],
    off: true,
    counts: 'any',
    so: "so Copilot CLI runs none of its hooks but policy ones, guard's included (a repository's file switches off the user's hooks too); take that line out, or have guard installed as a policy hook.",
  },
];

/**
 * Copilot CLI's settings that keep guard's hooks from running: `disableAllHooks` in the user's
 * settings.json or in a repository's `.github/copilot/settings(.local).json` (which a cloned
 * repository brings with it). Only policy hooks run regardless. A file that does not parse sets nothing.
 */
export const hookSwitches: HookSwitches = {
  files: (where) => [
    posix.join(copilotHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.github', 'copilot', 'settings.json'),
    posix.join(where.projectRoot, '.github', 'copilot', 'settings.local.json'),
  ],
  check: (files) => hooksOff({ comments: true }, files, SWITCHES),
};
