import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENTS } from '@guard/adapters/agents';
import { describe, it } from 'vitest';
import type { HookIo } from '../../src/hook/run.js';
import { runHook } from '../../src/hook/run.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { NOWHERE } from '../capture-io.js';
import type { AgentCase, Answer } from '../hook-cases.js';
import { AGENT_CASES } from '../hook-cases.js';
import { scaled } from '../../../../test/machine.js';

/**
 * Cross-host hook planting (an agent in one host writing another host's hook or settings file, so
 * that host runs what it planted): guard.tamper's protected set is every adapter's declaration, so
 * whichever agent's hook judges the step, another agent's hook file is guard's too. Each row is a
 * step of one agent, through its own hook command, on another agent's project-level hook file.
 */

interface Result {
  readonly answer: Answer;
  readonly line: LogEntry;
}

async function hookCall(agent: AgentCase, payload: unknown): Promise<Result> {
  const guardHome = mkdtempSync(join(tmpdir(), 'guard-planting-'));
  try {
    let stdout = '';
    let stderr = '';
    const io: HookIo = {
      stdin: (async function* () {
        yield JSON.stringify(payload);
      })(),
      stopInput: () => undefined,
      out: (out) => void (stdout += out),
      err: (err) => void (stderr += err),
      env: { GUARD_HOME: guardHome },
      home: () => NOWHERE,
      tmp: () => '/tmp',
      parentArgs: () => ['node', 'agent'],
    };
    const code = await runHook(agent.args, io);
    const [line = ''] = readFileSync(join(guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
    return { answer: { stdout, stderr, code }, line: JSON.parse(line) as LogEntry };
  } finally {
    rmSync(guardHome, { recursive: true, force: true });
  }
}

/** Each agent's first hook file in a project (a folder's `**` named as a file in it). */
const PLANTED = Object.values(AGENTS).map((agent) => {
  const path = agent.files.hooks.find((pattern) => !/^[$~/]|^[A-Z]:/.test(pattern));
  if (path === undefined) throw new Error(`${agent.id} declares no hook file in a project`);
  const folder = path.endsWith('/**');
  return {
    owner: agent.id,
    path: path.replace(/\*\*$/, 'planted.json'),
    // beside it: under another name, or (a folder the agent reads all of) a project folder without the dot
    beside: folder ? path.replace(/^\./, '').replace(/\*\*$/, 'planted.json') : `${path}.example`,
  };
});

const ROWS = AGENT_CASES.flatMap((host) =>
  PLANTED.filter(({ owner }) => owner !== host.agent).map((target) => ({
    host,
    ...target,
    label: `${host.agent} writes ${target.owner}'s ${target.path}`,
  })),
);

const PLANT = `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"sh planted.sh"}]}]}}`;

describe.concurrent('one agent planting another agent’s hooks is guard.tamper', { timeout: scaled(60_000) }, () => {
  it.for(ROWS)('$label (a shell redirect): blocked', async ({ host, path }, { expect }) => {
    const { answer, line } = await hookCall(host, host.shell(`echo '${PLANT}' > ${path}`));
    expect(host.denies(answer)).toBe(true);
    expect(line).toMatchObject({ decision: 'block', rules: expect.arrayContaining(['guard.tamper']) });
  });
  // near misses: reading the other agent's file, or writing beside it under another name
  it.for(ROWS)(
    '$label: reading it, or writing a copy beside it, is no guard.tamper',
    async ({ host, path, beside }, { expect }) => {
      const read = await hookCall(host, host.shell(`cat ${path}`));
      expect(read.line.rules).not.toContain('guard.tamper');
      const written = await hookCall(host, host.shell(`echo '${PLANT}' > ${beside}`));
      expect(written.line.rules).not.toContain('guard.tamper');
    },
  );
});

// the agents' own file-writing tools, for a few pairs (the tool's name and input as each agent sends them)
const WRITES: readonly { host: string; tool: string; input: (path: string) => unknown; target: string }[] = [
  { host: 'copilot', tool: 'create', input: (path) => ({ path, file_text: PLANT }), target: '.claude/settings.json' },
  { host: 'copilot', tool: 'create', input: (path) => ({ path, file_text: PLANT }), target: '.cursor/hooks.json' },
  {
    host: 'claude-code',
    tool: 'Write',
    input: (file_path) => ({ file_path, content: PLANT }),
    target: '.github/hooks/planted.json',
  },
  {
    host: 'claude-code',
    tool: 'Write',
    input: (file_path) => ({ file_path, content: PLANT }),
    target: '.qwen/settings.json',
  },
  {
    host: 'cursor',
    tool: 'Write',
    input: (file_path) => ({ file_path, content: PLANT }),
    target: '.claude/settings.local.json',
  },
  {
    host: 'qwen',
    tool: 'write_file',
    input: (file_path) => ({ file_path, content: PLANT }),
    target: '.claude/settings.json',
  },
  {
    host: 'gemini',
    tool: 'write_file',
    input: (file_path) => ({ file_path, content: PLANT }),
    target: '.codex/hooks.json',
  },
];

describe.concurrent('with the agent’s own write tool', { timeout: scaled(60_000) }, () => {
  it.for(WRITES)('$host writes $target: blocked as guard.tamper', async ({ host, tool, input, target }, { expect }) => {
    const agent = AGENT_CASES.find((candidate) => candidate.agent === host);
    if (agent === undefined) throw new Error(`no case for ${host}`);
    const cwd = (agent.shell('true') as { cwd?: unknown }).cwd;
    const at = typeof cwd === 'string' && cwd !== '' ? join(cwd, target) : target;
    const { answer, line } = await hookCall(agent, agent.tool(tool, input(at)));
    expect(agent.denies(answer)).toBe(true);
    expect(line).toMatchObject({ kind: 'write', decision: 'block', rules: expect.arrayContaining(['guard.tamper']) });
  });
});
