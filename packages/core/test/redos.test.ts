import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERSARIAL_SIZE, adversarialInputs } from '../../../test/corpus/adversarial.mjs';
import { buildContext } from '../src/context/build.js';
import { evaluate } from '../src/evaluate.js';
import type { Policy } from '../src/policy.js';
import type { Probe, RuleContext, SessionView } from '../src/rule.js';
import { rules } from '../src/rules/index.js';
import type { Finding, ToolStep } from '../src/types.js';
import { ENV, PROJECT } from './rule-tester.js';

// No rule may be driven into catastrophic backtracking or a rescanning loop. Each rule runs on
// 100 KB adversarial inputs, as a shell line and as write, fetch and MCP steps, while every
// regular-expression match is metered: the characters a match scans must stay a small multiple
// of the input (linear work), whatever the wall clock says. scripts/redos.mjs prints the times.

/** Regex work allowed per rule check, as characters scanned per input character (today's worst: 34). */
const RULE_BUDGET = 200;
/** The same for reading the step: shell reader, effects, key search (today's worst: 86). */
const READ_BUDGET = 500;
/** The same for a whole evaluation: reading, every rule, the project policy (today's worst: 205). */
const EVALUATION_BUDGET = 1000;

// ---------------------------------------------------------------------------------------------
// The meter: RegExp.prototype.exec is what test, match, matchAll, replace, split and search call.

const originalExec = RegExp.prototype.exec;
let metering = false;
let scanned = 0;
let limit = Number.POSITIVE_INFINITY;
const patterns = new Set<string>();

class OverBudget extends Error {}

beforeAll(() => {
  RegExp.prototype.exec = function exec(this: RegExp, input: string): RegExpExecArray | null {
    const text = String(input);
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = originalExec.call(this, text);
    if (metering) {
      patterns.add(`/${this.source}/${this.flags}`);
      // a match scans up to its end; a failure scans the rest of the text
      scanned += Math.max((match ? match.index + match[0].length : text.length) - from, 1);
      if (scanned > limit) throw new OverBudget(`over budget after /${this.source}/`);
    }
    return match;
  };
});
afterAll(() => {
  RegExp.prototype.exec = originalExec;
});

/** Runs `fn` under the meter; answers the characters scanned per input character, or 'over'. */
function metered(budget: number, fn: () => void): number | 'over' {
  scanned = 0;
  limit = budget * ADVERSARIAL_SIZE;
  metering = true;
  try {
    fn();
    return scanned / ADVERSARIAL_SIZE;
  } catch (error) {
    if (error instanceof OverBudget) return 'over';
    throw error;
  } finally {
    metering = false;
    limit = Number.POSITIVE_INFINITY;
  }
}

// ---------------------------------------------------------------------------------------------
// The world: every session flag raised and a probe that answers with the input itself, so the
// rules that only work with state (session.*, mcp.*, net.send-after-key, script.*) work too.

const session = (text: string): SessionView => ({
  createdFiles: new Set([`${PROJECT}/${text.slice(0, 200)}`]),
  untrusted: true,
  injection: true,
  keySeen: true,
  poisonedServers: new Set(['db']),
  failuresInARow: () => 2,
});

const probe = (text: string): Probe => ({
  gitUntracked: () => [`${PROJECT}/.env`, `${PROJECT}/${text.slice(0, 200)}`],
  gitModified: () => [`${PROJECT}/src/a.ts`],
  gitIgnored: () => new Set(),
  gitBranch: () => 'main',
  readText: (_path, maxBytes) => text.slice(0, maxBytes),
  exists: () => true,
  projectPackages: () => new Set(['react', 'lodash']),
});

const policy: Policy = {
  secrets: ['config/*.secret', '**/private/**'],
  block: ['git.push'],
  rules: [{ id: 'policy.wild', program: 'a', args: ['*a*a*', '*-*'], decision: 'ask', reason: 'Adversarial.' }],
  allow: [{ rule: 'fs.delete', paths: ['**/a*a*a*/**'] }],
};

