import type { Adapter } from '../adapter.js';
import { configPath, install, installedCommands, uninstall } from './config.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** Antigravity: config editing (config.ts) and payload/reply translation (payload.ts). */
export const antigravity: Adapter = {
  id: 'antigravity',
  displayName: 'Antigravity',
  capabilities,
  configPath,
  install,
  uninstall,
  installedCommands,
  read,
  toReply,
  toEventReply,
};
