import { describe, expect, it } from 'vitest';
import type { EvaluateOptions } from '../src/evaluate.js';
import { FRESH_SESSION } from '../src/context/build.js';
import { evaluate, keepsYes } from '../src/evaluate.js';
import type { Policy } from '../src/policy.js';
import { EMPTY_POLICY } from '../src/policy.js';
import type { SessionView } from '../src/rule.js';
import { tableProbe } from '../src/rule.js';
import { ENV, stepFrom } from './rule-tester.js';

const judge = (command: string, extra: Parameters<typeof evaluate>[1] extends infer O ? Partial<O> : never = {}) =>
  evaluate(stepFrom(command), { ...ENV, ...extra });

describe('evaluate', () => {
  it('reports every finding with its own span, most severe first', () => {
    const line = 'ls && git reset --hard && rm -rf ~';
    const result = judge(line);
    expect(result.decision).toBe('block');
    expect(result.findings[0]?.decision).toBe('block');
    const parts = result.findings.map((f) => [f.ruleId, f.decision, line.slice(f.span[0], f.span[1])]);
    expect(parts).toEqual([
      ['fs.wipe', 'block', '~'],
      ['fs.delete', 'ask', 'git reset --hard'],
    ]);
    // each finding points into its own command of the list
    expect(result.findings[0]?.span[0]).toBeGreaterThan(line.indexOf('rm -rf'));
    const severities = result.findings.map((f) => f.decision);
    expect(severities).toEqual([...severities].sort((a, b) => (a === b ? 0 : a === 'block' ? -1 : 1)));
  });

  it('lets harmless work go ahead with no findings', () => {
    for (const line of [
      'npm test',
      'git status',
      'ls -la src',
      'git commit -m "rm -rf / is bad"',
      'curl -s localhost:3000/health',
    ]) {
      expect(judge(line), line).toMatchObject({ decision: 'allow', findings: [] });
    }
  });

  it('a yes remembered for the key lets that ask through, and only that one', () => {
    const first = judge('git push origin main');
    const key = first.findings.find((f) => f.ruleId === 'git.push')?.memoryKey;
    expect(key).toBe('git.push:origin/main');
    const again = judge('git push origin main', { remembered: (k) => k === key });
    expect(again.decision).toBe('allow');
    expect(again.remembered.map((f) => f.ruleId)).toEqual(['git.push']);
    expect(judge('git push origin release', { remembered: (k) => k === key }).decision).toBe('ask');
  });

  it("a loop's command, once per word, is one finding per thing it is about (each remembered on its own)", () => {
    const line = 'for h in api.example.com cdn.example.org; do curl -s "https://$h/status"; done';
    const result = judge(line);
    expect(result.findings.map((f) => [f.ruleId, f.memoryKey, line.slice(f.span[0], f.span[1])])).toEqual([
      ['net.new-site', 'net.new-site:api.example.com', '"https://$h/status"'],
      ['net.new-site', 'net.new-site:cdn.example.org', '"https://$h/status"'],
    ]);
    // a yes for one site leaves the other asked
    const again = judge(line, { remembered: (k) => k === 'net.new-site:api.example.com' });
    expect(again.findings.map((f) => f.memoryKey)).toEqual(['net.new-site:cdn.example.org']);
  });

  it('never lets memory through a block', () => {
    expect(judge('git push --force origin main', { remembered: () => true }).decision).toBe('block');
  });

  it('a plain memory note is asked once per chat; other rule files every time', () => {
    const note = evaluate(
      stepFrom({ kind: 'write', path: '/home/dev/.relay/projects/p/memory/notes.md', content: 'prefers pnpm' }),
      ENV,
    );
    expect(note.findings.find((f) => f.ruleId === 'agent.rules')?.memoryKey).toBe('agent.rules:memory-note');
    const rules = evaluate(stepFrom({ kind: 'write', path: 'AGENTS.md', content: 'x' }), ENV);
    expect(rules.findings.find((f) => f.ruleId === 'agent.rules')).toMatchObject({ remember: 'never' });
  });

  it('after an injection, what would ask is blocked', () => {
    const session: SessionView = {
      createdFiles: new Set(),
      untrusted: false,
      injection: true,
      keySeen: false,
      poisonedServers: new Set(),
      failuresInARow: () => 0,
    };
    const result = judge('git push origin main', { session });
    expect(result.decision).toBe('block');
    expect(result.findings[0]?.ruleId).toBe('session.after-injection');
    expect(judge('npm test', { session }).decision).toBe('allow');
  });

  it('opaque input asks, and blocks under fail-closed', () => {
    expect(judge('echo "unterminated').decision).toBe('ask');
    expect(judge('echo "unterminated', { failClosed: true }).decision).toBe('block');
  });

  describe("each finding carries its rule's concern, set where it is made (SPEC §12)", () => {
    const untrusted: SessionView = { ...FRESH_SESSION, untrusted: true };
    const deploy = {
      id: 'policy.deploy',
      program: 'make',
      args: ['deploy*'],
      decision: 'ask' as const,
      reason: 'Deploys are looked at here.',
    };
    it.for<[string, string, Partial<EvaluateOptions>, (string | undefined)[][]]>([
      ['an ask rule', 'git push origin main', {}, [['git.push', 'ask', 'sending', undefined]]],
      ['a never-list rule: none', 'rm -rf ~', {}, [['fs.wipe', 'block', undefined, undefined]]],
      ['the raised bar', 'echo "unterminated', {}, [['shell.opaque', 'ask', 'destructive', 'worst-case']]],
      [
        'after untrusted content',
        'git push origin main',
        { session: untrusted },
        [
          ['git.push', 'ask', 'sending', undefined],
          ['session.after-untrusted', 'ask', 'sending', 'raised-bar'],
        ],
      ],
      [
        'an ask the project blocks keeps it',
        'git push origin main',
        { policy: { ...EMPTY_POLICY, block: ['git.push'] } },
        [['git.push', 'block', 'sending', undefined]],
      ],
      [
        "a project's own rule: none",
        'make deploy-prod',
        { policy: { ...EMPTY_POLICY, rules: [deploy] } },
        [['policy.deploy', 'ask', undefined, undefined]],
      ],
      [
        'a never-list rule git could not answer for: none',
        'git add -A',
        { probe: tableProbe({ unchecked: true }) },
        [['secrets.commit', 'ask', undefined, undefined]],
      ],
      ['near miss: nothing found', 'git status', {}, []],
    ])('%s: %s', ([, line, extra, want]) => {
      const findings = judge(line, extra).findings;
      expect(findings.map((f) => [f.ruleId, f.decision, f.concern, f.asksInEveryMode])).toEqual(want);
      // a concern is always said, even when there is none
      for (const finding of findings) expect(Object.hasOwn(finding, 'concern')).toBe(true);
    });

    it('a remembered finding keeps it', () => {
      const again = judge('git push origin main', { remembered: (k) => k === 'git.push:origin/main' });
      expect(again.remembered.map((f) => [f.ruleId, f.concern])).toEqual([['git.push', 'sending']]);
    });

    it('a destructive ask is never looked up in memory: a yes to it lasts once', () => {
      const asked: string[] = [];
      const again = judge('rm -rf src && git push origin main', {
        remembered: (k) => {
          asked.push(k);
          return true;
        },
      });
      expect(asked).toEqual(['git.push:origin/main']);
      expect(again.findings.map((f) => [f.ruleId, f.decision])).toEqual([['fs.delete', 'ask']]);
      expect(again.findings.map((f) => keepsYes(f))).toEqual([false]);
      expect(again.remembered.map((f) => keepsYes(f))).toEqual([true]);
    });
  });

  describe('project policy', () => {
    const policy = (extra: Partial<Policy>): Policy => ({ ...EMPTY_POLICY, ...extra });
    it('turns an ask into a block', () => {
      expect(judge('git push origin main', { policy: policy({ block: ['git.push'] }) }).decision).toBe('block');
    });
    it('adds simple rules: a program and words among its arguments', () => {
      const rules = [
        {
          id: 'policy.no-deploy',
          program: 'make',
          args: ['deploy*'],
          decision: 'block' as const,
          reason: 'Deploys go through CI here.',
        },
      ];
      expect(judge('make deploy-prod', { policy: policy({ rules }) }).findings[0]?.ruleId).toBe('policy.no-deploy');
      expect(judge('make test', { policy: policy({ rules }) }).decision).toBe('allow');
    });
    it('allows an ask rule for a path glob, but never a block rule', () => {
      const allow = [{ rule: 'fs.delete', paths: ['fixtures/**'] }];
      expect(judge('rm fixtures/a.json', { policy: policy({ allow }) }).decision).toBe('allow');
      expect(judge('rm src/a.ts', { policy: policy({ allow }) }).decision).toBe('ask');
      const never = [{ rule: 'fs.wipe', paths: ['**'] }];
      expect(judge('rm -rf ~', { policy: policy({ allow: never }) }).decision).toBe('block');
    });
    it('adds secret files', () => {
      expect(
        judge('cat config/prod.yml', { policy: policy({ secrets: ['config/prod.yml'] }) }).findings.map(
          (f) => f.ruleId,
        ),
      ).toContain('secrets.read');
      expect(judge('cat config/prod.yml').decision).toBe('allow');
    });
  });
});
