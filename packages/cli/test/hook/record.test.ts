import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookInput } from '@guard/adapters';
import type { Change } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/hook/decide.js';
import { record } from '../../src/hook/record.js';
import type { Answered } from '../../src/hook/reply.js';
import type { Settings } from '../../src/state/settings.js';
import { DEFAULT_SETTINGS } from '../../src/state/settings.js';
import { stageCall } from './stage-call.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-record-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const LINE = { time: '2026-01-01T00:00:00.000Z', agent: 'codex' as const, how: 'event' as const, ms: 3 };
const GIVEN: Answered = { code: 2, line: LINE };
/** An answer that did not go out: another (the deadline's) went first. */
const LATE: Answered = { code: 2 };

function logLines(): Record<string, unknown>[] {
  const file = join(guardHome, 'log.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function requests(): string[] {
  const chats = join(guardHome, 'chats');
  return existsSync(chats) ? readdirSync(chats).filter((name) => name.endsWith('.request.json')) : [];
}

const ON: Settings = {
  ...DEFAULT_SETTINGS,
  secondOpinion: {
    on: true,
    config: {
      url: 'http://127.0.0.1:9/v1',
      endpoint: 'http://127.0.0.1:9/v1/chat/completions',
      model: 'judge',
      timeoutMs: 500,
      bars: { irreversible: 0.9, outside: 0.9, irreversibleAlone: 0.9 },
    },
  },
};
const message = (chatId: string): HookInput => ({
  type: 'prompt',
  event: 'UserPromptSubmit',
  chatId,
  prompt: 'fix the typo',
  cwd: '/p',
});

describe('record', () => {
  it.for([
    { name: 'the answer that went out', answered: GIVEN, lines: [LINE] },
    { name: 'an answer that came too late', answered: LATE, lines: [] },
  ])('$name: its log line, and its exit code', async ({ answered, lines }) => {
    const { call } = await stageCall(['codex'], guardHome);
    expect(record(call, answered)).toBe(2);
    expect(logLines()).toEqual(lines);
  });

  // the person's message is the turn's request while the second opinion is on
  it.for([
    { name: 'a message, second opinion on', input: message('c1'), settings: ON, answered: GIVEN, kept: 1 },
    { name: 'the message of no chat', input: message(''), settings: ON, answered: GIVEN, kept: 0 },
    { name: 'second opinion off', input: message('c1'), settings: DEFAULT_SETTINGS, answered: GIVEN, kept: 0 },
    { name: 'guard off', input: message('c1'), settings: { ...ON, enabled: false }, answered: GIVEN, kept: 0 },
    { name: 'settings unknown', input: message('c1'), settings: undefined, answered: GIVEN, kept: 0 },
    { name: 'nothing read', input: undefined, settings: ON, answered: GIVEN, kept: 0 },
    {
      name: 'another event',
      input: { type: 'ignore' as const, event: 'Stop', why: 'not a step' },
      settings: ON,
      answered: GIVEN,
      kept: 0,
    },
    { name: 'an answer that came too late', input: message('c1'), settings: ON, answered: LATE, kept: 0 },
  ])('$name: $kept request kept', async ({ input, settings, answered, kept }) => {
    const { call } = await stageCall(['codex'], guardHome);
    if (input !== undefined) call.known.input = input;
    if (settings !== undefined) call.known.settings = settings;
    record(call, answered);
    expect(requests()).toHaveLength(kept);
  });

  /** A decision whose chat notes what is done to it in `done`. */
  const decided = (done: string[], extra: Partial<Decision['after']> = {}): Decision => ({
    reply: { stdout: '', exitCode: 0 },
    entry: { how: 'rules' },
    after: {
      chat: {
        memory: {
          save: (change: Change) => void done.push(`save ${JSON.stringify(change)}`),
          serverRan: (server: string) => void done.push(`serverRan ${server}`),
        },
        change: { approved: ['k'] },
        server: 'memory',
      },
      session: {
        forStep: () => ({ save: () => undefined }),
        onEvent: () => undefined,
        tidy: () => void done.push('tidy'),
      },
      paused: 'paused until later',
      ...extra,
    },
  });

  it.for([
    {
      name: 'the answer that went out',
      answered: GIVEN,
      done: ['serverRan memory', 'save {"approved":["k"]}', 'tidy'],
      paused: 1,
    },
    // a reply the deadline already gave is not this verdict: nothing of the chat is kept
    { name: 'an answer that came too late', answered: LATE, done: ['tidy'], paused: 1 },
  ])('a decision, $name: $done', async ({ answered, done, paused }) => {
    const { call } = await stageCall(['codex'], guardHome);
    const seen: string[] = [];
    record(call, answered, decided(seen));
    expect(seen).toEqual(done);
    expect(logLines().filter((line) => line.how === 'second-opinion-paused')).toHaveLength(paused);
  });

  it('what cannot be written costs a line on stderr each, never the exit code', async () => {
    const file = join(guardHome, 'a-file');
    writeFileSync(file, '');
    const { call, err } = await stageCall(['codex'], join(file, 'guard'));
    const broken: Decision['after'] = {
      chat: {
        memory: {
          save: () => {
            throw new Error('disk full');
          },
          serverRan: () => {
            throw new Error('no room');
          },
        },
        change: {},
        server: 'memory',
      },
      session: {
        forStep: () => ({ save: () => undefined }),
        onEvent: () => undefined,
        tidy: () => {
          throw new Error('housekeeping');
        },
      },
    };
    expect(record(call, GIVEN, { reply: { stdout: '', exitCode: 2 }, entry: { how: 'rules' }, after: broken })).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(/^guard: could not write the log in .*ENOTDIR/),
      'guard: could not keep the MCP server as known: no room\n',
      "guard: could not save this chat's memory: disk full\n",
    ]);
  });
});
