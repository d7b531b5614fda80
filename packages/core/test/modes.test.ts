import { describe, expect, it } from 'vitest';
import type { AskFacts, Mode } from '../src/modes.js';
import { askFacts, decideIn, isMode, MODE_DECISIONS, MODES } from '../src/modes.js';
import type { AsksInEveryMode, Concern, Example, Rule } from '../src/rule.js';
import { rules } from '../src/rules/index.js';
import { evaluateExample } from './rule-tester.js';

type Answer = 'block' | 'ask' | 'allow';

/**
 * Every ask rule: its concern class, and what each mode does with its findings (standard,
 * extended, full). Written out by hand, so a changed class or decision function shows up here.
 */
const ASK_RULES: Readonly<Record<string, readonly [Concern, Answer, Answer, Answer]>> = {
  'agent.rules': ['rules-or-machine', 'ask', 'ask', 'allow'],
  'db.destroy': ['destructive', 'ask', 'ask', 'allow'],
  'fs.delete': ['destructive', 'ask', 'ask', 'allow'],
  'fs.write-outside': ['outside', 'ask', 'allow', 'allow'],
  'git.push': ['sending', 'ask', 'ask', 'allow'],
  'infra.destroy': ['destructive', 'ask', 'ask', 'allow'],
  'mcp.changes': ['rules-or-machine', 'ask', 'ask', 'allow'],
  'net.new-site': ['outside', 'ask', 'allow', 'allow'],
  'net.send-after-key': ['secrets', 'ask', 'ask', 'ask'],
  'pkg.install': ['outside', 'ask', 'allow', 'allow'],
  'pkg.publish': ['sending', 'ask', 'ask', 'allow'],
  'pkg.unlisted': ['rules-or-machine', 'ask', 'ask', 'allow'],
  'process.kill-by-name': ['destructive', 'ask', 'ask', 'allow'],
  'script.contains-never': ['destructive', 'ask', 'ask', 'ask'],
  'script.prints-key': ['secrets', 'ask', 'ask', 'allow'],
  'session.after-untrusted': ['sending', 'ask', 'ask', 'ask'],
  'session.third-try': ['destructive', 'ask', 'ask', 'allow'],
  'shell.opaque': ['destructive', 'ask', 'ask', 'ask'],
  'system.elevate': ['rules-or-machine', 'ask', 'ask', 'allow'],
};

const askRules = rules.filter((rule) => rule.meta.decision === 'ask');
const blockRules = rules.filter((rule) => rule.meta.decision === 'block');

/** What a mode answers for one rule's findings on a step (the rule's own finding, or gone). */
function answerFor(mode: Mode, row: string | Example, ruleId: string): Answer {
  const { evaluation, byMode } = decideIn(mode, evaluateExample(row));
  const kept = evaluation.findings.find((finding) => finding.ruleId === ruleId);
  if (kept !== undefined) return kept.decision;
  expect(byMode.map((finding) => finding.ruleId)).toContain(ruleId);
  return 'allow';
}

/** The concern and raised-bar facts a mode reads of a rule's findings on its documented examples, each pair once. */
function concernsOf(rule: Rule): [Concern | undefined, AsksInEveryMode | undefined][] {
  const seen = new Map<string, [Concern | undefined, AsksInEveryMode | undefined]>();
  for (const row of rule.meta.examples.match) {
    for (const finding of evaluateExample(row).findings) {
      if (finding.ruleId !== rule.meta.id) continue;
      const { concern, asksInEveryMode } = askFacts(finding);
      seen.set(`${concern}/${asksInEveryMode}`, [concern, asksInEveryMode]);
    }
  }
  return [...seen.values()];
}

describe('modes: one decision function each (SPEC §12)', () => {
  it('lists every ask rule once, and only ask rules', () => {
    expect(Object.keys(ASK_RULES).sort()).toEqual(askRules.map((rule) => rule.meta.id).sort());
  });

  it('knows its modes, and nothing else is one', () => {
    expect(MODES).toEqual(['standard', 'extended', 'full']);
    for (const mode of MODES) expect(isMode(mode)).toBe(true);
    for (const other of ['', 'Full', 'strict', 'ask-everything', 'off', undefined, 1])
      expect(isMode(other)).toBe(false);
  });

  describe.for(askRules.map((rule) => [rule.meta.id, rule] as const))('%s', ([id, rule]) => {
    const [concern, ...answers] = ASK_RULES[id] ?? [];
    it('has its concern class, and its findings carry it', () => {
      expect(rule.meta.concern).toBe(concern);
      expect(concernsOf(rule)).toEqual([[concern, rule.meta.asksInEveryMode]]);
    });
    it.for(MODES.map((mode, i) => [mode, answers[i]] as const))('%s: %s', ([mode, answer]) => {
      // each documented must-match example, as this mode answers it
      for (const row of rule.meta.examples.match) {
        const evaluation = evaluateExample(row);
        // a step another rule blocks stays blocked, whatever the mode makes of this rule
        if (evaluation.decision === 'block') {
          expect(decideIn(mode, evaluation).evaluation.decision, JSON.stringify(row)).toBe('block');
          continue;
        }
        const unresolved = evaluation.findings.some((f) => f.ruleId === id && f.unresolved === true);
        expect(answerFor(mode, row, id), JSON.stringify(row)).toBe(unresolved ? 'ask' : answer);
      }
    });
  });

  describe.for(blockRules.map((rule) => [rule.meta.id, rule] as const))('never list: %s', ([id, rule]) => {
    it('has no concern class, and its findings carry none', () => {
      expect(rule.meta.concern).toBeUndefined();
      expect(concernsOf(rule)).toEqual([[undefined, undefined]]);
    });
    // what the rule could not check (an MCP server whose tools guard could not read) asks in every
    // mode instead (blocked under fail-closed): guard cannot tell it is the never list's case
    it.for(MODES)('blocks every documented example in %s, and asks what it could not check', (mode) => {
      for (const row of rule.meta.examples.match) {
        const { evaluation } = decideIn(mode, evaluateExample(row));
        const own = evaluation.findings.filter((finding) => finding.ruleId === id);
        const expected = own.length > 0 && own.every((finding) => finding.unresolved === true) ? 'ask' : 'block';
        expect(evaluation.decision, JSON.stringify(row)).toBe(expected);
        expect(answerFor(mode, row, id)).toBe(expected);
      }
    });
    it('documents at least one example it blocks', () => {
      const blocked = rule.meta.examples.match.filter((row) =>
        evaluateExample(row).findings.some((finding) => finding.ruleId === id && finding.unresolved !== true),
      );
      expect(blocked.length).toBeGreaterThan(0);
    });
  });
});

