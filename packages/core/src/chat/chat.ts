import { FRESH_SESSION } from '../context/build.js';
import type { SessionView } from '../rule.js';
import type { ChatOpinion } from '../second-opinion/types.js';
import { commandId } from './ids.js';
import { printToAsk, whyUnchecked } from './servers.js';

/**
 * What guard remembers about one chat (SPEC §5), as plain data: this is also the format of the
 * chat's state file (`v: 1`), so a field is only ever added, and only as an optional one. Never
 * result text, never a secret value: steps are kept as fingerprints (hashes) and memory keys, which
 * name destinations, packages, paths, hosts, servers or file hashes.
 */
export interface Chat {
  readonly v: 1;
  readonly agent: string;
  readonly chat: string;
  /** ms since epoch. */
  readonly created: number;
  readonly updated: number;
  /** Memory keys the person said yes to in this chat. */
  readonly approved: readonly string[];
  /** Step fingerprints a person's yes lets through exactly once (block-then-chat). */
  readonly allowOnce: readonly string[];
  /** Asked steps waiting for the person's answer. */
  readonly pending: readonly Pending[];
  /** Absolute paths of files the agent created in this chat. */
  readonly createdFiles: readonly string[];
  /** Absolute paths of files the agent wrote, created or edited in this chat (newest last). */
  readonly wroteFiles?: readonly string[];
  /** Untrusted content was read since the person's last message. */
  readonly untrusted: boolean;
  /** A result showed injection signs (since the person's last message, unless strict). */
  readonly injection: boolean;
  /** A key-shaped value came back in a result. */
  readonly keySeen: boolean;
  /** MCP servers whose tool descriptions showed injection signs at chat start. */
  readonly poisonedServers: readonly string[];
  /**
   * MCP servers new or changed since guard last let one of their tools run, found at chat start:
   * name → print (`*`: an MCP file could not be read). Each asks before its first use (mcp.changes).
   */
  readonly newServers?: Readonly<Record<string, string>>;
  /**
   * Local MCP servers whose tool descriptions guard could not read (at chat start, or when it tried
   * again at a call of one of their tools): name → why. Their tools ask until a scan reads them.
   */
  readonly uncheckedServers?: Readonly<Record<string, string>>;
  /** A rules or memory file the agent loads showed injection signs at chat start (lasts the chat). */
  readonly poisonedRules?: boolean;
  /** The chat was told that guard is on (agents with no chat-start event). */
  readonly announced?: boolean;
  /** The chat-start scan ran (with what it found and could not check, for the report). */
  readonly scan?: StartScan;
  /** Steps flagged while nobody could be asked, by fingerprint: how many times. */
  readonly away: Readonly<Record<string, number>>;
  /** The last failing command (by hash) and how often in a row it failed with no file changed since. */
  readonly failure?: { readonly command: string; readonly count: number };
  /** The second opinion in this chat: judgements sent this turn, and answers by step and request. */
  readonly opinion?: ChatOpinion;
}

/** A question waiting for the person. */
export interface Pending {
  /** Short code the person can quote to approve ('' when the agent's own prompt asked). */
  readonly code: string;
  /** Fingerprint of the asked step. */
  readonly step: string;
  /** Memory keys of the asked findings that a yes may keep (never a destructive step's: once only). */
  readonly keys: readonly string[];
  readonly rules: readonly string[];
  /**
   * When `keys` keep a yes to part of the step only: the rules whose findings no yes is kept for
   * (they ask every time, or the step is destructive), so a yes covers them this one time.
   */
  readonly once?: readonly string[];
  readonly time: number;
}

/**
 * `pkg.unlisted asks again each time` or `a and b ask again each time`: what a yes to a step does
 * not cover beyond this one time, in the sentences that say how long it lasts.
 */
export function asksEachTime(rules: readonly string[]): string {
  return `${named(rules)} ${rules.length === 1 ? 'asks' : 'ask'} again each time`;
}

/**
 * `a yes for this project is not kept for git.push, which the organisation's system settings lock`:
 * said wherever a yes for the project would be offered or was given for a step with a locked rule.
 */
export function notKeptForProject(rules: readonly string[]): string {
  return `a yes for this project is not kept for ${named(rules)}, which the organisation's system settings lock, so later chats ask again`;
}

/** `a`, `a and b`, `a, b and c`. */
function named(rules: readonly string[]): string {
  return rules.length <= 1 ? rules.join('') : `${rules.slice(0, -1).join(', ')} and ${rules.at(-1) ?? ''}`;
}

/** What the chat-start scan read, found and could not check (names and signs only, never text). */
export interface StartScan {
  readonly time: number;
  readonly checked: readonly string[];
  readonly found: readonly string[];
  readonly unchecked: readonly string[];
}

