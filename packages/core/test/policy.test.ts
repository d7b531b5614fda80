import { describe, expect, it } from 'vitest';
import type { Policy, PolicyRule } from '../src/policy.js';
import { againstPin, EMPTY_POLICY, policyLoosenings, strictestPolicy } from '../src/policy.js';

const rule = (over: Partial<PolicyRule> = {}): PolicyRule => ({
  id: 'policy.no-apply',
  program: 'terraform',
  args: ['apply', '-auto-approve'],
  decision: 'block',
  reason: 'Through CI.',
  ...over,
});
const policy = (over: Partial<Policy> = {}): Policy => ({ ...EMPTY_POLICY, ...over });

const PINNED = policy({
  secrets: ['config/master.key', '*.secret'],
  block: ['git.push'],
  rules: [rule()],
  allow: [{ rule: 'fs.delete', paths: ['tmp/**', 'fixtures/**'] }],
});

describe('policyLoosenings: what a change from the pinned policy loosens', () => {
  it.for<{ name: string; next: Policy; loosens: RegExp[] }>([
    // loosening rows
    { name: 'a secret removed', next: { ...PINNED, secrets: ['*.secret'] }, loosens: [/config\/master\.key/] },
    { name: 'a block removed', next: { ...PINNED, block: [] }, loosens: [/git\.push/] },
    { name: 'a rule removed', next: { ...PINNED, rules: [] }, loosens: [/policy\.no-apply is gone/] },
    { name: 'a rule renamed', next: { ...PINNED, rules: [rule({ id: 'policy.other' })] }, loosens: [/is gone/] },
    {
      name: 'block lowered to ask',
      next: { ...PINNED, rules: [rule({ decision: 'ask' })] },
      loosens: [/catches less/],
    },
    { name: 'another program', next: { ...PINNED, rules: [rule({ program: 'tofu' })] }, loosens: [/catches less/] },
    {
      name: 'an argument word added (matches fewer calls)',
      next: { ...PINNED, rules: [rule({ args: ['apply', '-auto-approve', 'prod'] })] },
      loosens: [/catches less/],
    },
    {
      name: 'argument words reordered (matches other calls)',
      next: { ...PINNED, rules: [rule({ args: ['-auto-approve', 'apply'] })] },
      loosens: [/catches less/],
    },
    {
      name: 'an allow added',
      next: { ...PINNED, allow: [...PINNED.allow, { rule: 'git.push', paths: ['**'] }] },
      loosens: [/allow: git\.push goes ahead for \*\*/],
    },
    {
      name: 'an allow widened to more paths',
      next: { ...PINNED, allow: [{ rule: 'fs.delete', paths: ['tmp/**', 'fixtures/**', '**'] }] },
      loosens: [/fs\.delete goes ahead for \*\*$/],
    },
    {
      name: 'an allowed glob swapped for a wider one',
      next: { ...PINNED, allow: [{ rule: 'fs.delete', paths: ['**', 'fixtures/**'] }] },
      loosens: [/fs\.delete goes ahead for \*\*$/],
    },
    { name: 'the file emptied', next: EMPTY_POLICY, loosens: [/master/, /secret/, /git\.push/, /gone/] },
    // tightening rows and near misses: nothing loosens
    { name: 'equal content', next: { ...PINNED }, loosens: [] },
    {
      name: 'reordered lists',
      next: {
        ...PINNED,
        secrets: ['*.secret', 'config/master.key'],
        allow: [{ rule: 'fs.delete', paths: ['fixtures/**', 'tmp/**'] }],
      },
      loosens: [],
    },
    { name: 'another source (comments, a moved file)', next: { ...PINNED, source: 'elsewhere' }, loosens: [] },
    { name: 'a rule reworded', next: { ...PINNED, rules: [rule({ reason: 'Other words.' })] }, loosens: [] },
    { name: 'a secret added', next: { ...PINNED, secrets: [...PINNED.secrets, '.npmrc'] }, loosens: [] },
    { name: 'a block added', next: { ...PINNED, block: ['git.push', 'pkg.publish'] }, loosens: [] },
    { name: 'a rule added', next: { ...PINNED, rules: [rule(), rule({ id: 'policy.more' })] }, loosens: [] },
    {
      name: 'an argument word dropped (matches more calls)',
      next: { ...PINNED, rules: [rule({ args: ['apply'] })] },
      loosens: [],
    },
    { name: 'an allow narrowed', next: { ...PINNED, allow: [{ rule: 'fs.delete', paths: ['tmp/**'] }] }, loosens: [] },
    { name: 'every allow removed', next: { ...PINNED, allow: [] }, loosens: [] },
  ])('$name', ({ next, loosens }) => {
    const found = policyLoosenings(PINNED, next);
    expect(found).toHaveLength(loosens.length);
    loosens.forEach((pattern, i) => expect(found[i]).toMatch(pattern));
  });

  it('an ask rule raised to block tightens; the same rule lowered back loosens', () => {
    const ask = policy({ rules: [rule({ decision: 'ask' })] });
    const block = policy({ rules: [rule()] });
    expect(policyLoosenings(ask, block)).toEqual([]);
    expect(policyLoosenings(block, ask)).toHaveLength(1);
  });
});

