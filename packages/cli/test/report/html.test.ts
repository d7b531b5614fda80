import { describe, expect, it } from 'vitest';
import type { HtmlFinding, HtmlReport } from '../../src/report/html.js';
import { esc, marked, renderHtml } from '../../src/report/html.js';

const finding = (over: Partial<HtmlFinding> = {}): HtmlFinding => ({
  time: '2026-11-20T10:00:00.000Z',
  agent: 'codex',
  chat: 'c1',
  decision: 'block',
  rules: ['git.rewrite-shared-history'],
  reason: 'This rewrites history that others may have pulled.',
  text: 'git push --force origin main',
  spans: [{ start: 0, end: 28 }],
  ...over,
});

const report = (over: Partial<HtmlReport> = {}): HtmlReport => ({
  title: 'What guard did',
  generated: '2026-11-30T08:00:00.000Z',
  source: 'log',
  checked: 10,
  findings: [finding()],
  ...over,
});

const HOSTILE = `</style><script>alert(1)</script><img src=x onerror="alert(2)">'&`;

describe('esc', () => {
  it.each([
    ['<script>', '&lt;script&gt;'],
    ['</style>', '&lt;/style&gt;'],
    ['a "b" \'c\'', 'a &quot;b&quot; &#39;c&#39;'],
    ['&amp;', '&amp;amp;'],
    ['bell\u0007 and escape\u001b[31m', 'bell? and escape?[31m'],
    ['right-to-left \u202e override and isolate \u2066', 'right-to-left ? override and isolate ?'],
  ])('escapes %j', (text, html) => expect(esc(text)).toBe(html));

  it.each([
    ['git push origin main'],
    ['café 日本 Ünïcödé'],
    ['tab\tand\nnewline'],
    ['a > b in words? no: 1 -> 2'.replace('>', '').replace('>', '')],
  ])('leaves %j as it is', (text) => expect(esc(text)).toBe(text));
});

describe('marked', () => {
  it.each<[string, { start: number; end: number }[], string]>([
    ['rm -rf ~/x', [{ start: 7, end: 10 }], 'rm -rf <mark>~/x</mark>'],
    [
      'a && b && c',
      [
        { start: 0, end: 1 },
        { start: 10, end: 11 },
      ],
      '<mark>a</mark> &amp;&amp; b &amp;&amp; <mark>c</mark>',
    ],
    // overlapping and touching spans are one mark
    [
      'abcdef',
      [
        { start: 0, end: 3 },
        { start: 2, end: 5 },
      ],
      '<mark>abcde</mark>f',
    ],
    [
      'abcdef',
      [
        { start: 3, end: 6 },
        { start: 0, end: 3 },
      ],
      '<mark>abcdef</mark>',
    ],
    // past the end (a clipped log text) is cut to the text; an empty or reversed span marks nothing
    ['abc', [{ start: 1, end: 99 }], 'a<mark>bc</mark>'],
    [
      'abc',
      [
        { start: 2, end: 2 },
        { start: 3, end: 1 },
        { start: 50, end: 60 },
      ],
      'abc',
    ],
    ['<b>', [{ start: 0, end: 3 }], '<mark>&lt;b&gt;</mark>'],
    ['plain', [], 'plain'],
  ])('%j with %j', (text, spans, html) => expect(marked(text, spans)).toBe(html));
});

