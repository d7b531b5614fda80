import { existsSync } from 'node:fs';
import type { Capabilities, HookInput } from '@guard/adapters';
import { AGENTS } from '@guard/adapters/agents';
import { GUARD_ON_NOTICE } from '@guard/adapters/messages';
import type { AgentId, Environment, Evaluation, SessionView, ToolStep, Verdict } from '@guard/core';
import { buildContext, FRESH_SESSION, isApproval, observe, stepText } from '@guard/core';
import type { ChatState, Pending } from './state.js';
import type { StartScanResult } from './start-scan.js';
import { loadChat, shortHash, updateChat } from './state.js';

/**
 * Per-chat memory (SPEC §5, §6 "ask" and "away"), on top of the chat state store. Everything kept
 * is a yes/no fact, a memory key or a fingerprint: never result text, never a secret value.
 */

/** What the hook knows about the call besides the step. */
export interface CallContext {
  /** A person can answer a prompt on this event. */
  readonly canAsk: boolean;
  /** How this agent asks: a native prompt, or block-then-chat (Codex). */
  readonly ask: Capabilities['ask'];
  /** The agent shows guard its tool results (a yes can be seen from the result arriving). */
  readonly results: boolean;
}

/** The verdict the agent is answered with, after the chat's memory had its say. */
export interface Settled {
  readonly verdict: Verdict;
  /** For block-then-chat: the code the person can quote to approve. */
  readonly approvalCode?: string;
  /** A sentence added to the reply (for example: this step is now left undone). */
  readonly notice?: string;
  /** How it was decided, for the log. */
  readonly how?: 'memory' | 'away-undone' | 'away';
  /** This answer told the chat that guard is on (agents with no chat-start event). */
  readonly announced?: boolean;
}

/** One chat's memory, as one step sees it. */
export interface ChatMemory {
  readonly view: SessionView;
  remembered(memoryKey: string): boolean;
  /** Applies what the chat remembers to an evaluation: a one-time yes, the away rule, an approval code. */
  settle(step: ToolStep, evaluation: Evaluation, call: CallContext): Settled;
  /** Saves what this answer changes in the chat (after the reply is out). */
  record(step: ToolStep, settled: Settled, evaluation: Evaluation): void;
}

export interface MemoryOptions {
  readonly guardHome: string;
  readonly env: Environment;
  /** Untrusted content raises the bar for the whole chat, not only until the next message. */
  readonly strict: boolean;
  /** Idle chats are forgotten after this long. */
  readonly idleMs: number;
  readonly now?: () => number;
  /**
   * For agents with no chat-start event: the first asked or blocked step of a chat also says that
   * guard is on (and what the chat-start scan found), in this text.
   */
  readonly announce?: string;
}

/** A step's identity within a chat: what it does, where (never stored as text). */
export function fingerprint(step: ToolStep): string {
  return shortHash(`${step.kind}\u0000${step.cwd}\u0000${stepText(step)}`, 20);
}

const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A short code, different for each asked step, easy to type. */
function approvalCode(seed: string): string {
  const hash = shortHash(seed, 16);
  let code = '';
  for (let i = 0; i < 4; i++) code += CODE_LETTERS[parseInt(hash.slice(i * 2, i * 2 + 2), 16) % CODE_LETTERS.length];
  return code;
}

/** The part of the chat state rules read. */
export function viewOf(state: ChatState): SessionView {
  const created = new Set(state.createdFiles);
  const poisoned = new Set(state.poisonedServers);
  return {
    createdFiles: created,
    untrusted: state.untrusted,
    injection: state.injection || state.poisonedRules === true,
    keySeen: state.keySeen,
    poisonedServers: poisoned,
    failuresInARow: (command) =>
      state.failure !== undefined && state.failure.command === shortHash(command) ? state.failure.count : 0,
  };
}

const LEFT_UNDONE =
  'guard flagged this step before and nobody here can approve it, so it is left undone: leave it out and say so in your final reply.';

