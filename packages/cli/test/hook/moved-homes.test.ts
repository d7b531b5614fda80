import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '@guard/adapters/agents';
import type { AgentId } from '@guard/adapters/agents';
import type { Mode } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookIo } from '../../src/hook/run.js';
import { deadlinesFor, START_DEADLINE_MS } from '../../src/hook/reply.js';
import { runHook } from '../../src/hook/run.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { NOWHERE } from '../capture-io.js';
import { AGENT_CASES } from '../hook-cases.js';

/**
 * What the agents declare about their files and hooks, through the hook runtime. An agent's folder
 * moved by its variable (`CODEX_HOME=/opt/x`) is protected like the default one: removing,
 * overwriting or truncating its hook and settings files is guard.tamper in every mode, wherever the
 * folder is, the temp folder included. The variables are read from the environment the hook runs
 * in (the agent's). Rows are written out by hand, per agent and per variable, and the registry's
 * variables must all be here. And the hook answers within every agent's declared timeout.
 */

/** Where the hook's temp folder is (the hook is told it; nothing is written there). */
const TMP = '/tmp';

/**
 * Per variable: its agent, and the files below the folder it names that must be guard's ('' for a
 * variable naming a file). `anywhere`: the first file's name is a hook file in any folder (Crush
 * loads a crush.json or crushrc from the project and every folder above it), so the same name
 * elsewhere is guard's too.
 */