/** A chat with nothing remembered yet. */
export function newChat(agent: string, chat: string, now: number): Chat {
  return {
    v: 1,
    agent,
    chat,
    created: now,
    updated: now,
    approved: [],
    allowOnce: [],
    pending: [],
    createdFiles: [],
    untrusted: false,
    injection: false,
    keySeen: false,
    poisonedServers: [],
    away: {},
  };
}

/** A chat nobody touched for longer than `idleMs` is forgotten: the next event starts a new one. */
export function isIdle(chat: Chat, now: number, idleMs: number): boolean {
  return now - chat.updated > idleMs;
}

/** The most a chat keeps of each list; the oldest entries go first. */
export const CHAT_LIMITS = {
  approved: 500,
  allowOnce: 50,
  pending: 20,
  createdFiles: 2000,
  wroteFiles: 500,
  away: 200,
  list: 200,
} as const;

/** The chat within its limits, however long it ran (the same object when nothing is over). */
export function withinLimits(chat: Chat): Chat {
  const away = Object.keys(chat.away);
  if (
    chat.approved.length <= CHAT_LIMITS.approved &&
    chat.allowOnce.length <= CHAT_LIMITS.allowOnce &&
    chat.pending.length <= CHAT_LIMITS.pending &&
    chat.createdFiles.length <= CHAT_LIMITS.createdFiles &&
    (chat.wroteFiles?.length ?? 0) <= CHAT_LIMITS.wroteFiles &&
    chat.poisonedServers.length <= CHAT_LIMITS.list &&
    away.length <= CHAT_LIMITS.away
  )
    return chat;
  return {
    ...chat,
    approved: keepLast(chat.approved, CHAT_LIMITS.approved),
    allowOnce: keepLast(chat.allowOnce, CHAT_LIMITS.allowOnce),
    pending: keepLast(chat.pending, CHAT_LIMITS.pending),
    createdFiles: keepLast(chat.createdFiles, CHAT_LIMITS.createdFiles),
    ...(chat.wroteFiles === undefined ? {} : { wroteFiles: keepLast(chat.wroteFiles, CHAT_LIMITS.wroteFiles) }),
    poisonedServers: keepLast(chat.poisonedServers, CHAT_LIMITS.list),
    away:
      away.length > CHAT_LIMITS.away
        ? Object.fromEntries(Object.entries(chat.away).slice(away.length - CHAT_LIMITS.away))
        : chat.away,
  };
}

function keepLast<T>(list: readonly T[], max: number): readonly T[] {
  return list.length > max ? list.slice(list.length - max) : list;
}

/** The part of a chat the rules read (undefined: no chat, a fresh view). */
export function viewOf(chat: Chat | undefined): SessionView {
  if (chat === undefined) return FRESH_SESSION;
  const failure = chat.failure;
  return {
    createdFiles: new Set(chat.createdFiles),
    ...(chat.wroteFiles === undefined ? {} : { wroteFiles: new Set(chat.wroteFiles) }),
    untrusted: chat.untrusted,
    injection: chat.injection || chat.poisonedRules === true,
    keySeen: chat.keySeen,
    poisonedServers: new Set(chat.poisonedServers),
    ...(chat.newServers === undefined ? {} : { serverToAsk: (server: string) => printToAsk(chat.newServers, server) }),
    ...(chat.uncheckedServers === undefined
      ? {}
      : { uncheckedServer: (server: string) => whyUnchecked(chat.uncheckedServers, server) }),
    failuresInARow: (command) => (failure !== undefined && failure.command === commandId(command) ? failure.count : 0),
  };
}

const NOTHING_REMEMBERED = (): boolean => false;

/** Whether the chat's bar is raised by what the agent read (untrusted content, injection signs). */
export function barRaised(chat: Chat): boolean {
  return chat.untrusted || chat.injection || chat.poisonedRules === true;
}

/**
 * Whether the person said yes to a memory key in this chat, or for this project (what `evaluate`
 * takes as `remembered`; it asks only about a yes that is kept, never a destructive ask's). A yes
 * for the project counts only while the chat's bar is down, and is looked up only for a key the
 * chat does not know (`project` may read a file: it is called only then).
 */
export function rememberedBy(
  chat: Chat | undefined,
  project?: (memoryKey: string) => boolean,
): (memoryKey: string) => boolean {
  if (chat === undefined) return NOTHING_REMEMBERED;
  const forProject = project !== undefined && !barRaised(chat) ? project : undefined;
  if (chat.approved.length === 0 && forProject === undefined) return NOTHING_REMEMBERED;
  const approved = new Set(chat.approved);
  return (key) => approved.has(key) || (forProject?.(key) ?? false);
}
