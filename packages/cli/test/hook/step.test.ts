import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STRICTEST_SETTINGS } from '../../src/state/settings.js';
import { readStep } from '../../src/hook/step.js';
import { AGENT_CASES, HARMLESS, fixtureText } from '../hook-cases.js';
import { stageCall } from './stage-call.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-step-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const codexShell = JSON.stringify(AGENT_CASES[0]?.shell(HARMLESS));

describe('readStep', () => {
  it.for([
    { name: 'a step', args: ['codex'], stdin: codexShell, type: 'step', event: 'PreToolUse' },
    {
      name: 'a chat start',
      args: ['codex'],
      stdin: fixtureText('codex/session-start'),
      type: 'start',
      event: 'SessionStart',
    },
  ])('$name: read, and known as soon as read', async ({ args, stdin, type, event }) => {
    const { call } = await stageCall(args, guardHome, { stdin });
    const read = await readStep(call);
    expect(read.input.type).toBe(type);
    expect(call.known).toMatchObject({ event, input: read.input, settings: read.settings, problems: [] });
  });

  // what cannot be read throws; what was learnt before stays known for the failure answer
  it.for([
    { name: 'empty stdin', args: ['codex'], stdin: '', error: /stdin was empty/, event: undefined },
    { name: 'only whitespace', args: ['codex'], stdin: ' \r\n', error: /stdin was empty/, event: undefined },
    {
      name: 'not JSON, its event visible',
      args: ['codex'],
      stdin: '{"hook_event_name": "SessionStart", "cwd": ',
      error: /not valid JSON \(\d+ characters\)$/,
      event: 'SessionStart',
    },
    { name: 'not JSON, no event in it', args: ['codex'], stdin: '{nope', error: /not valid JSON/, event: undefined },
    {
      name: 'not JSON, --event named',
      args: ['copilot', '--event', 'preToolUse'],
      stdin: '{"hook_event_name": "sessionStart", ',
      error: /not valid JSON/,
      event: 'preToolUse',
    },
    {
      name: 'JSON the adapter cannot read',
      args: ['codex'],
      stdin: fixtureText('codex/malformed-command-not-string'),
      error: /./,
      event: 'PreToolUse',
    },
  ])('$name: throws, the event known is $event', async ({ args, stdin, error, event }) => {
    const { call } = await stageCall(args, guardHome, { stdin });
    await expect(readStep(call)).rejects.toThrow(error);
    expect(call.known.event).toBe(event);
    expect(call.known.input).toBeUndefined();
    expect(call.known.settings).toBeDefined();
  });

  it('the payload is never quoted in the error (it may hold a key)', async () => {
    const { call } = await stageCall(['codex'], guardHome, { stdin: '{"token": "ghp_secret", ' });
    await expect(readStep(call)).rejects.toThrow(/^(?!.*ghp_secret)/);
  });

  it.for([
    { name: 'readable settings', text: 'failClosed: true\n', problems: 0, failClosed: true },
    { name: 'a broken settings.yaml, no good copy', text: 'enabled: perhaps\n', problems: 1, failClosed: true },
    { name: 'no settings.yaml', text: undefined, problems: 0, failClosed: false },
  ])('$name: $problems problems, told on stderr', async ({ text, problems, failClosed }) => {
    if (text !== undefined) writeFileSync(join(guardHome, 'settings.yaml'), text);
    const { call, err } = await stageCall(['codex'], guardHome, { stdin: codexShell });
    const read = await readStep(call);
    expect(call.known.problems).toHaveLength(problems);
    expect(err).toHaveLength(problems);
    expect(read.settings.failClosed).toBe(failClosed);
    if (problems > 0) expect(read.settings).toEqual(STRICTEST_SETTINGS);
  });
});
