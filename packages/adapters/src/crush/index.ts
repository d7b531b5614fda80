import type { Adapter } from '../adapter.js';
import { crush as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Crush, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: its crush.json; doctor.ts).
 */
export const crush: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // no documented trust step for a project's crush.json (its README: config files are trusted code)
  projectNeedsTrust: false,
  afterUninstall: 'start Crush again, so it stops calling guard.',
  doctor,
};
