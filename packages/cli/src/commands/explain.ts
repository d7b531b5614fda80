import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import {
  decideIn,
  evaluate,
  holdLocked,
  isLockedRule,
  quoteWord,
  withoutLockedAllows,
  type LockedRules,
  type Mode,
  type EvaluateOptions,
  type Evaluation,
  type Invocation,
  type ShellStep,
  type Span,
  type Via,
} from '@guard/core';
import type { Io } from '../io.js';
import { heldPolicies } from '../world/held-policy.js';
import { createProbe } from '../world/probe.js';
import { floorOf, modeWithin } from '../state/floor.js';
import { guardHomeFrom } from '../state/settings.js';
import { stepEnvironment } from '../world/environment.js';
import { WIDTH, wrap } from '../text.js';
import { findProjectRoot } from '../world/project-root.js';
import { readSystemSettings } from '../world/system-settings.js';

export interface ExplainOptions {
  /** The command line to explain; undefined with `jsonl`. */
  readonly command: string | undefined;
  /** Print one JSON object instead of text. */
  readonly json: boolean;
  /** Read `{"command", "cwd"?}` objects from stdin, one per line, and print one JSON line for each. */
  readonly jsonl: boolean;
  /** Folder the command runs in, relative to the process cwd; the process cwd when undefined. */
  readonly cwd: string | undefined;
  /**
   * Answer as this mode would (`--mode`), held to the system settings' most permissive mode as the
   * hook holds the person's; the rules' own verdict when undefined.
   */
  readonly mode?: Mode;
}

/** The mode an answer is given in: the one asked for, or the system settings' floor when that is looser. */
interface JudgedMode {
  readonly mode: Mode;
  readonly asked: Mode;
}

/** `guard explain`: the verdict for a shell command, with each finding and invocation and its span. */
export async function explain(options: ExplainOptions, io: Io): Promise<void> {
  const home = io.home();
  const guardHome = guardHomeFrom(io.env, home);
  const env = {
    ...stepEnvironment({ env: io.env, home, tmp: io.tmp(), guardHome, systemRoot: io.systemRoot }),
    probe: createProbe(),
  } as const;
  const cwd = resolve(io.cwd(), options.cwd ?? '.');
  const roots = new Map<string, string>();
  // what the hook would use for this step: the real probe and the project's .guard.yaml, held
  // against the policy guard pinned for the project (read only: explain pins nothing), and the
  // system settings floor: its locked rules get no allow and no mode, its mode is the loosest
  const system = await readSystemSettings(io.systemRoot);
  if (system.state === 'unreadable')
    io.err(
      `guard: warning: the system settings ${system.path}: ${system.problem}; explain answers as the hook would.\n`,
    );
  const floor = floorOf(system);
  const locked = floor.lockedRules;
  const mode: JudgedMode | undefined =
    options.mode === undefined ? undefined : { mode: modeWithin(floor, options.mode), asked: options.mode };
  const policyIn = heldPolicies(guardHome, io.err);
  const optionsFor = (step: ShellStep): EvaluateOptions => ({
    ...env,
    policy: withoutLockedAllows(policyIn(step.projectRoot), locked),
  });
  const judge = (step: ShellStep): Evaluation => holdLocked(evaluate(step, optionsFor(step)), locked);
  const stepFor = (command: string, stepCwd: string): ShellStep => {
    let projectRoot = roots.get(stepCwd);
    if (projectRoot === undefined) roots.set(stepCwd, (projectRoot = findProjectRoot(stepCwd)));
    // the step type needs an agent; no rule looks at it, and no agent is asking here
    return { kind: 'shell', agent: 'explain', toolName: 'explain', chatId: '', cwd: stepCwd, projectRoot, command };
  };

  if (options.jsonl) {
    // Tier up later: over the first few thousand lines V8's optimising compiler cost more than the
    // code it made saved (docs/performance.md, "`guard explain --jsonl`: the engine's cold pass").
    setFlagsFromString(`--interrupt-budget=${JSONL_INTERRUPT_BUDGET}`);
    // one output line per input line, in order, so a caller can zip answers with its questions
    for await (const line of io.stdinLines()) {
      const request = parseRequest(line);
      if (typeof request === 'string') {
        io.out(`${JSON.stringify({ error: request })}\n`);
        continue;
      }
      const step = stepFor(request.command, resolve(cwd, request.cwd ?? '.'));
      let answer: ExplainJson | { error: string };
      try {
        answer = judged(judge(step), step, mode, (e, s) => toJson(e, s, locked));
      } catch (error) {
        answer = { error: `guard failed on this command: ${error instanceof Error ? error.message : String(error)}` };
      }
      io.out(`${JSON.stringify(answer)}\n`);
    }
    return;
  }

  const step = stepFor(options.command ?? '', cwd);
  const evaluation = judge(step);
  io.out(
    options.json
      ? `${JSON.stringify(
          judged(evaluation, step, mode, (e, s) => toJson(e, s, locked)),
          null,
          2,
        )}\n`
      : judged(evaluation, step, mode, (e, s) => renderText(e, s, locked), modeLine),
  );
}

