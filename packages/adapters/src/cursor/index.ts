import type { Adapter } from '../adapter.js';
import { cursor as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Cursor, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: its hooks.json; doctor.ts).
 */
export const cursor: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  projectNeedsTrust: true,
  afterUninstall: 'start a new Cursor session, so it stops calling guard.',
  doctor,
};
