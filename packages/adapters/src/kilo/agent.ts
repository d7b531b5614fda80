import type { Agent } from '../adapter.js';
import { pluginAgent } from '../opencode/agent.js';
import { KILO, kiloFiles } from './files.js';

/** Kilo Code CLI as the hook sees it: OpenCode's plugin payloads and replies, under Kilo's names. */
export const kilo: Agent = pluginAgent(KILO, kiloFiles);
