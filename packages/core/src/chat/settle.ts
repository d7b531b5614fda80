import type { FileEffect } from '../analysis/effects.js';
import type { Evaluation } from '../evaluate.js';
import { keepsYes } from '../evaluate.js';
import type { LockedRules } from '../floor.js';
import { lockedRulesOf } from '../floor.js';
import type { Mode } from '../modes.js';
import { isA } from '../programs/index.js';
import { decideIn, DEFAULT_MODE } from '../modes.js';
import type { Finding, ToolStep, Verdict } from '../types.js';
import type { Change, Draft } from './change.js';
import { NO_CHANGE } from './change.js';
import type { Chat } from './chat.js';
import { approvalCode, fingerprint } from './ids.js';

/** How an agent lets guard ask the person: its own prompt, or block-then-chat (the agent is told to ask in the chat). */
export type AskStyle = 'native' | 'block-then-chat';

/** What the hook knows about the call besides the step. */
export interface Call {
  /** A person can answer a prompt on this event. */
  readonly canAsk: boolean;
  /** How this agent asks. */
  readonly ask: AskStyle;
  /**
   * The agent fires a later event for this same call where a person can be asked: only a block is
   * answered on this one.
   */
  readonly deferred?: boolean;
  /**
   * For agents with no chat-start event: the text that says guard is on (and what the first step's
   * scan found), told with the chat's first asked or blocked step.
   */
  readonly announce?: string;
  /** The person's mode (`guard mode`); standard when absent. */
  readonly mode?: Mode;
  /** The rules the system settings lock: a yes to them is not kept for the project. */
  readonly lockedRules?: LockedRules;
}

/** What a pure decision needs from outside: the time, and whether a path exists now. */
export interface Outside {
  /** ms since epoch. */
  readonly now: number;
  exists(this: void, path: string): boolean;
}

/**
 * How a step's verdict was reached. `memory`: a yes the person gave in this chat let it through;
 * `project`: a yes the person gave for this project; `mode`: the person's mode lets its asks go
 * ahead; `deferred`: left to a later event of the same call; `away`: an ask nobody can answer,
 * sent back as "do it a safer way or leave it out"; `away-undone`: flagged again while nobody can
 * answer, left undone.
 */
export type How = 'rules' | 'memory' | 'project' | 'mode' | 'away' | 'away-undone' | 'deferred';

/** The verdict the agent is answered with, after the chat had its say, and what that changes. */
export interface Settled {
  readonly verdict: Verdict;
  readonly how: How;
  /** For block-then-chat: the code the person can quote to approve. */
  readonly approvalCode?: string;
  /**
   * For an ask: how long the person's yes may last. `once`: that step only (a destructive step, or
   * nothing a yes could be kept by); `longer`: once, for this chat or for this project.
   */
  readonly yesLasts?: 'once' | 'longer';
  /**
   * When a yes lasts longer for part of the step only: the rules a yes covers this one time (they
   * ask again each time), so the ask can say so.
   */
  readonly yesOnceFor?: readonly string[];
  /**
   * When a yes lasts longer: the rules the system settings lock among those it covers (a yes to
   * them lasts for the chat, never for the project), so the ask offers no yes for the project.
   */
  readonly yesNotForProject?: readonly string[];
  /** The mode the step was answered in. */
  readonly mode: Mode;
  /** Asked findings the mode let go ahead. */
  readonly byMode: readonly Finding[];
  /** A sentence added to the reply (this step is now left undone; guard is on). */
  readonly notice?: string;
  /** What to save in the chat once the reply is out. */
  readonly change: Change;
}

/** No objection. */
const GO_AHEAD: Verdict = Object.freeze({ decision: 'allow', findings: [], agentMessage: '', userMessage: '' });

const LEFT_UNDONE =
  'guard flagged this step before and nobody here can approve it, so it is left undone: leave it out and say so in your final reply.';

