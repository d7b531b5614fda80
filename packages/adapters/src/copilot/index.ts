import type { Adapter } from '../adapter.js';
import { configPath, install, installedCommands, uninstall } from './config.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** GitHub Copilot: config editing (config.ts) and payload/reply translation (payload.ts). */
export const copilot: Adapter = {
  id: 'copilot',
  displayName: 'GitHub Copilot',
  capabilities,
  configPath,
  install,
  uninstall,
  installedCommands,
  read,
  toReply,
  toEventReply,
};
