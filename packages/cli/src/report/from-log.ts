import { statSync } from 'node:fs';
import { evaluate, type Evaluation, type ShellStep } from '@guard/core';
import { GuardError } from '../errors.js';
import { writeFileAtomic } from '../fsx.js';
import type { Io } from '../io.js';
import type { LogEntry } from '../state/decision-log.js';
import { stepEnvironment } from '../world/environment.js';
import { createProbe } from '../world/probe.js';
import type { HtmlDay, HtmlFinding, HtmlReport } from './html.js';
import { isJudgedStep, pageOutcome } from './outcome.js';

/**
 * The log as the HTML page's data: every step judged in a chat (the steps `guard report` lists)
 * counted per day and agent by what came of it (`pageOutcome`: went ahead, asked, blocked; a step
 * left undone or an ask nobody could answer was a block), and each block and ask as
 * a finding, the part of the step each of its rules found marked (`spansOf`).
 */
export function htmlFromLog(
  entries: readonly LogEntry[],
  spansOf: (entry: LogEntry) => HtmlFinding['spans'],
  generated: string,
): HtmlReport {
  const days = new Map<string, { day: string; agent: string; allow: number; ask: number; block: number }>();
  const findings: HtmlFinding[] = [];
  let checked = 0;
  for (const entry of entries) {
    if (!isJudgedStep(entry)) continue;
    checked++;
    const outcome = pageOutcome(entry);
    const key = `${entry.time.slice(0, 10)}\u0000${entry.agent}`;
    const day = days.get(key) ?? { day: entry.time.slice(0, 10), agent: entry.agent, allow: 0, ask: 0, block: 0 };
    day[outcome]++;
    days.set(key, day);
    if (outcome === 'allow') continue;
    const spans = spansOf(entry);
    findings.push({
      time: entry.time,
      agent: entry.agent,
      chat: entry.chat ?? '',
      decision: outcome,
      rules: entry.rules ?? [],
      reason: entry.reason ?? '',
      text: entry.step ?? entry.tool ?? '',
      ...(spans === undefined || spans.length === 0 ? {} : { spans }),
    });
  }
  const perDay: HtmlDay[] = [...days.values()];
  return { title: 'What guard did', generated, source: 'log', checked, perDay, findings };
}

/**
 * The spans of a logged shell step's findings, found again the way `guard explain` finds them: the
 * engine run on the logged (redacted, bounded) text, keeping the findings of the rules the log
 * names. First without looking at the disk, which is as it is now and not as it was (a folder
 * `rm -rf` found then may be gone, and with it the finding), then, for a rule still missing, with
 * the probe `guard explain` uses. Other steps, and a text the engine now reads differently, get none.
 */
export function spansBy(io: Io, guardHome: string): (entry: LogEntry) => HtmlFinding['spans'] {
  const home = io.home();
  const env = stepEnvironment({ env: io.env, home, tmp: io.tmp(), guardHome, systemRoot: io.systemRoot });
  const probed = { ...env, probe: createProbe() };
  const cwd = io.cwd();
  const seen = new Map<string, (Evaluation | undefined)[]>();
  const judge = (command: string, options: typeof env): Evaluation | undefined => {
    const step: ShellStep = {
      kind: 'shell',
      agent: 'report',
      toolName: 'report',
      chatId: '',
      cwd,
      projectRoot: cwd,
      command,
    };
    try {
      const evaluation = evaluate(step, options);
      return evaluation.text === command ? evaluation : undefined;
    } catch {
      return undefined;
    }
  };
  return (entry) => {
    const command = entry.step;
    if (entry.kind !== 'shell' || command === undefined || command === '') return undefined;
    const missing = new Set(entry.rules ?? []);
    const spans: { start: number; end: number }[] = [];
    let tries = seen.get(command);
    if (tries === undefined) seen.set(command, (tries = []));
    for (const [i, options] of [env, probed].entries()) {
      if (missing.size === 0) break;
      if (tries.length <= i) tries.push(judge(command, options));
      const found = (tries[i]?.findings ?? []).filter((finding) => missing.has(finding.ruleId));
      for (const { span } of found) spans.push({ start: span[0], end: span[1] });
      for (const { ruleId } of found) missing.delete(ruleId);
    }
    return spans;
  };
}

/** Writes the page in one piece; a folder, pipe or device at the path is left alone. */
export function writePage(path: string, html: string): void {
  let isFile = true;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new GuardError(`Cannot write the report to ${path}: ${(error as Error).message}`);
  }
  if (!isFile)
    throw new GuardError(
      `${path} is not a regular file; guard writes the report only to a new or regular file.`,
      'Name a file, such as report.html.',
    );
  try {
    writeFileAtomic(path, html);
  } catch (error) {
    throw new GuardError(`Cannot write the report to ${path}: ${(error as Error).message}`);
  }
}
