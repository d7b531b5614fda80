import type { Adapter } from '../adapter.js';
import { antigravity as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Antigravity, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and
 * what setup, status and doctor need (config.ts: its hooks.json; doctor.ts).
 */
export const antigravity: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // it loads a project's hooks without asking
  projectNeedsTrust: false,
  afterUninstall: 'quit Antigravity completely and start it again, so it stops calling guard.',
  doctor,
};
