import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogEntry, LogFilter } from '../../src/state/decision-log.js';
import { appendLog, clip, parseEntry, readLog } from '../../src/state/decision-log.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'guard-log-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const entry = (n: number, extra: Partial<LogEntry> = {}): LogEntry => ({
  time: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
  how: 'rules',
  agent: 'codex',
  chat: n % 2 === 0 ? 'even' : 'odd',
  decision: n % 3 === 0 ? 'block' : 'allow',
  step: `echo ${n}`,
  ...extra,
});

async function all(filter?: LogFilter, where = home): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for await (const item of readLog(where, filter)) out.push(item);
  return out;
}

describe('appendLog', () => {
  it('creates the folder and writes one JSON line per entry', () => {
    const nested = join(home, 'state', 'guard');
    appendLog(nested, entry(1));
    appendLog(nested, entry(2));
    const lines = readFileSync(join(nested, 'log.jsonl'), 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((line) => JSON.parse(line) as LogEntry)).toEqual([entry(1), entry(2)]);
  });

  it('keeps each line bounded and on one line, whatever the step, reason and error hold', () => {
    appendLog(
      home,
      entry(1, { step: `a\nb${'x'.repeat(50_000)}`, reason: `r\r\n${'y'.repeat(5_000)}`, error: 'e'.repeat(5_000) }),
    );
    const text = readFileSync(join(home, 'log.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(2);
    expect(text.length).toBeLessThan(4096);
    const line = JSON.parse(text) as LogEntry;
    expect(line.step?.startsWith('a b')).toBe(true);
    expect(line.step?.endsWith('…')).toBe(true);
  });

  it('rotates above the size limit, keeping two old files', () => {
    for (let n = 0; n < 40; n += 1) appendLog(home, entry(n), 600);
    expect(['log.jsonl', 'log.1.jsonl', 'log.2.jsonl'].map((name) => existsSync(join(home, name)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(existsSync(join(home, 'log.3.jsonl'))).toBe(false);
    for (const name of ['log.jsonl', 'log.1.jsonl', 'log.2.jsonl']) {
      expect(readFileSync(join(home, name), 'utf8').length).toBeLessThanOrEqual(600);
    }
  });

  it('below the limit it never rotates', () => {
    for (let n = 0; n < 40; n += 1) appendLog(home, entry(n));
    expect(existsSync(join(home, 'log.1.jsonl'))).toBe(false);
  });

  it('skips rotating while another process holds the rotation lock, and still appends', () => {
    writeFileSync(join(home, 'log.jsonl'), `${JSON.stringify(entry(0))}\n`.repeat(20));
    writeFileSync(join(home, 'log.rotate.lock'), '');
    appendLog(home, entry(99), 600);
    expect(existsSync(join(home, 'log.1.jsonl'))).toBe(false);
    expect(readFileSync(join(home, 'log.jsonl'), 'utf8').split('\n')).toHaveLength(22);
  });

  it('takes over a rotation lock left behind long ago', () => {
    writeFileSync(join(home, 'log.jsonl'), `${JSON.stringify(entry(0))}\n`.repeat(20));
    const lock = join(home, 'log.rotate.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    appendLog(home, entry(1), 600); // clears the stale lock
    appendLog(home, entry(2), 600); // rotates
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(home, 'log.1.jsonl'))).toBe(true);
  });
});

describe('readLog', () => {
  it('reads the rotated files oldest first, then the current one', async () => {
    for (let n = 0; n < 40; n += 1) appendLog(home, entry(n), 600);
    const steps = (await all()).map((item) => Number(item.step?.slice(5)));
    expect(steps.length).toBeGreaterThan(3);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(39);
  });

  it('skips torn, foreign and empty lines', async () => {
    appendLog(home, entry(1));
    appendFileSync(
      join(home, 'log.jsonl'),
      '{"time": "2026-01-01T00:00:00.000Z", "how": "ru\n\nnot json\n[1,2]\n{"how":"rules"}\n',
    );
    appendLog(home, entry(2));
    expect(await all()).toEqual([entry(1), entry(2)]);
  });

  it.for([
    { filter: { chat: 'even' }, steps: ['echo 0', 'echo 2', 'echo 4'] },
    { filter: { decision: 'block' as const }, steps: ['echo 0', 'echo 3'] },
    { filter: { chat: 'odd', decision: 'block' as const }, steps: ['echo 3'] },
    { filter: { agent: 'cursor' }, steps: [] },
    { filter: { how: 'rules' as const }, steps: ['echo 0', 'echo 1', 'echo 2', 'echo 3', 'echo 4'] },
  ])('filters by $filter', async ({ filter, steps }) => {
    for (let n = 0; n < 5; n += 1) appendLog(home, entry(n));
    expect((await all(filter)).map((item) => item.step)).toEqual(steps);
  });

  it('reads nothing (and does not fail) where there is no log', async () => {
    expect(await all({}, join(home, 'missing'))).toEqual([]);
  });
});

describe('parseEntry / clip', () => {
  it.for([
    { line: '{"time":"t","how":"off"}', ok: true },
    { line: '{"time":"t"}', ok: false },
    { line: '{"how":"off"}', ok: false },
    { line: '{"time":1,"how":"off"}', ok: false },
    { line: 'null', ok: false },
    { line: '"text"', ok: false },
    { line: '{"time":"t","how":"off"', ok: false },
    { line: '   ', ok: false },
  ])('$line is an entry: $ok', ({ line, ok }) => {
    expect(parseEntry(line) !== undefined).toBe(ok);
  });

  it.for([
    { text: 'short', max: 10, out: 'short' },
    { text: 'exactly10!', max: 10, out: 'exactly10!' },
    { text: 'eleven char', max: 10, out: 'eleven ch…' },
    { text: 'two\nlines\r\nhere', max: 100, out: 'two lines here' },
  ])('clip($text, $max)', ({ text, max, out }) => {
    expect(clip(text, max)).toBe(out);
  });
});
