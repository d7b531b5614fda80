import { resolve } from 'node:path';
import type { Io } from '../io.js';
import type { LogEntry } from '../state/decision-log.js';
import { readLog } from '../state/decision-log.js';
import { guardHomeFrom, readSettings } from '../state/settings.js';
import type { ChatState } from '../state/chats.js';
import { loadChat } from '../state/chats.js';
import { isJudgedStep, stepOutcome } from '../report/outcome.js';

export interface ReportOptions {
  readonly json: boolean;
  readonly chat?: string;
  /** Write the report as one HTML page to this file (relative to the cwd) instead of printing it. */
  readonly html?: string;
}

/** One step in a report: what it was and which rules flagged it. */
export interface ReportStep {
  readonly time: string;
  readonly step: string;
  readonly rules: readonly string[];
  /** The mode that let it go ahead (in `allowedByMode`). */
  readonly mode?: string;
}

/** What happened in one chat (SPEC §9), from the log and the chat's memory. */
export interface ChatReport {
  readonly agent: string;
  readonly chat: string;
  readonly first: string;
  readonly last: string;
  readonly steps: number;
  readonly blocked: readonly ReportStep[];
  readonly asked: readonly ReportStep[];
  /** Went ahead because the person had said yes (in the chat or the agent's prompt). */
  readonly allowedAfterYes: readonly ReportStep[];
  /** Flagged while nobody could answer, and left undone. */
  readonly leftUndone: readonly ReportStep[];
  /** Asked by the rules, and let go ahead by the person's mode (`guard mode`; absent when none). */
  readonly allowedByMode?: readonly ReportStep[];
  /**
   * Tools of the agent's that guard does not know, whose input held nothing it reads (a command, a
   * path, a URL), so their steps went ahead unchecked: each with how many steps (absent when none).
   */
  readonly uncheckedTools?: readonly UncheckedTool[];
  /** Memory keys the person said yes to. */
  readonly remembered: readonly string[];
  readonly failures: number;
  /** What the second opinion did in this chat: steps it judged (raised included), raised, and could not judge. */
  readonly secondOpinion: {
    readonly judged: number;
    readonly raised: readonly ReportStep[];
    readonly unavailable: readonly (ReportStep & { readonly why: string })[];
  };
  /** What the chat-start scan checked and found. */
  readonly startScan?: {
    readonly checked: readonly string[];
    readonly found: readonly string[];
    readonly unchecked: readonly string[];
  };
}

/** A tool guard saw go ahead unchecked in a chat, and how often. */
export interface UncheckedTool {
  readonly tool: string;
  readonly steps: number;
}

function item(entry: LogEntry): ReportStep {
  return { time: entry.time, step: entry.step ?? entry.tool ?? '', rules: entry.rules ?? [] };
}

/** Builds the per-chat reports from log entries (oldest first) and the chats' saved memory. */
export function buildReports(
  entries: Iterable<LogEntry>,
  memory: (agent: string, chat: string) => ChatState | undefined,
): ChatReport[] {
  interface Draft {
    agent: string;
    chat: string;
    first: string;
    last: string;
    steps: number;
    failures: number;
    blocked: ReportStep[];
    asked: ReportStep[];
    allowedAfterYes: ReportStep[];
    leftUndone: ReportStep[];
    allowedByMode?: ReportStep[];
    unchecked: Map<string, number>;
    secondOpinion: { judged: number; raised: ReportStep[]; unavailable: (ReportStep & { why: string })[] };
  }
  const drafts = new Map<string, Draft>();
  for (const entry of entries) {
    if (!entry.chat || !entry.agent) continue;
    const id = `${entry.agent}\u0000${entry.chat}`;
    let draft = drafts.get(id);
    if (!draft) {
      draft = {
        agent: entry.agent,
        chat: entry.chat,
        first: entry.time,
        last: entry.time,
        steps: 0,
        failures: 0,
        blocked: [],
        asked: [],
        allowedAfterYes: [],
        leftUndone: [],
        unchecked: new Map(),
        secondOpinion: { judged: 0, raised: [], unavailable: [] },
      };
      drafts.set(id, draft);
    }
    draft.last = entry.time;
    if (entry.how === 'failure' || entry.how === 'deadline') draft.failures++;
    if (!isJudgedStep(entry)) continue;
    draft.steps++;
    if (entry.unknown === true) {
      const tool = entry.tool ?? '';
      draft.unchecked.set(tool, (draft.unchecked.get(tool) ?? 0) + 1);
    }
    const opinion = entry.opinion;
    if (opinion?.outcome === 'unavailable')
      draft.secondOpinion.unavailable.push({ ...item(entry), why: opinion.why ?? 'unknown' });
    else if (opinion !== undefined) {
      draft.secondOpinion.judged++;
      if (opinion.outcome === 'raised') draft.secondOpinion.raised.push(item(entry));
    }
    const outcome = stepOutcome(entry);
    if (outcome === 'allowedByMode') (draft.allowedByMode ??= []).push({ ...item(entry), mode: entry.mode ?? '' });
    else if (outcome !== 'allowed') draft[outcome].push(item(entry));
  }
  return [...drafts.values()].map(({ unchecked, ...draft }) => {
    const state = memory(draft.agent, draft.chat);
    return {
      ...draft,
      ...(unchecked.size === 0 ? {} : { uncheckedTools: [...unchecked].map(([tool, steps]) => ({ tool, steps })) }),
      remembered: state?.approved ?? [],
      ...(state?.scan
        ? { startScan: { checked: state.scan.checked, found: state.scan.found, unchecked: state.scan.unchecked } }
        : {}),
    };
  });
}

