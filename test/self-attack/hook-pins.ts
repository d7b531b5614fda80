import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { adapters } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import type { Scratch } from './harness.js';

/**
 * What something that got past guard would do to an agent's hook file (issue 25, "pins"), and the
 * near misses: changes to the same files that leave guard's entries as setup wrote them. Each is
 * done straight to the file, as a step guard did not see would do it.
 */

/** The agent's user-level hook file in the scratch machine. */
export function hookFile(world: Scratch, agent: AgentId): string {
  return adapters[agent].configPath('user', { home: world.home, env: world.env(), projectRoot: world.project });
}

export interface FileChange {
  readonly id: string;
  /** Changes the agent's hook file; false when it does not apply to this agent's file. */
  apply(path: string, agent: AgentId): boolean;
}

const read = (path: string): string => readFileSync(path, 'utf8');

/** Every JSON string value of guard's entries: the command guard's setup wrote (found by its hook words). */
function isGuardCommand(value: string, agent: AgentId): boolean {
  return value.includes(`hook ${agent}`) || value.includes('hook-entry.cjs');
}

/** Parses a hook file as JSON (Claude Code's and Gemini CLI's without comments here); undefined for a plugin's code. */
function json(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(read(path)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A JSON string literal, in a JSON file or in a plugin's code (`const COMMAND = "…";`). */
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;

/** The tampers: each takes guard's hook out of the file, changes it, or takes the file away. */
export const TAMPERS: readonly FileChange[] = [
  {
    id: "guard's entries taken out (as uninstall's text edit would)",
    apply: (path, agent) => {
      writeFileSync(path, adapters[agent].uninstall(read(path)) || '{}\n');
      return true;
    },
  },
  {
    id: 'the file emptied to {}',
    apply: (path) => (writeFileSync(path, '{}\n'), true),
  },
  {
    id: 'the file deleted',
    apply: (path) => (rmSync(path), true),
  },
  {
    id: "guard's command replaced by `true`",
    apply: (path, agent) => {
      const text = read(path);
      const next = text.replace(STRING_LITERAL, (literal) =>
        isGuardCommand(JSON.parse(literal) as string, agent) ? '"true"' : literal,
      );
      writeFileSync(path, next);
      return next !== text;
    },
  },
  {
    id: "guard's matcher narrowed to a tool that never runs",
    apply: (path) => {
      const text = read(path);
      if (!/"matcher":\s*"\*"/.test(text)) return false;
      writeFileSync(path, text.replace(/"matcher":\s*"\*"/g, '"matcher": "NoSuchTool"'));
      return true;
    },
  },
  {
    id: "guard's time limit cut to 1",
    apply: (path) => {
      const text = read(path);
      // a JSON entry's field, or a plugin's constant (in milliseconds)
      const limit = /("(?:timeout|timeoutSec)":\s*|\bTIMEOUT_MS = )\d+/g;
      if (!limit.test(text)) return false;
      writeFileSync(path, text.replace(limit, '$11'));
      return true;
    },
  },
  {
    id: 'not JSON any more',
    apply: (path) => (writeFileSync(path, `${read(path)}\n}}} not json`), true),
  },
];

/** Near misses: the same file changed, guard's entries as setup wrote them. */
export const NEAR_MISSES: readonly FileChange[] = [
  {
    // Codex skips a hooks.json with another key at the top than `description` and `hooks`
    id: 'a setting of the agent added beside guard',
    apply: (path, agent) => {
      const key = agent === 'codex' ? 'description' : 'theme';
      const parsed = json(path);
      if (parsed === undefined) return false;
      writeFileSync(path, `${JSON.stringify({ ...parsed, [key]: 'mine' }, null, 2)}\n`);
      return true;
    },
  },
  {
    id: 'the file laid out anew (four spaces)',
    apply: (path) => {
      const parsed = json(path);
      return parsed !== undefined && (writeFileSync(path, `${JSON.stringify(parsed, null, 4)}\n`), true);
    },
  },
  {
    id: 'the file laid out on one line',
    apply: (path) => {
      const parsed = json(path);
      return parsed !== undefined && (writeFileSync(path, JSON.stringify(parsed)), true);
    },
  },
  {
    id: 'only its time touched',
    apply: (path) => {
      const later = new Date(Date.now() + 120_000);
      utimesSync(path, later, later);
      return true;
    },
  },
  {
    id: 'a backup copy of it beside it',
    apply: (path) => (writeFileSync(`${path}.bak`, read(path)), true),
  },
];
