import { posix } from 'node:path';
import type { HookSwitches, HooksOff, Locations, SettingsFile } from '../adapter.js';
import { withoutComments } from '../scan.js';
import { isFields } from '../wire.js';
import { geminiHome } from './agent.js';
import { HOOK_NAME } from './config.js';

/**
 * Gemini CLI's settings that keep guard's hooks from running: `hooksConfig.enabled: false` (the
 * file that wins says), guard's name in `hooksConfig.disabled` (any file), and folder trust: in a
 * folder the person has not trusted, Gemini CLI runs no hooks at all, user hooks included.
 */
export const hookSwitches: HookSwitches = {
  // Gemini CLI's own order, lowest first: system defaults, user, workspace, system settings; then
  // the trusted folders
  files: (where) => [
    where.env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] || '/etc/gemini-cli/system-defaults.json',
    posix.join(geminiHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.gemini', 'settings.json'),
    where.env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'] || '/etc/gemini-cli/settings.json',
    where.env['GEMINI_CLI_TRUSTED_FOLDERS_PATH'] || posix.join(geminiHome(where), 'trustedFolders.json'),
  ],
  check(files, where) {
    const settings = files.slice(0, -1).map((file) => ({ path: file.path, value: parsed(file) }));
    const off: HooksOff[] = [];
    const enabled = settings.findLast((file) => typeof hooksConfig(file.value)?.['enabled'] === 'boolean');
    if (enabled !== undefined && hooksConfig(enabled.value)?.['enabled'] === false) {
      off.push({
        message: `${enabled.path} sets "hooksConfig": {"enabled": false}, so Gemini CLI runs no hooks at all, guard's included.`,
        scope: 'everywhere',
      });
    }
    for (const file of settings) {
      const disabled = hooksConfig(file.value)?.['disabled'];
      if (Array.isArray(disabled) && disabled.includes(HOOK_NAME)) {
        off.push({
          message: `${file.path} lists "${HOOK_NAME}" in "hooksConfig.disabled", so Gemini CLI skips guard's hooks; take it out of the list.`,
          scope: 'everywhere',
        });
      }
    }
    const trust = folderTrust(
      settings.map((file) => file.value),
      files.at(-1),
      where,
    );
    if (trust !== undefined) off.push({ message: trust, scope: 'here' });
    return off;
  },
};

function parsed(file: SettingsFile | undefined): Record<string, unknown> | undefined {
  if (file?.text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(withoutComments(file.text.replace(/^\uFEFF/, '')));
    return isFields(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function hooksConfig(settings: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const value = settings?.['hooksConfig'];
  return isFields(value) ? value : undefined;
}

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
    .map((value) => {
      const security = value?.['security'];
      const folderTrust = isFields(security) ? security['folderTrust'] : undefined;
      return isFields(folderTrust) ? folderTrust['enabled'] : undefined;
    })
    .findLast((value) => typeof value === 'boolean');
  const variable = where.env['GEMINI_CLI_TRUST_WORKSPACE'];
  if (where.env['GEMINI_RESTRICTED_MODE'] === 'true' || variable === 'false') {
    return "GEMINI_CLI_TRUST_WORKSPACE (or GEMINI_RESTRICTED_MODE) says this folder is not trusted, so Gemini CLI runs no hooks here, guard's included.";
  }
  if (variable === 'true' || enabled === false) return undefined;
  const rules = parsed(trustedFolders) ?? {};
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
