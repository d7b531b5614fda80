import type { Adapter } from '../adapter.js';
import { pluginConfig } from '../opencode/config.js';
import { doctor } from '../opencode/doctor.js';
import { kilo as agent } from './agent.js';
import { KILO, kiloFiles } from './files.js';

/** Kilo Code CLI, all of it: OpenCode's plugin adapter (../opencode) with Kilo's names (files.ts). */
export const kilo: Adapter = {
  ...agent,
  ...pluginConfig(KILO, kiloFiles, agent),
  // a project's plugins load in any folder, without asking
  projectNeedsTrust: false,
  afterUninstall: "start a new Kilo Code CLI session, so it stops loading guard's plugin.",
  doctor,
};
