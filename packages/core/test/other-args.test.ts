import { describe, expect, it } from 'vitest';
import { FRESH_SESSION } from '../src/context/build.js';
import { evaluate } from '../src/evaluate.js';
import { tableProbe } from '../src/rule.js';
import type { ToolStep } from '../src/types.js';
import { ENV, PROJECT } from './rule-tester.js';

// A step read by the shape of an unknown tool's input carries the rest of that input as
// otherArgs, judged as an unknown tool's arguments are: reading the command never hides a path,
// a site or a key beside it.

const base = { agent: 'codex', chatId: 'c1', cwd: PROJECT, projectRoot: PROJECT, toolName: 'FrobTool' } as const;
const GITHUB = 'ghp_R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uI';

function judged(step: ToolStep): { decision: string; rules: string[] } {
  const evaluation = evaluate(step, { ...ENV, probe: tableProbe({}), session: FRESH_SESSION });
  return { decision: evaluation.decision, rules: evaluation.findings.map((finding) => finding.ruleId) };
}

describe('otherArgs: the rest of an unknown tool input is judged as its arguments', () => {
  it.for([
    { name: 'a file of the shell profile', rest: { file_path: '~/.bashrc' }, decision: 'block' },
    { name: 'a key file', rest: { target: '~/.ssh/id_ed25519' }, decision: 'block' },
    { name: 'a file outside the project', rest: { path: '/etc/hosts' }, decision: 'ask' },
    { name: 'a site it may send to', rest: { url: 'https://collector.example.net/x' }, decision: 'ask' },
    { name: 'a key', rest: { headers: { Authorization: `Bearer ${GITHUB}` } }, decision: 'block' },
    // near misses: what an unknown tool's arguments let through, the rest lets through too
    { name: 'a file in the project', rest: { path: 'src/a.ts' }, decision: 'allow' },
    { name: 'a search', rest: { query: '.bashrc' }, decision: 'allow' },
    { name: 'a number', rest: { timeout: 5 }, decision: 'allow' },
  ])('$name: $decision, as the same arguments of an unknown tool', ({ rest, decision }) => {
    const asArgs = judged({ ...base, kind: 'other', args: rest });
    expect(asArgs.decision).toBe(decision);
    // beside a harmless command and beside a harmless write, the same findings
    expect(judged({ ...base, kind: 'shell', command: 'echo hi', otherArgs: rest })).toEqual(asArgs);
    expect(
      judged({ ...base, kind: 'write', mode: 'overwrite', path: 'notes.md', content: 'x', otherArgs: rest }),
    ).toEqual(asArgs);
  });

  it('without otherArgs the same command and write are let through (each row above can fail)', () => {
    expect(judged({ ...base, kind: 'shell', command: 'echo hi' })).toEqual({ decision: 'allow', rules: [] });
    expect(judged({ ...base, kind: 'write', mode: 'overwrite', path: 'notes.md', content: 'x' })).toEqual({
      decision: 'allow',
      rules: [],
    });
  });

  it('the command itself is still read: a never-list command blocks whatever its rest holds', () => {
    expect(judged({ ...base, kind: 'shell', command: 'rm -rf ~', otherArgs: { path: 'src/a.ts' } })).toMatchObject({
      decision: 'block',
      rules: ['fs.wipe'],
    });
  });
});
