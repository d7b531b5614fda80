import { describe, expect, it } from 'vitest';
import { sessionAfterInjection } from '../../src/rules/session-after-injection.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

const injection = { injection: true } as const;

runRuleTests(sessionAfterInjection, {
  valid: [
    // nothing would ask
    { step: 'npm test', session: injection },
    { step: 'git status', session: injection },
    { step: 'kubectl get pods', session: injection },
    { step: { kind: 'read', path: 'src/index.ts' }, session: injection },
    { step: { kind: 'write', path: 'src/index.ts', content: 'export {};' }, session: injection },
    { step: { kind: 'mcp', server: 'github', tool: 'get_me', args: {} }, session: injection },
    // it would ask, but no injection was seen
    { step: 'kubectl delete pod web-1', note: 'no injection seen' },
    { step: 'psql -c "DROP TABLE users"', note: 'no injection seen' },
    { step: 'echo "unterminated', session: { untrusted: true }, note: 'untrusted only' },
  ],
  invalid: [
    { step: 'kubectl delete pod web-1', session: injection, note: 'after injection' },
    { step: 'psql -c "DROP TABLE users"', session: injection, note: 'after injection' },
    { step: 'echo "unterminated', session: injection, note: 'after injection' },
    { step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { title: 'x' } }, session: injection },
    { step: 'npm test', session: { injection: true, failuresInARow: 2 }, note: 'third try after injection' },
    { step: 'cd infra && terraform apply', session: injection },
  ],
});

describe('session.after-injection', () => {
  it('turns the verdict into a block and points at the asked part', () => {
    const command = 'npm test && kubectl delete pod web-1';
    const result = evaluateExample({ step: command, session: injection });
    expect(result.decision).toBe('block');
    const finding = result.findings.find((f) => f.ruleId === 'session.after-injection');
    expect(command.slice(...(finding?.span ?? [0, 0]))).toBe('kubectl delete pod web-1');
    expect(finding?.reason).toContain('infra.destroy');
  });

  it('is not needed when the step is blocked anyway and nothing asks', () => {
    const result = evaluateExample({
      step: { kind: 'mcp', server: 'weather', tool: 'get_forecast', args: {} },
      session: { injection: true, poisonedServers: ['weather'] },
    });
    expect(result.findings.map((f) => f.ruleId)).toEqual(['mcp.poisoned-server']);
  });
});
