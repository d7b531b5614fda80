/**
 * The HTML page of `guard report --html` (and of `guard scan --html`): data in, one self-contained
 * HTML string out. Pure: no files, no clock. The page has no script, loads nothing (its content
 * security policy forbids it) and draws its charts as inline SVG, each with a table of the same
 * numbers behind it, so it can be mailed to someone without guard and read with a screen reader.
 */

/** One step guard blocked or asked about (or would have, for a scan). */
export interface HtmlFinding {
  readonly time: string; // ISO
  readonly agent: string;
  readonly chat: string;
  readonly project?: string;
  readonly decision: 'block' | 'ask';
  readonly rules: readonly string[];
  readonly reason: string;
  readonly text: string; // the step, redacted
  readonly spans?: readonly { readonly start: number; readonly end: number }[];
  readonly where?: string; // transcript file:line (scan)
}

/** How many steps of one agent guard let go ahead, asked about and blocked on one day (UTC). */
export interface HtmlDay {
  readonly day: string; // YYYY-MM-DD
  readonly agent: string;
  readonly allow: number;
  readonly ask: number;
  readonly block: number;
}

export interface HtmlReport {
  readonly title: string;
  readonly generated: string; // ISO
  readonly source: 'log' | 'scan';
  readonly checked: number; // steps checked (allowed ones included)
  /** Every decision per day and agent, allowed ones included; made from the findings when absent. */
  readonly perDay?: readonly HtmlDay[];
  readonly findings: readonly HtmlFinding[];
  readonly skipped?: readonly { readonly path: string; readonly reason: string }[];
}

