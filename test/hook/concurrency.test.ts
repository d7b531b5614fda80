import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../packages/cli/src/state/decision-log.js';
import { AGENT_CASES, ASKED, BLOCKED, HARMLESS, said } from '../../packages/cli/test/hook-cases.js';
import { scaled } from '../machine.js';
import { requireBuild, runHookProcess } from './bin.js';

const ROOT = mkdtempSync(join(tmpdir(), 'guard-concurrency-'));
// one agent that reads a JSON reply and one that reads the exit code
const AGENTS = AGENT_CASES.filter((agentCase) => agentCase.agent === 'codex' || agentCase.agent === 'windsurf');

beforeAll(requireBuild);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** Every file under a folder, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The test's own limit: 50 Node starts and their answers, stretched on a busy machine. */
const LIMIT = scaled(90_000);

describe.for(AGENTS)('50 `guard hook $agent` processes at once on one chat', (agentCase) => {
  // (the deadline asked for below is past the agent's own, so each hook has the agent's: 21 s)
  it("each gets a whole answer for its own step, and guard's folder stays readable", { timeout: LIMIT }, async () => {
    const GUARD_HOME = join(ROOT, agentCase.agent);
    const commands = Array.from({ length: 50 }, (_, i) => [HARMLESS, ASKED, BLOCKED][i % 3] ?? HARMLESS);
    // every call names the same chat, as parallel tool calls of one session do
    const results = await Promise.all(
      commands.map((command, i) =>
        runHookProcess(
          agentCase.args,
          JSON.stringify({ ...agentCase.shell(`${command} # call ${i}`), tool_use_id: `call_${i}` }),
          {
            HOME: ROOT,
            GUARD_HOME,
            // 50 Node starts on a small machine take seconds: the deadline has its own tests, this
            // one is about answers and files not being mixed up
            GUARD_DEADLINE_MS: '60000',
          },
        ),
      ),
    );

    results.forEach((result, i) => {
      expect(agentCase.wellFormed(result)).toBe(true);
      expect(agentCase.notes(result)).toBe('');
      const command = commands[i];
      // an ask is a deny on both, one that has the agent ask the person in the chat
      expect(said(agentCase, result)).toBe(command === HARMLESS ? 'no objection' : 'denied');
      if (command === HARMLESS) return;
      expect(result.stdout).toMatch(
        command === BLOCKED
          ? /(^|")guard: blocked \(git\.rewrite-shared-history/
          : /(^|")guard: this step needs the person's approval first \(git\.push\)/,
      );
    });

    // every file guard keeps parses; the log has exactly one line per call
    let logLines: LogEntry[] = [];
    for (const path of files(GUARD_HOME)) {
      const text = readFileSync(path, 'utf8');
      if (path.endsWith('.jsonl')) {
        const lines = text.split('\n');
        expect(lines.pop()).toBe('');
        const entries = lines.map((entry) => JSON.parse(entry) as LogEntry);
        if (path.endsWith('log.jsonl')) logLines = entries;
      } else if (path.endsWith('.json')) {
        expect(() => JSON.parse(text) as unknown).not.toThrow();
      }
    }
    expect(logLines).toHaveLength(50);
    const steps = new Set(logLines.map((entry) => entry.step));
    expect(steps.size).toBe(50);
    for (const entry of logLines) {
      const call = Number(/# call (\d+)$/.exec(entry.step ?? '')?.[1]);
      expect(entry).toMatchObject({
        agent: agentCase.agent,
        how: 'rules',
        decision: ['allow', 'ask', 'block'][call % 3],
      });
    }
  });
});
