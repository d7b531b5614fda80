import { mcpArgSteps } from './analysis/mcp-args.js';
import { buildContext } from './context/build.js';
import type { Environment, FileEffect } from './context/types.js';
import { globMatch, isInside } from './facts/paths.js';
import type { Policy } from './policy.js';
import { EMPTY_POLICY } from './policy.js';
import type { Hit, Probe, Rule, RuleContext, SessionView } from './rule.js';
import { rules as builtinRules } from './rules/index.js';
import type { Invocation, Opaque } from './shell/types.js';
import type { Decision, Finding, McpStep, Span, ToolStep, Verdict } from './types.js';

export type { Environment } from './context/types.js';

export interface EvaluateOptions extends Environment {
  readonly probe?: Probe;
  readonly session?: SessionView;
  readonly policy?: Policy;
  /** The catalogue to run (default: every built-in rule). */
  readonly rules?: readonly Rule[];
  /**
   * Whether the person already said yes to this memory key in this chat; asked only for a finding
   * whose yes is kept (`keepsYes`), so a yes kept by mistake never lets a destructive ask through.
   */
  readonly remembered?: (memoryKey: string) => boolean;
  /** fail-closed: what cannot be read is blocked rather than asked. */
  readonly failClosed?: boolean;
}

/** A verdict plus what the engine read to reach it (for `guard explain` and the log). */
export interface Evaluation extends Verdict {
  /** The step text every span indexes into (see stepText). */
  readonly text: string;
  readonly invocations: readonly Invocation[];
  readonly opaque: readonly Opaque[];
  /** Every file the step reads, writes, creates or deletes (the session remembers what it creates). */
  readonly files: readonly FileEffect[];
  /** Findings that a previous yes in this chat let through. */
  readonly remembered: readonly Finding[];
}

/** Memory scopes under which a yes is never kept. */
const NOT_REMEMBERED = new Set(['never', 'every-time', 'until-next-message']);

/**
 * Runs every rule on the step and returns all findings, most severe first. Block beats ask
 * beats allow; ties keep catalogue order. Pure: all outside knowledge comes in `options`.
 */
export function evaluate(step: ToolStep, options: EvaluateOptions): Evaluation {
  // one plain copy, read instead of options built with a spread (docs/performance.md, "Field by field, not by spread")
  const own: EvaluateOptions = Object.assign({}, options);
  const {
    policy = EMPTY_POLICY,
    rules: ruleList = builtinRules,
    probe,
    session,
    remembered: isRemembered,
    failClosed,
  } = own;
  const context = buildContext(step, own, probe, session, policy.secrets);
  let findings: Finding[] = [];
  const later: Rule[] = [];
  // index loops on this path (docs/performance.md, "Index loops, not for-of")
  for (let r = 0; r < ruleList.length; r++) {
    const rule = ruleList[r] as Rule;
    if (rule.after) {
      later.push(rule);
      continue;
    }
    if (!mayApply(rule, context)) continue;
    const hits = rule.check(context);
    // most rules return an empty array: an index loop, as above
    for (let h = 0; h < hits.length; h++) {
      const hit = hits[h] as Hit;
      if (isAllowedByPolicy(rule, hit, policy, context)) continue;
      findings.push(hit.unchecked === true ? uncheckedFinding(rule, hit, failClosed === true) : toFinding(rule, hit));
    }
  }
  findings.push(...policyFindings(policy, context));
  findings.push(...chatCodeFindings(ruleList, policy, context, failClosed === true));
  if (step.kind === 'mcp') findings.push(...mcpArgFindings(step, own, ruleList, policy, context, failClosed === true));
  const unknown = context.unknownRunners();
  if (unknown !== undefined)
    findings.push(...unknownRunnerFindings(ruleList, policy, unknown, findings, failClosed === true));

  const remembered: Finding[] = [];
  if (isRemembered) {
    findings = findings.filter((finding) => {
      const key = finding.memoryKey;
      if (key !== undefined && keepsYes(finding) && isRemembered(key)) {
        remembered.push(finding);
        return false;
      }
      return true;
    });
  }
  // in place, not a new array per step for a rare change (docs/performance.md, "Findings")
  for (let f = 0; f < findings.length; f++) {
    const finding = findings[f] as Finding;
    if (
      finding.decision === 'ask' &&
      (policy.block.includes(finding.ruleId) || (failClosed === true && finding.ruleId === 'shell.opaque'))
    ) {
      findings[f] = { ...finding, decision: 'block', remember: 'never' };
    }
  }
  for (let r = 0; r < later.length; r++) {
    const rule = later[r] as Rule;
    for (const hit of rule.after?.(findings, context) ?? []) findings.push(toFinding(rule, hit));
  }
  findings = sortFindings(findings);
  const decision: Decision = findings[0]?.decision ?? 'allow';
  const message = describe(findings);
  return {
    decision,
    findings,
    agentMessage: message,
    userMessage: message,
    text: context.text,
    invocations: context.invocations,
    opaque: context.opaque,
    files: context.files,
    remembered,
  };
}

