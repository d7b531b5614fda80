import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Adapter, TranscriptEvent } from '@guard/adapters';
import { adapters, AGENT_IDS, placedPath } from '@guard/adapters';
import type { Evaluation, Settled, ToolStep, Verdict } from '@guard/core';
import {
  apply,
  evaluate,
  holdLocked,
  logText,
  newChat,
  onPrompt,
  onResult,
  redactForLog,
  rememberedBy,
  settle,
  unlockedYes,
  viewOf,
  withoutLockedAllows,
} from '@guard/core';
import { tilde } from '../agents/found.js';
import { GuardError, ExitCode } from '../errors.js';
import type { HtmlDay } from '../report/html.js';
import type { Io } from '../io.js';
import { projectYes } from '../state/allowed.js';
import type { Resolved } from '../state/floor.js';
import { resolveSettings } from '../state/floor.js';
import { DEFAULT_SETTINGS, effectiveSettings, guardHomeFrom } from '../state/settings.js';
import { stepEnvironment } from '../world/environment.js';
import { heldPolicies } from '../world/held-policy.js';
import { createProbe } from '../world/probe.js';
import { findProjectRoot } from '../world/project-root.js';
import { readSystemSettings } from '../world/system-settings.js';

/** A day's counts while the scan adds to them. */
type Day = { -readonly [K in keyof HtmlDay]: HtmlDay[K] };

export interface ScanOptions {
  /** Only these agents (ids); every agent that keeps transcripts when empty. */
  readonly agents: readonly string[];
  /** Only steps from this time on: `30d`, `12h`, `2w` before now, or a date (see sinceTime). */
  readonly since?: string;
  /** Only steps in this folder (relative to the process cwd) or below it. */
  readonly project?: string;
  readonly json: boolean;
  /** `--html <file>`: write the findings as one self-contained HTML page instead. */
  readonly html?: string;
}

/** What guard would have said about one step of a past chat (the `--json` contract). */
export interface ScanFinding {
  readonly time: string | null;
  readonly agent: string;
  readonly chat: string;
  readonly project: string;
  readonly decision: 'block' | 'ask';
  readonly rules: readonly string[];
  readonly reason: string;
  /** The step's text, secrets redacted (and cut to `MAX_TEXT`). */
  readonly text: string;
  /** The parts of `text` the rules flagged. */
  readonly spans: readonly { readonly start: number; readonly end: number }[];
  /** The transcript and line the step is on. */
  readonly where: string;
}

interface Counts {
  steps: number;
  chats: number;
  transcripts: number;
  block: number;
  ask: number;
}

/** `guard scan --json`: one document. */
export interface ScanJson {
  readonly checked: { readonly steps: number; readonly chats: number; readonly transcripts: number };
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  readonly findings: readonly ScanFinding[];
  readonly byAgent: Readonly<Record<string, Counts>>;
  readonly byRule: Readonly<Record<string, { block: number; ask: number }>>;
}

/** A step's text in the output is cut here: a file written in one step can be long. */
const MAX_TEXT = 2_000;

/** V8's budget before it optimises a function (as `guard explain --jsonl`: the engine's cold pass). */
const INTERRUPT_BUDGET = 1024 * 1024;

/**
 * `guard scan`: every tool step the agents attempted in the chats they kept, judged in order, chat
 * by chat, as guard would have answered it (the same engine as `explain`, the settings the hook
 * judges under: the person's held to the system settings floor, its locked rules included; the
 * project policies and project yeses, and each chat's memory kept in memory from a fresh start).
 * It reads and writes nothing else: no chat memory, no log, nothing in the agents' folders.
 */
