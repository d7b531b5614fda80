import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logLine, showLog } from '../../src/commands/log.js';
import type { ChatReport } from '../../src/commands/report.js';
import { report } from '../../src/commands/report.js';
import type { Io } from '../../src/io.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { appendLog } from '../../src/state/decision-log.js';
import { updateChat } from '../../src/state/chats.js';
import { captureIo } from '../capture-io.js';

function withHome(): { io: Io; out: () => string; guardHome: string } {
  const guardHome = mkdtempSync(join(tmpdir(), 'guard-report-'));
  const captured = captureIo();
  return { io: { ...captured.io, env: { GUARD_HOME: guardHome } }, out: captured.stdout, guardHome };
}

const at = (n: number): string => new Date(Date.UTC(2026, 10, 29, 12, 0, n)).toISOString();

function recordedChat(guardHome: string): void {
  const lines: LogEntry[] = [
    { time: at(1), how: 'event', agent: 'codex', chat: 'c1', event: 'SessionStart' },
    { time: at(2), how: 'rules', agent: 'codex', chat: 'c1', decision: 'allow', rules: [], step: 'npm test' },
    {
      time: at(3),
      how: 'rules',
      agent: 'codex',
      chat: 'c1',
      decision: 'block',
      rules: ['git.rewrite-shared-history'],
      step: 'git push --force',
    },
    {
      time: at(4),
      how: 'rules',
      agent: 'codex',
      chat: 'c1',
      decision: 'ask',
      rules: ['git.push'],
      step: 'git push origin main',
    },
    {
      time: at(5),
      how: 'memory',
      agent: 'codex',
      chat: 'c1',
      decision: 'allow',
      rules: [],
      step: 'git push origin main',
    },
    {
      time: at(6),
      how: 'away',
      agent: 'codex',
      chat: 'c1',
      decision: 'ask',
      answer: 'block',
      rules: ['fs.delete'],
      step: 'rm notes.md',
    },
    {
      time: at(7),
      how: 'away-undone',
      agent: 'codex',
      chat: 'c1',
      decision: 'block',
      rules: ['fs.delete'],
      step: 'rm notes.md',
    },
    { time: at(8), how: 'rules', agent: 'cursor', chat: 'other', decision: 'allow', rules: [], step: 'ls' },
    { time: at(9), how: 'switch', changed: { enabled: false } },
  ];
  for (const line of lines) appendLog(guardHome, line);
  updateChat(guardHome, 'codex', 'c1', Date.now(), 86_400_000, (s) => {
    s.approved.push('git.push:origin/main');
    s.scan = {
      time: Date.now(),
      checked: ['AGENTS.md', 'MCP server docs'],
      found: [],
      unchecked: ['MCP server slow: did not answer within the time limit'],
    };
  });
}

