import { describe, expect, it } from 'vitest';
import { answerOf } from './chats.js';

// How the hook tables read an answer: Windsurf's and Kiro CLI's are plain text; every other agent's must be JSON,
// so a garbage answer with exit 0 cannot pass for an allow.
const result = (stdout: string) => ({ code: 0, stdout, stderr: '' });

describe('answerOf', () => {
  it.for([
    { args: ['windsurf'], stdout: 'guard: blocked (git.push). Why.\n', json: undefined },
    { args: ['windsurf'], stdout: '', json: undefined },
    { args: ['kiro'], stdout: 'guard: blocked (git.push). Why.\n', json: undefined },
    { args: ['kiro'], stdout: 'guard is on.\n', json: undefined },
    { args: ['claude-code'], stdout: '', json: undefined },
    { args: ['claude-code'], stdout: '{"continue":true}\n', json: { continue: true } },
    {
      args: ['copilot', '--event', 'preToolUse'],
      stdout: '{"permissionDecision":"allow"}',
      json: { permissionDecision: 'allow' },
    },
  ])('$args reads $stdout', ({ args, stdout, json }) => {
    expect(answerOf(result(stdout), args).json).toEqual(json);
  });

  // near misses: an answer that is not JSON, from an agent that reads JSON, is refused
  it.for([
    { args: ['claude-code'], stdout: 'garbage\n' },
    { args: ['cursor'], stdout: 'guard: blocked (git.push). Why.\n' },
    { args: ['copilot', '--event', 'preToolUse'], stdout: 'ok' },
    { args: ['antigravity', '--event', 'PostToolUse'], stdout: 'allow' },
    { args: ['qwen'], stdout: '{"continue":' },
    { args: ['codex'], stdout: '{"a":1}\n{"a":1}\n' },
  ])('$args refuses $stdout', ({ args, stdout }) => {
    expect(() => answerOf(result(stdout), args)).toThrow(SyntaxError);
  });
});
