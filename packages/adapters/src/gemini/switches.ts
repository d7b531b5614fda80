import { posix } from 'node:path';
import type { HookSwitches, Locations, SettingsFile } from '../adapter.js';
import { hooksOff, readSettings, valueAt } from '../settings-hooks.js';
import { homeFolder } from '../files.js';
import { geminiHome } from './agent.js';
import { HOOK_NAME, SETTINGS } from './config.js';
import { geminiFiles } from './files.js';

/**
 * Gemini CLI's settings that keep guard's hooks from running: `hooksConfig.enabled: false` (the
 * file that wins says), guard's name in `hooksConfig.disabled` (any file), and folder trust: in a
 * folder the person has not trusted, Gemini CLI runs no hooks at all, user hooks included.
 */
export const hookSwitches: HookSwitches = {
  // Gemini CLI's own order, lowest first: system defaults, user, workspace, system settings; then
  // the trusted folders
  files: (where) => [
    homeFolder(geminiFiles, 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH', where),
    posix.join(geminiHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.gemini', 'settings.json'),
    homeFolder(geminiFiles, 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', where),
    homeFolder(geminiFiles, 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', where),
  ],
  check(files, where) {
    const settings = files.slice(0, -1);
    const off = hooksOff(SETTINGS, settings, [
      {
        key: ['hooksConfig', 'enabled'],
        off: false,
        counts: 'last',
        so: "so Gemini CLI runs no hooks at all, guard's included.",
      },
      {
        key: ['hooksConfig', 'disabled'],
        off: { listed: HOOK_NAME },
        counts: 'any',
        so: "so Gemini CLI skips guard's hooks; take it out of the list.",
      },
    ]);
    const trust = folderTrust(
      settings.map((file) => readSettings(SETTINGS, file)),
      files.at(-1),
      where,
    );
    return trust === undefined ? off : [...off, { message: trust, scope: 'here' }];
  },
};

type Trust = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';

/**
 * Why Gemini CLI runs no hooks in the project folder, or undefined when it trusts it: the
 * GEMINI_CLI_TRUST_WORKSPACE variable, else the longest matching rule of trustedFolders.json
 * (folders compared as written; a link to a trusted folder is not followed).
 */
function folderTrust(
  settings: readonly (Record<string, unknown> | undefined)[],
  trustedFolders: SettingsFile | undefined,
  where: Locations,
): string | undefined {
  const enabled = settings
    .map((value) => valueAt(value, ['security', 'folderTrust', 'enabled']))
    .findLast((value) => typeof value === 'boolean');
  const variable = where.env['GEMINI_CLI_TRUST_WORKSPACE'];
  if (where.env['GEMINI_RESTRICTED_MODE'] === 'true' || variable === 'false') {
    return "GEMINI_CLI_TRUST_WORKSPACE (or GEMINI_RESTRICTED_MODE) says this folder is not trusted, so Gemini CLI runs no hooks here, guard's included.";
  }
  if (variable === 'true' || enabled === false) return undefined;
  const rules = readSettings(SETTINGS, trustedFolders) ?? {};
  const folder = posix.normalize(where.projectRoot);
  let best: { length: number; trust: Trust } | undefined;
  for (const [rule, trust] of Object.entries(rules)) {
    if (trust !== 'TRUST_FOLDER' && trust !== 'TRUST_PARENT' && trust !== 'DO_NOT_TRUST') continue;
    const root = posix.normalize(trust === 'TRUST_PARENT' ? posix.dirname(rule) : rule);
    const inside = folder === root || folder.startsWith(root.endsWith('/') ? root : `${root}/`);
    if (inside && (best === undefined || rule.length > best.length)) best = { length: rule.length, trust };
  }
  if (best !== undefined && best.trust !== 'DO_NOT_TRUST') return undefined;
  return `Gemini CLI does not trust ${where.projectRoot}${best === undefined ? ' (yet)' : ''}, so it runs no hooks there, guard's included, and asks before every tool instead; trust the folder when Gemini CLI offers to (or in its /permissions menu) for guard to run there.`;
}
