import { posix } from 'node:path';
import type { HookSwitches } from '../adapter.js';
import { homeFolder } from '../files.js';
import { settingsSwitches } from '../settings-hooks.js';
import { qwenHome } from './agent.js';
import { SETTINGS } from './config.js';
import { qwenFiles } from './files.js';

/**
 * Qwen Code's setting that keeps guard's hooks from running: `disableAllHooks`, merged like its
 * other settings (system defaults, the user's, the project's, then the system's: the last file that
 * sets it wins, and a project's file may set it). A file Qwen Code cannot read sets nothing.
 */
export const hookSwitches: HookSwitches = settingsSwitches(SETTINGS, {
  files: (where) => [
    homeFolder(qwenFiles, 'QWEN_CODE_SYSTEM_DEFAULTS_PATH', where),
    posix.join(qwenHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.qwen', 'settings.json'),
    homeFolder(qwenFiles, 'QWEN_CODE_SYSTEM_SETTINGS_PATH', where),
  ],
  switches: [
    {
      key: ['disableAllHooks'],
      off: true,
      counts: 'last',
      so: "so Qwen Code runs no hooks at all, guard's included; take that line out.",
    },
  ],
});
