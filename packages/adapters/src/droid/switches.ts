import { posix } from 'node:path';
import type { HookSwitches, HooksOff, Locations, SettingsFile } from '../adapter.js';
import { homeFolder } from '../files.js';
import { readSettings, valueAt } from '../settings-hooks.js';
import { droidHome } from './agent.js';
import { installedCommand, installedCommands, SETTINGS } from './config.js';
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
    ...folders(where).flatMap((folder) => ['settings.json', 'hooks.json'].map((name) => posix.join(folder, name))),
    homeFolder(droidFiles, 'FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH', where),
    MANAGED,
    // the older hooks/hooks.json of each folder: read for guard's entries shadowed there
    ...folders(where).map((folder) => posix.join(folder, 'hooks', 'hooks.json')),
  ],
  check(files) {
    const switches = files.slice(0, 6);
    const said = switches.flatMap((file) => {
      const inSettings = !file.path.endsWith('/hooks.json');
      const value = valueAt(readSettings(SETTINGS, file), inSettings ? ['hooks', 'hooksDisabled'] : ['hooksDisabled']);
      if (typeof value !== 'boolean') return [];
      const what = inSettings ? `"hooks": {"hooksDisabled": ${String(value)}}` : `"hooksDisabled": ${String(value)}`;
      return [{ path: file.path, value, what }];
    });
    const managed = said.find((one) => one.path === MANAGED);
    const off = said
      .filter((one) => one.value)
      .map((one): HooksOff =>
        managed?.value === false
          ? {
              message: `${one.path} sets ${one.what}, but ${MANAGED}, which wins over it, sets ${managed.what}: guard's hooks run all the same.`,
              scope: 'overruled',
            }
          : { message: `${one.path} sets ${one.what}, ${so}`, scope: 'everywhere' },
      );
    const [userSettings, userHooks, projectSettings, projectHooks, , , userOlder, projectOlder] = files;
    return [
      ...off,
      ...shadowed(userSettings, userHooks, userOlder, 'everywhere'),
      ...shadowed(projectSettings, projectHooks, projectOlder, 'here'),
    ];
  },
};

/** The user's `.factory` folder and the project's. */
function folders(where: Locations): string[] {
  return [droidHome(where), posix.join(where.projectRoot, '.factory')];
}

/**
 * guard's entries that one folder's hooks.json keeps Droid from running (seen on 0.215.0): those in
 * `hooks` of settings.json for an event hooks.json lists (an empty list too) without guard's, and
 * all of an older hooks/hooks.json's beside a hooks.json. guard's setup writes hooks.json, the file
 * that wins; these are entries put elsewhere by hand.
 */
function shadowed(
  settings: SettingsFile | undefined,
  hooksJson: SettingsFile | undefined,
  older: SettingsFile | undefined,
  scope: HooksOff['scope'],
): HooksOff[] {
  if (hooksJson?.text === undefined) return [];
  const map = readSettings(SETTINGS, hooksJson) ?? {};
  const run = `run \`guard setup droid${scope === 'here' ? ' --project' : ''}\`, which writes guard's hook into ${hooksJson.path}`;
  const events = SETTINGS.events.filter(
    (event) =>
      settings?.text !== undefined &&
      installedCommand(settings.text, event, { system: true }) !== undefined &&
      Array.isArray(map[event]) &&
      installedCommand(hooksJson.text as string, event) === undefined,
  );
  const out: HooksOff[] = [];
  if (settings !== undefined && events.length > 0)
    out.push({
      message: `${settings.path} holds guard's hook for ${events.join(', ')}, but ${hooksJson.path} lists ${events.length > 1 ? 'those events' : 'that event'} too, and Factory Droid runs its list instead; ${run}.`,
      scope,
    });
  if (older?.text !== undefined && installedCommands(older.text).length > 0)
    out.push({
      message: `${older.path} holds guard's hook, but Factory Droid reads no hooks/hooks.json beside ${hooksJson.path}; ${run}.`,
      scope,
    });
  return out;
}