/** The page. */
export function renderHtml(report: HtmlReport): string {
  const findings = [...report.findings].sort((a, b) => compare(a.time, b.time));
  const perDay = report.perDay ?? daysOf(findings);
  const blocked = findings.filter((f) => f.decision === 'block').length;
  const chats = byChat(findings);
  const sections = [
    overTimePerAgent(perDay),
    overTimePerRule(findings),
    topRules(findings),
    topProjects(findings, report.source),
    chatsSection(chats),
    skippedSection(report.skipped ?? []),
  ].filter((section) => section !== undefined);
  const what =
    report.source === 'scan'
      ? 'what guard would have done with the steps AI coding agents took in past chats, read from their transcripts'
      : 'what guard did with the steps AI coding agents asked to take, read from its decision log';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="guard">
<title>${esc(report.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the report</a>
<header>
<h1>${esc(report.title)}</h1>
<p>This page shows ${what}. guard is a safety check that reads each step an agent wants to take (a shell command, a file write, a fetch) before it runs, and lets it go ahead, asks the person first, or blocks it, naming the rule that found the risk.</p>
<p class="meta">Made on ${esc(when(report.generated))}.</p>
</header>
<nav aria-label="Sections">
<ul>${sections.map((section) => `<li><a href="#${section.id}">${esc(section.heading)}</a></li>`).join('')}</ul>
</nav>
<main id="main">
<section aria-labelledby="summary-h">
<h2 id="summary-h">Summary</h2>
<dl class="summary">
<div><dt>Steps checked</dt><dd>${report.checked}</dd></div>
<div><dt>Blocked</dt><dd>${blocked}</dd></div>
<div><dt>Asked</dt><dd>${findings.length - blocked}</dd></div>
<div><dt>Chats with a block or an ask</dt><dd>${chats.length}</dd></div>
${report.skipped && report.skipped.length > 0 ? `<div><dt>Transcripts skipped</dt><dd>${report.skipped.length}</dd></div>` : ''}
</dl>
</section>
${sections.map((section) => section.html).join('\n')}
</main>
<footer><p>Made by guard. Times are in UTC. Values in the steps that look like keys, tokens or passwords were replaced by <code>[redacted:…]</code> before this page was made.</p></footer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// the sections

function overTimePerAgent(perDay: readonly HtmlDay[]): Section | undefined {
  if (perDay.length === 0) return undefined;
  const agents = [...new Set(perDay.map((d) => d.agent))].sort(compare);
  const days = dayRange(perDay.map((d) => d.day));
  const series: Series[] = [
    { label: 'let go ahead', className: 's-allow' },
    { label: 'asked', className: 's-ask' },
    { label: 'blocked', className: 's-block' },
  ];
  // one scale for every agent, so their bars compare
  const highest = Math.max(1, ...perDay.map((d) => d.allow + d.ask + d.block));
  const charts = agents.map((agent) => {
    const rows = new Map(perDay.filter((d) => d.agent === agent).map((d) => [d.day, d]));
    const values = days.map((day) => {
      const row = rows.get(day);
      return [row?.allow ?? 0, row?.ask ?? 0, row?.block ?? 0];
    });
    const table = tableOf(
      `Decisions per day for ${agent}`,
      ['Day', 'Let go ahead', 'Asked', 'Blocked'],
      days.flatMap((day, i) => {
        const [allow = 0, ask = 0, block = 0] = values[i] ?? [];
        return allow + ask + block === 0 ? [] : [[day, allow, ask, block]];
      }),
    );
    const all = values.reduce((sum, v) => sum + total(v), 0);
    return `<h3>${esc(agent)}</h3>
${figure(stackedBars(days, values, series, `Decisions per day for ${agent}: ${all} in all`, highest), series, table)}`;
  });
  return sectionOf(
    'per-agent',
    'Decisions over time, per agent',
    `<p>Every step each agent asked to take, per day: let go ahead, asked about, or blocked.</p>\n${charts.join('\n')}`,
  );
}

function overTimePerRule(findings: readonly HtmlFinding[]): Section | undefined {
  if (findings.length === 0) return undefined;
  const counts = countBy(findings.flatMap((f) => f.rules));
  const top = counts.slice(0, PALETTE).map(([rule]) => rule);
  const other = counts.length > top.length;
  const series: Series[] = [
    ...top.map((rule, i) => ({ label: rule, className: `s-${i}` })),
    ...(other ? [{ label: 'other rules', className: 's-other' }] : []),
  ];
  const days = dayRange(findings.map((f) => dayOf(f.time)));
  const index = new Map(days.map((day, i) => [day, i]));
  const values = days.map(() => series.map(() => 0));
  for (const finding of findings)
    for (const rule of finding.rules) {
      const at = top.indexOf(rule);
      const row = values[index.get(dayOf(finding.time)) ?? 0];
      const column = at >= 0 ? at : series.length - 1;
      if (row) row[column] = (row[column] ?? 0) + 1;
    }
  const table = tableOf(
    'Blocks and asks per day, per rule',
    ['Day', 'Rule', 'Steps'],
    // every rule by name, those the chart puts under "other rules" too
    countBy(findings.flatMap((f) => f.rules.map((rule) => `${dayOf(f.time)}\u0000${rule}`)))
      .sort(([a], [b]) => compare(a, b))
      .map(([key, count]) => [...key.split('\u0000'), count]),
  );
  return sectionOf(
    'per-rule',
    'Blocks and asks over time, per rule',
    `<p>Each step that was blocked or asked about, per day, by the rule that flagged it (a step flagged by two rules counts for both).</p>
${figure(stackedBars(days, values, series, 'Blocks and asks per day, per rule'), series, table)}`,
  );
}

function topRules(findings: readonly HtmlFinding[]): Section | undefined {
  if (findings.length === 0) return undefined;
  const rules = new Map<string, { block: number; ask: number; reason: string }>();
  for (const finding of findings)
    for (const rule of finding.rules) {
      const entry = rules.get(rule) ?? { block: 0, ask: 0, reason: finding.reason };
      entry[finding.decision]++;
      rules.set(rule, entry);
    }
  const rows = [...rules].sort(([a, x], [b, y]) => y.block + y.ask - (x.block + x.ask) || compare(a, b)).slice(0, TOP);
  const table = tableOf(
    'Rules that flagged the most steps',
    ['Rule', 'Blocked', 'Asked', 'An example of its reason'],
    rows.map(([rule, { block, ask, reason }]) => [rule, block, ask, reason]),
  );
  return sectionOf(
    'top-rules',
    'Top rules',
    `<p>The rules that flagged the most steps. A rule's id names what it looks for (for example <code>git.push</code>: a push to a remote).</p>
${figure(
  horizontalBars(
    rows.map(([rule, { block, ask }]) => [rule, [block, ask]]),
    BLOCK_ASK,
    'Rules that flagged the most steps',
  ),
  BLOCK_ASK,
  table,
)}`,
  );
}

function topProjects(findings: readonly HtmlFinding[], source: HtmlReport['source']): Section | undefined {
  if (findings.length === 0) return undefined;
  const named = findings.filter((f) => f.project !== undefined && f.project !== '');
  if (named.length === 0)
    return sectionOf(
      'top-projects',
      'Top projects',
      `<p>${source === 'log' ? "guard's decision log does not record the project a step ran in" : 'No step was tied to a project'}, so there is nothing to show here.</p>`,
    );
  const counts = new Map<string, [number, number]>();
  for (const finding of named) {
    const entry = counts.get(finding.project ?? '') ?? [0, 0];
    entry[finding.decision === 'block' ? 0 : 1]++;
    counts.set(finding.project ?? '', entry);
  }
  const rows = [...counts].sort(([a, x], [b, y]) => y[0] + y[1] - (x[0] + x[1]) || compare(a, b)).slice(0, TOP);
  const table = tableOf(
    'Projects with the most blocks and asks',
    ['Project', 'Blocked', 'Asked'],
    rows.map(([project, [block, ask]]) => [project, block, ask]),
  );
  return sectionOf(
    'top-projects',
    'Top projects',
    `<p>The folders the flagged steps ran in.</p>
${figure(horizontalBars(rows, BLOCK_ASK, 'Projects with the most blocks and asks'), BLOCK_ASK, table)}`,
  );
}

interface Chat {
  readonly agent: string;
  readonly chat: string;
  readonly findings: readonly HtmlFinding[];
}

function chatsSection(chats: readonly Chat[]): Section {
  if (chats.length === 0)
    return sectionOf('chats', 'Chats', '<p>No step was blocked or asked about: there is no chat to show.</p>');
  const parts = chats.map((chat, n) => {
    const projects = [...new Set(chat.findings.flatMap((f) => (f.project ? [f.project] : [])))];
    const items = chat.findings.map((f) => {
      const where = f.where === undefined ? '' : `<p class="where">Transcript: <code>${esc(f.where)}</code></p>`;
      return `<li class="step ${f.decision}">
<p class="head"><span class="badge ${f.decision}">${f.decision === 'block' ? 'Blocked' : 'Asked'}</span> <time datetime="${esc(f.time)}">${esc(when(f.time))}</time> <span class="rules">${f.rules.map((r) => `<code class="rule">${esc(r)}</code>`).join(' ')}</span></p>
<pre class="cmd"><code>${marked(f.text, f.spans ?? [])}</code></pre>
<p class="reason">${esc(f.reason)}</p>
${where}</li>`;
    });
    const title = `${chat.agent}, chat ${chat.chat}`;
    return `<section class="chat" aria-labelledby="chat-${n}">
<h3 id="chat-${n}">${esc(title)}</h3>
<p class="meta">${esc(when(chat.findings[0]?.time ?? ''))} to ${esc(when(chat.findings.at(-1)?.time ?? ''))}${projects.length > 0 ? `; in ${projects.map((p) => `<code>${esc(p)}</code>`).join(', ')}` : ''}</p>
<ol class="timeline">
${items.join('\n')}
</ol>
</section>`;
  });
  return sectionOf(
    'chats',
    'Chats',
    `<p>Per chat, in order, each step that was blocked or asked about. The <mark>marked</mark> part of each step is what the rule found; the sentence under it is the reason the agent was given.</p>
${parts.join('\n')}`,
  );
}

function skippedSection(skipped: readonly { path: string; reason: string }[]): Section | undefined {
  if (skipped.length === 0) return undefined;
  return sectionOf(
    'skipped',
    'Not read',
    `<p>These transcripts could not be read, so their steps are not in this report.</p>
${tableOf(
  'Transcripts not read',
  ['File', 'Why'],
  skipped.map((s) => [s.path, s.reason]),
  true,
)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// charts: inline SVG, coloured by class (the style sheet holds the light and dark colours)

interface Series {
  readonly label: string;
  readonly className: string;
}

/** The bars of the top lists: a row's blocks, then its asks. */
const BLOCK_ASK: readonly Series[] = [
  { label: 'blocked', className: 's-block' },
  { label: 'asked', className: 's-ask' },
];

/** How many rules get a colour of their own in the chart over time; the rest are "other rules". */
const PALETTE = 7;
/** How many rules or projects the top lists show. */
const TOP = 15;
const WIDTH = 720;

/** Bars per day, each stacked from its series (values[day][series]). */
function stackedBars(
  days: readonly string[],
  values: readonly (readonly number[])[],
  series: readonly Series[],
  label: string,
  highest = 1,
): string {
  const height = 150;
  const left = 44;
  const bottom = 24;
  const top = 8;
  const plot = height - bottom - top;
  const scale = niceMax(Math.max(highest, ...values.map(total)));
  const slot = (WIDTH - left - 8) / days.length;
  const bar = Math.max(1, slot * 0.8);
  const rects: string[] = [];
  days.forEach((day, i) => {
    let y = top + plot;
    (values[i] ?? []).forEach((value, j) => {
      if (value <= 0) return;
      const h = (value / scale) * plot;
      y -= h;
      rects.push(
        `<rect class="${series[j]?.className ?? ''}" x="${num(left + i * slot + (slot - bar) / 2)}" y="${num(y)}" width="${num(bar)}" height="${num(h)}"><title>${esc(`${day}: ${value} ${series[j]?.label ?? ''}`)}</title></rect>`,
      );
    });
  });
  const ticks = [0, ...(scale % 2 === 0 ? [scale / 2] : []), scale].map((t) => {
    const y = top + plot - (t / scale) * plot;
    return `<line class="grid" x1="${left}" x2="${WIDTH - 8}" y1="${num(y)}" y2="${num(y)}"/><text class="tick" x="${left - 6}" y="${num(y + 4)}" text-anchor="end">${t}</text>`;
  });
  const labels = dayTicks(days).map(
    (i) =>
      `<text class="tick" x="${num(left + i * slot + slot / 2)}" y="${height - 6}" text-anchor="middle">${esc(days[i] ?? '')}</text>`,
  );
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(`${label}. The table below holds the same numbers.`)}">${ticks.join('')}${rects.join('')}${labels.join('')}</svg>`;
}

/** One bar per row, split into its series, with the row's name at the left. */
function horizontalBars(
  rows: readonly (readonly [string, readonly number[]])[],
  series: readonly Series[],
  label: string,
): string {
  const line = 22;
  const left = 230;
  const height = rows.length * line + 8;
  const max = Math.max(1, ...rows.map(([, v]) => total(v)));
  const room = WIDTH - left - 60;
  const bars = rows.map(([name, values], i) => {
    const y = 4 + i * line;
    let x = left;
    const parts = values.map((value, j) => {
      if (value <= 0) return undefined;
      const w = (value / max) * room;
      const rect = `<rect class="${series[j]?.className ?? ''}" x="${num(x)}" y="${y + 3}" width="${num(w)}" height="${line - 8}"><title>${esc(`${name}: ${value} ${series[j]?.label ?? ''}`)}</title></rect>`;
      x += w;
      return rect;
    });
    const shown = name.length > 34 ? `…${name.slice(-33)}` : name;
    return `<text class="name" x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(shown)}</text>${parts.join('')}<text class="tick" x="${num(x + 6)}" y="${y + 15}">${total(values)}</text>`;
  });
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(`${label}. The table below holds the same numbers.`)}">${bars.join('')}</svg>`;
}

function figure(svg: string, series: readonly Series[], table: string): string {
  const legend = series
    .map(
      (s) =>
        `<li><svg width="12" height="12" aria-hidden="true"><rect class="${s.className}" width="12" height="12"/></svg> ${esc(s.label)}</li>`,
    )
    .join('');
  return `<figure>
${svg}
<figcaption><ul class="legend">${legend}</ul></figcaption>
</figure>
<details><summary>The numbers as a table</summary>
${table}
</details>`;
}

function tableOf(
  caption: string,
  head: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  code = false,
): string {
  const cell = (value: string | number, i: number): string =>
    typeof value === 'number'
      ? `<td class="n">${value}</td>`
      : i === 0
        ? `<th scope="row">${code ? `<code>${esc(value)}</code>` : esc(value)}</th>`
        : `<td>${esc(value)}</td>`;
  return `<table>
<caption>${esc(caption)}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`).join('\n')}
</tbody>
</table>`;
}

function total(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** A round number at least `max` for the axis: 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** Which days get a label: the first, the last and a few between, at most 6. */
function dayTicks(days: readonly string[]): number[] {
  if (days.length <= 1) return days.length === 1 ? [0] : [];
  const count = Math.min(days.length, 6);
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * (days.length - 1)) / (count - 1))))];
}

// ---------------------------------------------------------------------------------------------
// data

/** Every day from the first to the last (UTC), so a quiet day shows as a gap; at most 2 years. */
function dayRange(days: readonly string[]): string[] {
  const sorted = [...new Set(days)].sort(compare);
  const first = Date.parse(`${sorted[0] ?? ''}T00:00:00Z`);
  const last = Date.parse(`${sorted.at(-1) ?? ''}T00:00:00Z`);
  if (Number.isNaN(first) || Number.isNaN(last) || last - first > 731 * DAY) return sorted;
  const range: string[] = [];
  for (let t = first; t <= last; t += DAY) range.push(new Date(t).toISOString().slice(0, 10));
  return range;
}

const DAY = 86_400_000;

function dayOf(time: string): string {
  return time.slice(0, 10);
}

/** Per day and agent, from the findings alone (no allowed steps). */
function daysOf(findings: readonly HtmlFinding[]): HtmlDay[] {
  const days = new Map<string, { day: string; agent: string; allow: number; ask: number; block: number }>();
  for (const finding of findings) {
    const key = `${dayOf(finding.time)}\u0000${finding.agent}`;
    const day = days.get(key) ?? { day: dayOf(finding.time), agent: finding.agent, allow: 0, ask: 0, block: 0 };
    day[finding.decision]++;
    days.set(key, day);
  }
  return [...days.values()];
}

function byChat(findings: readonly HtmlFinding[]): Chat[] {
  const chats = new Map<string, HtmlFinding[]>();
  for (const finding of findings) {
    const key = `${finding.agent}\u0000${finding.chat}`;
    const list = chats.get(key);
    if (list === undefined) chats.set(key, [finding]);
    else list.push(finding);
  }
  return [...chats.values()].map((list) => ({
    agent: list[0]?.agent ?? '',
    chat: list[0]?.chat ?? '',
    findings: list,
  }));
}

/** Counts of each value, most first (ties by name). */
function countBy(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || compare(a, b));
}

// ---------------------------------------------------------------------------------------------
// text

/** The step's text, escaped, with its spans in <mark>: spans merged, clamped to the text. */
export function marked(text: string, spans: readonly { start: number; end: number }[]): string {
  const ranges = spans
    .map(
      ({ start, end }) => [Math.max(0, Math.min(start, text.length)), Math.max(0, Math.min(end, text.length))] as const,
    )
    .filter(([start, end]) => end > start)
    .sort(([a], [b]) => a - b);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of merged) {
    out += `${esc(text.slice(at, start))}<mark>${esc(text.slice(start, end))}</mark>`;
    at = end;
  }
  return out + esc(text.slice(at));
}

/**
 * Text as HTML: the five characters that could end an element or attribute escaped, and control
 * and bidi-override characters shown as `?` (they would reorder what a person sees).
 */
export function esc(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (c) => ENTITIES[c] ?? '?') : text;
}

const UNSAFE_CLASS = '[&<>"\'\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]';
const UNSAFE = new RegExp(UNSAFE_CLASS);
const UNSAFE_ALL = new RegExp(UNSAFE_CLASS, 'g');

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** An ISO time as `2026-11-29 12:00:03 UTC` (the same for every reader, wherever they are). */
function when(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function num(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Section {
  readonly id: string;
  readonly heading: string;
  readonly html: string;
}

function sectionOf(id: string, heading: string, body: string): Section {
  return {
    id,
    heading,
    html: `<section id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${esc(heading)}</h2>
${body}
</section>`,
  };
}

// Colours: Okabe and Ito's palette, told apart with colour-blindness too; each text colour has at
// least 4.5:1 contrast on its background in both schemes.
const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#555;--line:#d0d0d0;--panel:#f5f5f5;--mark:#ffe08a;--mark-fg:#000;--link:#0b57d0;
--allow:#9aa5b1;--ask:#e69f00;--block:#c0392b;--c0:#0072b2;--c1:#e69f00;--c2:#009e73;--c3:#cc79a7;--c4:#56b4e9;--c5:#d55e00;--c6:#7a7a00;--other:#999}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e8e8e8;--muted:#b0b0b0;--line:#3a3d42;--panel:#1f2226;--mark:#8a6d00;--mark-fg:#fff;--link:#8ab4f8;
--allow:#5d6670;--ask:#f0b541;--block:#ff6b5b;--c0:#56a8e0;--c1:#f0b541;--c2:#3cc79a;--c3:#e29ac4;--c4:#8fd0f5;--c5:#ff8a4c;--c6:#c8c84a;--other:#888}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:60rem;padding:1rem;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--link)}a:focus,summary:focus{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
.meta,.where{color:var(--muted);font-size:.9rem}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
.summary{display:flex;flex-wrap:wrap;gap:1rem;margin:0}.summary div{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem 1rem}
.summary dt{font-size:.85rem;color:var(--muted)}.summary dd{margin:0;font-size:1.5rem;font-weight:600}
figure{margin:1rem 0}svg.chart{max-width:100%;height:auto;display:block}
.chart text{fill:var(--fg);font-size:12px}.chart .tick{fill:var(--muted);font-size:11px}.chart .grid{stroke:var(--line)}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:0;list-style:none;font-size:.9rem}
.s-allow{fill:var(--allow)}.s-ask{fill:var(--ask)}.s-block{fill:var(--block)}.s-other{fill:var(--other)}
.s-0{fill:var(--c0)}.s-1{fill:var(--c1)}.s-2{fill:var(--c2)}.s-3{fill:var(--c3)}.s-4{fill:var(--c4)}.s-5{fill:var(--c5)}.s-6{fill:var(--c6)}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.9rem}
.timeline{list-style:none;padding:0;margin:0}
.step{margin:0;padding:.25rem 0 1rem 1rem;border-left:3px solid var(--line)}.step.block{border-left-color:var(--block)}.step.ask{border-left-color:var(--ask)}
.step p{margin:.25rem 0}
.badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-weight:600;font-size:.85rem;border:2px solid}
.badge.block{border-color:var(--block)}.badge.ask{border-color:var(--ask)}
.cmd{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}
mark{background:var(--mark);color:var(--mark-fg);border-radius:2px;outline:1px solid var(--mark-fg)}
`;
