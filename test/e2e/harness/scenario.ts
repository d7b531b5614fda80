import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LogEntry } from '../../../packages/cli/src/state/decision-log.js';
import { BIN } from '../../hook/bin.js';
import { AUGGIE, CLAUDE, CLINE, CODEX, CODEX_BIN, COPILOT, DROID, GEMINI, KILO, OPENCODE, QWEN } from './agents.js';
import type { FakeModel } from './fake-model.js';
import { guardOk, requireFile, stepEntries } from './world.js';
import type { World } from './world.js';

/** Fails early, with the command to run, when the built CLI or an agent binary is missing. */
export function requireInstalled(agent: E2eAgent): void {
  requireFile(BIN, 'run `npm run build` first (`npm test` builds before testing).');
  const program = {
    codex: CODEX,
    copilot: COPILOT,
    'claude-code': CLAUDE,
    gemini: GEMINI,
    opencode: OPENCODE,
    qwen: QWEN,
    droid: DROID,
    cline: CLINE,
    kilo: KILO,
    auggie: AUGGIE,
  }[agent];
  requireFile(
    program || `the ${agent} binary for ${process.platform}-${process.arch}`,
    `run \`node scripts/agents.mjs install ${agent}\` (\`npm test\` and \`npm run e2e\` install the pinned agents).`,
  );
}

/** The agents the end-to-end tests run for real. */
export type E2eAgent =
  'codex' | 'copilot' | 'claude-code' | 'gemini' | 'opencode' | 'qwen' | 'droid' | 'cline' | 'kilo' | 'auggie';

/** A PATH on which the pinned Codex is found, as on a machine where the person installed it. */
export function pathWithAgents(world: World): string {
  return `${CODEX_BIN}:${world.env().PATH ?? ''}`;
}

/**
 * Sets the hook up the way a person would: the built `guard setup <agent>`. For Codex, `codexOnPath`
 * decides whether setup finds a `codex` to trust the hook with.
 */
export function setupGuard(world: World, agent: E2eAgent, codexOnPath = true): Promise<string> {
  return guardOk(world, ['setup', agent], codexOnPath ? { PATH: pathWithAgents(world) } : {});
}

// The events that carry a step about to run: PreToolUse (preToolUse for Copilot), BeforeTool for
// Gemini CLI, tool.execute.before for OpenCode's plugin.
const PRE_TOOL = new Set(['pretooluse', 'beforetool', 'tool.execute.before']);

/**
 * The verdicts on the step whose text is exactly `step` (before it ran: the entries of the
 * pre-tool event; a result is logged with a decision only when guard failed on it).
 */
export function entriesFor(world: World, step: string): LogEntry[] {
  return stepEntries(world).filter((entry) => entry.step === step && PRE_TOOL.has(entry.event?.toLowerCase() ?? ''));
}

/** The log entries of one step kind, oldest first. */
export function stepsOfKind(world: World, kind: string): LogEntry[] {
  return stepEntries(world).filter((entry) => entry.kind === kind && PRE_TOOL.has(entry.event?.toLowerCase() ?? ''));
}

/** What `guard report --json` lists as left undone, over all chats. */
export async function leftUndone(world: World): Promise<unknown[]> {
  const report = JSON.parse(await guardOk(world, ['report', '--json'])) as { chats: { leftUndone: unknown[] }[] };
  return report.chats.flatMap((chat) => chat.leftUndone);
}

/** Whether a file exists in the project. */
export function inProject(world: World, file: string): boolean {
  return existsSync(join(world.project, file));
}

/** Closes every fake model a test started (for afterEach). */
export async function closeAll(models: FakeModel[]): Promise<void> {
  await Promise.all(models.splice(0).map((model) => model.close()));
}

/** Texts of guard's replies the agents pass on to the model. */
export const SAYS = {
  /** An ask where nobody can answer (SPEC §6, "away"). */
  away: 'Do it a safer way, or leave it out and say so in your final reply.',
  /** The same step flagged again where nobody can answer. */
  leftUndone: 'nobody here can approve it, so it is left undone',
  /** Codex block-then-chat. */
  askInChat: 'ask them in the chat to approve it',
  forcePush: 'guard: blocked (git.rewrite-shared-history',
} as const;
