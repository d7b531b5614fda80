import type { HookSwitches, HooksOff } from '../adapter.js';
import type { PluginAgentNames } from './files.js';

/** How the agent reads a switch variable: `1` or `true`, in any case. */
const on = (value: string | undefined): boolean => value !== undefined && /^(?:1|true)$/i.test(value);

/**
 * What keeps guard's plugin from loading, besides the `--pure` flag (guard.tamper): `$<PURE>` set
 * (no external plugin at all), and `OPENCODE_DISABLE_PROJECT_CONFIG` for a project's plugins (the
 * project's plugin folder is not read). Both are variables of the environment the agent starts in.
 */
export function pluginSwitches(names: PluginAgentNames): HookSwitches {
  return {
    files: () => [],
    check(_files, where): HooksOff[] {
      const off: HooksOff[] = [];
      if (on(where.env[names.pure]))
        off.push({
          message: `${names.pure} is set in this environment, so ${names.displayName} loads no plugin, guard's included; unset it.`,
          scope: 'everywhere',
        });
      if (on(where.env['OPENCODE_DISABLE_PROJECT_CONFIG']))
        off.push({
          message: `OPENCODE_DISABLE_PROJECT_CONFIG is set in this environment, so ${names.displayName} loads no project plugin (guard's set up with --project included); unset it.`,
          scope: 'here',
        });
      return off;
    },
  };
}
