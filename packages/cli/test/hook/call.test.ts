import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookIo } from '../../src/hook/call.js';
import { describeInput, oneLine, readCall } from '../../src/hook/call.js';
import { NOWHERE } from '../capture-io.js';
import { pieces, shellStep } from './stage-call.js';

const io = (env: Record<string, string>): HookIo => ({
  stdin: pieces(),
  stopInput: () => undefined,
  out: () => undefined,
  err: () => undefined,
  env,
  home: () => NOWHERE,
  tmp: () => '/tmp',
  parentArgs: () => [],
});

describe('readCall', () => {
  it.for([
    { args: [], says: /needs an agent/ },
    { args: ['vim'], says: /unknown agent 'vim'/ },
    { args: ['codex', '--event'], says: /--event needs an event name/ },
  ])('$args: what to print, naming the command setup writes', async ({ args, says }) => {
    const call = await readCall(args, io({}), {});
    expect(call).toMatch(says);
    expect(call).toMatch(
      /^guard: [^\n]+\nThe hook command should read like `guard hook \w+`; run `guard setup <agent>`/,
    );
  });

  it.for([
    { args: ['codex'], env: { GUARD_HOME: '/g' }, agent: 'codex', event: undefined, guardHome: '/g' },
    {
      args: ['copilot', '--event', 'sessionStart'],
      env: { GUARD_HOME: '/g' },
      agent: 'copilot',
      event: 'sessionStart',
      guardHome: '/g',
    },
    {
      args: ['codex'],
      env: {},
      agent: 'codex',
      event: undefined,
      guardHome: join(NOWHERE, '.local', 'state', 'guard'),
    },
  ])('$args, $env: the call, with nothing known yet but the event', async ({ args, env, agent, event, guardHome }) => {
    const call = await readCall(args, io(env), {});
    if (typeof call === 'string') throw new Error(call);
    expect(call).toMatchObject({ agent, event, guardHome, known: { event, problems: [] } });
    expect(call.env).toMatchObject({ home: NOWHERE, tmp: '/tmp', guardHome });
    expect(call.known.settings).toBeUndefined();
    expect(call.known.input).toBeUndefined();
    expect(call.started).toBeLessThanOrEqual(Date.now());
  });
});

describe('describeInput', () => {
  const step = shellStep('git status');
  it.for([
    { name: 'nothing read', input: undefined, event: undefined, entry: {} },
    { name: 'only the event', input: undefined, event: 'PreToolUse', entry: { event: 'PreToolUse' } },
    {
      name: 'a step',
      input: { type: 'step' as const, event: 'PreToolUse', step, canAsk: true },
      event: 'PreToolUse',
      entry: { event: 'PreToolUse', chat: 'c1', tool: 'Bash', kind: 'shell', project: '/p', step: 'git status' },
    },
    {
      name: 'a step without a project folder',
      input: { type: 'step' as const, event: 'PreToolUse', step: { ...step, projectRoot: '' }, canAsk: true },
      event: 'PreToolUse',
      entry: { event: 'PreToolUse', chat: 'c1', tool: 'Bash', kind: 'shell', step: 'git status' },
    },
    {
      name: "a message (the person's words are not logged)",
      input: { type: 'prompt' as const, event: 'UserPromptSubmit', chatId: 'c1', prompt: 'secret plans', cwd: '/p' },
      event: 'UserPromptSubmit',
      entry: { event: 'UserPromptSubmit', chat: 'c1' },
    },
    {
      name: 'nothing to judge',
      input: { type: 'ignore' as const, event: 'Stop', why: 'not a step' },
      event: 'Stop',
      entry: { event: 'Stop', reason: 'not a step' },
    },
  ])('$name', ({ input, event, entry }) => {
    expect(describeInput(input, event)).toEqual(entry);
  });
});

describe('oneLine', () => {
  const key = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
  it.for([
    { name: 'a message', error: new Error('disk full'), line: 'disk full' },
    { name: 'lines and spaces', error: new Error('a\n  b\tc '), line: 'a b c' },
    { name: 'not an error', error: 'plain', line: 'plain' },
    { name: 'nothing', error: new Error(''), line: 'unknown error' },
    { name: 'very long', error: new Error('x'.repeat(400)), line: 'x'.repeat(300) },
  ])('$name', ({ error, line }) => {
    expect(oneLine(error)).toBe(line);
  });
  it('a key in the message is redacted', () => {
    expect(oneLine(new Error(`token ${key} refused`))).not.toContain(key);
    expect(oneLine(new Error(`token ${key} refused`))).toMatch(/^token \[redacted:/);
  });
});
