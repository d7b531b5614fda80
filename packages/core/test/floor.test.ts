import { describe, expect, it } from 'vitest';
import { lockedRulesOf } from '../src/floor.js';

// The locked rules among a step's memory keys (`<rule id>:<what>`): what a yes for the project is
// not kept for. Near misses: a rule id that only starts like a locked one, nothing locked.
describe('lockedRulesOf', () => {
  const KEYS = ['git.push:origin/a', 'pkg.install:npm:zod', 'git.push:origin/b', 'git.push-tags:origin'];
  it.for([
    { locked: ['git.push'], rules: ['git.push'] },
    { locked: ['pkg.install', 'git.push'], rules: ['git.push', 'pkg.install'] },
    { locked: ['*'], rules: ['git.push', 'pkg.install', 'git.push-tags'] },
    // near misses
    { locked: ['git'], rules: [] },
    { locked: ['net.new-site'], rules: [] },
    { locked: [], rules: [] },
  ])('$locked', ({ locked, rules }) => {
    expect(lockedRulesOf(locked, KEYS)).toEqual(rules);
  });
  it('a key without a colon is its own rule id', () => {
    expect(lockedRulesOf(['git.push'], ['git.push'])).toEqual(['git.push']);
    expect(lockedRulesOf(['git.push'], ['git.pushed'])).toEqual([]);
  });
});
