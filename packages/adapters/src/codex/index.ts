import type { Adapter } from '../adapter.js';
import { codex as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { hookSwitches } from './switches.js';
import { transcript } from './transcript.js';
import { trust } from './trust.js';

/**
 * Codex, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and what
 * setup, status and doctor need (config.ts: its hooks.json; doctor.ts; trust.ts: Codex's trust records;
 * switches.ts: its hooks feature switched off).
 */
export const codex: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  projectNeedsTrust: true,
  afterUninstall: 'start a new Codex session, so it stops calling guard.',
  doctor,
  hookSwitches,
  transcript,
  trust,
};
