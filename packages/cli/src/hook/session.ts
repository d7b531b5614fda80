// The hook's session layer: per-chat memory (SPEC §5), the shell around core's chat decisions. It
// reads a chat from guard's folder, and records what an event changes in it as a change file of its
// own, so hook processes of one chat never wait on one another; the next read folds the change in,
// and once enough wait, the hook that recorded the last one folds them into the chat's state file
// after its answer. What to remember and what it means is decided in core (`settle`, `onPrompt`,
// `onResult`, `onStart`, `replay`); the files are state/chats.ts's.
import type { HookInput } from '@guard/adapters';
import { AGENTS } from '@guard/adapters/agents';
import { GUARD_ON_NOTICE } from '@guard/adapters/messages';
import type { AgentId, Chat, Change, Decided, Environment, ToolStep } from '@guard/core';
import { ANY_SERVER, changesNothing, observe, onPrompt, onResult, onStart } from '@guard/core';
import type { StartScanResult } from '../world/start-scan.js';
import { keepForProject } from '../state/allowed.js';
import { keepServers } from '../state/servers.js';
import { COMPACT_AT, compactChat, loadChat, recordChange, sweepChatsNow, waitingChanges } from '../state/chats.js';

/**
 * The seam where per-chat memory (SPEC §5) plugs into the hook runtime. Before it judges a step,
 * the runtime asks for the chat as it stands; core's `settle` decides on it, and after the reply is
 * out the runtime hands the chat memory what that answer changes, then lets it tidy up. Events that are not steps
 * (results, chat starts, the person's messages) go to `onEvent`, whose answer is a notice.
 */
export interface SessionLayer {
  /** The chat a step is judged in. */
  forStep(agent: AgentId, step: ToolStep, guardHome: string): ChatMemory | Promise<ChatMemory>;
  /** A result, chat start, message or ignored event: updates memory, may return a notice. */
  onEvent(
    agent: AgentId,
    input: Exclude<HookInput, { type: 'step' }>,
    guardHome: string,
  ): string | undefined | Promise<string | undefined>;
  /** Housekeeping the memory left for after the answer (the runtime calls it once the reply is out). */
  tidy?(): void;
}

/** One chat, as one step sees it. */
export interface ChatMemory {
  /** The chat as read before the step (undefined: the payload names no chat, nothing is remembered). */
  readonly chat?: Chat;
  /** For agents with no chat-start event: the text that says guard is on, for the first flagged step. */
  readonly announce?: string;
  /** Saves what the answer changes in the chat (after the reply is out). */
  save(change: Change): void;
  /**
   * A tool of this MCP server goes ahead: if the chat asked about the server as new or changed,
   * its print is known from now on (kept after the answer), so later chats do not ask again.
   */
  serverRan?(server: string): void;
}

export interface MemoryOptions {
  readonly guardHome: string;
  readonly env: Environment;
  /** Untrusted content raises the bar for the whole chat, not only until the next message. */
  readonly strict: boolean;
  /** The rules the system settings lock: a yes to them is kept for the chat, never for the project. */
  readonly lockedRules?: readonly string[];
  /** Idle chats are forgotten after this long. */
  readonly idleMs: number;
  readonly now?: () => number;
  /** Where housekeeping goes that waits until after the answer (folding change files, sweeping); default: done at once. */
  readonly later?: (task: () => void) => void;
}

/** A chat that remembers nothing and keeps nothing (no chat id, or no session layer). */
export const NO_MEMORY: ChatMemory = { save: () => undefined };

/** No memory at all: every step is judged as the first of a fresh chat. */
export const NO_SESSION: SessionLayer = {
  forStep: () => NO_MEMORY,
  onEvent: () => undefined,
};

/** One chat's memory: read now, without the lock; what a step changes is recorded without one too. */
export function openChat(agent: AgentId, chatId: string, options: MemoryOptions, announce?: string): ChatMemory {
  const now = options.now ?? Date.now;
  const chat = loadChat(options.guardHome, agent, chatId, now(), options.idleMs);
  return {
    chat,
    ...(announce === undefined ? {} : { announce }),
    save(change) {
      // most steps leave nothing to remember: nothing is written
      if (changesNothing(change)) return;
      recordChange(options.guardHome, agent, chatId, now(), change);
      afterAnswer(options, () => tidy(agent, chatId, options));
    },
    serverRan(server) {
      const servers = chat.newServers;
      // an unreadable file's stand-in is no print of a server: nothing becomes known by it
      const print = servers !== undefined && Object.hasOwn(servers, server) ? servers[server] : undefined;
      if (print === undefined || server === ANY_SERVER) return;
      afterAnswer(options, () => keepServers(options.guardHome, agent, [print]));
    },
  };
}

function afterAnswer(options: MemoryOptions, task: () => void): void {
  if (options.later === undefined) task();
  else options.later(task);
}

/**
 * After the answer: folds the chat's change files into its state file when enough wait (and the
 * lock is free: a compaction in progress folds them), and sweeps idle chats once in a while.
 */