/** V8's budget of work a function does before it is considered for optimising (V8's default on Node 20: 66 KB). */
const JSONL_INTERRUPT_BUDGET = 1024 * 1024;

/**
 * The answer as a mode gives it (`--mode`): the asks the mode lets go ahead are left out of the
 * findings, and named under `byMode`. A mode looser than the system settings allow is answered in
 * theirs, as the hook would (`mode` the one used, `modeAsked` the one asked for). Without `--mode`,
 * the rules' own answer, unchanged.
 */
function judged<T>(
  evaluation: Evaluation,
  step: ShellStep,
  mode: JudgedMode | undefined,
  render: (evaluation: Evaluation, step: ShellStep) => T,
  extra?: (rendered: T, mode: JudgedMode, byMode: readonly string[]) => T,
): T {
  if (mode === undefined) return render(evaluation, step);
  const decided = decideIn(mode.mode, evaluation);
  const byMode = decided.byMode.map((finding) => finding.ruleId);
  const rendered = render(decided.evaluation, step);
  if (extra !== undefined) return extra(rendered, mode, byMode);
  return { ...rendered, mode: mode.mode, ...(mode.asked === mode.mode ? {} : { modeAsked: mode.asked }), byMode };
}

/** `mode: full (lets go ahead: git.push)` under the decision line, and why it is not the one asked for. */
function modeLine(text: string, mode: JudgedMode, byMode: readonly string[]): string {
  const newline = text.indexOf('\n');
  const held =
    mode.asked === mode.mode
      ? ''
      : ` (not ${mode.asked}: the system settings allow at most ${mode.mode}, and the hook judges in it)`;
  const line = `mode: ${mode.mode}${held}${byMode.length > 0 ? ` (lets go ahead: ${[...new Set(byMode)].join(', ')})` : ''}`;
  return `${text.slice(0, newline + 1)}${line}\n${text.slice(newline + 1)}`;
}

/** The JSON answer for one command (SPEC §8, plus the command, where it ran and what could not be read). */
export interface ExplainJson {
  readonly decision: Evaluation['decision'];
  /** With `--mode`: the mode the answer is in, the one asked for where the system settings raised it, and the rules it let go ahead. */
  readonly mode?: Mode;
  readonly modeAsked?: Mode;
  readonly byMode?: readonly string[];
  readonly command: string;
  readonly cwd: string;
  readonly projectRoot: string;
  readonly findings: readonly {
    readonly ruleId: string;
    readonly decision: 'block' | 'ask';
    readonly reason: string;
    readonly saferWay?: string;
    /** The system settings lock its rule: no allow list, project yes or mode lets it go ahead. */
    readonly locked?: true;
    readonly span: Span;
    readonly text: string;
  }[];
  readonly invocations: readonly {
    readonly program: string;
    readonly name: string;
    readonly args: readonly string[];
    readonly env: Invocation['env'];
    readonly redirects: Invocation['redirects'];
    readonly cwd: string;
    readonly cwdKnown: boolean;
    readonly span: Span;
    readonly via: readonly Via[];
    readonly prefixes: Invocation['prefixes'];
    readonly remoteHost: string | null;
    readonly text: string;
  }[];
  readonly opaque: readonly {
    readonly reason: string;
    readonly detail?: string;
    readonly span: Span;
    readonly text: string;
  }[];
}

