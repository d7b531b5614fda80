import type { AgentId } from '@guard/core';
import type { Adapter } from './adapter.js';
import { antigravity } from './antigravity/index.js';
import { codex } from './codex/index.js';
import { copilot } from './copilot/index.js';
import { cursor } from './cursor/index.js';

export * from './adapter.js';

/** Every agent guard can be set up in. */
export const adapters: Readonly<Record<AgentId, Adapter>> = { codex, cursor, antigravity, copilot };