/**
 * What the chat makes of the rules' verdict on a step (SPEC §5, §6 "ask" and "away", §12), and what
 * the answer changes in the chat. `chat` is the chat as read before the step (undefined: the payload
 * names no chat, so nothing is remembered and the rules' verdict stands, as the mode answers it).
 *
 * - The person's mode answers the rules' asks first (`decideIn`): those it lets go ahead are gone.
 * - An ask the person already let through once (block-then-chat) goes ahead, and that yes is used up.
 * - An ask on block-then-chat gets an approval code, which only the person's next message can quote.
 * - An ask nobody can answer goes back as "do it a safer way or leave it out" the first time, and
 *   is left undone (a block) when the same step is flagged again in the chat.
 * - An ask waits for the person's answer; a step that goes ahead records the files it creates.
 *
 * Nothing here lowers a block, and the verdict never depends on saving: the change is applied
 * after the reply. (Seam for what comes next: a second opinion that may only raise an allow to an
 * ask belongs after the mode's decision and before the ask handling below, with what it needs in
 * `Call`.)
 */
export function settle(
  chat: Chat | undefined,
  step: ToolStep,
  rules: Evaluation,
  call: Call,
  outside: Outside,
): Settled {
  const mode = call.mode ?? DEFAULT_MODE;
  if (call.deferred === true && rules.decision !== 'block') {
    // the agent's own prompt decides later: what the step writes may yet be written
    const wrote = chat === undefined ? [] : writtenFiles(rules.files);
    return { verdict: GO_AHEAD, how: 'deferred', change: wrote.length > 0 ? { wrote } : NO_CHANGE, mode, byMode: [] };
  }
  // the mode's decision first: asks it lets go ahead are gone from here on
  const { evaluation, byMode } = decideIn(mode, rules);
  const byRules: How =
    evaluation.decision !== 'allow'
      ? 'rules'
      : byMode.length > 0
        ? 'mode'
        : evaluation.remembered.length > 0
          ? fromProject(chat, evaluation.remembered)
            ? 'project'
            : 'memory'
          : 'rules';
  if (chat === undefined) return { verdict: evaluation, how: byRules, change: NO_CHANGE, mode, byMode };
  // most steps leave nothing to remember: no fingerprint for them
  const print = evaluation.decision === 'ask' || chat.allowOnce.length > 0 ? fingerprint(step) : '';
  const asked = settleAsk(chat, step, evaluation, call, outside.now, print);
  const verdict = asked.verdict;
  const how = asked.how ?? byRules;
  const announce = call.announce !== undefined && chat.announced !== true && verdict.decision !== 'allow';
  const notice = announce
    ? asked.notice === undefined
      ? call.announce
      : `${call.announce} ${asked.notice}`
    : asked.notice;

  const change: Draft = {};
  if (announce) change.announced = true;
  const allowed = verdict.decision === 'allow';
  // the one-time yes is used up by the step going ahead, whatever let it through
  if (allowed && print !== '' && chat.allowOnce.includes(print)) change.usedOnce = print;
  if (how === 'away' || how === 'away-undone') change.flaggedAway = print;
  // an ask that stands waits for the person's answer (in the chat, or in the agent's own prompt)
  const keys = verdict.decision === 'ask' ? keptKeys(evaluation) : [];
  // a yes kept for some of the step's findings only: the others are named wherever a yes is told
  const once = keys.length > 0 ? notKept(evaluation) : [];
  const locked = lockedRulesOf(call.lockedRules ?? [], keys);
  if (verdict.decision === 'ask') {
    change.asked = {
      code: asked.code ?? '',
      step: print,
      keys,
      rules: evaluation.findings.map((finding) => finding.ruleId),
      ...(once.length > 0 ? { once } : {}),
      time: outside.now,
    };
  }
  if (allowed) {
    const created = newFiles(evaluation.files, outside.exists);
    if (created.length > 0) change.created = created;
  }
  // a step asked about may still run (the person says yes): what it writes is kept either way
  if (verdict.decision !== 'block') {
    const wrote = writtenFiles(evaluation.files);
    if (wrote.length > 0) change.wrote = wrote;
  }
  return {
    verdict,
    how,
    ...(asked.code === undefined ? {} : { approvalCode: asked.code }),
    ...(verdict.decision === 'ask' ? { yesLasts: keys.length > 0 ? 'longer' : 'once' } : {}),
    ...(verdict.decision === 'ask' && once.length > 0 ? { yesOnceFor: once } : {}),
    ...(verdict.decision === 'ask' && locked.length > 0 ? { yesNotForProject: locked } : {}),
    ...(notice === undefined ? {} : { notice }),
    change,
    mode,
    byMode,
  };
}

