import type { Adapter } from '../adapter.js';
import { copilot as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { transcript } from './transcript.js';
import { hookSwitches } from './switches.js';

/**
 * Copilot, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: its hook file; doctor.ts).
 */
export const copilot: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  projectNeedsTrust: true,
  afterUninstall: 'start a new GitHub Copilot session, so it stops calling guard.',
  doctor,
  transcript,
  hookSwitches,
};
