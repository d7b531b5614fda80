import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../src/evaluate.js';
import { printToAsk, whyUnchecked } from '../src/chat/servers.js';
import { evaluate } from '../src/evaluate.js';
import type { Example, ExampleStep, Rule, SessionView } from '../src/rule.js';
import type { Environment } from '../src/context/types.js';
import { tableProbe } from '../src/rule.js';
import { rules } from '../src/rules/index.js';
import { RELAY } from './stand-in-agent.js';
import type { ToolStep } from '../src/types.js';

/** The machine every rule example assumes. */
export const HOME = '/home/dev';
export const PROJECT = '/home/dev/project';
export const GUARD_HOME = '/home/dev/.local/state/guard';
/** The machine, and the agents on it: the stand-in agent (real agents are tested in test/agents/). */
export const ENV: Environment = { home: HOME, tmp: '/tmp', guardHome: GUARD_HOME, agents: RELAY };

/** A full ToolStep from a rule example. */
export function stepFrom(step: ExampleStep): ToolStep {
  const base = { agent: 'codex', chatId: 'chat-1', cwd: PROJECT, projectRoot: PROJECT } as const;
  if (typeof step === 'string') return { ...base, kind: 'shell', toolName: 'Bash', command: step };
  switch (step.kind) {
    case 'write':
      return {
        ...base,
        kind: 'write',
        toolName: 'Write',
        path: step.path,
        mode: step.mode ?? 'overwrite',
        ...(step.content === undefined ? {} : { content: step.content }),
        ...(step.toPath === undefined ? {} : { toPath: step.toPath }),
      };
    case 'read':
      return { ...base, kind: 'read', toolName: 'Read', path: step.path };
    case 'fetch':
      return { ...base, kind: 'fetch', toolName: 'WebFetch', url: step.url };
    case 'patch':
      return { ...base, kind: 'patch', toolName: 'apply_patch', patch: step.patch };
    case 'mcp':
      return {
        ...base,
        kind: 'mcp',
        toolName: `mcp__${step.server}__${step.tool}`,
        server: step.server,
        tool: step.tool,
        args: step.args ?? {},
        ...(step.annotations ? { annotations: step.annotations } : {}),
      };
    case 'other':
      return { ...base, kind: 'other', toolName: step.toolName, args: step.args };
  }
}

function toExample(row: string | Example): Example {
  return typeof row === 'string' ? { step: row } : row;
}

export function sessionFrom(example: Example): SessionView {
  const s = example.session ?? {};
  return {
    createdFiles: new Set(s.createdFiles ?? []),
    untrusted: s.untrusted ?? false,
    injection: s.injection ?? false,
    keySeen: s.keySeen ?? false,
    poisonedServers: new Set(s.poisonedServers ?? []),
    ...(s.newServers === undefined ? {} : { serverToAsk: (server: string) => printToAsk(s.newServers, server) }),
    ...(s.uncheckedServers === undefined
      ? {}
      : { uncheckedServer: (server: string) => whyUnchecked(s.uncheckedServers, server) }),
    failuresInARow: () => s.failuresInARow ?? 0,
  };
}

/** Evaluates an example with the whole catalogue (plus `extra`), in the example's world (`env`: another machine). */
export function evaluateExample(row: string | Example, extra?: Rule, env: Environment = ENV): Evaluation {
  const example = toExample(row);
  const all = extra && !rules.includes(extra) ? [...rules, extra] : rules;
  return evaluate(stepFrom(example.step), {
    ...env,
    rules: all,
    probe: tableProbe(example.probe),
    session: sessionFrom(example),
  });
}

function label(row: string | Example): string {
  const example = toExample(row);
  const step = typeof example.step === 'string' ? example.step : JSON.stringify(example.step);
  return (example.note ? `${step}  (${example.note})` : step).slice(0, 160);
}

export interface RuleCases {
  /** Steps the rule must leave alone (near misses first). */
  readonly valid: readonly (string | Example)[];
  /** Steps the rule must flag. */
  readonly invalid: readonly (string | Example)[];
}

/** ESLint-RuleTester-style table: one `it` per row, the rule run inside the real engine (on `env`'s machine). */
export function runRuleTests(rule: Rule, { valid, invalid }: RuleCases, env: Environment = ENV): void {
  const id = rule.meta.id;
  describe(id, () => {
    it('has no duplicate cases and at least one of each', () => {
      const all = [...valid, ...invalid].map(label);
      expect(new Set(all).size).toBe(all.length);
      expect(valid.length).toBeGreaterThan(0);
      expect(invalid.length).toBeGreaterThan(0);
    });
    it.for(valid.map((row) => [label(row), row] as const))('allows %s', ([, row]) => {
      const ids = evaluateExample(row, rule, env).findings.map((finding) => finding.ruleId);
      expect(ids).not.toContain(id);
    });
    it.for(invalid.map((row) => [label(row), row] as const))(`${rule.meta.decision}s %s`, ([, row]) => {
      const result = evaluateExample(row, rule, env);
      const finding = result.findings.find((f) => f.ruleId === id);
      expect(
        finding,
        `no ${id} finding; got ${result.findings.map((f) => f.ruleId).join(', ') || 'none'}`,
      ).toBeDefined();
      expect(finding?.decision).toBe(rule.meta.decision);
      const [start, end] = finding?.span ?? [0, 0];
      expect(start).toBeGreaterThanOrEqual(0);
      expect(end).toBeLessThanOrEqual(result.text.length);
      expect(start).toBeLessThanOrEqual(end);
    });
  });
}
