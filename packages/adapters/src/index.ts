import type { Adapter } from './adapter.js';
import { AGENT_IDS } from './agents.js';
import type { AgentId } from './agents.js';

export * from './adapter.js';
export {
  AGENT_IDS,
  AGENTS,
  agentId,
  agentKnowledge,
  homeFolder,
  hostOf,
  placedPath,
  systemHookFile,
  systemSettings,
  variablesOff,
} from './agents.js';
export type { AgentId } from './agents.js';
export { configuredTimeout, DOCTOR_CHAT } from './doctor.js';
export { fallbackReply, plainCommand, readFallback, withFallback } from './fallback.js';
export type { Fallback } from './fallback.js';
export type { TranscriptEvent, TranscriptRead, TranscriptReader } from './transcript.js';
export { McpConfigError, PROJECT_RULES } from './scan.js';
export { tomlSetting, withoutTomlSetting, withTomlSetting } from './toml-text.js';
export type { TomlSetting } from './toml-text.js';

/** The name an agent folder's index.ts exports its adapter under: the id in camel case (`claude-code` → `claudeCode`). */
export function exportName(id: string): string {
  return id.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * Every agent, all of it (what the hook needs and what setup, status and doctor need). Each
 * agent's index.ts is loaded by its folder's name, so the list in agents.ts is the only one; the
 * hook never loads this module (it would load every agent's config editing and its TOML parser).
 */
export const adapters: Readonly<Record<AgentId, Adapter>> = Object.fromEntries(
  await Promise.all(
    AGENT_IDS.map(async (id) => {
      const module = (await import(`@guard/adapters/${id}/adapter`)) as Readonly<Record<string, Adapter | undefined>>;
      const adapter = module[exportName(id)];
      if (adapter?.id !== id)
        throw new Error(`packages/adapters/src/${id}/index.ts must export the adapter "${id}" as ${exportName(id)}`);
      return [id, adapter] as const;
    }),
  ),
) as Record<AgentId, Adapter>;