describe('againstPin: what applies, given the pin', () => {
  const TIGHT = policy({ secrets: ['*.key'], block: ['git.push'] });
  const LOOSE = policy({ allow: [{ rule: 'fs.delete', paths: ['**'] }] });
  it.for<{ name: string; pinned: Policy | undefined; current: Policy; applies: Policy; waits: boolean }>([
    { name: 'no pin, no file', pinned: undefined, current: EMPTY_POLICY, applies: EMPTY_POLICY, waits: false },
    { name: 'no pin, a file that only tightens', pinned: undefined, current: TIGHT, applies: TIGHT, waits: false },
    { name: 'no pin, a file with an allow', pinned: undefined, current: LOOSE, applies: EMPTY_POLICY, waits: true },
    {
      name: 'a tightening pin, an allow added beside it',
      pinned: TIGHT,
      current: { ...TIGHT, allow: LOOSE.allow },
      applies: TIGHT,
      waits: true,
    },
    {
      name: 'a loosening that also tightens: the tightening applies at once',
      pinned: TIGHT,
      current: policy({ secrets: ['*.key', '.npmrc'] }),
      applies: policy({ secrets: ['*.key', '.npmrc'], block: ['git.push'] }),
      waits: true,
    },
    {
      name: 'the file removed after a tightening pin',
      pinned: TIGHT,
      current: EMPTY_POLICY,
      applies: TIGHT,
      waits: true,
    },
    {
      name: 'the file removed after an allow-only pin',
      pinned: LOOSE,
      current: EMPTY_POLICY,
      applies: EMPTY_POLICY,
      waits: false,
    },
    { name: 'the accepted allow itself', pinned: LOOSE, current: LOOSE, applies: LOOSE, waits: false },
  ])('$name', ({ pinned, current, applies, waits }) => {
    const result = againstPin(pinned, current);
    expect(result.policy).toEqual(applies);
    expect(result.loosens.length > 0).toBe(waits);
  });

  it('strictestPolicy keeps what either tightens and only the allows both give', () => {
    const a = policy({
      secrets: ['a'],
      rules: [rule({ decision: 'ask' })],
      allow: [{ rule: 'fs.delete', paths: ['x/**', 'y/**'] }],
    });
    const b = policy({ secrets: ['b'], rules: [rule()], allow: [{ rule: 'fs.delete', paths: ['y/**', '**'] }] });
    expect(strictestPolicy(a, b)).toEqual({
      secrets: ['a', 'b'],
      block: [],
      rules: [rule({ decision: 'ask' }), rule()],
      allow: [{ rule: 'fs.delete', paths: ['y/**'] }],
    });
  });
});