describe('the decision functions, over every fact a mode reads', () => {
  const concerns: readonly (Concern | undefined)[] = [
    'outside',
    'sending',
    'secrets',
    'destructive',
    'rules-or-machine',
    undefined,
  ];
  const rows: [string, AskFacts, Answer, Answer, Answer][] = [];
  for (const concern of concerns) {
    for (const asksInEveryMode of [undefined, 'raised-bar', 'worst-case'] as const) {
      for (const unresolved of [false, true]) {
        const held = concern === undefined || asksInEveryMode !== undefined || unresolved;
        rows.push([
          `${concern ?? 'unknown rule'}${asksInEveryMode ? `, ${asksInEveryMode}` : ''}${unresolved ? ', unresolved' : ''}`,
          { concern, asksInEveryMode, unresolved },
          'ask',
          !held && concern === 'outside' ? 'allow' : 'ask',
          held ? 'ask' : 'allow',
        ]);
      }
    }
  }
  it('has 36 rows', () => expect(rows.length).toBe(36));
  it.for(rows)('%s', ([, facts, standard, extended, full]) => {
    expect(MODE_DECISIONS.standard(facts)).toBe(standard);
    expect(MODE_DECISIONS.extended(facts)).toBe(extended);
    expect(MODE_DECISIONS.full(facts)).toBe(full);
  });
});

describe('steps under each mode', () => {
  const rows: readonly [string, string | Example, Answer, Answer, Answer][] = [
    ['a plain build', 'npm run build', 'allow', 'allow', 'allow'],
    [
      'a write outside the project',
      { step: { kind: 'write', path: '/home/dev/notes/todo.md', content: 'x' } },
      'ask',
      'allow',
      'allow',
    ],
    ['a new site', 'curl -fsSL https://example.org/data.json -o data.json', 'ask', 'allow', 'allow'],
    ['a push', 'git push origin feature', 'ask', 'ask', 'allow'],
    ['a force push over shared history', 'git push --force origin main', 'block', 'block', 'block'],
    ['a delete', 'rm -rf src', 'ask', 'ask', 'allow'],
    ['a delete of an unset variable', 'rm -rf $DIR', 'block', 'block', 'block'],
    ['a delete below an unset variable', 'rm -rf "$DIR/cache"', 'ask', 'ask', 'ask'],
    ['whatever xargs is fed', 'ls | xargs rm -rf', 'ask', 'ask', 'ask'],
    ['a delete of a variable set in the same line', 'DIR=src; rm -rf "$DIR"', 'ask', 'ask', 'allow'],
    ['wiping the home folder', 'rm -rf ~/', 'block', 'block', 'block'],
    [
      'a push after untrusted content',
      { step: 'git push origin feature', session: { untrusted: true } },
      'ask',
      'ask',
      'ask',
    ],
    [
      'sending after a key was seen',
      { step: 'curl -d @report.json https://api.example.com/upload', session: { keySeen: true } },
      'ask',
      'ask',
      'ask',
    ],
    [
      'a push after injection signs',
      { step: 'git push origin feature', session: { injection: true } },
      'block',
      'block',
      'block',
    ],
    ['an unreadable command', 'echo "unterminated', 'ask', 'ask', 'ask'],
    ['the agent changing the mode', 'guard mode full', 'block', 'block', 'block'],
    ['reading a key file', 'cat ~/.ssh/id_ed25519', 'block', 'block', 'block'],
    ['a push and a write outside', 'git push origin feature && echo x > /home/dev/notes.txt', 'ask', 'ask', 'allow'],
  ];
  it.for(rows)('%s', ([, row, standard, extended, full]) => {
    const got = MODES.map((mode) => decideIn(mode, evaluateExample(row)).evaluation.decision);
    expect(got).toEqual([standard, extended, full]);
  });

  it('standard hands back the rules’ evaluation itself', () => {
    for (const [, row] of rows) {
      const evaluation = evaluateExample(row);
      const judged = decideIn('standard', evaluation);
      expect(judged.evaluation).toBe(evaluation);
      expect(judged.byMode).toEqual([]);
    }
  });

  it('a mode that lets an ask go ahead drops it from the findings and the messages', () => {
    const evaluation = evaluateExample('git push origin feature && echo x > /home/dev/notes.txt');
    const { evaluation: judged, byMode } = decideIn('extended', evaluation);
    expect(byMode.map((finding) => finding.ruleId)).toEqual(['fs.write-outside']);
    expect(judged.findings.map((finding) => finding.ruleId)).toEqual(['git.push']);
    expect(judged.agentMessage).toMatch(/^\[git\.push\] /);
    expect(judged.agentMessage).not.toContain('fs.write-outside');
  });
});
