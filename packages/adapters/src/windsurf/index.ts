import type { Adapter } from '../adapter.js';
import { windsurf as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Windsurf, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: its hooks.json; doctor.ts).
 */
export const windsurf: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  projectNeedsTrust: false,
  afterUninstall: 'reload the Windsurf window, so Cascade stops calling guard.',
  doctor,
};
