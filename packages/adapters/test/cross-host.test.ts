import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENTS, hostOf } from '../src/agents.js';
import type { AgentId } from '../src/agents.js';
import { fixture } from './helpers.js';

/**
 * Hosts that run another agent's hook files (Copilot CLI a repository's `.claude/settings.json`,
 * Cursor Claude Code's settings files): the hook of the agent whose files they are tells the host
 * from the payload alone, and reads and answers it as that host's. Each row is a payload and the
 * agent it is taken for through Claude Code's hook command.
 */

const names = (agent: string): string[] =>
  readdirSync(fileURLToPath(new URL(`fixtures/${agent}/`, import.meta.url)))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length));

type Json = Record<string, unknown>;
const json = (agent: string, name: string): Json => fixture(agent, name) as Json;
const without = (payload: Json, ...keys: string[]): Json =>
  Object.fromEntries(Object.entries(payload).filter(([key]) => !keys.includes(key)));

describe("hostOf('claude-code', payload): each recorded payload is taken for its sender", () => {
  // Claude Code's own, every one that names its event
  const unnamed = new Set(['malformed-no-event', 'malformed-array']);
  it.for(names('claude-code').filter((name) => !unnamed.has(name)))('claude-code/%s is Claude Code’s', (name) => {
    expect(hostOf('claude-code', fixture('claude-code', name))).toBe('claude-code');
  });
  // what Copilot CLI 1.0.102 sent a repository's .claude/settings.json hooks, and its own shape
  it.for([
    ...names('cross-host')
      .filter((name) => name.startsWith('copilot-') && name !== 'copilot-stop')
      .map((name) => `cross-host/${name}`),
    ...names('copilot').map((name) => `copilot/${name}`),
  ])('%s is Copilot’s', (path) => {
    const [agent = '', name = ''] = path.split('/');
    expect(hostOf('claude-code', fixture(agent, name))).toBe('copilot');
  });
  // Cursor's, but for the excerpt of a failure that kept nothing but its event
  it.for(names('cursor').filter((name) => name !== 'post-tool-use-failure-denied'))('cursor/%s is Cursor’s', (name) => {
    expect(hostOf('claude-code', fixture('cursor', name))).toBe('cursor');
  });
  // Qwen Code copied Claude Code's names and sends a timestamp too, but no host runs guard's Claude
  // Code hook as Qwen Code: its payloads stay Claude Code's (and Qwen Code's own hook reads them)
  it.for(names('qwen').filter((name) => !unnamed.has(name)))('qwen/%s stays Claude Code’s', (name) => {
    expect(hostOf('claude-code', fixture('qwen', name))).toBe('claude-code');
  });
  // no event, or no object at all: no agent guard knows sent it
  it.for(['claude-code', 'qwen'].flatMap((agent) => [...unnamed].map((name) => `${agent}/${name}`)))(
    '%s is no agent’s',
    (path) => {
      const [agent = '', name = ''] = path.split('/');
      expect(hostOf('claude-code', fixture(agent, name))).toBeUndefined();
    },
  );
});

describe('near misses: a payload is taken for a host only by that host’s own fields', () => {
  const claude = json('claude-code', 'pre-tool-use-bash');
  const claudeStart = json('claude-code', 'session-start');
  const copilot = json('cross-host', 'copilot-pre-tool-use-bash');
  const cursor = json('cursor', 'pre-tool-use-write');
  const rows: readonly { name: string; payload: unknown; host: AgentId | undefined }[] = [
    {
      name: 'Claude Code’s step with a timestamp added',
      payload: { ...claude, timestamp: copilot['timestamp'] },
      host: 'claude-code',
    },
    {
      name: 'Claude Code’s start with a timestamp added (it names its transcript)',
      payload: { ...claudeStart, timestamp: copilot['timestamp'] },
      host: 'claude-code',
    },
    {
      name: 'Claude Code’s step with a field no one sends',
      payload: { ...claude, agent_version: '9' },
      host: 'claude-code',
    },
    {
      name: 'Claude Code’s step with a conversation id but no generation',
      payload: { ...claude, conversation_id: 'c1' },
      host: 'claude-code',
    },
    {
      name: 'Claude Code’s step without its transcript and mode',
      payload: without(claude, 'transcript_path', 'permission_mode'),
      host: 'claude-code',
    },
    { name: 'Copilot’s Claude-style step', payload: copilot, host: 'copilot' },
    {
      name: 'Copilot’s Claude-style step with a numeric timestamp',
      payload: { ...copilot, timestamp: 1 },
      host: 'claude-code',
    },
    {
      name: 'Copilot’s Claude-style step with a permission mode',
      payload: { ...copilot, permission_mode: 'default' },
      host: 'claude-code',
    },
    {
      name: 'Copilot’s Claude-style step with a transcript',
      payload: { ...copilot, transcript_path: '/t.jsonl' },
      host: 'claude-code',
    },
    { name: 'Copilot’s own step', payload: json('copilot', 'pre-tool-use-bash'), host: 'copilot' },
    {
      name: 'Copilot’s own step without a session (it names its tool)',
      payload: without(json('copilot', 'pre-tool-use-bash'), 'sessionId'),
      host: 'copilot',
    },
    { name: 'Cursor’s step', payload: cursor, host: 'cursor' },
    {
      name: 'Cursor’s step without its version (its command line builds)',
      payload: without(cursor, 'cursor_version'),
      host: 'cursor',
    },
    {
      name: 'Cursor’s step without version or generation',
      payload: without(cursor, 'cursor_version', 'generation_id'),
      host: 'claude-code',
    },
    {
      name: 'Cursor’s version of a wrong type',
      payload: { ...without(cursor, 'generation_id'), cursor_version: 3 },
      host: 'claude-code',
    },
    // no agent guard knows: never read as Claude Code's and let through
    { name: 'an empty object', payload: {}, host: undefined },
    { name: 'an array', payload: [claude], host: undefined },
    { name: 'a string', payload: 'PreToolUse', host: undefined },
    { name: 'null', payload: null, host: undefined },
    { name: 'Claude Code’s step without its event', payload: without(claude, 'hook_event_name'), host: undefined },
    { name: 'an event name of a wrong type', payload: { ...claude, hook_event_name: 1 }, host: undefined },
  ];
  it.for(rows)('$name → $host', ({ payload, host }) => {
    expect(hostOf('claude-code', payload)).toBe(host);
  });
});