export async function scan(options: ScanOptions, io: Io): Promise<void> {
  const since = options.since === undefined ? undefined : sinceTime(options.since, Date.now());
  if (options.since !== undefined && since === undefined) {
    throw new GuardError(
      `--since ${options.since} is not a time guard reads.`,
      'Give a number of days, hours or weeks (`--since 30d`, `12h`, `2w`) or a date (`--since 2026-01-31`).',
      ExitCode.Usage,
    );
  }
  const chosen = chosenAgents(options.agents);
  const home = io.home();
  const guardHome = guardHomeFrom(io.env, home);
  const { settings, lockedRules } = await hookSettings(guardHome, io);
  const env = {
    ...stepEnvironment({ env: io.env, home, tmp: io.tmp(), guardHome, systemRoot: io.systemRoot }),
    probe: createProbe(),
  };
  const policyIn = heldPolicies(guardHome, io.err);
  const roots = new Map<string, string>();
  const rootOf = (cwd: string): string => {
    let root = roots.get(cwd);
    if (root === undefined) roots.set(cwd, (root = findProjectRoot(cwd)));
    return root;
  };
  const project = options.project === undefined ? undefined : resolve(io.cwd(), options.project);
  const inProject = (step: ToolStep): boolean =>
    project === undefined ||
    step.cwd === project ||
    step.cwd.startsWith(project.endsWith(sep) ? project : project + sep);
  // the person's yeses for a project, read once per project
  const yeses = new Map<string, (key: string) => boolean>();
  const yesIn = (root: string): ((key: string) => boolean) => {
    let yes = yeses.get(root);
    if (yes === undefined) yeses.set(root, (yes = projectYes(guardHome, root)));
    return yes;
  };
  const inTime = (time: number | undefined): boolean => since === undefined || time === undefined || time >= since;

  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  const skipped: { path: string; reason: string }[] = [];
  const findings: ScanFinding[] = [];
  const byAgent: Record<string, Counts> = {};
  const byRule: Record<string, { block: number; ask: number }> = {};
  // every step counted, per day and agent, for the page's charts (allowed ones included)
  const perDay = new Map<string, Day>();

  for (const adapter of chosen) {
    const place = adapter.files.transcripts;
    const reader = adapter.transcript;
    if (place === undefined || (reader === undefined && place.unreadable === undefined)) continue;
    const counts: Counts = { steps: 0, chats: 0, transcripts: 0, block: 0, ask: 0 };
    const folder = placedPath(adapter.files, place.folder, { home, env: io.env });
    for (const path of chatFiles(folder, place.files)) {
      let text: string;
      try {
        const stat = lstatSync(path);
        // a file last changed before --since holds nothing after it
        if (since !== undefined && stat.mtimeMs < since) continue;
        if (reader === undefined || place.unreadable !== undefined) {
          skipped.push({ path, reason: place.unreadable ?? 'guard has no reader for these files' });
          continue;
        }
        text = readFileSync(path, 'utf8');
      } catch (error) {
        skipped.push({ path, reason: `cannot be read (${error instanceof Error ? error.message : String(error)})` });
        continue;
      }
      const read = reader.read(text);
      if (read.unknown !== undefined) {
        skipped.push({ path, reason: read.unknown });
        continue;
      }
      for (const bad of read.malformed) skipped.push({ path: `${path}:${bad.line}`, reason: bad.reason });
      counts.transcripts += 1;
      // a fresh memory for the chat, kept only while its transcript is read
      const first = read.events.find((event) => event.type === 'step' && event.step.chatId !== '');
      const chatId = first?.type === 'step' ? first.step.chatId : path;
      let chat = newChat(adapter.id, chatId, read.events[0]?.time ?? 0);
      let counted = false;
      for (const event of read.events) {
        if (event.type === 'prompt') {
          chat = apply(chat, onPrompt(chat, event.prompt, settings).change);
          continue;
        }
        if (event.type === 'result') {
          // what the step brought into the chat (untrusted content, a key) raises the bar after it
          const result = {
            agent: adapter.id,
            chatId,
            step: event.step,
            output: event.output,
            ...(event.failed === true ? { failed: true } : {}),
          };
          // a step that failed was not let through by a yes: the person may have said no, so it
          // answers no question the chat asked (the hook hears of no result of a step refused)
          const heard = event.failed === true ? { ...chat, pending: [] } : chat;
          chat = apply(chat, onResult(heard, result, env).change);
          continue;
        }
        const step = { ...event.step, projectRoot: rootOf(event.step.cwd) } as ToolStep;
        let evaluation: Evaluation;
        let settled: Settled;
        try {
          // as the hook: the rules the system settings lock get no allow, project yes or mode
          evaluation = holdLocked(
            evaluate(step, {
              ...env,
              session: viewOf(chat),
              policy: withoutLockedAllows(policyIn(step.projectRoot), lockedRules),
              failClosed: settings.failClosed,
              remembered: rememberedBy(chat, unlockedYes(lockedRules, yesIn(step.projectRoot))),
            }),
            lockedRules,
          );
          settled = settle(
            chat,
            step,
            evaluation,
            { canAsk: true, ask: adapter.capabilities.ask, mode: settings.mode },
            { now: event.time ?? Date.now(), exists: existsSync },
          );
        } catch (error) {
          // guard's own failure on one step is named, never taken for a step that went ahead
          const why = error instanceof Error ? error.message : String(error);
          skipped.push({ path: `${path}:${event.line}`, reason: `guard failed on this step: ${why}` });
          continue;
        }
        chat = apply(chat, settled.change);
        if (!inTime(event.time) || !inProject(step)) continue;
        counts.steps += 1;
        counted = true;
        const { verdict } = settled;
        countDay(perDay, adapter.id, event.time, verdict.decision);
        if (verdict.decision === 'allow') continue;
        counts[verdict.decision] += 1;
        const finding = findingOf({ agent: adapter.id, chat: chatId, path, event, step, evaluation, verdict });
        for (const rule of finding.rules) (byRule[rule] ??= { block: 0, ask: 0 })[finding.decision] += 1;
        findings.push(finding);
      }
      if (counted) counts.chats += 1;
    }
    byAgent[adapter.id] = counts;
  }

  const sum = (key: 'steps' | 'chats' | 'transcripts'): number =>
    Object.values(byAgent).reduce((total, counts) => total + counts[key], 0);
  const result: ScanJson = {
    checked: { steps: sum('steps'), chats: sum('chats'), transcripts: sum('transcripts') },
    skipped,
    findings,
    byAgent,
    byRule,
  };
  if (options.html !== undefined) {
    const path = resolve(io.cwd(), options.html);
    const { renderHtml } = await import('../report/html.js');
    const { writePage } = await import('../report/from-log.js');
    const page = renderHtml({
      title: 'What guard would have done',
      generated: new Date().toISOString(),
      source: 'scan',
      checked: result.checked.steps,
      perDay: [...perDay.values()],
      findings: findings.map((finding) => ({ ...finding, time: finding.time ?? '' })),
      skipped,
    });
    writePage(path, page);
    io.out(`Wrote the scan to ${path}\n`);
    return;
  }
  io.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderScan(result, home));
}

