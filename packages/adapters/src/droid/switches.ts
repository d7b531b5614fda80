import { posix } from 'node:path';
import type { HookSwitches, HooksOff } from '../adapter.js';
import { homeFolder } from '../files.js';
import { readSettings, valueAt } from '../settings-hooks.js';
import { droidHome } from './agent.js';
import { SETTINGS } from './config.js';
import { droidFiles } from './files.js';

const so = "so Factory Droid runs no hooks at all, guard's included; take that line out.";

/** The machine's managed settings, which Droid reads over every other file (a variable's organisation file too). */
const MANAGED = '/etc/factory/settings.json';

/**
 * Factory Droid's setting that keeps guard's hooks from running: `hooksDisabled`, at the root of a
 * hooks.json or in `hooks` of a settings.json, at any level (a project's turns the user's hooks off
 * too). The machine's managed settings win over all the others (0.215.0): their `false`, which
 * `guard setup droid --system` writes, keeps the hooks on whatever the rest say. Where the rest
 * disagree, any `true` counts (the project's would win in its own folder only). A
 * settings.local.json's and a root-level `hooksDisabled` in settings.json turned nothing off there;
 * a file Droid cannot read sets nothing.
 */
export const hookSwitches: HookSwitches = {
  files: (where) => [
    ...[droidHome(where), posix.join(where.projectRoot, '.factory')].flatMap((folder) =>
      ['settings.json', 'hooks.json'].map((name) => posix.join(folder, name)),
    ),
    homeFolder(droidFiles, 'FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH', where),
    MANAGED,
  ],
  check(files) {
    const said = files.flatMap((file) => {
      const inSettings = !file.path.endsWith('/hooks.json');
      const value = valueAt(readSettings(SETTINGS, file), inSettings ? ['hooks', 'hooksDisabled'] : ['hooksDisabled']);
      if (typeof value !== 'boolean') return [];
      const what = inSettings ? `"hooks": {"hooksDisabled": ${String(value)}}` : `"hooksDisabled": ${String(value)}`;
      return [{ path: file.path, value, what }];
    });
    const managed = said.find((one) => one.path === MANAGED);
    return said
      .filter((one) => one.value)
      .map((one): HooksOff =>
        managed?.value === false
          ? {
              message: `${one.path} sets ${one.what}, but ${MANAGED}, which wins over it, sets ${managed.what}: guard's hooks run all the same.`,
              scope: 'overruled',
            }
          : { message: `${one.path} sets ${one.what}, ${so}`, scope: 'everywhere' },
      );
  },
};
