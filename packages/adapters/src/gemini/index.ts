import type { Adapter } from '../adapter.js';
import { gemini as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { transcript } from './transcript.js';
import { hookSwitches } from './switches.js';

/**
 * Gemini CLI, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and
 * what setup, status and doctor need (config.ts: the `hooks` of its settings.json; doctor.ts).
 */
export const gemini: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // Gemini CLI runs no hooks (user or project) in a folder the person has not trusted in it
  projectNeedsTrust: true,
  afterUninstall: 'start a new Gemini CLI session, so it stops calling guard.',
  doctor,
  transcript,
  hookSwitches,
};