/**
 * Rules that are about the chat or the step as the agent typed it, not about what code does: not
 * run on code the chat wrote (a key in a file is that file's content; the chat's own state is
 * judged once, on the step).
 */
const NOT_ON_CODE = new Set([
  'secrets.in-command',
  'session.after-injection',
  'session.after-untrusted',
  'session.third-try',
  'mcp.changes',
  'mcp.poisoned-server',
]);

/**
 * The code this chat wrote that the step runs, judged as steps run by this one: each finding as
 * if the code were typed, pointing at the command that runs it and saying what it runs.
 */
function chatCodeFindings(
  ruleList: readonly Rule[],
  policy: Policy,
  context: RuleContext,
  failClosed: boolean,
): Finding[] {
  const code = context.chatCode();
  if (code.length === 0) return [];
  const out: Finding[] = [];
  for (const piece of code) {
    const inner = piece.context;
    if (inner === undefined) continue;
    for (const finding of innerFindings(ruleList, policy, inner, failClosed))
      out.push({
        ...finding,
        span: piece.invocation.span,
        reason: `This step runs ${piece.label}, which this chat wrote: ${finding.reason}`,
      });
  }
  return out;
}

/** What the catalogue finds in a step the judged one runs (but the rules about the chat or the step as typed). */
function innerFindings(ruleList: readonly Rule[], policy: Policy, inner: RuleContext, failClosed: boolean): Finding[] {
  const found: Finding[] = [];
  for (const rule of ruleList) {
    if (rule.after || NOT_ON_CODE.has(rule.meta.id) || !mayApply(rule, inner)) continue;
    for (const hit of rule.check(inner)) {
      if (isAllowedByPolicy(rule, hit, policy, inner)) continue;
      found.push(hit.unchecked === true ? uncheckedFinding(rule, hit, failClosed) : toFinding(rule, hit));
    }
  }
  found.push(...policyFindings(policy, inner));
  return found;
}

/**
 * An MCP call whose arguments are a command or a file write (mcpArgSteps()): each judged as that
 * step, its findings pointing at the argument and saying so, so the call takes the strictest verdict.
 */
function mcpArgFindings(
  step: McpStep,
  env: EvaluateOptions,
  ruleList: readonly Rule[],
  policy: Policy,
  context: RuleContext,
  failClosed: boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const arg of mcpArgSteps(step, context.text)) {
    const inner = buildContext(arg.step, env, context.probe, context.session, policy.secrets);
    const what = arg.step.kind === 'shell' ? 'a command it runs' : 'a file it writes';
    for (const finding of innerFindings(ruleList, policy, inner, failClosed))
      out.push({ ...finding, span: arg.span, reason: `This MCP call's "${arg.name}" is ${what}: ${finding.reason}` });
  }
  return out;
}

/**
 * What the step does when the programs guard does not know run the commands their words start
 * (`mytool git push --force`): the findings the step's own reading does not have, each at most an
 * ask (guard cannot tell whether the program runs them), its reason saying through what. A
 * block's ask is asked every time, in every mode; guard.tamper stays a block, however guard is
 * reached (SPEC §4.1: the agent never switches guard off, and no tool needs `guard off` as words).
 */