/** Memory keys of the findings a yes may be remembered by. */
function keysOf(evaluation: Evaluation): string[] {
  return [
    ...new Set(
      evaluation.findings.flatMap((finding) =>
        finding.decision === 'ask' && finding.memoryKey !== undefined ? [finding.memoryKey] : [],
      ),
    ),
  ];
}

/** Files a step will create (they do not exist yet), so that deleting them later goes ahead. */
function newFiles(files: Evaluation['files']): string[] {
  const out: string[] = [];
  for (const file of files) {
    if ((file.op === 'create' || file.op === 'write') && file.path.abs && !existsSync(file.path.abs))
      out.push(file.path.abs);
  }
  return out;
}

/** A chat that remembers nothing and keeps nothing (no chat id, or no session layer). */
export const NO_MEMORY: ChatMemory = {
  view: FRESH_SESSION,
  remembered: () => false,
  settle: (_step, evaluation) => ({ verdict: evaluation }),
  record: () => undefined,
};

/** The session layer: one chat's memory for a step, and what events change in it. */
export function chatMemory(agent: AgentId, chat: string, options: MemoryOptions): ChatMemory {
  const now = options.now ?? Date.now;
  const state = loadChat(options.guardHome, agent, chat, now(), options.idleMs);
  const approved = new Set(state.approved);
  const update = (change: (s: ChatState) => void): void => {
    updateChat(options.guardHome, agent, chat, now(), options.idleMs, change);
  };
  /** What the chat's memory makes of an ask: a one-time yes, the away rule, an approval code. */
  const settleAsk = (step: ToolStep, evaluation: Evaluation, call: CallContext): Settled => {
    if (evaluation.decision !== 'ask') return { verdict: evaluation };
    const print = fingerprint(step);
    if (state.allowOnce.includes(print)) {
      return { verdict: { decision: 'allow', findings: [], agentMessage: '', userMessage: '' }, how: 'memory' };
    }
    // block-then-chat (Codex): a person may answer in the chat, now or when a headless run's chat
    // is resumed, so the step gets a code either way
    const code = call.ask === 'block-then-chat' ? approvalCode(`${chat}\u0000${print}\u0000${now()}`) : undefined;
    if (!call.canAsk) {
      if ((state.away[print] ?? 0) >= 1) {
        return { verdict: { ...evaluation, decision: 'block' }, notice: LEFT_UNDONE, how: 'away-undone' };
      }
      return { verdict: evaluation, how: 'away', ...(code === undefined ? {} : { approvalCode: code }) };
    }
    return code === undefined ? { verdict: evaluation } : { verdict: evaluation, approvalCode: code };
  };
  return {
    view: viewOf(state),
    remembered: (key) => approved.has(key),
    settle(step, evaluation, call) {
      const settled = settleAsk(step, evaluation, call);
      if (options.announce === undefined || state.announced === true || settled.verdict.decision === 'allow')
        return settled;
      return {
        ...settled,
        announced: true,
        notice: settled.notice === undefined ? options.announce : `${options.announce} ${settled.notice}`,
      };
    },
    record(step, settled, evaluation) {
      const allowed = settled.verdict.decision === 'allow';
      const created = allowed ? newFiles(evaluation.files) : [];
      const asked = evaluation.decision === 'ask';
      // most steps leave nothing to remember: no fingerprint for them
      const away = settled.how === 'away' || settled.how === 'away-undone';
      if (
        !asked &&
        !away &&
        created.length === 0 &&
        !(allowed && state.allowOnce.length > 0) &&
        settled.announced !== true
      )
        return;
      const print = fingerprint(step);
      const usesOnce = allowed && state.allowOnce.includes(print);
      update((s) => {
        if (settled.announced === true) s.announced = true;
        // the one-time yes is used up by the step going ahead, whatever let it through
        if (usesOnce) s.allowOnce = s.allowOnce.filter((p) => p !== print);
        if (away) s.away[print] = (s.away[print] ?? 0) + 1;
        if (
          settled.how !== 'memory' &&
          settled.how !== 'away-undone' &&
          asked &&
          (settled.verdict.decision === 'ask' || settled.approvalCode !== undefined)
        ) {
          const pending: Pending = {
            code: settled.approvalCode ?? '',
            step: print,
            keys: keysOf(evaluation),
            rules: evaluation.findings.map((finding) => finding.ruleId),
            time: now(),
          };
          s.pending = [...s.pending.filter((p) => p.step !== print), pending];
        }
        for (const path of created) if (!s.createdFiles.includes(path)) s.createdFiles.push(path);
      });
    },
  };
}