function tidy(agent: AgentId, chatId: string, options: MemoryOptions): void {
  const now = options.now ?? Date.now;
  try {
    if (waitingChanges(options.guardHome, agent, chatId) >= COMPACT_AT)
      compactChat(options.guardHome, agent, chatId, now(), options.idleMs);
  } catch {
    // the next read reads the change files as they are (and says so when it cannot)
  }
  sweepChatsNow(options.guardHome, now(), options.idleMs);
}

/**
 * Decides on the chat as it is read, records the change, and returns the decision's notice (the
 * change is recorded before the answer, so the notice, such as "the person approved", holds for
 * the next step).
 */
function decide(
  agent: AgentId,
  chatId: string,
  options: MemoryOptions,
  decision: (chat: Chat) => Decided,
): string | undefined {
  const now = options.now ?? Date.now;
  const decided = decision(loadChat(options.guardHome, agent, chatId, now(), options.idleMs));
  recordChange(options.guardHome, agent, chatId, now(), decided.change);
  if (!changesNothing(decided.change)) afterAnswer(options, () => tidy(agent, chatId, options));
  return decided.notice;
}

/** What a non-step event changes in the chat; returns a notice for the agent or person, if any. */
export function chatEvent(
  agent: AgentId,
  input: Exclude<HookInput, { type: 'step' }>,
  options: MemoryOptions,
  scan?: () => Promise<StartScanResult>,
): Promise<string | undefined> | string | undefined {
  switch (input.type) {
    case 'prompt': {
      let project: Decided['project'];
      const notice = decide(agent, input.chatId, options, (chat) => {
        const decided = onPrompt(chat, input.prompt, options, input.cwd);
        project = decided.project;
        return decided;
      });
      // "yes, for this project": kept in guard's folder for later chats (SPEC §12)
      if (project !== undefined)
        keepForProject(options.guardHome, project.root, project.keys, new Date((options.now ?? Date.now)()));
      return notice;
    }
    case 'result': {
      // read the result before taking the lock: the scan of a long output is the slow part
      const facts = observe(input.result, options.env);
      return decide(agent, input.result.chatId, options, (chat) => onResult(chat, input.result, options.env, facts));
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
  const result = await scan();
  const now = options.now ?? Date.now;
  const decided = onStart(result, now());
  try {
    recordChange(options.guardHome, agent, chat, now(), decided.change);
    afterAnswer(options, () => tidy(agent, chat, options));
  } catch {
    // guard's folder cannot be written (full, read-only): what the scan found still counts for this
    // step, and the chat's next step scans again
  }
  const found = decided.notice;
  return found === undefined ? GUARD_ON_NOTICE : `${GUARD_ON_NOTICE} ${found}`;
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
export function chatSessions(given: SessionOptions): {
  forStep(agent: keyof typeof AGENTS, step: ToolStep): Promise<ChatMemory>;
  onEvent(
    agent: keyof typeof AGENTS,
    input: Exclude<HookInput, { type: 'step' }>,
  ): Promise<string | undefined> | string | undefined;
  tidy(): void;
} {
  // housekeeping waits until the runtime has answered (`tidy`)
  const tasks: (() => void)[] = [];
  const options: SessionOptions = { ...given, later: (task) => void tasks.push(task) };
  const scanner =
    (agent: keyof typeof AGENTS, projectRoot: string, budgetMs: number) => async (): Promise<StartScanResult> => {
      const { scanChatStart } = await import('../world/start-scan.js');
      // what the call spent before (loading the scanner on a busy machine) is taken from the budget,
      // so the scan ends in time for the hook's own deadline
      const timeoutMs = Math.max(0, (options.startedAt ?? Date.now()) + budgetMs - Date.now());
      return scanChatStart({
        agent,
        projectRoot,
        home: options.env.home,
        env: options.scanEnv,
        timeoutMs,
        guardHome: options.guardHome,
      });
    };
  return {
    async forStep(agent, step) {
      // a payload with no chat id has no chat to remember things in
      if (step.chatId === '') return NO_MEMORY;
      const starts = AGENTS[agent].capabilities.startEvent;
      const memory = openChat(agent, step.chatId, options, starts ? undefined : GUARD_ON_NOTICE);
      // no chat-start event: the first step scans, and the first flagged step says guard is on.
      // With one, an MCP step in a chat whose start guard did not see or keep (set up in the middle
      // of the chat, a start that ran out of time) scans too: its server is not taken as checked
      if (memory.chat?.scan !== undefined || (starts && step.kind !== 'mcp')) return memory;
      const found = await startScan(agent, step.chatId, options, scanner(agent, step.projectRoot, FIRST_STEP_SCAN_MS));
      return openChat(agent, step.chatId, options, starts ? undefined : found);
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
    tidy() {
      for (const task of tasks.splice(0)) {
        try {
          task();
        } catch {
          // housekeeping: what it could not do, a later call does
        }
      }
    },
  };
}
