// The words for a command that needs administrator rights. Kept apart from system.ts (which loads
// every adapter) so that the hook, which names `guard setup` in a drift it tells, can use it too.
import type { PinLevel } from '../state/installs.js';

/** How to run `command` with administrator rights, in backquotes: `sudo …`, or from an elevated terminal. */
export function asAdmin(command: string, platform: string): string {
  return platform === 'win32' ? `\`${command}\` from a terminal run as administrator` : `\`sudo ${command}\``;
}

/**
 * `guard setup` for an agent at a level, to run again, in backquotes: with administrator rights
 * (`asAdmin`) for the system level.
 */
export function setupCommand(agent: string, level: PinLevel, platform: string): string {
  const command = `guard setup ${agent}${level === 'user' ? '' : ` --${level}`}`;
  return level === 'system' ? asAdmin(command, platform) : `\`${command}\``;
}
