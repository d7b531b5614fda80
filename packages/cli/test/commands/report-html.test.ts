import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReports, report } from '../../src/commands/report.js';
import { htmlFromLog } from '../../src/report/from-log.js';
import type { Io } from '../../src/io.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { appendLog } from '../../src/state/decision-log.js';
import { captureIo } from '../capture-io.js';

function withHome(): { io: Io; out: () => string; guardHome: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'guard-report-html-'));
  const guardHome = join(dir, 'guard');
  const captured = captureIo({ cwd: dir, home: dir });
  return { io: { ...captured.io, env: { GUARD_HOME: guardHome } }, out: captured.stdout, guardHome, dir };
}

const at = (day: number, n = 0): string => new Date(Date.UTC(2026, 10, 20 + day, 12, 0, n)).toISOString();

/** A field set to undefined is left out (a line without it). */
type Over = { readonly [K in keyof LogEntry]?: LogEntry[K] | undefined };

const entry = (over: Over): LogEntry =>
  Object.fromEntries(
    Object.entries({
      time: at(0),
      how: 'rules',
      agent: 'codex',
      chat: 'c1',
      tool: 'Bash',
      kind: 'shell',
      decision: 'allow',
      rules: [],
      step: 'npm test',
      ...over,
    }).filter(([, value]) => value !== undefined),
  ) as unknown as LogEntry;

describe('htmlFromLog', () => {
  it.each<[string, Over, 'allow' | 'ask' | 'block' | 'not counted']>([
    ['the rules let it go ahead', {}, 'allow'],
    ['the rules blocked it', { decision: 'block', rules: ['fs.delete'] }, 'block'],
    ['the rules asked', { decision: 'ask', rules: ['git.push'] }, 'ask'],
    [
      'an ask nobody could answer went back as a block',
      { how: 'away', decision: 'ask', answer: 'block', rules: ['fs.delete'] },
      'block',
    ],
    ['left undone', { how: 'away-undone', decision: 'block', rules: ['fs.delete'] }, 'block'],
    ['went ahead after a yes in the chat', { how: 'memory', decision: 'allow', rules: [] }, 'allow'],
    ['went ahead after a yes for the project', { how: 'project', decision: 'allow' }, 'allow'],
    ['went ahead by the mode', { how: 'mode', decision: 'allow', rules: ['git.push'] }, 'allow'],
    ['the second opinion raised it', { how: 'second-opinion', decision: 'ask', rules: ['second-opinion'] }, 'ask'],
    // near misses: lines that are not a judged step
    ['an event', { how: 'event', decision: undefined, event: 'SessionStart' }, 'not counted'],
    ['a switch', { how: 'switch', agent: undefined, chat: undefined, decision: undefined }, 'not counted'],
    ['a guard failure without a verdict', { how: 'failure', decision: undefined, error: 'x' }, 'not counted'],
    ['a verdict with no chat (the text report skips it too)', { chat: undefined, decision: 'block' }, 'not counted'],
    ['a verdict with an empty chat', { chat: '', decision: 'ask' }, 'not counted'],
    ['a verdict with no agent', { agent: undefined, decision: 'block' }, 'not counted'],
  ])('%s: %s', (_, over, outcome) => {
    const data = htmlFromLog([entry(over)], () => undefined, at(1));
    expect(data.checked).toBe(outcome === 'not counted' ? 0 : 1);
    if (outcome === 'not counted') {
      expect(data.perDay).toEqual([]);
      expect(data.findings).toEqual([]);
      return;
    }
    expect(data.perDay).toEqual([{ day: '2026-11-20', agent: 'codex', allow: 0, ask: 0, block: 0, [outcome]: 1 }]);
    expect(data.findings.map((f) => f.decision)).toEqual(outcome === 'allow' ? [] : [outcome]);
  });

  it('counts per day and agent, and keeps each flagged step with its chat, rules, reason and text', () => {
    const data = htmlFromLog(
      [
        entry({ time: at(0, 1) }),
        entry({ time: at(0, 2), agent: 'gemini', chat: 'g1' }),
        entry({ time: at(1, 3), decision: 'block', rules: ['fs.delete'], reason: 'deletes', step: 'rm -rf src' }),
      ],
      (e) => (e.step === 'rm -rf src' ? [{ start: 7, end: 10 }] : undefined),
      at(2),
    );
    expect(data).toMatchObject({ source: 'log', checked: 3, generated: at(2) });
    expect(data.perDay).toEqual([
      { day: '2026-11-20', agent: 'codex', allow: 1, ask: 0, block: 0 },
      { day: '2026-11-20', agent: 'gemini', allow: 1, ask: 0, block: 0 },
      { day: '2026-11-21', agent: 'codex', allow: 0, ask: 0, block: 1 },
    ]);
    expect(data.findings).toEqual([
      {
        time: at(1, 3),
        agent: 'codex',
        chat: 'c1',
        decision: 'block',
        rules: ['fs.delete'],
        reason: 'deletes',
        text: 'rm -rf src',
        spans: [{ start: 7, end: 10 }],
      },
    ]);
  });
});

