import { posix } from 'node:path';
import type { HookSwitches } from '../adapter.js';
import { homeFolder } from '../files.js';
import { settingsSwitches } from '../settings-hooks.js';
import { droidHome } from './agent.js';
import { SETTINGS } from './config.js';
import { droidFiles } from './files.js';

const so = "so Factory Droid runs no hooks at all, guard's included; take that line out.";

/**
 * Factory Droid's setting that keeps guard's hooks from running: `hooksDisabled`, at the root of a
 * hooks.json or in `hooks` of a settings file. Any level that says so turns every hook off (a
 * project's file switched off the user's hooks on 0.215.0); a file Droid cannot read sets nothing.
 */
export const hookSwitches: HookSwitches = settingsSwitches(SETTINGS, {
  files: (where) => {
    const project = posix.join(where.projectRoot, '.factory');
    return [
      ...[droidHome(where), project].flatMap((folder) =>
        ['settings.json', 'settings.local.json', 'hooks.json'].map((name) => posix.join(folder, name)),
      ),
      homeFolder(droidFiles, 'FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH', where),
      '/etc/factory/settings.json',
    ];
  },
  switches: [
    { key: ['hooksDisabled'], off: true, counts: 'any', so },
    { key: ['hooks', 'hooksDisabled'], off: true, counts: 'any', so },
  ],
});
