import type { Adapter } from '../adapter.js';
import { configPath, install, installedCommands, uninstall } from './config.js';
import { capabilities, read, toEventReply, toReply } from './payload.js';

/** Codex: config editing (config.ts) and payload/reply translation (payload.ts). */
export const codex: Adapter = {
  id: 'codex',
  displayName: 'Codex',
  capabilities,
  configPath,
  install,
  uninstall,
  installedCommands,
  read,
  toReply,
  toEventReply,
};