/**
 * Whether an MCP step's answer lets guard keep its server as known: a go-ahead by the rules (no
 * ask at all), by the person's yes remembered in the chat, or by a yes kept for the project. Not a
 * go-ahead that only passes the question on (`deferred`: the agent's later event decides), nor one
 * the mode gave without asking anybody: then nobody said yes to this server.
 */
export function keepsServer(settled: Pick<Settled, 'verdict' | 'how'>): boolean {
  return (
    settled.verdict.decision === 'allow' &&
    (settled.how === 'rules' || settled.how === 'memory' || settled.how === 'project')
  );
}

/** Whether a yes for the project (not one of this chat's) let a remembered finding through. */
function fromProject(chat: Chat | undefined, remembered: readonly Finding[]): boolean {
  if (chat === undefined) return false;
  return remembered.some((finding) => finding.memoryKey !== undefined && !chat.approved.includes(finding.memoryKey));
}

interface Asked {
  readonly verdict: Verdict;
  readonly how?: How;
  readonly code?: string;
  readonly notice?: string;
}

/** What the chat makes of an ask: a one-time yes, the away rule, an approval code. */
function settleAsk(chat: Chat, step: ToolStep, evaluation: Evaluation, call: Call, now: number, print: string): Asked {
  if (evaluation.decision !== 'ask') return { verdict: evaluation };
  if (chat.allowOnce.includes(print)) return { verdict: GO_AHEAD, how: 'memory' };
  // block-then-chat: a person may answer in the chat, now or when a headless run's chat is
  // resumed, so the step gets a code either way
  const code = call.ask === 'block-then-chat' ? approvalCode(step.chatId, print, now) : undefined;
  const withCode = code === undefined ? {} : { code };
  if (call.canAsk) return { verdict: evaluation, ...withCode };
  if ((chat.away[print] ?? 0) >= 1) {
    return { verdict: { ...evaluation, decision: 'block' }, how: 'away-undone', notice: LEFT_UNDONE };
  }
  return { verdict: evaluation, how: 'away', ...withCode };
}

/**
 * Memory keys of the asked findings that a yes may keep (for the chat or the project): none of a
 * destructive step's, which is allowed once each time.
 */
function keptKeys(evaluation: Evaluation): string[] {
  return [
    ...new Set(
      evaluation.findings.flatMap((finding) =>
        finding.memoryKey !== undefined && keepsYes(finding) ? [finding.memoryKey] : [],
      ),
    ),
  ];
}

/** Rules of the asked findings whose yes is not kept (asked every time, or destructive). */
function notKept(evaluation: Evaluation): string[] {
  return [
    ...new Set(
      evaluation.findings.flatMap((finding) =>
        finding.memoryKey !== undefined && keepsYes(finding) ? [] : [finding.ruleId],
      ),
    ),
  ];
}

/** The files a step writes, creates or edits (by absolute path), that a later step may run. */
function writtenFiles(files: readonly FileEffect[]): string[] {
  const out: string[] = [];
  for (let f = 0; f < files.length; f++) {
    const file = files[f] as FileEffect;
    if (
      (file.op === 'create' || file.op === 'write') &&
      file.path.abs !== '' &&
      // `mkdir`, `touch`: a folder or an empty file holds no code
      !isA(file.by, 'creator') &&
      !out.includes(file.path.abs)
    )
      out.push(file.path.abs);
  }
  return out;
}

/** Files a step will create (they do not exist yet), so that deleting them later goes ahead. */
function newFiles(files: readonly FileEffect[], exists: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of files) {
    if ((file.op === 'create' || file.op === 'write') && file.path.abs && !exists(file.path.abs))
      out.push(file.path.abs);
  }
  return out;
}