describe('only an agent whose hook files other agents run asks them', () => {
  it('Claude Code names Copilot and Cursor, which each say whether a payload is theirs', () => {
    expect(AGENTS['claude-code'].hosts).toEqual(['copilot', 'cursor']);
    for (const host of AGENTS['claude-code'].hosts ?? []) expect(AGENTS[host as AgentId].owns).toBeTypeOf('function');
  });
  // guard's own Copilot or Cursor hook reads what it is sent, as before: its reader says what it cannot read
  it.for([
    ['copilot', json('claude-code', 'pre-tool-use-bash')],
    ['cursor', json('copilot', 'pre-tool-use-bash')],
    ['codex', {}],
  ] as const)('%s’s hook takes every payload for its own', ([agent, payload]) => {
    expect(hostOf(agent, payload)).toBe(agent);
  });
});

describe('what the hosts send every hook of one call alike', () => {
  it('Copilot: its own payload and the one a .claude hook got for the same call name the same call', () => {
    const own = AGENTS.copilot.read(json('cross-host', 'copilot-native-pre-tool-use-bash'), 'preToolUse', []);
    const claudeStyle = AGENTS.copilot.read(json('cross-host', 'copilot-pre-tool-use-bash'), undefined, []);
    expect(own.type === 'step' && own.sameCall).toBe('t:1796618067851');
    expect(claudeStyle.type === 'step' && claudeStyle.sameCall).toBe('t:1796618067851');
    // two calls at different times are different calls
    const later = AGENTS.copilot.read(
      { ...json('cross-host', 'copilot-pre-tool-use-bash'), timestamp: '2026-12-07T04:34:27.852Z' },
      undefined,
      [],
    );
    expect(later.type === 'step' && later.sameCall).toBe('t:1796618067852');
    // no time, or one that is no time: no claim, each hook decides on its own
    const none = AGENTS.copilot.read({ ...json('copilot', 'pre-tool-use-bash'), timestamp: 'soon' }, 'preToolUse', []);
    expect(none.type === 'step' && none.sameCall).toBeUndefined();
  });
  it.for(['copilot-session-start', 'copilot-user-prompt-submit', 'copilot-post-tool-use-bash'])(
    'Copilot: %s names its call by its time too',
    (name) => {
      const payload = json('cross-host', name);
      const input = AGENTS.copilot.read(payload, undefined, []);
      expect(input.type !== 'ignore' && input.sameCall).toBe(`t:${Date.parse(String(payload['timestamp']))}`);
    },
  );
  it('Cursor: the event with the call’s id; its shell event (no call id, only the turn’s) names none', () => {
    const tool = AGENTS.cursor.read(json('cursor', 'pre-tool-use-write'), undefined, []);
    expect(tool.type === 'step' && tool.sameCall).toBe('preToolUse:tool_00000000-0000-4000-8000-000000000016');
    const shell = AGENTS.cursor.read(json('cursor', 'before-shell-execution'), undefined, []);
    expect(shell.type === 'step' && shell.sameCall).toBeUndefined();
  });
  it('Claude Code sends no such thing: each of its calls decides on its own', () => {
    const step = AGENTS['claude-code'].read(json('claude-code', 'pre-tool-use-bash'), undefined, []);
    expect(step.type === 'step' && step.sameCall).toBeUndefined();
  });
});
