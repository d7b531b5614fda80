import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// the root folder is no workspace package, so core and the adapters are imported by path
import { AGENTS, agentKnowledge } from '../../packages/adapters/src/agents.js';
import {
  evaluate,
  rules,
  tableProbe,
  type Evaluation,
  type ProbeTable,
  type ShellStep,
} from '../../packages/core/src/index.js';
import { describe, expect, it } from 'vitest';

// The corpus is the quality measurement's input (scripts/quality.mjs prints the shares and every
// miss). This file checks that the corpus itself is sound: well-formed, labelled with real rule ids,
// big enough, covering the catalogue, and readable by the engine without a crash.

const here = dirname(fileURLToPath(import.meta.url));
const PROJECT = '/home/dev/project';

interface Line {
  readonly command: string;
  /** The shell the step says it runs in (an agent's PowerShell tool); none: read as handed over. */
  readonly shell?: 'powershell';
  readonly cwd?: string;
  readonly note?: string;
  readonly probe?: ProbeTable;
  readonly expect?: 'block' | 'ask';
  readonly rules?: readonly string[];
}

function read(name: string): { line: Line; raw: string; at: string }[] {
  return readFileSync(join(here, name), 'utf8')
    .split('\n')
    .map((raw, i) => ({ raw, at: `${name}:${i + 1}` }))
    .filter(({ raw }) => raw.trim() !== '')
    .map(({ raw, at }) => ({ line: JSON.parse(raw) as Line, raw, at }));
}

const harmless = read('harmless.jsonl');
const risky = read('risky.jsonl');
const catalogue = new Map(rules.map((rule) => [rule.meta.id, rule.meta.decision]));

/** Rules that need chat state or a step that is not a shell line; the shell corpus cannot show them. */
const NEED_STATE = [
  'mcp.changes',
  'mcp.poisoned-server',
  'net.send-after-key',
  'session.after-injection',
  'session.after-untrusted',
  'session.third-try',
];

const LINE_KEYS = ['command', 'cwd', 'note', 'probe', 'shell'];
const PROBE_KEYS = ['untracked', 'modified', 'ignored', 'files', 'packages', 'branch'];

