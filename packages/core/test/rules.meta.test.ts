import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Rule } from '../src/rule.js';
import { rules } from '../src/rules/index.js';
import { evaluateExample } from './rule-tester.js';

const RULES_DIR = new URL('../src/rules/', import.meta.url);
const RULE_FILES = readdirSync(RULES_DIR).filter((file) => file !== 'index.ts' && file.endsWith('.ts'));
const TEST_FILES = new Set(readdirSync(new URL('./rules/', import.meta.url)));

function camel(file: string): string {
  return file.replace(/\.ts$/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

describe('rule catalogue', () => {
  it('has unique ids, sorted', () => {
    const ids = rules.map((rule) => rule.meta.id);
    expect(ids).toEqual([...new Set(ids)].sort());
  });

  it.for(RULE_FILES)(
    '%s exports exactly one registered rule named after its id, and has a table test',
    async (file) => {
      const module = (await import(new URL(file, RULES_DIR).href)) as Record<string, Rule>;
      const names = Object.keys(module);
      expect(names).toEqual([camel(file)]);
      const rule = module[names[0] ?? ''];
      expect(`${rule?.meta.id.replace(/\./g, '-')}.ts`).toBe(file);
      expect(rules).toContain(rule);
      expect(TEST_FILES.has(file.replace(/\.ts$/, '.test.ts'))).toBe(true);
    },
  );

  it('registers no rule without a file', () => {
    expect(rules.length).toBe(RULE_FILES.length);
  });
});

describe.for(rules.map((rule) => [rule.meta.id, rule] as const))('%s', ([, rule]) => {
  it('has a well-formed id, one-sentence reason and examples on both sides', () => {
    expect(rule.meta.id).toMatch(/^[a-z]+(-[a-z]+)*\.[a-z]+(-[a-z]+)*$/);
    expect(rule.meta.reason).toMatch(/^[^\n]{20,400}\.$/);
    expect(rule.meta.examples.match.length).toBeGreaterThan(0);
    expect(rule.meta.examples.noMatch.length).toBeGreaterThan(0);
    if (rule.meta.decision === 'block') expect(rule.meta.remember).toBe('never');
  });
  it.for(rule.meta.examples.match.map((row, i) => [i, row] as const))('documented example %s matches', ([, row]) => {
    expect(evaluateExample(row).findings.map((f) => f.ruleId)).toContain(rule.meta.id);
  });
  it.for(rule.meta.examples.noMatch.map((row, i) => [i, row] as const))(
    'documented example %s does not match',
    ([, row]) => {
      expect(evaluateExample(row).findings.map((f) => f.ruleId)).not.toContain(rule.meta.id);
    },
  );
});
