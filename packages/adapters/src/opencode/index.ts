import type { Adapter } from '../adapter.js';
import { opencode as agent } from './agent.js';
import { pluginConfig } from './config.js';
import { doctor } from './doctor.js';
import { OPENCODE, opencodeFiles } from './files.js';

/**
 * OpenCode, all of it: what the hook needs (agent.ts: the payloads of guard's plugin, replies, the
 * chat-start scan) and what setup, status and doctor need (config.ts: guard's plugin file; doctor.ts).
 * What keeps its plugins from loading are variables its declaration names (files.ts).
 */
export const opencode: Adapter = {
  ...agent,
  ...pluginConfig(OPENCODE, opencodeFiles, agent),
  // a project's plugins load in any folder, without asking
  projectNeedsTrust: false,
  afterUninstall: "start a new OpenCode session, so it stops loading guard's plugin.",
  doctor,
};
