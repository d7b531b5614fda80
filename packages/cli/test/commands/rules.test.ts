import { exampleText, memoryWords, rules, type Rule } from '@guard/core';
import { describe, expect, it } from 'vitest';
import { listRules, type RuleJson } from '../../src/commands/rules.js';
import { main } from '../../src/main.js';
import { captureIo } from '../capture-io.js';

function json(catalogue?: readonly Rule[]): RuleJson[] {
  const io = captureIo();
  listRules({ json: true }, io.io, catalogue);
  return (JSON.parse(io.stdout()) as { rules: RuleJson[] }).rules;
}

function text(catalogue?: readonly Rule[]): string {
  const io = captureIo();
  listRules({ json: false }, io.io, catalogue);
  return io.stdout();
}

const fake = (id: string, decision: 'block' | 'ask', extra: Partial<Rule['meta']> = {}): Rule => ({
  meta: {
    id,
    decision,
    remember: decision === 'block' ? 'never' : 'path',
    title: `title of ${id}`,
    reason: `Reason of ${id}, long enough to need wrapping when it is printed under its rule in the text listing of the catalogue.`,
    owasp: [],
    examples: { match: [`run ${id}`, { step: { kind: 'read', path: '.env' } }], noMatch: ['ls'] },
    ...extra,
  },
  check: () => [],
});

describe('guard rules --json', () => {
  it('lists every catalogue rule once, as its module describes it', () => {
    const listed = json();
    expect(listed.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.meta.id));
    for (const [i, { meta }] of rules.entries()) {
      expect(listed[i]).toEqual({
        id: meta.id,
        decision: meta.decision,
        remembered: memoryWords(meta.remember),
        title: meta.title,
        reason: meta.reason,
        owasp: meta.owasp,
        examples: { match: meta.examples.match.map(exampleText), noMatch: meta.examples.noMatch.map(exampleText) },
      });
    }
  });

  it('writes steps that are not shell lines as text too', () => {
    expect(json([fake('a.b', 'ask')])[0]?.examples).toEqual({
      match: ['run a.b', 'read {"path":".env"}'],
      noMatch: ['ls'],
    });
  });
});

describe('guard rules (text)', () => {
  const catalogue = [
    fake('z.ask-one', 'ask', { owasp: ['LLM06:2025'] }),
    fake('a.block-one', 'block', { owasp: ['ASI02', 'LLM02:2025'] }),
    fake('m.ask-two', 'ask', { remember: 'every-time' }),
  ];
  const output = text(catalogue);

  it('groups the never list before the ask list, each rule once', () => {
    const block = output.indexOf('Never list: blocked (1)');
    const ask = output.indexOf('Ask list: a person decides (2)');
    expect(block).toBeGreaterThanOrEqual(0);
    expect(ask).toBeGreaterThan(block);
    const at = (id: string) => output.indexOf(`  ${id}: title of ${id}`);
    expect(at('a.block-one')).toBeGreaterThan(block);
    expect(at('a.block-one')).toBeLessThan(ask);
    // catalogue order is kept inside a group
    expect(at('z.ask-one')).toBeGreaterThan(ask);
    expect(at('m.ask-two')).toBeGreaterThan(at('z.ask-one'));
  });

  it.for([
    { line: '    asks once per path; OWASP LLM06:2025', present: true },
    { line: '    asks every time', present: true },
    { line: '    OWASP ASI02, LLM02:2025', present: true, note: 'a block has no memory line' },
    { line: '    e.g. run a.block-one\n         read {"path":".env"}\n', present: true },
    { line: 'never (a block is never remembered)', present: false },
    { line: 'asks asks', present: false },
  ])('$line is there: $present', ({ line, present }) => {
    expect(output.includes(line)).toBe(present);
  });

  it('wraps every line to 80 columns, reasons included', () => {
    expect(output.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(output).toContain('    Reason of a.block-one, long enough');
  });

  it('omits a group with no rules', () => {
    expect(text([fake('only.ask', 'ask')])).not.toContain('Never list');
  });

  it('lists the real catalogue without a line over 80 columns', () => {
    const real = text();
    for (const { meta } of rules) expect(real).toContain(`\n  ${meta.id}: ${meta.title.slice(0, 30)}`);
    expect(real.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});

describe('through the CLI', () => {
  it.for([
    { args: ['rules'], code: 0, stdout: /^Never list: blocked/ },
    { args: ['rules', '--json'], code: 0, stdout: /^\{\n {2}"rules": \[/ },
    { args: ['rules', '--yaml'], code: 2, stdout: /^$/ },
    { args: ['rules', 'extra'], code: 2, stdout: /^$/ },
  ])('guard $args', async ({ args, code, stdout }) => {
    const io = captureIo();
    expect(await main(['node', 'guard', ...args], io.io)).toBe(code);
    expect(io.stdout()).toMatch(stdout);
    if (code !== 0) expect(io.stderr()).not.toBe('');
  });
});