/**
 * Turns an evaluation into the JSON answer; `text` fields are the spanned slices, for convenience.
 * `locked`: the rules the system settings lock, marked on their findings.
 */
export function toJson(evaluation: Evaluation, step: ShellStep, locked: LockedRules = []): ExplainJson {
  const slice = ([start, end]: Span): string => evaluation.text.slice(start, end);
  return {
    decision: evaluation.decision,
    command: step.command,
    cwd: step.cwd,
    projectRoot: step.projectRoot,
    findings: evaluation.findings.map((f) => ({
      ruleId: f.ruleId,
      decision: f.decision,
      reason: f.reason,
      ...(f.saferWay === undefined ? {} : { saferWay: f.saferWay }),
      ...(isLockedRule(locked, f.ruleId) ? { locked: true as const } : {}),
      span: f.span,
      text: slice(f.span),
    })),
    invocations: evaluation.invocations.map((inv) => ({
      program: inv.program,
      name: inv.name,
      args: inv.args,
      env: inv.env,
      redirects: inv.redirects,
      cwd: inv.cwd,
      cwdKnown: inv.cwdKnown,
      span: inv.span,
      via: inv.via,
      prefixes: inv.prefixes,
      remoteHost: inv.remoteHost ?? null,
      text: slice(inv.span),
    })),
    opaque: evaluation.opaque.map((o) => ({
      reason: o.reason,
      ...(o.detail === undefined ? {} : { detail: o.detail }),
      span: o.span,
      text: slice(o.span),
    })),
  };
}

const INDENT = '     ';
const LOCKED_LINE = 'Locked by the system settings: no allow list, project yes or mode lets it go ahead.';

/** Renders an evaluation for a person: the decision first, then findings, unreadable parts and invocations. */
export function renderText(evaluation: Evaluation, step: ShellStep, locked: LockedRules = []): string {
  const { text } = evaluation;
  const starts = lineStarts(text);
  const out = [evaluation.decision, `cwd: ${step.cwd}`];

  if (evaluation.findings.length > 0) out.push('', `Findings (${evaluation.findings.length})`);
  evaluation.findings.forEach((f, i) => {
    out.push(`  ${i + 1}. ${f.decision} ${f.ruleId}`, ...wrap(f.reason, INDENT));
    if (isLockedRule(locked, f.ruleId)) out.push(...wrap(LOCKED_LINE, INDENT));
    if (f.saferWay) out.push(...wrap(`Safer: ${f.saferWay}`, INDENT));
    out.push(...markSpan(text, starts, f.span));
  });

  if (evaluation.opaque.length > 0) out.push('', `Could not be read (${evaluation.opaque.length})`);
  evaluation.opaque.forEach((o, i) => {
    out.push(`  ${i + 1}. ${o.reason}${o.detail ? `: ${o.detail}` : ''}`, ...markSpan(text, starts, o.span));
  });

  out.push('', `Invocations (${evaluation.invocations.length})`);
  evaluation.invocations.forEach((inv, i) => {
    out.push(`  ${i + 1}. ${commandLine(inv)}`, `${INDENT}cwd: ${inv.cwd}${inv.cwdKnown ? '' : ' (best guess)'}`);
    if (inv.via.length > 0) out.push(`${INDENT}via: ${inv.via.map(viaLabel).join(' → ')}`);
    if (inv.prefixes.length > 0) {
      out.push(
        `${INDENT}prefixes: ${inv.prefixes.map((p) => [p.name, ...p.args].map((word) => quoteWord(word)).join(' ')).join(', ')}`,
      );
    }
    if (inv.remoteHost !== undefined) out.push(`${INDENT}runs on: ${inv.remoteHost}`);
    if (inv.redirects.length > 0) {
      const redirects = inv.redirects.map((r) => `${r.op} ${quoteWord(r.target)}${r.write ? ' (writes)' : ''}`);
      out.push(`${INDENT}redirects: ${redirects.join(', ')}`);
    }
    out.push(...markSpan(text, starts, inv.span));
  });
  if (evaluation.invocations.length === 0) out.push('  (none)');

  return `${out.map((line) => clip(printable(line))).join('\n')}\n`;
}

