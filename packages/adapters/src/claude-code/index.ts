import type { Adapter } from '../adapter.js';
import { claudeCode as agent } from './agent.js';
import { configPath, install, installedCommand, installedCommands, uninstall } from './config.js';
import { doctor } from './doctor.js';
import { transcript } from './transcript.js';
import { hookSwitches } from './switches.js';

/**
 * Claude Code, all of it: what the hook needs (agent.ts: payloads, replies, the chat-start scan) and
 * what setup, status and doctor need (config.ts: the `hooks` of its settings.json; doctor.ts).
 */
export const claudeCode: Adapter = {
  ...agent,
  configPath,
  install,
  uninstall,
  installedCommands,
  installedCommand,
  // interactively, Claude Code runs no hooks in a folder until the person accepted its trust
  // dialog there (`-p` needs no trust)
  projectNeedsTrust: true,
  afterUninstall: 'start a new Claude Code session, so it stops calling guard.',
  doctor,
  transcript,
  hookSwitches,
};