describe('the page and the text report count the same steps the same way', () => {
  const log = [
    entry({}),
    entry({ decision: 'block', rules: ['fs.delete'] }),
    entry({ decision: 'ask', rules: ['git.push'] }),
    entry({ how: 'away', decision: 'ask', answer: 'block', rules: ['fs.delete'] }),
    entry({ how: 'away-undone', decision: 'block', rules: ['fs.delete'] }),
    entry({ how: 'memory', decision: 'allow' }),
    entry({ how: 'mode', decision: 'allow', rules: ['git.push'] }),
    entry({ chat: 'c2', decision: 'ask', rules: ['git.push'] }),
    entry({ chat: undefined, decision: 'block', rules: ['fs.delete'] }),
    entry({ how: 'event', decision: undefined, event: 'SessionStart' }),
  ];
  it('blocks are the blocked and the left undone, asks the asked, every judged step once', () => {
    const chats = buildReports(log, () => undefined);
    const total = (count: (chat: (typeof chats)[number]) => number) =>
      chats.reduce((sum, chat) => sum + count(chat), 0);
    const data = htmlFromLog(log, () => undefined, at(1));
    const page = (data.perDay ?? []).reduce(
      (sum, day) => ({ allow: sum.allow + day.allow, ask: sum.ask + day.ask, block: sum.block + day.block }),
      { allow: 0, ask: 0, block: 0 },
    );
    expect(page).toEqual({ allow: 3, ask: 2, block: 3 });
    expect(data.checked).toBe(total((chat) => chat.steps));
    expect(page.block).toBe(total((chat) => chat.blocked.length + chat.leftUndone.length));
    expect(page.ask).toBe(total((chat) => chat.asked.length));
    expect(data.findings.map((finding) => finding.decision).sort()).toEqual(['ask', 'ask', 'block', 'block', 'block']);
  });
});

describe('guard report --html', () => {
  it('writes the page, marking the part of each logged command its rules found, and says where', async () => {
    const { io, out, guardHome, dir } = withHome();
    appendLog(guardHome, entry({ time: at(0, 1) }));
    appendLog(
      guardHome,
      entry({
        time: at(0, 2),
        decision: 'block',
        rules: ['git.rewrite-shared-history'],
        step: 'cd app && git push --force origin main',
      }),
    );
    // near misses: a write step is not a command (nothing to mark), and a rule the engine no longer
    // finds in the text marks nothing
    appendLog(
      guardHome,
      entry({
        time: at(0, 3),
        decision: 'ask',
        kind: 'write',
        tool: 'Write',
        rules: ['fs.write-outside'],
        step: '/etc/hosts',
      }),
    );
    appendLog(guardHome, entry({ time: at(0, 4), decision: 'ask', rules: ['pkg.publish'], step: 'echo hello' }));
    // the folder it deleted then is gone now: the engine, looking at the disk, would let it go
    appendLog(guardHome, entry({ time: at(0, 5), decision: 'ask', rules: ['fs.delete'], step: 'rm -rf ~/gone-since' }));
    await report({ json: false, html: 'out/report.html' }, io);
    const path = join(dir, 'out', 'report.html');
    expect(out()).toBe(`Wrote the report to ${path}\n`);
    const html = readFileSync(path, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(
      '<pre class="cmd"><code>cd app &amp;&amp; <mark>git push --force origin main</mark></code></pre>',
    );
    expect(html).toContain('<pre class="cmd"><code>/etc/hosts</code></pre>');
    expect(html).toContain('<pre class="cmd"><code>echo hello</code></pre>');
    expect(html).toContain('<pre class="cmd"><code>rm -rf <mark>~/gone-since</mark></code></pre>');
    expect(html).toMatch(/<dt>Steps checked<\/dt><dd>5<\/dd>/);
  });

  it('--chat: only that chat, named in the title', async () => {
    const { io, guardHome, dir } = withHome();
    appendLog(guardHome, entry({ decision: 'block', rules: ['fs.delete'], step: 'rm -rf src' }));
    appendLog(guardHome, entry({ chat: 'c2', decision: 'block', rules: ['fs.delete'], step: 'rm -rf lib' }));
    await report({ json: false, chat: 'c2', html: 'one.html' }, io);
    const html = readFileSync(join(dir, 'one.html'), 'utf8');
    expect(html).toContain('<title>What guard did in chat c2</title>');
    expect(html).toContain('rm -rf <mark>lib</mark>');
    expect(html).not.toContain('rm -rf <mark>src</mark>');
  });

  it('replaces a regular file, and writes through a link to one', async () => {
    const { io, guardHome, dir } = withHome();
    appendLog(guardHome, entry({}));
    const target = join(dir, 'old.html');
    writeFileSync(target, 'old');
    symlinkSync(target, join(dir, 'link.html'));
    await report({ json: false, html: 'link.html' }, io);
    expect(readFileSync(target, 'utf8')).toMatch(/^<!doctype html>/);
    expect(statSync(join(dir, 'link.html'), { throwIfNoEntry: false })?.isFile()).toBe(true);
  });

  it.each<[string, (dir: string) => string]>([
    [
      'a folder',
      (dir) => {
        mkdirSync(join(dir, 'folder.html'));
        return 'folder.html';
      },
    ],
    [
      'a named pipe',
      (dir) => {
        execFileSync('mkfifo', [join(dir, 'pipe.html')]);
        return 'pipe.html';
      },
    ],
    ['a device', () => '/dev/null'],
  ])('refuses to write over %s', async (_, make) => {
    if (process.platform === 'win32') return;
    const { io, out, guardHome, dir } = withHome();
    appendLog(guardHome, entry({}));
    const name = make(dir);
    await expect(report({ json: false, html: name }, io)).rejects.toThrow(/is not a regular file/);
    expect(out()).toBe('');
  });
});