describe('guard report', () => {
  it('lists exactly what happened in a recorded chat', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await report({ json: true, chat: 'c1' }, io);
    const { chats } = JSON.parse(out()) as { chats: ChatReport[] };
    expect(chats).toHaveLength(1);
    const chat = chats[0];
    expect(chat).toMatchObject({ agent: 'codex', chat: 'c1', steps: 6, remembered: ['git.push:origin/main'] });
    const steps = (list: ChatReport['blocked'] | undefined) => list?.map((s) => s.step);
    // the first flag of a step nobody could approve went back to the agent as a block
    expect(steps(chat?.blocked)).toEqual(['git push --force', 'rm notes.md']);
    expect(steps(chat?.asked)).toEqual(['git push origin main']);
    expect(steps(chat?.allowedAfterYes)).toEqual(['git push origin main']);
    expect(steps(chat?.leftUndone)).toEqual(['rm notes.md']);
    expect(chat?.startScan?.unchecked).toEqual(['MCP server slow: did not answer within the time limit']);
  });

  it('text mode names the sections, and every chat when none is chosen', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await report({ json: false }, io);
    expect(out()).toMatch(/codex chat c1/);
    expect(out()).toMatch(/cursor chat other/);
    expect(out()).toMatch(/left undone \(nobody could approve\) \(1\):\n {4}- rm notes\.md {2}\[fs\.delete\]/);
    expect(out()).toMatch(/remembered yes: git\.push:origin\/main/);
  });

  it('names the unknown tools that went ahead unchecked, per chat', async () => {
    const { io, out, guardHome } = withHome();
    const step = (time: string, tool: string, chat = 'c1'): LogEntry => ({
      ...{ time, how: 'rules', agent: 'codex', chat, tool, kind: 'shell' },
      ...{ decision: 'allow', rules: [], step: 'ls' },
    });
    const unknown = (time: string, tool: string, chat = 'c1'): LogEntry => ({
      ...step(time, tool, chat),
      ...{ kind: 'other', unknown: true, step: '{"query":"x"}' },
    });
    const lines: LogEntry[] = [
      unknown(at(1), 'FrobTool'),
      unknown(at(2), 'Doodle'),
      unknown(at(3), 'FrobTool'),
      unknown(at(4), 'Elsewhere', 'c2'),
      // near misses: a tool read by its shape, and an unknown tool's result (no step judged)
      step(at(5), 'Reader'),
      { time: at(6), how: 'event', agent: 'codex', chat: 'c1', event: 'PostToolUse', tool: 'Late', unknown: true },
      step(at(7), 'Bash', 'c3'),
    ];
    for (const line of lines) appendLog(guardHome, line);
    await report({ json: true }, io);
    const { chats } = JSON.parse(out()) as { chats: ChatReport[] };
    expect(chats.map((chat) => [chat.chat, chat.uncheckedTools])).toEqual([
      [
        'c1',
        [
          { tool: 'FrobTool', steps: 2 },
          { tool: 'Doodle', steps: 1 },
        ],
      ],
      ['c2', [{ tool: 'Elsewhere', steps: 1 }]],
      ['c3', undefined],
    ]);
    const text = withHome();
    for (const line of lines) appendLog(text.guardHome, line);
    await report({ json: false, chat: 'c1' }, text.io);
    expect(text.out()).toMatch(
      /unknown tools, nothing in them guard could check \(2\):\n {4}- FrobTool \(2 steps\)\n {4}- Doodle \(1 step\)\n/,
    );
  });

  it('says so when nothing is logged', async () => {
    const { io, out } = withHome();
    await report({ json: false }, io);
    expect(out()).toBe('Nothing logged yet.\n');
  });
});

describe('guard log', () => {
  it('--jsonl: the newest entries, filtered by chat and decision, one JSON line each', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await showLog({ json: false, jsonl: true, chat: 'c1', decision: 'block' }, io);
    const entries = out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogEntry);
    expect(entries.map((e) => e.step)).toEqual(['git push --force', 'rm notes.md']);
  });

  it('--json: the same entries as one document, like every other --json', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await showLog({ json: true, chat: 'c1', decision: 'block' }, io);
    expect(out()).toMatch(/^\{\n {2}"entries": \[\n/);
    const { entries } = JSON.parse(out()) as { entries: LogEntry[] };
    expect(entries.map((e) => e.step)).toEqual(['git push --force', 'rm notes.md']);
  });

  it('-n keeps the newest n, oldest first', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await showLog({ json: true, count: 2 }, io);
    expect((JSON.parse(out()) as { entries: LogEntry[] }).entries.map((entry) => entry.time)).toEqual([at(8), at(9)]);
  });

  it('text mode prints one readable line per entry', async () => {
    const { io, out, guardHome } = withHome();
    recordedChat(guardHome);
    await showLog({ json: false, chat: 'c1', decision: 'ask' }, io);
    expect(out().trim().split('\n')).toEqual([
      '2026-11-29 12:00:04Z  codex:c1  ask     rules  [git.push]  git push origin main',
      '2026-11-29 12:00:06Z  codex:c1  ask→block  away  [fs.delete]  rm notes.md',
    ]);
  });

  it('text mode says when a step was of a tool guard does not know and had nothing to check', () => {
    const line = {
      time: at(1),
      how: 'rules',
      agent: 'codex',
      chat: 'c1',
      tool: 'FrobTool',
      decision: 'allow',
    } as const;
    expect(logLine({ ...line, kind: 'other', unknown: true, step: '{"query":"x"}' })).toBe(
      '2026-11-29 12:00:01Z  codex:c1  allow   rules  {"query":"x"}  (unknown tool FrobTool, nothing to check)',
    );
    expect(logLine({ ...line, kind: 'shell', step: 'ls' })).toBe('2026-11-29 12:00:01Z  codex:c1  allow   rules  ls');
  });
});