/** One judged step in the per-day counts (a step with no time counts on no day: ''). */
function countDay(
  perDay: Map<string, Day>,
  agent: string,
  time: number | undefined,
  decision: Verdict['decision'],
): void {
  const day = time === undefined ? '' : new Date(time).toISOString().slice(0, 10);
  const key = `${day}\u0000${agent}`;
  const counts = perDay.get(key) ?? { day, agent, allow: 0, ask: 0, block: 0 };
  counts[decision === 'allow' ? 'allow' : decision === 'block' ? 'block' : 'ask'] += 1;
  perDay.set(key, counts);
}

/** The adapters asked for, in the registry's order; an id that names no agent is a usage error. */
function chosenAgents(ids: readonly string[]): Adapter[] {
  for (const id of ids) {
    if (!(AGENT_IDS as readonly string[]).includes(id)) {
      throw new GuardError(
        `guard knows no agent called "${id}".`,
        `Run \`guard scan --agent <id>\` with one of ${AGENT_IDS.join(', ')}.`,
        ExitCode.Usage,
      );
    }
  }
  return AGENT_IDS.filter((id) => ids.length === 0 || ids.includes(id)).map((id) => adapters[id]);
}

/**
 * The settings the hook judges under (hook/step.ts), read only: settings.yaml, else the last good
 * settings, else the strictest, held to the system settings floor (its mode, strict, locked rules).
 */
async function hookSettings(guardHome: string, io: Io): Promise<Resolved> {
  const user = await effectiveSettings(guardHome, { keep: false });
  const system = await readSystemSettings(io.systemRoot);
  const problems = [
    ...(user.problem === undefined ? [] : [user.problem]),
    ...(system.state === 'unreadable' ? [`the system settings ${system.path}: ${system.problem}`] : []),
  ];
  for (const problem of problems) io.err(`guard: warning: ${problem}; the scan answers as the hook would.\n`);
  return resolveSettings(system, user.settings, DEFAULT_SETTINGS);
}

