import type { Adapter } from '../adapter.js';
import { configPath, install, installedCommands, uninstall } from './config.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** Cursor: config editing (config.ts) and payload/reply translation (payload.ts). */
export const cursor: Adapter = {
  id: 'cursor',
  displayName: 'Cursor',
  capabilities,
  configPath,
  install,
  uninstall,
  installedCommands,
  read,
  toReply,
  toEventReply,
};