function unknownRunnerFindings(
  ruleList: readonly Rule[],
  policy: Policy,
  wider: RuleContext,
  own: readonly Finding[],
  failClosed: boolean,
): Finding[] {
  const seen = new Set(own.map(findingKey));
  const found: Finding[] = [];
  for (const rule of ruleList) {
    if (rule.after || !mayApply(rule, wider)) continue;
    for (const hit of rule.check(wider)) {
      if (isAllowedByPolicy(rule, hit, policy, wider)) continue;
      found.push(hit.unchecked === true ? uncheckedFinding(rule, hit, failClosed) : toFinding(rule, hit));
    }
  }
  found.push(...policyFindings(policy, wider));
  const out: Finding[] = [];
  for (const finding of found) {
    if (seen.has(findingKey(finding))) continue;
    const through = guessedRunner(wider, finding.span);
    const reason =
      through === undefined
        ? finding.reason
        : `This may run \`${shortened(wider.text.slice(through.inv.span[0], through.inv.span[1]))}\` through \`${through.name}\`, which guard does not know: ${finding.reason}`;
    if (finding.decision === 'ask' || finding.ruleId === 'guard.tamper') out.push({ ...finding, reason });
    else {
      // a block's finding carries no memory key: its ask is asked every time
      const { memoryKey: _never, ...rest } = finding;
      out.push({
        ...rest,
        decision: failClosed ? 'block' : 'ask',
        reason,
        remember: 'never',
        asksInEveryMode: 'worst-case',
      });
    }
  }
  return out;
}

const findingKey = (finding: Finding): string =>
  `${finding.ruleId}\u0000${finding.span[0]}\u0000${finding.span[1]}\u0000${finding.memoryKey ?? ''}`;

/**
 * The command a program guard does not know may run where the finding is (the closest around it,
 * else the first such), and that program.
 */
function guessedRunner(context: RuleContext, span: Span): { inv: Invocation; name: string } | undefined {
  let first: { inv: Invocation; name: string } | undefined;
  let around: { inv: Invocation; name: string } | undefined;
  for (const inv of context.invocations) {
    const last = inv.via[inv.via.length - 1];
    if (last?.guessed !== true) continue;
    const found = { inv, name: last.name };
    first ??= found;
    const within = inv.span[0] <= span[0] && span[1] <= inv.span[1];
    if (within && (around === undefined || inv.span[1] - inv.span[0] < around.inv.span[1] - around.inv.span[0]))
      around = found;
  }
  return around ?? first;
}

/** At most 60 characters of a command, for a reason. */
function shortened(command: string): string {
  return command.length <= 60 ? command : `${command.slice(0, 59)}…`;
}

/** False when the rule names its programs and this shell step runs none of them (see Rule.programs). */
function mayApply(rule: Rule, context: RuleContext): boolean {
  const programs = rule.programs;
  if (programs === undefined || context.step.kind !== 'shell') return true;
  const invocations = context.invocations;
  for (let i = 0; i < invocations.length; i++) if (programs.has((invocations[i] as Invocation).name)) return true;
  return false;
}

function toFinding(rule: Rule, hit: Hit): Finding {
  const { meta } = rule;
  const scope = hit.remember ?? meta.remember;
  const remember =
    NOT_REMEMBERED.has(scope) || meta.decision === 'block'
      ? undefined
      : scope === 'chat'
        ? `${meta.id}:${hit.key ?? 'chat'}`
        : hit.key === undefined
          ? undefined
          : `${meta.id}:${hit.key}`;
  const base = hit.reason ?? meta.reason;
  const reason = hit.detail === undefined ? base : withDetail(base, hit.detail);
  const concern = meta.concern;
  // two plain literals rather than a spread in the middle (a field after a spread is defined by a runtime call)
  const finding: Finding =
    remember === undefined
      ? { ruleId: meta.id, decision: meta.decision, reason, span: hit.span, remember: 'never', concern }
      : {
          ruleId: meta.id,
          decision: meta.decision,
          reason,
          span: hit.span,
          memoryKey: remember,
          remember: 'chat',
          concern,
        };
  if (hit.unresolved !== true && meta.asksInEveryMode === undefined) return finding;
  return {
    ...finding,
    ...(meta.asksInEveryMode === undefined ? {} : { asksInEveryMode: meta.asksInEveryMode }),
    ...(hit.unresolved === true ? { unresolved: true } : {}),
  };
}

/**
 * SPEC §7: a probe that could not tell never makes a rule conclude "safe". The step is asked (blocked
 * under fail-closed), every time, and the reason says what guard could not check.
 */
