import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluate.js';
import type { ToolStep } from '../../src/types.js';
import { ENV, stepFrom } from '../rule-tester.js';

// A step whose payload says its shell (an agent's PowerShell tool) is read in that shell's
// grammar alone; a step that says nothing is read as a POSIX shell's, and as PowerShell's too when
// it looks written for it. The rows are lines whose two readings run different things.

const judged = (command: string, shell?: 'posix' | 'powershell'): string[] => {
  const base = stepFrom(command) as Extract<ToolStep, { kind: 'shell' }>;
  const step: ToolStep = shell === undefined ? base : { ...base, shell };
  return evaluate(step, ENV).findings.map((f) => `${f.decision} ${f.ruleId}`);
};

describe('the shell a step says it runs in', () => {
  it.for<readonly [string, 'posix' | 'powershell' | undefined, readonly string[]]>([
    // PowerShell has no backslash escape: the quote closes, and rm runs
    ['echo "a\\"; rm -rf ~ #"', 'powershell', ['block fs.wipe']],
    ['echo "a\\"; rm -rf ~ #"', undefined, []],
    ['echo "a\\"; rm -rf ~ #"', 'posix', []],
    // a backtick escapes in PowerShell, and opens a substitution in sh
    ['Write-Output "`$HOME"; git status', 'powershell', []],
    ['ri -r -fo ~', 'powershell', ['block fs.wipe']],
    ['Get-ChildItem src | Select-String TODO', 'powershell', []],
  ])('%s (%s)', ([command, shell, findings]) => {
    expect(judged(command, shell)).toEqual(findings);
  });
});
