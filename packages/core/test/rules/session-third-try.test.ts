import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluate.js';
import { FRESH_SESSION } from '../../src/context/build.js';
import { sessionThirdTry } from '../../src/rules/session-third-try.js';
import { ENV, runRuleTests, stepFrom } from '../rule-tester.js';

runRuleTests(sessionThirdTry, {
  valid: [
    { step: 'npm test', note: 'never failed' },
    { step: 'npm test', session: { failuresInARow: 1 }, note: 'failed once' },
    { step: 'pnpm build', session: { failuresInARow: 0 }, note: 'failed, then a file changed' },
    // other kinds of step are not retried commands
    { step: { kind: 'write', path: 'src/a.ts', content: 'x' }, session: { failuresInARow: 3 } },
    { step: { kind: 'read', path: 'src/a.ts' }, session: { failuresInARow: 3 } },
    { step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} }, session: { failuresInARow: 3 } },
    { step: { kind: 'fetch', url: 'https://docs.python.org/3/' }, session: { failuresInARow: 3 } },
  ],
  invalid: [
    { step: 'npm test', session: { failuresInARow: 2 }, note: 'failed twice' },
    { step: 'pnpm build', session: { failuresInARow: 5 }, note: 'failed five times' },
    { step: 'cargo build --release', session: { failuresInARow: 3 } },
    { step: 'cd app && make', session: { failuresInARow: 2 } },
  ],
});

describe('session.third-try asks about the exact command that failed', () => {
  const failed = new Map([
    ['npm test', 2],
    ['npm run lint', 1],
  ]);
  const session = { ...FRESH_SESSION, failuresInARow: (command: string) => failed.get(command) ?? 0 };
  const ids = (command: string): string[] =>
    evaluate(stepFrom(command), { ...ENV, session }).findings.map((f) => f.ruleId);

  it.for([
    ['npm test', true],
    ['npm run lint', false],
    ['npm test -- --watch', false],
    ['npm install', false],
  ] as const)('%s: %s', ([command, asks]) => {
    expect(ids(command).includes('session.third-try')).toBe(asks);
  });

  it('is asked every time, never remembered', () => {
    const finding = evaluate(stepFrom('npm test'), { ...ENV, session }).findings.find(
      (f) => f.ruleId === 'session.third-try',
    );
    expect(finding?.remember).toBe('never');
    expect(finding?.memoryKey).toBeUndefined();
  });
});