const MOVED: readonly { agent: AgentId; variable: string; files: readonly string[]; anywhere?: true }[] = [
  { agent: 'codex', variable: 'CODEX_HOME', files: ['hooks.json', 'config.toml'] },
  { agent: 'claude-code', variable: 'CLAUDE_CONFIG_DIR', files: ['settings.json', 'settings.local.json'] },
  { agent: 'copilot', variable: 'COPILOT_HOME', files: ['hooks/guard.json', 'hooks/mine.json', 'settings.json'] },
  { agent: 'gemini', variable: 'GEMINI_CLI_HOME', files: ['.gemini/settings.json', '.gemini/trustedFolders.json'] },
  { agent: 'gemini', variable: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', files: [''] },
  { agent: 'gemini', variable: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', files: [''] },
  { agent: 'gemini', variable: 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH', files: [''] },
  { agent: 'opencode', variable: 'XDG_CONFIG_HOME', files: ['opencode/plugins/guard.js', 'opencode/opencode.json'] },
  { agent: 'opencode', variable: 'OPENCODE_CONFIG_DIR', files: ['plugins/guard.js', 'opencode.jsonc'] },
  {
    agent: 'kilo',
    variable: 'XDG_CONFIG_HOME',
    files: ['kilo/plugins/guard.js', 'kilo/kilo.jsonc', 'kilo/opencode.json'],
  },
  { agent: 'kilo', variable: 'KILO_CONFIG_DIR', files: ['plugins/guard.js', 'plugin/mine.ts', 'kilo.json'] },
  { agent: 'qwen', variable: 'QWEN_HOME', files: ['settings.json', 'trustedFolders.json'] },
  { agent: 'qwen', variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH', files: [''] },
  { agent: 'qwen', variable: 'QWEN_CODE_SYSTEM_DEFAULTS_PATH', files: [''] },
  { agent: 'qwen', variable: 'QWEN_CODE_TRUSTED_FOLDERS_PATH', files: [''] },
  // it stands in for the home folder: Droid's folder is .factory in it
  { agent: 'droid', variable: 'FACTORY_HOME_OVERRIDE', files: ['.factory/hooks.json', '.factory/settings.json'] },
  { agent: 'droid', variable: 'FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH', files: [''] },
  { agent: 'cline', variable: 'CLINE_DIR', files: ['hooks/PreToolUse.bash', 'hooks/PreToolUse', 'plugins/mine.js'] },
  { agent: 'cline', variable: 'CLINE_HOOKS_DIR', files: ['PreToolUse.bash', 'PreToolUse.sh'] },
  { agent: 'crush', variable: 'XDG_CONFIG_HOME', files: ['crush/crush.json', 'crush/crushrc'], anywhere: true },
  { agent: 'crush', variable: 'CRUSH_GLOBAL_CONFIG', files: ['crush.json', 'crushrc'], anywhere: true },
  { agent: 'crush', variable: 'CRUSH_GLOBAL_DATA', files: ['crush.json'], anywhere: true },
];

/** The default folders, with no variable set. */
const DEFAULTS: readonly { agent: AgentId; file: string }[] = [
  { agent: 'codex', file: '~/.codex/hooks.json' },
  { agent: 'codex', file: '~/.codex/config.toml' },
  { agent: 'claude-code', file: '~/.claude/settings.json' },
  { agent: 'copilot', file: '~/.copilot/hooks/guard.json' },
  { agent: 'copilot', file: '~/.copilot/settings.json' },
  { agent: 'gemini', file: '~/.gemini/settings.json' },
  { agent: 'cursor', file: '~/.cursor/hooks.json' },
  { agent: 'antigravity', file: '~/.gemini/config/hooks.json' },
  { agent: 'opencode', file: '~/.config/opencode/plugins/guard.js' },
  { agent: 'opencode', file: '~/.config/opencode/opencode.jsonc' },
  { agent: 'kilo', file: '~/.config/kilo/plugins/guard.js' },
  { agent: 'kilo', file: '~/.kilo/plugins/mine.js' },
  { agent: 'kilo', file: '~/.kilocode/kilo.jsonc' },
  { agent: 'qwen', file: '~/.qwen/settings.json' },
  { agent: 'droid', file: '~/.factory/hooks.json' },
  { agent: 'droid', file: '~/.factory/settings.json' },
  { agent: 'cline', file: '~/.cline/hooks/PreToolUse.bash' },
  { agent: 'cline', file: '~/Documents/Cline/Hooks/PreToolUse' },
  { agent: 'crush', file: '~/.config/crush/crush.json' },
  { agent: 'crush', file: '~/.config/crush/crushrc' },
  { agent: 'crush', file: '~/.local/share/crush/crush.json' },
  { agent: 'auggie', file: '~/.augment/settings.json' },
  { agent: 'auggie', file: '~/.augment/plugins/mine/hooks/hooks.json' },
];

const MODES: readonly Mode[] = ['standard', 'extended', 'full'];
const CHANGES = [(f: string) => `rm ${f}`, (f: string) => `echo '{}' > ${f}`, (f: string) => `truncate -s 0 ${f}`];

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-moved-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

/** Runs one shell step through the hook as `agent`, in `mode`, with `env` set; answers whether guard.tamper blocked it. */
async function tampered(agent: AgentId, command: string, mode: Mode, env: Record<string, string>): Promise<boolean> {
  writeFileSync(join(guardHome, 'settings.yaml'), `mode: ${mode}\n`);
  const agentCase = AGENT_CASES.find((candidate) => candidate.agent === agent);
  if (agentCase === undefined) throw new Error(`no hook case for ${agent}`);
  let stdout = '';
  const io: HookIo = {
    stdin: (async function* () {
      yield JSON.stringify(agentCase.shell(command));
    })(),
    stopInput: () => undefined,
    out: (text) => void (stdout += text),
    err: () => undefined,
    env: { GUARD_HOME: guardHome, ...env },
    home: () => NOWHERE,
    tmp: () => TMP,
    parentArgs: () => ['node', 'agent'],
  };
  expect(await runHook(agentCase.args, io)).toBe(0);
  const lines = readFileSync(join(guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
  const line = JSON.parse(lines.at(-1) ?? '{}') as LogEntry;
  const blocked = line.decision === 'block' && (line.rules ?? []).includes('guard.tamper');
  // what the agent was told says so too
  if (blocked) expect(stdout).toContain('guard.tamper');
  return blocked;
}

describe('every variable that moves an agent file is in the table', () => {
  it('the registry declares no other', () => {
    const declared = Object.values(AGENTS).flatMap((agent) => agent.files.homes.map((home) => home.variable));
    expect(MOVED.map((row) => row.variable).sort()).toEqual([...declared].sort());
  });
});

describe.for(MOVED)('$agent: $variable moved', ({ agent, variable, files, anywhere }) => {
  const places = [`/opt/moved-${variable.toLowerCase()}`, `${TMP}/moved-${variable.toLowerCase()}`];
  const rows = places.flatMap((place) =>
    files.flatMap((rel) => {
      const file = rel === '' ? `${place}/file.json` : `${place}/${rel}`;
      const folder = rel === '' ? `${place}/file.json` : place;
      return CHANGES.flatMap((change) => MODES.map((mode) => ({ command: change(file), mode, folder })));
    }),
  );

  it.for(rows)('blocks $command in $mode', async ({ command, mode, folder }) => {
    expect(await tampered(agent, command, mode, { [variable]: folder })).toBe(true);
  });

  it.for(places)('near misses under %s: the same name elsewhere, reading, the variable unset', async (place) => {
    const rel = files[0] === '' ? 'file.json' : (files[0] as string);
    const folder = files[0] === '' ? `${place}/file.json` : place;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    for (const mode of MODES) {
      expect(await tampered(agent, `echo '{}' > /srv/unrelated/${name}`, mode, { [variable]: folder })).toBe(
        anywhere === true,
      );
      expect(await tampered(agent, `cat ${place}/${rel}`, mode, { [variable]: folder })).toBe(false);
      // without the variable, the folder is nobody's
      expect(await tampered(agent, `rm ${place}/${name}`, mode, {})).toBe(anywhere === true);
      // where the name is guard's anywhere, a name the agent does not load there is nobody's
      if (anywhere === true)
        expect(await tampered(agent, `rm ${place}/notes.txt`, mode, { [variable]: folder })).toBe(false);
    }
  });
});

describe.for(DEFAULTS)('$agent: $file in its default folder', ({ agent, file }) => {
  it.for(CHANGES.flatMap((change) => MODES.map((mode) => ({ command: change(file), mode }))))(
    'blocks $command in $mode',
    async ({ command, mode }) => {
      expect(await tampered(agent, command, mode, {})).toBe(true);
    },
  );

  it('reading it does not', async () => {
    for (const mode of MODES) expect(await tampered(agent, `cat ${file}`, mode, {})).toBe(false);
  });
});

describe("the hook answers within every agent's own timeout (its declaration's, as setup writes it)", () => {
  it.for(Object.values(AGENTS).map((agent) => [agent.id, agent.files.hookTimeout] as const))(
    '%s waits %i s',
    ([, seconds]) => {
      // however long GUARD_DEADLINE_MS asks for: a step, and a chat start with its scan of the MCP servers
      const { step, start } = deadlinesFor(seconds, { GUARD_DEADLINE_MS: String(seconds * 10_000) });
      expect(step).toBeLessThan(seconds * 1000);
      expect(start).toBeLessThan(seconds * 1000);
      expect(start).toBeGreaterThanOrEqual(Math.min(step, START_DEADLINE_MS));
    },
  );
});