/**
 * Two lines: the source line holding the span (or an 80-column window of it), prefixed with
 * `line:column`, and a marker line with `^` under the span.
 */
function markSpan(text: string, starts: readonly number[], span: Span): [string, string] {
  const start = Math.min(Math.max(span[0], 0), text.length);
  const line = lineIndex(starts, start);
  const lineStart = starts[line] ?? 0;
  const next = starts[line + 1];
  const lineEnd = next === undefined ? text.length : next - 1;
  // a span that runs on past its first line is marked to the end of that line
  const markEnd = Math.max(Math.min(span[1], lineEnd), start + 1);

  const gutter = `${INDENT}${line + 1}:${start - lineStart + 1} | `;
  const room = WIDTH - gutter.length;
  let from = lineStart;
  let to = lineEnd;
  if (lineEnd - lineStart > room) {
    from = Math.max(lineStart, Math.min(start - 8, lineEnd - room));
    to = Math.min(lineEnd, from + room);
  }
  let source = text.slice(from, to);
  if (from > lineStart) source = `…${source.slice(1)}`;
  if (to < lineEnd) source = `${source.slice(0, -1)}…`;
  const visibleEnd = to < lineEnd ? to - 1 : to + 1;
  const carets = '^'.repeat(Math.max(Math.min(markEnd, visibleEnd) - start, 1));
  return [`${gutter}${source}`, `${' '.repeat(gutter.length - 2)}| ${' '.repeat(start - from)}${carets}`];
}

/** Offsets where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Index of the line holding `offset` (binary search: a huge command may have many spans). */
function lineIndex(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

function commandLine(inv: Invocation): string {
  const assignments = Object.entries(inv.env).map(([name, value]) => `${name}=${quoteWord(value)}`);
  return [...assignments, ...[inv.program, ...inv.args].map((word) => quoteWord(word))].join(' ');
}

function viaLabel(via: Via): string {
  if (via.kind !== 'shell-c') return via.name;
  if (via.name === 'cmd') return 'cmd /c';
  if (via.name === 'pwsh' || via.name === 'powershell') return `${via.name} -Command`;
  return `${via.name} -c`;
}

// One character in, one character out, so markers stay aligned: control and bidi characters
// would otherwise move the cursor or reorder what a person sees.
function printable(line: string): string {
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) =>
    c === '\t' || c === '\r' ? ' ' : '?',
  );
}

function clip(line: string): string {
  return line.length > WIDTH ? `${line.slice(0, WIDTH - 1)}…` : line;
}

/** A request line of `--jsonl`, or a message saying what is wrong with it. */
function parseRequest(line: string): { command: string; cwd?: string } | string {
  if (line.trim() === '') return 'empty line: expected a JSON object such as {"command": "git status"}';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'expected a JSON object such as {"command": "git status"}';
  }
  const { command, cwd } = value as Record<string, unknown>;
  if (typeof command !== 'string') return '"command" must be a string';
  if (command.trim() === '') return '"command" is empty';
  if (cwd !== undefined && typeof cwd !== 'string') return '"cwd" must be a string when given';
  return cwd === undefined ? { command } : { command, cwd };
}