/** What a non-step event changes in the chat; returns a notice for the agent or person, if any. */
export function chatEvent(
  agent: AgentId,
  input: Exclude<HookInput, { type: 'step' }>,
  options: MemoryOptions,
  scan?: () => Promise<StartScanResult>,
): Promise<string | undefined> | string | undefined {
  const now = options.now ?? Date.now;
  switch (input.type) {
    case 'prompt': {
      let notice: string | undefined;
      updateChat(options.guardHome, agent, input.chatId, now(), options.idleMs, (s) => {
        const last = s.pending.at(-1);
        // only a question asked in the chat (it has a code) can be answered by a message; an agent's
        // own prompt was answered there, and its result says so
        if (last && last.code !== '' && isApproval(input.prompt, last.code)) {
          s.allowOnce = [...s.allowOnce.filter((p) => p !== last.step), last.step];
          for (const key of last.keys) if (!s.approved.includes(key)) s.approved.push(key);
          notice = `guard: the person approved the step guard asked about (${last.rules.join(', ')}${last.code ? `, code ${last.code}` : ''}); run it again now and it will go ahead once.`;
        }
        // only the person's very next message can approve; whatever it says, the question is closed
        s.pending = [];
        if (!options.strict) {
          s.untrusted = false;
          s.injection = false;
        }
      });
      return notice;
    }
    case 'result': {
      const facts = observe(input.result, options.env);
      const step = input.result.step;
      const print = fingerprint(step);
      let notice: string | undefined;
      updateChat(options.guardHome, agent, input.result.chatId, now(), options.idleMs, (s) => {
        // the asked step ran: the person said yes in the agent's own prompt
        const asked = s.pending.find((p) => p.step === print && p.code === '');
        if (asked) {
          for (const key of asked.keys) if (!s.approved.includes(key)) s.approved.push(key);
          s.pending = s.pending.filter((p) => p !== asked);
        }
        if (facts.untrusted) s.untrusted = true;
        if (facts.keySeen) s.keySeen = true;
        if (facts.injection.length > 0) {
          if (!s.injection)
            notice = `guard: the last tool result shows signs of a prompt injection (${facts.injection.join(', ')}); until the person's next message, every step guard would ask about is blocked.`;
          s.injection = true;
        }
        const command = step.kind === 'shell' ? shortHash(step.command) : undefined;
        if (command !== undefined && facts.failed) {
          s.failure = s.failure?.command === command ? { command, count: s.failure.count + 1 } : { command, count: 1 };
        } else if ((command !== undefined && s.failure?.command === command) || changesFiles(step, options.env)) {
          // it worked, or a file changed: the next try of a failing command is a new attempt
          delete s.failure;
        }
      });
      return notice;
    }
    case 'start':
      return scan === undefined ? GUARD_ON_NOTICE : startScan(agent, input.chatId, options, scan);
    case 'ignore':
      return undefined;
  }
}