describe('renderHtml', () => {
  it('shows everything it is given as text: nothing breaks out of an element, attribute or the style sheet', () => {
    const html = renderHtml(
      report({
        title: HOSTILE,
        findings: [
          finding({
            agent: HOSTILE,
            chat: HOSTILE,
            project: HOSTILE,
            rules: [HOSTILE],
            reason: HOSTILE,
            text: HOSTILE,
            spans: [{ start: 0, end: 8 }],
            where: HOSTILE,
          }),
        ],
        skipped: [{ path: HOSTILE, reason: HOSTILE }],
      }),
    );
    expect(html).not.toMatch(/<script|<img|onerror="/i);
    // the one style sheet, closed once
    expect(html.match(/<\/style>/gi)).toHaveLength(1);
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // every attribute value is one of ours: links stay in the page
    for (const [, value] of html.matchAll(/\bhref="([^"]*)"/g)) expect(value).toMatch(/^#[\w-]+$/);
    expect(html).not.toMatch(/\ssrc="/);
  });

  it('has a content security policy that lets it load nothing, and no script', () => {
    const html = renderHtml(report());
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('has one h1, a heading per section, landmarks, and a table behind every chart', () => {
    const html = renderHtml(
      report({
        findings: [
          finding(),
          finding({ decision: 'ask', rules: ['git.push'], project: '/src/app', time: '2026-11-22T01:00:00Z' }),
        ],
        perDay: [{ day: '2026-11-20', agent: 'codex', allow: 5, ask: 0, block: 1 }],
      }),
    );
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect([...html.matchAll(/<h2 id="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'summary-h',
      'per-agent-h',
      'per-rule-h',
      'top-rules-h',
      'top-projects-h',
      'chats-h',
    ]);
    for (const landmark of ['<header>', '<nav aria-label="Sections">', '<main id="main">', '<footer>'])
      expect(html).toContain(landmark);
    const charts = html.match(/<svg class="chart"[^>]*role="img"/g) ?? [];
    expect(charts).toHaveLength(4);
    expect(
      html.match(/<figure>[\s\S]*?<\/figure>\s*<details><summary>The numbers as a table<\/summary>\s*<table>/g),
    ).toHaveLength(4);
    expect(html).toContain('<code class="rule">git.push</code>');
    expect(html).toContain('<mark>git push --force origin main</mark>');
  });

  it('fills the days between the first and the last, so a quiet day shows as a gap', () => {
    const html = renderHtml(
      report({
        findings: [finding({ time: '2026-11-20T10:00:00Z' }), finding({ time: '2026-11-23T10:00:00Z' })],
      }),
    );
    const chart = /<section id="per-agent"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    // two bars over four days: the labels name the first and last day and the ones between
    expect(chart.match(/<rect /g)).toHaveLength(2);
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']) expect(chart).toContain(day);
    expect(chart).not.toContain('2026-11-24');
  });

  it.each<[string, Partial<HtmlReport>, RegExp, RegExp]>([
    [
      'no findings: no charts of them, and says there is no chat',
      { findings: [] },
      /No step was blocked or asked about/,
      /id="per-rule"/,
    ],
    [
      'no project known in the log: says the log does not record it',
      {},
      /decision log does not record the project/,
      /<svg class="chart"[^>]*aria-label="Projects/,
    ],
    [
      'a scan with a project: draws the projects',
      { source: 'scan', findings: [finding({ project: '/src/app' })] },
      /aria-label="Projects/,
      /does not record the project/,
    ],
    [
      'a skipped transcript is listed',
      { skipped: [{ path: 't.jsonl', reason: 'unknown format' }] },
      /<code>t\.jsonl<\/code>/,
      /^$/,
    ],
    ['nothing skipped: no such section', {}, /<main/, /id="skipped"/],
  ])('%s', (_, over, present, absent) => {
    const html = renderHtml(report(over));
    expect(html).toMatch(present);
    expect(html).not.toMatch(absent);
  });

  it('colours seven rules over time and puts the rest under "other rules", while its table names every rule', () => {
    const rules = ['r.1', 'r.2', 'r.3', 'r.4', 'r.5', 'r.6', 'r.7', 'r.8', 'r.9'];
    const html = renderHtml(report({ findings: rules.map((rule) => finding({ rules: [rule] })) }));
    const section = /<section id="per-rule"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    const legend = /<ul class="legend">[\s\S]*?<\/ul>/.exec(section)?.[0] ?? '';
    for (const rule of rules.slice(0, 7)) expect(legend).toContain(` ${rule}</li>`);
    expect(legend).toContain(' other rules</li>');
    expect(legend).not.toContain('r.8');
    const table = /<table>[\s\S]*?<\/table>/.exec(section)?.[0] ?? '';
    for (const rule of rules) expect(table).toContain(`<td>${rule}</td>`);
    expect(table).not.toContain('other rules');
  });

  it("keeps a chat's steps in time order, whatever order they came in", () => {
    const html = renderHtml(
      report({
        findings: [
          finding({ time: '2026-11-21T00:00:00Z', text: 'second' }),
          finding({ time: '2026-11-20T00:00:00Z', text: 'first' }),
          finding({ chat: 'c2', time: '2026-11-19T00:00:00Z', text: 'other chat' }),
        ],
      }),
    );
    const order = ['other chat', 'first', 'second'].map((text) => html.indexOf(`>${text}<`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
