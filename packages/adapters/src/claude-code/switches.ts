import { posix } from 'node:path';
import type { HookSwitches } from '../adapter.js';
import { settingsSwitches } from '../settings-hooks.js';
import { claudeHome } from './agent.js';
import { SETTINGS } from './config.js';

// Managed settings on Linux (macOS and Windows keep them elsewhere; guard reads the Linux one).
const MANAGED = '/etc/claude-code/managed-settings.json';

/**
 * Claude Code's settings that keep guard's hooks from running: `disableAllHooks` in any of its
 * settings files (a user-level one switches project hooks off too), and `allowManagedHooksOnly`.
 * A file Claude Code cannot read sets nothing.
 */
export const hookSwitches: HookSwitches = settingsSwitches(SETTINGS, {
  files: (where) => [
    posix.join(claudeHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.claude', 'settings.json'),
    posix.join(where.projectRoot, '.claude', 'settings.local.json'),
    MANAGED,
  ],
  switches: [
    {
      key: ['disableAllHooks'],
      off: true,
      counts: 'any',
      so: "so Claude Code runs no hooks at all, guard's included; take that line out.",
    },
    {
      key: ['allowManagedHooksOnly'],
      off: true,
      counts: 'any',
      so: "so Claude Code runs only the hooks of its managed settings, not guard's.",
    },
  ],
});
