import type { Decision, OpinionRecord } from '@guard/core';
import type { Io } from '../io.js';
import type { LogEntry } from '../state/decision-log.js';
import { readLog } from '../state/decision-log.js';
import { guardHomeFrom } from '../state/settings.js';

export interface LogOptions {
  /** One JSON document: `{ "entries": [...] }`. */
  readonly json: boolean;
  /** One JSON line a decision. */
  readonly jsonl?: boolean;
  readonly chat?: string;
  readonly decision?: Decision;
  /** The newest this many entries (default 50). */
  readonly count?: number;
}

const DEFAULT_COUNT = 50;

/** `guard log`: the newest decisions, oldest of them first. */
export async function showLog(options: LogOptions, io: Io): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const count = options.count ?? DEFAULT_COUNT;
  const kept: LogEntry[] = [];
  for await (const entry of readLog(guardHome, {
    ...(options.chat === undefined ? {} : { chat: options.chat }),
    ...(options.decision === undefined ? {} : { decision: options.decision }),
  })) {
    kept.push(entry);
    if (kept.length > count) kept.shift();
  }
  if (options.jsonl === true) {
    for (const entry of kept) io.out(`${JSON.stringify(entry)}\n`);
    return;
  }
  if (options.json) {
    io.out(`${JSON.stringify({ entries: kept }, null, 2)}\n`);
    return;
  }
  if (kept.length === 0) {
    io.out(
      `No decisions logged yet${options.chat || options.decision ? ' that match' : ''} (${guardHome}/log.jsonl).\n`,
    );
    return;
  }
  for (const entry of kept) io.out(`${logLine(entry)}\n`);
}

/** One entry as one readable line: when, who, what was decided, by which rules, about what. */
export function logLine(entry: LogEntry): string {
  const when = entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  if (entry.how === 'switch')
    return `${when}  switch  ${Object.entries(entry.changed ?? {})
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ')}`;
  if (entry.how === 'second-opinion-paused') return `${when}  second opinion paused: ${entry.reason ?? ''}`;
  if (entry.how === 'drift') return `${when}  ${entry.agent ?? ''} hook file changed: ${entry.reason ?? ''}`;
  const decision =
    entry.answer && entry.answer !== entry.decision
      ? `${entry.decision ?? '-'}→${entry.answer}`
      : (entry.decision ?? '-');
  const parts = [
    when,
    `${entry.agent ?? '?'}${entry.chat ? `:${entry.chat.slice(0, 12)}` : ''}`,
    decision.padEnd(6),
    entry.how,
    entry.rules && entry.rules.length > 0 ? `[${entry.rules.join(', ')}]` : '',
    entry.step ? entry.step.slice(0, 120) : (entry.event ?? ''),
    entry.unknown === true ? `(unknown tool ${entry.tool ?? ''}, nothing to check)` : '',
    entry.error ? `(${entry.error})` : '',
    entry.opinion ? `{${opinionWords(entry.opinion)}}` : '',
  ];
  return parts.filter((part) => part !== '').join('  ');
}

/** What the second opinion did about a step, in a few words. */
export function opinionWords(opinion: OpinionRecord): string {
  const p = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(2));
  const scores =
    opinion.irreversible === undefined
      ? ''
      : ` irreversible ${p(opinion.irreversible)}${opinion.outside === undefined ? '' : `, outside request ${p(opinion.outside)}`}`;
  const memo = opinion.remembered === true ? ', remembered' : opinion.ms === undefined ? '' : `, ${opinion.ms} ms`;
  switch (opinion.outcome) {
    case 'raised':
      return `second opinion raised it:${scores}${memo}`;
    case 'judged':
      return `second opinion judged it:${scores}${memo}`;
    case 'unavailable':
      return `second opinion could not judge it: ${opinion.why ?? 'unknown'}`;
  }
}
