import type { Adapter } from '../adapter.js';
import { cline as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';

/**
 * Cline, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: guard's own hook file beside the person's; doctor.ts).
 */
export const cline: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // a workspace's hook files run in a headless task with no trust question (seen on 3.0.65)
  projectNeedsTrust: false,
  afterUninstall: "start a new Cline task, so it stops running guard's hook file.",
  doctor,
};