/** Runs the chat-start scan, keeps what it found in the chat, and says guard is on (and what it found). */
export async function startScan(
  agent: AgentId,
  chat: string,
  options: MemoryOptions,
  scan: () => Promise<StartScanResult>,
): Promise<string> {
  const now = options.now ?? Date.now;
  const result = await scan();
  updateChat(options.guardHome, agent, chat, now(), options.idleMs, (s) => {
    s.scan = { time: now(), checked: result.checked, found: result.found, unchecked: result.unchecked };
    s.poisonedRules = result.poisonedRules;
    s.poisonedServers = [...new Set([...s.poisonedServers, ...result.poisonedServers])];
  });
  const found = [
    result.poisonedRules
      ? 'a rules file shows signs of a prompt injection, so risky steps are blocked in this chat'
      : '',
    result.poisonedServers.length > 0
      ? `the tools of MCP server ${result.poisonedServers.join(', ')} are blocked (their descriptions show injection signs)`
      : '',
  ].filter(Boolean);
  return found.length === 0
    ? GUARD_ON_NOTICE
    : `${GUARD_ON_NOTICE} At the start of this chat it found that ${found.join('; and ')}.`;
}

function changesFiles(step: ToolStep, env: Environment): boolean {
  if (step.kind === 'write' || step.kind === 'patch') return true;
  if (step.kind !== 'shell') return false;
  return buildContext(step, env).files.some(
    (file) => file.op === 'write' || file.op === 'create' || file.op === 'delete',
  );
}

/** What guard's own session layer needs besides the memory options. */
export interface SessionOptions extends MemoryOptions {
  /** The environment the chat-start scan starts MCP servers with. */
  readonly scanEnv: Readonly<Record<string, string | undefined>>;
  /** When the hook call began (ms since epoch): the scan's budget counts from there. */
  readonly startedAt?: number;
}

/** The scan's budget for MCP servers: at a start event, and inside a first step's hook deadline. */
const START_SCAN_MS = 5_000;
const FIRST_STEP_SCAN_MS = 1_000;

/** guard's session layer (the hook runtime's SessionLayer): chat memory in guard's folder. */
export function chatSessions(options: SessionOptions): {
  forStep(agent: keyof typeof AGENTS, step: ToolStep): Promise<ChatMemory>;
  onEvent(
    agent: keyof typeof AGENTS,
    input: Exclude<HookInput, { type: 'step' }>,
  ): Promise<string | undefined> | string | undefined;
} {
  const scanner =
    (agent: keyof typeof AGENTS, projectRoot: string, budgetMs: number) => async (): Promise<StartScanResult> => {
      const { scanChatStart } = await import('./start-scan.js');
      // what the call spent before (loading the scanner on a busy machine) is taken from the budget,
      // so the scan ends in time for the hook's own deadline
      const timeoutMs = Math.max(0, (options.startedAt ?? Date.now()) + budgetMs - Date.now());
      return scanChatStart({
        agent,
        projectRoot,
        home: options.env.home,
        env: options.scanEnv,
        timeoutMs,
      });
    };
  return {
    async forStep(agent, step) {
      // a payload with no chat id has no chat to remember things in
      if (step.chatId === '') return NO_MEMORY;
      if (AGENTS[agent].capabilities.startEvent) return chatMemory(agent, step.chatId, options);
      // no chat-start event: the first step of a new chat scans (with a shorter budget), and the
      // first flagged step says guard is on
      const state = loadChat(options.guardHome, agent, step.chatId, (options.now ?? Date.now)(), options.idleMs);
      const found =
        state.scan === undefined
          ? await startScan(agent, step.chatId, options, scanner(agent, step.projectRoot, FIRST_STEP_SCAN_MS))
          : undefined;
      return chatMemory(
        agent,
        step.chatId,
        state.announced === true ? options : { ...options, announce: found ?? GUARD_ON_NOTICE },
      );
    },
    onEvent(agent, input) {
      if (input.type !== 'ignore' && (input.type === 'result' ? input.result.chatId : input.chatId) === '') {
        return input.type === 'start' ? GUARD_ON_NOTICE : undefined;
      }
      if (input.type === 'start') {
        return chatEvent(agent, input, options, scanner(agent, input.projectRoot, START_SCAN_MS));
      }
      return chatEvent(agent, input, options);
    },
  };
}