describe('corpus files are well-formed', () => {
  it.for([
    { name: 'harmless.jsonl', rows: harmless, keys: LINE_KEYS },
    { name: 'risky.jsonl', rows: risky, keys: [...LINE_KEYS, 'expect', 'rules'] },
  ])(
    '$name: known keys only, a non-empty command, an absolute cwd, probe answers of the rule-test shape',
    ({ rows, keys }) => {
      const problems: string[] = [];
      for (const { line, at } of rows) {
        const extra = Object.keys(line).filter((key) => !keys.includes(key));
        if (extra.length > 0) problems.push(`${at}: unknown keys ${extra.join(', ')}`);
        if (typeof line.command !== 'string' || line.command.trim() === '')
          problems.push(`${at}: command must be a non-empty string`);
        if (line.cwd !== undefined && !line.cwd.startsWith('/')) problems.push(`${at}: cwd must be absolute`);
        if (line.note !== undefined && typeof line.note !== 'string') problems.push(`${at}: note must be a string`);
        const probeKeys = Object.keys(line.probe ?? {}).filter((key) => !PROBE_KEYS.includes(key));
        if (probeKeys.length > 0) problems.push(`${at}: unknown probe keys ${probeKeys.join(', ')}`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('risky lines name catalogue rules, and the decision their rules would give', () => {
    const problems: string[] = [];
    for (const { line, at } of risky) {
      if (line.expect !== 'block' && line.expect !== 'ask') problems.push(`${at}: expect must be block or ask`);
      const ids = line.rules ?? [];
      if (ids.length === 0) problems.push(`${at}: rules must name at least one rule`);
      if (new Set(ids).size !== ids.length) problems.push(`${at}: a rule is named twice`);
      const unknown = ids.filter((id) => !catalogue.has(id));
      if (unknown.length > 0) problems.push(`${at}: not in the catalogue: ${unknown.join(', ')}`);
      const strongest = ids.some((id) => catalogue.get(id) === 'block') ? 'block' : 'ask';
      if (unknown.length === 0 && line.expect !== strongest)
        problems.push(`${at}: expect ${line.expect}, but its rules give ${strongest}`);
    }
    expect(problems).toEqual([]);
  });

  it('has no line twice (same command in the same folder and shell), within or across the files', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const { line, at } of [...harmless, ...risky]) {
      const key = `${line.cwd ?? PROJECT}\u0000${line.shell ?? ''}\u0000${line.command}`;
      const first = seen.get(key);
      if (first) twice.push(`${at} repeats ${first}`);
      else seen.set(key, at);
    }
    expect(twice).toEqual([]);
  });

  it('uses only the neutral paths of the rule tests', () => {
    const leaks = [...harmless, ...risky].filter(({ raw }) => /\/(?:work|root)\//.test(raw)).map(({ at }) => at);
    expect(leaks).toEqual([]);
  });
});

describe('corpus size and coverage', () => {
  it('holds at least 400 harmless and 200 risky lines', () => {
    expect(harmless.length).toBeGreaterThanOrEqual(400);
    expect(risky.length).toBeGreaterThanOrEqual(200);
  });

  it('the rules left out for needing state are real rule ids', () => {
    expect(NEED_STATE.filter((id) => !catalogue.has(id))).toEqual([]);
  });

  it('covers every catalogue rule the shell can show with at least three risky lines', () => {
    const count = new Map<string, number>();
    for (const { line } of risky) for (const id of line.rules ?? []) count.set(id, (count.get(id) ?? 0) + 1);
    const thin = [...catalogue.keys()]
      .filter((id) => !NEED_STATE.includes(id) && (count.get(id) ?? 0) < 3)
      .map((id) => `${id} (${count.get(id) ?? 0})`);
    expect(thin).toEqual([]);
  });
});

describe('the engine on the corpus', () => {
  // the same world as the rule tests: the corpus line's probe answers, nothing else known
  const judge = ({ line }: { line: Line }): Evaluation => {
    const step: ShellStep = {
      kind: 'shell',
      agent: 'codex',
      toolName: 'Bash',
      chatId: 'corpus',
      cwd: line.cwd ?? PROJECT,
      projectRoot: PROJECT,
      command: line.command,
      ...(line.shell === undefined ? {} : { shell: line.shell, toolName: 'PowerShell' }),
    };
    return evaluate(step, {
      home: '/home/dev',
      tmp: '/tmp',
      guardHome: '/home/dev/.local/state/guard',
      agents: agentKnowledge(Object.values(AGENTS), { home: '/home/dev', env: {} }),
      probe: tableProbe(line.probe),
    });
  };
  const judged = {
    harmless: harmless.map((row) => ({ ...row, evaluation: judge(row) })),
    risky: risky.map((row) => ({ ...row, evaluation: judge(row) })),
  };
  const found = (evaluation: Evaluation): string =>
    evaluation.findings
      .map((f) => `${f.decision} ${f.ruleId} on ${JSON.stringify(evaluation.text.slice(f.span[0], f.span[1]))}`)
      .join('; ') || 'allow';

  it.for([
    { name: 'harmless', rows: judged.harmless },
    { name: 'risky', rows: judged.risky },
  ])('$name: a verdict for each, with every span inside the line', ({ rows }) => {
    const problems: string[] = [];
    for (const { line, at, evaluation } of rows) {
      const expected = evaluation.findings[0]?.decision ?? 'allow';
      if (evaluation.decision !== expected)
        problems.push(`${at}: decision ${evaluation.decision} but the first finding says ${expected}`);
      for (const { ruleId, span } of evaluation.findings) {
        if (!(span[0] >= 0 && span[0] <= span[1] && span[1] <= line.command.length))
          problems.push(`${at}: ${ruleId} span ${span.join('-')} is outside the line`);
      }
    }
    expect(problems).toEqual([]);
  });

  // The SPEC targets. scripts/quality.mjs prints the same shares with every miss.
  it('flags at least 97% of the risky lines at the expected decision or stronger', () => {
    const rank = { allow: 0, ask: 1, block: 2 } as const;
    const missed = judged.risky.filter(
      ({ line, evaluation }) => rank[evaluation.decision] < rank[line.expect ?? 'ask'],
    );
    const misses = missed.map(
      ({ line, at, evaluation }) =>
        `${at}: ${line.expect} ${(line.rules ?? []).join(', ')}: ${line.command} → ${found(evaluation)}`,
    );
    expect(1 - missed.length / risky.length, misses.join('\n')).toBeGreaterThanOrEqual(0.97);
  });

  it('flags at most 2% of the harmless lines', () => {
    const flagged = judged.harmless.filter(({ evaluation }) => evaluation.findings.length > 0);
    const lines = flagged.map(({ line, at, evaluation }) => `${at}: ${line.command} → ${found(evaluation)}`);
    expect(flagged.length / harmless.length, lines.join('\n')).toBeLessThanOrEqual(0.02);
  });
});