/** The chat files below `folder` whose path (with `/`) matches `files`, sorted; none when there is no folder. */
function chatFiles(folder: string, files: RegExp): string[] {
  let names: string[];
  try {
    names = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names
    .filter((name) => files.test(name.split(sep).join('/')))
    .sort()
    .map((name) => join(folder, name))
    .filter((path) => {
      try {
        return lstatSync(path).isFile();
      } catch {
        return false;
      }
    });
}

/** One flagged step as the output gives it: the text redacted the way the log redacts it, the flagged parts marked. */
function findingOf({
  agent,
  chat,
  path,
  event,
  step,
  evaluation,
  verdict,
}: {
  readonly agent: string;
  readonly chat: string;
  readonly path: string;
  readonly event: Extract<TranscriptEvent, { type: 'step' }>;
  readonly step: ToolStep;
  readonly evaluation: Evaluation;
  readonly verdict: Verdict;
}): ScanFinding {
  const raw = evaluation.text;
  // as the log keeps it: a patch's file lines only, long values of a tool's arguments left out
  const redacted = logText(step, raw);
  const text = redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT - 1)}…` : redacted;
  // a span's ends as they fall in the redacted text: where the text before the end, redacted on its
  // own, stops agreeing with the whole redacted (a secret cut in two may read as another kind); a
  // text the log cuts down (a patch, a tool's arguments) keeps no spans
  const cut = step.kind === 'patch' || step.kind === 'mcp' || step.kind === 'other';
  const at = (offset: number): number =>
    Math.min(redacted === raw ? offset : agreeing(redacted, redactForLog(raw.slice(0, offset))), text.length);
  const spans = cut
    ? []
    : verdict.findings
        .map(({ span }) => ({ start: at(span[0]), end: at(span[1]) }))
        .filter((span) => span.end > span.start);
  return {
    time: event.time === undefined ? null : new Date(event.time).toISOString(),
    agent,
    chat,
    project: step.projectRoot,
    decision: verdict.decision === 'block' ? 'block' : 'ask',
    rules: [...new Set(verdict.findings.map((finding) => finding.ruleId))],
    reason: verdict.findings[0]?.reason ?? '',
    text,
    spans,
    where: `${path}:${event.line}`,
  };
}

/** How many characters two texts have alike from their start. */
function agreeing(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** The text report: what was checked, per agent and per rule, each flagged step, and what was skipped. */
function renderScan(result: ScanJson, home: string): string {
  const short = (path: string): string => tilde(path, home);
  const blocks = result.findings.filter((finding) => finding.decision === 'block').length;
  const asks = result.findings.length - blocks;
  const { steps, chats, transcripts } = result.checked;
  const out = [
    `Checked ${steps} ${plural(steps, 'step')} in ${chats} ${plural(chats, 'chat')} (${transcripts} ${plural(transcripts, 'transcript')}).`,
    `guard would have blocked ${blocks} and asked about ${asks}.`,
  ];
  const agents = Object.entries(result.byAgent).filter(([, counts]) => counts.transcripts > 0);
  if (agents.length > 0) out.push('', 'By agent:');
  for (const [agent, counts] of agents)
    out.push(
      `  ${agent}: ${counts.block} blocked, ${counts.ask} asked, of ${counts.steps} ${plural(counts.steps, 'step')} in ${counts.chats} ${plural(counts.chats, 'chat')}`,
    );
  const rules = Object.entries(result.byRule).sort(
    ([a, x], [b, y]) => y.block + y.ask - (x.block + x.ask) || a.localeCompare(b),
  );
  if (rules.length > 0) out.push('', 'By rule:');
  for (const [rule, counts] of rules) out.push(`  ${rule}: ${counts.block} blocked, ${counts.ask} asked`);
  if (result.findings.length > 0) out.push('', 'Steps:');
  for (const finding of result.findings) {
    out.push(
      `  ${finding.decision} ${finding.rules.join(', ')}  ${finding.time ?? '(no time)'}  ${finding.agent}`,
      `    ${oneLine(finding.text)}`,
      `    ${finding.reason}`,
      `    chat ${finding.chat}, at ${short(finding.where)}`,
    );
  }
  if (result.skipped.length > 0) out.push('', `Not read (${result.skipped.length}):`);
  for (const skip of result.skipped) out.push(`  ${short(skip.path)}: ${skip.reason}`);
  return `${out.join('\n')}\n`;
}

const plural = (count: number, word: string): string => (count === 1 ? word : `${word}s`);

/** A step's text on one line, its control characters shown as `?` and cut to 160 characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ⏎ ').replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?');
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/** `--since`: `30d`, `12h`, `2w` before now, or a date (`2026-01-31`); undefined when it is neither. */
export function sinceTime(value: string, now: number): number | undefined {
  const ago = /^(\d+)([hdw])$/.exec(value.trim());
  if (ago !== null) {
    const hours = { h: 1, d: 24, w: 24 * 7 }[ago[2] as 'h' | 'd' | 'w'];
    return now - Number(ago[1]) * hours * 3_600_000;
  }
  if (!/^\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?$/.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
}