function stepsFor(text: string): { kind: string; step: ToolStep }[] {
  const base = { agent: 'codex', chatId: 'redos', cwd: PROJECT, projectRoot: PROJECT } as const;
  return [
    { kind: 'shell', step: { ...base, kind: 'shell', toolName: 'Bash', command: text } },
    {
      kind: 'write',
      step: {
        ...base,
        kind: 'write',
        toolName: 'Write',
        path: `src/${text.slice(0, 4096)}`,
        content: text,
        mode: 'overwrite',
      },
    },
    { kind: 'fetch', step: { ...base, kind: 'fetch', toolName: 'WebFetch', url: text } },
    {
      kind: 'mcp',
      step: {
        ...base,
        kind: 'mcp',
        toolName: 'mcp__db__query',
        server: 'db',
        tool: 'query',
        args: { sql: text, path: text.slice(0, 4096) },
      },
    },
  ];
}

const inputs = adversarialInputs();
const fakeFinding: Finding = {
  ruleId: 'git.push',
  decision: 'ask',
  reason: 'x',
  span: [0, 1],
  remember: 'never',
  concern: 'sending',
};

describe('the adversarial inputs', () => {
  it('are 100 KB each and all different', () => {
    expect(inputs.every(({ text }) => text.length === ADVERSARIAL_SIZE)).toBe(true);
    expect(new Set(inputs.map(({ text }) => text)).size).toBe(inputs.length);
  });

  it('the meter counts and stops: a rescanning loop runs over budget, one pass does not', () => {
    const text = 'a'.repeat(ADVERSARIAL_SIZE);
    expect(metered(RULE_BUDGET, () => /b/.test(text))).toBe(1);
    expect(metered(RULE_BUDGET, () => text.replace(/a/g, 'b'))).toBeLessThanOrEqual(2);
    expect(
      metered(RULE_BUDGET, () => {
        for (let i = 0; i < text.length; i++) /b/.test(text.slice(i));
      }),
    ).toBe('over');
  });
});

describe.each(inputs.map((input) => [input.name, input] as const))('%s', (_name, { text }) => {
  it.for(stepsFor(text).map(({ kind, step }) => [kind, step] as const))(
    'every rule does linear regex work on a %s step',
    ([, step]) => {
      let context: RuleContext | undefined;
      const reading = metered(READ_BUDGET, () => {
        context = buildContext(step, ENV, probe(text), session(text), policy.secrets);
      });
      const over: string[] = reading === 'over' ? ['reading the step'] : [];
      if (context) {
        const ctx = context;
        for (const rule of rules) {
          let hits: readonly { span: readonly [number, number] }[] = [];
          const work = metered(RULE_BUDGET, () => {
            hits = rule.after ? rule.after([fakeFinding], ctx) : rule.check(ctx);
          });
          if (work === 'over') over.push(rule.meta.id);
          const outside = hits.filter(
            ({ span: [start, end] }) => !(start >= 0 && start <= end && end <= ctx.text.length),
          );
          expect(outside, `${rule.meta.id} gave spans outside the step text`).toEqual([]);
        }
      }
      expect(over).toEqual([]);
    },
  );

  it('a whole evaluation with a project policy stays linear and answers', () => {
    const step = stepsFor(text)[0]?.step as ToolStep;
    let decision = '';
    const work = metered(EVALUATION_BUDGET, () => {
      decision = evaluate(step, { ...ENV, probe: probe(text), session: session(text), policy }).decision;
    });
    expect(work).not.toBe('over');
    expect(['allow', 'ask', 'block']).toContain(decision);
  });
});

describe('the patterns the rules ran', () => {
  it('have no quantified group around a single quantified atom, like (a+)+ or (?:\\w*)*', () => {
    // collected while the tables above ran (vitest runs this file's tests in order)
    const nested = /\((?:\?:)?(?:\\.|\[(?:\\.|[^\]\\])*\]|[^()\\|[\]])[+*]\)(?:[+*]|\{\d+,\})/;
    expect(patterns.size).toBeGreaterThan(0);
    expect([...patterns].filter((source) => nested.test(source))).toEqual([]);
  });
});
