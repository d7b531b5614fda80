import { posix } from 'node:path';
import type { HookSwitches, HooksOff, SettingsFile } from '../adapter.js';
import { tomlSetting } from '../toml-text.js';
import { codexHome } from './agent.js';
import { REQUIREMENTS } from './files.js';

/**
 * Codex's settings that keep guard's hooks from running: the hooks feature switched off
 * (`[features] hooks = false`, or its old name `codex_hooks`) in the user's config.toml (no hooks at
 * all, the system layer's included) or in a project's `.codex/config.toml` (none in that project,
 * once Codex trusts it: both seen on 0.171), unless /etc/codex/requirements.toml pins the feature
 * on (which `guard setup codex --system` writes); and the requirements pinning it off.
 */
export const hookSwitches: HookSwitches = {
  files: (where) => [
    posix.join(codexHome(where), 'config.toml'),
    posix.join(where.projectRoot, '.codex', 'config.toml'),
    REQUIREMENTS,
  ],
  check(files) {
    const [user, project, requirements] = files;
    const pinned = featureOf(requirements);
    if (pinned === false)
      return [
        {
          message: `${requirements?.path ?? REQUIREMENTS} sets [features] hooks = false, so Codex runs no hooks for any user, guard's included.`,
          scope: 'everywhere',
        },
      ];
    const off: HooksOff[] = [];
    for (const [file, so, scope] of [
      [user, "so Codex runs no hooks at all, guard's included (the system layer's too)", 'everywhere'],
      [project, "so Codex runs no hooks in this project once it trusts it, guard's included", 'here'],
    ] as const) {
      if (file === undefined || featureOf(file) !== false) continue;
      off.push(
        pinned === true
          ? {
              message: `${file.path} sets [features] hooks = false, but ${requirements?.path ?? REQUIREMENTS}, which wins over it, sets [features] hooks = true: guard's hooks run all the same.`,
              scope: 'overruled',
            }
          : { message: `${file.path} sets [features] hooks = false, ${so}.`, scope },
      );
    }
    return off;
  },
};

/** Whether a Codex TOML file switches the hooks feature on or off (either name); undefined: it does not say, or cannot be read. */
function featureOf(file: SettingsFile | undefined): boolean | undefined {
  if (file?.text === undefined) return undefined;
  try {
    for (const key of ['hooks', 'codex_hooks']) {
      const value = tomlSetting(file.text, { table: 'features', key, value: true });
      if (typeof value === 'boolean') return value;
    }
  } catch {
    // a file Codex cannot read either
  }
  return undefined;
}
