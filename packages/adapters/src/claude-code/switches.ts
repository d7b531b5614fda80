import { posix } from 'node:path';
import type { HookSwitches, HooksOff } from '../adapter.js';
import { isFields } from '../wire.js';
import { claudeHome } from './agent.js';

// Managed settings on Linux (macOS and Windows keep them elsewhere; guard reads the Linux one).
const MANAGED = '/etc/claude-code/managed-settings.json';

/**
 * Claude Code's settings that keep guard's hooks from running: `disableAllHooks` in any of its
 * settings files (a user-level one switches project hooks off too), and `allowManagedHooksOnly`.
 */
export const hookSwitches: HookSwitches = {
  files: (where) => [
    posix.join(claudeHome(where), 'settings.json'),
    posix.join(where.projectRoot, '.claude', 'settings.json'),
    posix.join(where.projectRoot, '.claude', 'settings.local.json'),
    MANAGED,
  ],
  check(files) {
    const off: HooksOff[] = [];
    for (const { path, text } of files) {
      const settings = parsed(text);
      if (settings?.['disableAllHooks'] === true) {
        off.push({
          message: `${path} sets "disableAllHooks": true, so Claude Code runs no hooks at all, guard's included; take that line out.`,
          scope: 'everywhere',
        });
      }
      if (settings?.['allowManagedHooksOnly'] === true) {
        off.push({
          message: `${path} sets "allowManagedHooksOnly": true, so Claude Code runs only the hooks of its managed settings, not guard's.`,
          scope: 'everywhere',
        });
      }
    }
    return off;
  },
};

/** A settings file's object (Claude Code reads strict JSON: a file that does not parse sets nothing). */
function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return isFields(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
