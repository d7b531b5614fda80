import type { Adapter } from '../adapter.js';
import { qwen as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { transcript } from './transcript.js';
import { hookSwitches } from './switches.js';

/**
 * Qwen Code, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and
 * what setup, status and doctor need (config.ts: the `hooks` of its settings.json; doctor.ts).
 */
export const qwen: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // with folder trust on (it is off by default), Qwen Code runs no project hooks in an untrusted folder
  projectNeedsTrust: true,
  afterUninstall: 'start a new Qwen Code session, so it stops calling guard.',
  doctor,
  transcript,
  hookSwitches,
};