/**
 * `guard report`: per chat, what was blocked, asked, allowed after a yes, left undone and
 * remembered, and the unknown tools that went ahead unchecked.
 */
export async function report(options: ReportOptions, io: Io): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const settings = await readSettings(guardHome).catch(() => undefined);
  const idleMs = (settings?.idleDays ?? 7) * 86_400_000;
  const entries: LogEntry[] = [];
  for await (const entry of readLog(guardHome, options.chat === undefined ? {} : { chat: options.chat }))
    entries.push(entry);
  const reports = buildReports(entries, (agent, chat) => {
    try {
      return loadChat(guardHome, agent, chat, Date.now(), idleMs);
    } catch {
      return undefined;
    }
  });
  if (options.html !== undefined) {
    const path = resolve(io.cwd(), options.html);
    // the engine and the page are loaded only for the page
    const { htmlFromLog, spansBy, writePage } = await import('../report/from-log.js');
    const { renderHtml } = await import('../report/html.js');
    const data = htmlFromLog(entries, spansBy(io, guardHome), new Date().toISOString());
    writePage(
      path,
      renderHtml(options.chat === undefined ? data : { ...data, title: `${data.title} in chat ${options.chat}` }),
    );
    io.out(`Wrote the report to ${path}\n`);
    return;
  }
  if (options.json) {
    io.out(`${JSON.stringify({ chats: reports }, null, 2)}\n`);
    return;
  }
  if (reports.length === 0) {
    io.out(options.chat ? `Nothing logged for chat ${options.chat}.\n` : 'Nothing logged yet.\n');
    return;
  }
  for (const chat of reports) io.out(renderReport(chat));
}

function renderReport(chat: ChatReport): string {
  const lines = [
    `${chat.agent} chat ${chat.chat}`,
    `  ${chat.first} → ${chat.last}: ${chat.steps} steps judged${chat.failures ? `, ${chat.failures} guard failures` : ''}`,
  ];
  const list = (title: string, items: readonly ReportStep[]): void => {
    if (items.length === 0) return;
    lines.push(`  ${title} (${items.length}):`);
    for (const step of items)
      lines.push(`    - ${step.step.slice(0, 100)}${step.rules.length ? `  [${step.rules.join(', ')}]` : ''}`);
  };
  list('blocked', chat.blocked);
  list('asked', chat.asked);
  list('allowed after a yes', chat.allowedAfterYes);
  list('left undone (nobody could approve)', chat.leftUndone);
  const byMode = chat.allowedByMode ?? [];
  if (byMode.length > 0) {
    lines.push(`  went ahead by the mode (${byMode.length}):`);
    for (const step of byMode)
      lines.push(`    - ${step.step.slice(0, 100)}  [${step.rules.join(', ')}] (${step.mode ?? ''})`);
  }
  const unchecked = chat.uncheckedTools ?? [];
  if (unchecked.length > 0) {
    lines.push(`  unknown tools, nothing in them guard could check (${unchecked.length}):`);
    for (const { tool, steps } of unchecked) lines.push(`    - ${tool} (${steps} step${steps === 1 ? '' : 's'})`);
  }
  if (chat.remembered.length > 0) lines.push(`  remembered yes: ${chat.remembered.join(', ')}`);
  const second = chat.secondOpinion;
  if (second.judged > 0 || second.unavailable.length > 0) {
    lines.push(
      `  second opinion: judged ${second.judged} step${second.judged === 1 ? '' : 's'}, raised ${second.raised.length}, could not judge ${second.unavailable.length}`,
    );
    for (const step of second.raised) lines.push(`    raised: ${step.step.slice(0, 100)}`);
    for (const step of second.unavailable) lines.push(`    not judged: ${step.step.slice(0, 80)}  (${step.why})`);
  }
  if (chat.startScan) {
    lines.push(
      `  chat start: checked ${chat.startScan.checked.length} (${chat.startScan.checked.join(', ') || 'nothing'})`,
    );
    for (const found of chat.startScan.found) lines.push(`    found: ${found}`);
    for (const skipped of chat.startScan.unchecked) lines.push(`    not checked: ${skipped}`);
  }
  return `${lines.join('\n')}\n\n`;
}
