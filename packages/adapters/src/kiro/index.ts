import type { Adapter } from '../adapter.js';
import { kiro as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { hookSwitches } from './switches.js';

/**
 * Kiro CLI, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and
 * what setup, status and doctor need (config.ts: guard's agent file; doctor.ts; switches.ts: the
 * agents that run without guard's hook).
 */
export const kiro: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  projectNeedsTrust: false,
  afterUninstall:
    "start a new Kiro chat (and pick another default agent if guard's was the default: `kiro-cli settings chat.defaultAgent`), so Kiro stops calling guard.",
  doctor,
  hookSwitches,
};
