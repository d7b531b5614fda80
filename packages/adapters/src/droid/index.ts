import type { Adapter } from '../adapter.js';
import { droid as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { shadows } from './shadows.js';
import { hookSwitches } from './switches.js';

/**
 * Factory Droid, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan)
 * and what setup, status and doctor need (config.ts: its hooks.json; doctor.ts; switches.ts).
 */
export const droid: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // a project's .factory/hooks.json ran without any trust step on 0.215.0 (droid exec)
  projectNeedsTrust: false,
  afterUninstall: 'start a new Droid session, so it stops calling guard.',
  doctor,
  hookSwitches,
  shadows,
};
