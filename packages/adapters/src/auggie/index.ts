import type { Adapter } from '../adapter.js';
import { auggie as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Augment Auggie, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan)
 * and what setup, status and doctor need (config.ts: the `hooks` of its settings.json; doctor.ts).
 * It has no setting that switches hooks off, so no hookSwitches.
 */
export const auggie: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // a project's .augment/settings.json hooks ran in a headless run with no trust step (0.36.0, --print)
  projectNeedsTrust: false,
  afterUninstall: 'start a new Auggie session, so it stops calling guard.',
  doctor,
};