function uncheckedFinding(rule: Rule, hit: Hit, failClosed: boolean): Finding {
  const { meta } = rule;
  const what = hit.detail ?? 'git did not answer in time';
  const reason =
    hit.reason ??
    `guard could not check in time whether this is ${meta.title} (${what}), so it asks rather than let it through; look before saying yes.`;
  // unresolved: no mode lets an ask through that guard could not check (SPEC §12)
  return {
    ruleId: meta.id,
    decision: failClosed ? 'block' : 'ask',
    reason,
    span: hit.span,
    remember: 'never',
    concern: meta.concern,
    ...(meta.asksInEveryMode === undefined ? {} : { asksInEveryMode: meta.asksInEveryMode }),
    unresolved: true,
  };
}

/** `Installing an unlisted package runs its code.` + `left-pad` → `… runs its code (left-pad).` */
function withDetail(reason: string, detail: string): string {
  return reason.endsWith('.') ? `${reason.slice(0, -1)} (${detail}).` : `${reason} (${detail})`;
}

/**
 * Most severe first (stable, so catalogue order is kept within a decision), without repeats: the
 * same rule on the same part once, and no ask about a part a block already covers.
 */
function sortFindings(findings: readonly Finding[]): Finding[] {
  // most steps have no finding or one: nothing to order or drop
  if (findings.length < 2) return [...findings];
  // a stable two-way split, not Array.prototype.sort (docs/performance.md, "Findings")
  const ordered: Finding[] = [];
  for (const finding of findings) if (finding.decision === 'block') ordered.push(finding);
  for (const finding of findings) if (finding.decision !== 'block') ordered.push(finding);
  const seen = new Set<string>();
  const blocked = new Set<string>();
  return ordered.filter((finding) => {
    const part = `${finding.span[0]}\u0000${finding.span[1]}`;
    // one rule on one span once, unless it is about different things (a loop's command, once per word)
    const key = `${finding.ruleId}\u0000${part}\u0000${finding.memoryKey ?? ''}`;
    if (seen.has(key) || (finding.decision === 'ask' && blocked.has(part))) return false;
    seen.add(key);
    if (finding.decision === 'block') blocked.add(part);
    return true;
  });
}

/** A path-scoped allow in the project policy (never for block rules). */
function isAllowedByPolicy(rule: Rule, hit: Hit, policy: Policy, context: RuleContext): boolean {
  if (rule.meta.decision === 'block' || policy.allow.length === 0) return false;
  for (const entry of policy.allow) {
    if (entry.rule !== rule.meta.id) continue;
    const target = hit.path;
    const root = context.pathContext.projectRoot;
    // a project's file speaks for the project only: no glob (`**`, `/**`, `../**`), and no allow
    // without paths, reaches outside it
    if (target !== undefined && (!isInside(target, root) || target === root)) continue;
    if (entry.paths.length === 0) return true;
    if (target === undefined) continue;
    const relative = target.slice(root.length).replace(/^\/+/, '');
    if (entry.paths.some((glob) => globMatch(glob, relative))) return true;
  }
  return false;
}

/**
 * Whether a yes to a finding may be kept beyond its step (for the chat or the project), and so
 * looked up: an ask's with a memory key, never a destructive ask's, which is allowed once each
 * time (SPEC §12).
 */
export function keepsYes(finding: Finding): boolean {
  return finding.decision === 'ask' && finding.memoryKey !== undefined && finding.concern !== 'destructive';
}

/** The project's own simple rules (guard cannot place what they are about: no concern, so no mode lets them go ahead). */
function policyFindings(policy: Policy, context: RuleContext): Finding[] {
  const out: Finding[] = [];
  for (const rule of policy.rules) {
    for (const inv of context.invocations) {
      if (inv.name !== rule.program || !wordsInOrder(inv.args, rule.args)) continue;
      out.push({
        ruleId: rule.id,
        decision: rule.decision,
        reason: rule.reason,
        span: inv.span,
        remember: 'never',
        concern: undefined,
      });
    }
  }
  return out;
}

function wordsInOrder(args: readonly string[], pattern: readonly string[]): boolean {
  let at = 0;
  for (const word of pattern) {
    while (at < args.length && !wildcard(word, args[at] ?? '')) at++;
    if (at >= args.length) return false;
    at++;
  }
  return true;
}

/** `*` matches any run of characters (including `/`); everything else literally. */
function wildcard(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!value.startsWith(first) || value.length < first.length + last.length) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = value.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return value.endsWith(last) && value.length - last.length >= at;
}

/** One line per finding: `[rule.id] reason`. */
export function describe(findings: readonly Finding[]): string {
  if (findings.length === 0) return '';
  return findings.map((finding) => `[${finding.ruleId}] ${finding.reason}`).join('\n');
}
