import type { Call, Change, Chat, Outside, Settled } from '../../src/chat/index.js';
import { apply, newChat, onPrompt, onResult, rememberedBy, settle, viewOf } from '../../src/chat/index.js';
import type { Evaluation } from '../../src/evaluate.js';
import { evaluate } from '../../src/evaluate.js';
import type { ExampleStep } from '../../src/rule.js';
import type { ToolResult, ToolStep } from '../../src/types.js';
import { ENV, stepFrom } from '../rule-tester.js';

/**
 * A chat driven through core's decisions alone, as the hook drives it (read → evaluate → settle →
 * answer → save), with the clock and the file system written out: no files, no processes.
 */

export const NOW = 1_700_000_000_000;
export const CHAT = 'chat-1';

/** How each kind of agent call asks. */
export const CODEX: Call = { canAsk: true, ask: 'block-then-chat' };
export const NATIVE: Call = { canAsk: true, ask: 'native' };
/** Nobody can answer: Codex `exec`, Copilot `-p`. */
export const CODEX_AWAY: Call = { canAsk: false, ask: 'block-then-chat' };
export const NATIVE_AWAY: Call = { canAsk: false, ask: 'native' };

/** Nothing exists on this machine yet (every file a step writes is new). */
export const EMPTY_DISK: Outside = { now: NOW, exists: () => false };

export const fresh = (): Chat => newChat('codex', CHAT, NOW);

export const step = (example: ExampleStep): ToolStep => stepFrom(example);

/** The rules' verdict on a step in this chat (its view and its remembered yeses). */
export function rulesOn(chat: Chat | undefined, s: ToolStep): Evaluation {
  return evaluate(s, { ...ENV, session: viewOf(chat), remembered: rememberedBy(chat) });
}

/** One step: the rules, then the chat's say. */
export function judge(chat: Chat | undefined, s: ToolStep, call: Call, outside: Outside = EMPTY_DISK): Settled {
  return settle(chat, s, rulesOn(chat, s), call, outside);
}

/** A chat with its events applied in turn; each step's answer is kept. */
export class Session {
  chat: Chat;
  readonly answers: Settled[] = [];
  readonly notices: (string | undefined)[] = [];
  constructor(chat: Chat = fresh()) {
    this.chat = chat;
  }
  /** A step answered and saved; returns the answer. */
  step(s: ToolStep | ExampleStep, call: Call, outside: Outside = EMPTY_DISK): Settled {
    const settled = judge(this.chat, typeof s === 'object' && 'agent' in s ? s : step(s), call, outside);
    this.save(settled.change);
    this.answers.push(settled);
    return settled;
  }
  /** The person's message; returns its notice. */
  prompt(text: string, strict = false): string | undefined {
    const decided = onPrompt(this.chat, text, { strict });
    this.save(decided.change);
    return decided.notice;
  }
  /** A tool's result; returns its notice. */
  result(s: ToolStep | ExampleStep, output: string, extra: Partial<ToolResult> = {}): string | undefined {
    const ran = typeof s === 'object' && 'agent' in s ? s : step(s);
    const result: ToolResult = { agent: 'codex', chatId: CHAT, step: ran, output, ...extra };
    const decided = onResult(this.chat, result, ENV);
    this.save(decided.change);
    return decided.notice;
  }
  save(change: Change): void {
    this.chat = apply(this.chat, change);
  }
}
