import type { Memo } from '../second-opinion/types.js';
import { OPINION_LIMITS } from '../second-opinion/types.js';
import type { Chat, Pending, StartScan } from './chat.js';
import { CHAT_LIMITS, isIdle, newChat, withinLimits } from './chat.js';
import { ANY_SERVER } from './servers.js';

/**
 * What one event does to a chat, as plain data: decided by `settle`, `onPrompt`, `onResult` or
 * `onStart` from the chat as it was read, and applied by `apply` to the chat as it is when it is
 * saved. Each field says what happened rather than what the state becomes, so a change decided on
 * one read can be applied to a newer state (another hook process of the same chat may have saved
 * in between) without undoing what that one did. `{}` changes nothing.
 */
export interface Change {
  /** The chat was told that guard is on. */
  readonly announced?: true;
  /** This step's one-time yes was used up by the step going ahead (fingerprint). */
  readonly usedOnce?: string;
  /** This step was flagged while nobody could answer (fingerprint): counted once more. */
  readonly flaggedAway?: string;
  /** This question now waits for the person (it replaces one about the same step). */
  readonly asked?: Pending;
  /** Files this step creates (absolute paths). */
  readonly created?: readonly string[];
  /** Files this step writes, creates or edits (absolute paths), kept so that running their code later reads it. */
  readonly wrote?: readonly string[];
  /** The person said yes to this step in a message: it may go ahead once (fingerprint). */
  readonly approvedOnce?: string;
  /** Memory keys the person said yes to. */
  readonly approved?: readonly string[];
  /**
   * Questions that no longer wait: `all` (the person's message answered or closed them), or the
   * fingerprint of a step asked in the agent's own prompt that ran (that prompt got a yes).
   */
  readonly answered?: string;
  readonly untrusted?: boolean;
  readonly injection?: boolean;
  readonly keySeen?: true;
  /** This shell command failed (commandId): one more failure in a row if it is the one failing. */
  readonly failed?: string;
  /**
   * The next run of a failing command is a new attempt: `any` (a file changed), or the commandId of
   * a command that worked (only its own count starts over).
   */
  readonly newAttempt?: string;
  /** The chat-start scan ran. */
  readonly scan?: StartScan;
  readonly poisonedRules?: boolean;
  /** MCP servers whose tools are blocked for the chat (added to those already blocked). */
  readonly poisonedServers?: readonly string[];
  /** MCP servers that ask before their first use in the chat, name → print (added to those already asking). */
  readonly newServers?: Readonly<Record<string, string>>;
  /** Local MCP servers whose tools could not be checked this time, name → why (replacing an older why). */
  readonly uncheckedServers?: Readonly<Record<string, string>>;
  /** MCP servers whose tools were read this time (clean or not): no longer unchecked, unless this change says so too. */
  readonly serversChecked?: readonly string[];
  /** The second opinion was sent this step in this turn, and answered it (`memo`) or not. */
  readonly opinion?: { readonly turn: string; readonly memo?: Memo };
}

/** A change being put together. */
export type Draft = { -readonly [K in keyof Change]: Change[K] };

/** The change that changes nothing. */
export const NO_CHANGE: Change = Object.freeze({});

/** Whether a change leaves the chat as it is (nothing to save). */
export function changesNothing(change: Change): boolean {
  for (const _ in change) return false;
  return true;
}

/** The chat with the change applied, within its limits. Pure: `chat` is not modified. */
export function apply(chat: Chat, change: Change): Chat {
  if (changesNothing(change)) return chat;
  let {
    approved,
    allowOnce,
    pending,
    createdFiles,
    wroteFiles,
    untrusted,
    injection,
    keySeen,
    poisonedServers,
    newServers,
    uncheckedServers,
    poisonedRules,
    announced,
    scan,
    away,
    failure,
    opinion,
  } = chat;
  if (change.announced === true) announced = true;
  if (change.usedOnce !== undefined) {
    const used = change.usedOnce;
    allowOnce = allowOnce.filter((print) => print !== used);
  }
  if (change.approvedOnce !== undefined) {
    const once = change.approvedOnce;
    allowOnce = [...allowOnce.filter((print) => print !== once), once];
  }
  if (change.approved !== undefined) approved = union(approved, change.approved);
  if (change.answered === 'all') pending = [];
  else if (change.answered !== undefined) {
    const ran = change.answered;
    pending = pending.filter((question) => !(question.step === ran && question.code === ''));
  }
  if (change.flaggedAway !== undefined) away = { ...away, [change.flaggedAway]: (away[change.flaggedAway] ?? 0) + 1 };
  if (change.asked !== undefined) {
    const asked = change.asked;
    pending = [...pending.filter((question) => question.step !== asked.step), asked];
  }
  if (change.created !== undefined) createdFiles = union(createdFiles, change.created);
  if (change.wrote !== undefined) wroteFiles = newestLast(wroteFiles ?? [], change.wrote);
  if (change.untrusted !== undefined) untrusted = change.untrusted;
  if (change.injection !== undefined) injection = change.injection;
  if (change.keySeen === true) keySeen = true;
  if (change.failed !== undefined) {
    const command = change.failed;
    failure = { command, count: failure?.command === command ? failure.count + 1 : 1 };
  } else if (
    change.newAttempt !== undefined &&
    failure !== undefined &&
    (change.newAttempt === 'any' || change.newAttempt === failure.command)
  ) {
    failure = undefined;
  }
  if (change.opinion !== undefined) {
    const { turn, memo } = change.opinion;
    const memos = opinion?.memos ?? [];
    opinion = {
      turn,
      sent: opinion?.turn === turn ? opinion.sent + 1 : 1,
      memos:
        memo === undefined
          ? memos
          : [...memos.filter((entry) => entry.key !== memo.key), memo].slice(-OPINION_LIMITS.remembered),
    };
  }
  if (change.scan !== undefined) scan = change.scan;
  if (change.poisonedRules !== undefined) poisonedRules = change.poisonedRules;
  if (change.poisonedServers !== undefined) poisonedServers = union(poisonedServers, change.poisonedServers);
  if (change.newServers !== undefined) {
    const merged = Object.entries({ ...newServers, ...change.newServers });
    // past the limit the oldest are not kept by name: every server asks instead (under the first
    // dropped one's print), so none stops asking because the list was full
    const over = merged.length - CHAT_LIMITS.list;
    newServers =
      over <= 0
        ? Object.fromEntries(merged)
        : {
            ...Object.fromEntries(merged.slice(over + 1).filter(([name]) => name !== ANY_SERVER)),
            [ANY_SERVER]: newServers?.[ANY_SERVER] ?? (merged[0] as [string, string])[1],
          };
  }
  if (change.serversChecked !== undefined || change.uncheckedServers !== undefined) {
    const checked = new Set(change.serversChecked);
    const kept = Object.entries(uncheckedServers ?? {}).filter(([name]) => !checked.has(name));
    const merged = Object.entries({ ...Object.fromEntries(kept), ...change.uncheckedServers });
    // no limit: dropping one would let its tools run unchecked (there are as many as the agent's files declare)
    uncheckedServers = merged.length === 0 ? undefined : Object.fromEntries(merged);
  }
  const { failure: _before, newServers: _servers, uncheckedServers: _unchecked, ...rest } = chat;
  return withinLimits({
    ...rest,
    approved,
    allowOnce,
    pending,
    createdFiles,
    untrusted,
    injection,
    keySeen,
    poisonedServers,
    away,
    ...(wroteFiles === undefined ? {} : { wroteFiles }),
    ...(poisonedRules === undefined ? {} : { poisonedRules }),
    ...(newServers === undefined ? {} : { newServers }),
    ...(uncheckedServers === undefined ? {} : { uncheckedServers }),
    ...(announced === undefined ? {} : { announced }),
    ...(scan === undefined ? {} : { scan }),
    ...(failure === undefined ? {} : { failure }),
    ...(opinion === undefined ? {} : { opinion }),
  });
}

/** The list with the new entries moved to its end (the newest are the last the limit drops), each once. */
function newestLast(list: readonly string[], added: readonly string[]): readonly string[] {
  const fresh = new Set(added);
  return [...list.filter((entry) => !fresh.has(entry)), ...fresh];
}

/** The list with the new entries added at the end, each once. */
function union(list: readonly string[], added: readonly string[]): readonly string[] {
  let out: string[] | undefined;
  for (const entry of added) {
    if ((out ?? list).includes(entry)) continue;
    out ??= [...list];
    out.push(entry);
  }
  return out ?? list;
}

/** A change recorded on its own (a change file beside the chat's state): when it was decided, and what it does. */
export interface Recorded {
  /** ms since epoch. */
  readonly time: number;
  readonly change: Change;
}

/**
 * The change less what could loosen a verdict when it is applied out of its order: lowering the
 * bar (the person's message), a new attempt of a failing command, and MCP servers read since (a
 * later scan may have found one unchecked again). Used for a change that reaches the chat after
 * later ones were already folded in: a raised bar, a failure, a yes and a used-up yes still count;
 * a lowered bar, a count started over or a server read is left out, which can only make guard
 * stricter until the next message, file change or scan.
 */
export function withoutLoosening(change: Change): Change {
  if (
    change.untrusted !== false &&
    change.injection !== false &&
    change.poisonedRules !== false &&
    change.newAttempt === undefined &&
    change.serversChecked === undefined
  )
    return change;
  const { untrusted, injection, poisonedRules, newAttempt: _again, serversChecked: _read, ...rest } = change;
  return {
    ...rest,
    ...(untrusted === true ? { untrusted } : {}),
    ...(injection === true ? { injection } : {}),
    ...(poisonedRules === true ? { poisonedRules } : {}),
  };
}

/**
 * The chat after recorded changes, in the order given, as saving each one in turn would have left
 * it: a chat idle for longer than `idleMs` when a change came starts over, and `updated` is the
 * time of the latest change. A change dated before `through` (the latest change already in `chat`)
 * came late: it is applied without what could loosen a verdict (`withoutLoosening`). Pure.
 */
export function replay(
  chat: Chat,
  recorded: readonly Recorded[],
  options: { readonly idleMs: number; readonly through?: number },
): Chat {
  let current = chat;
  const through = options.through ?? -Infinity;
  for (const { time, change } of recorded) {
    if (isIdle(current, time, options.idleMs)) current = newChat(current.agent, current.chat, time);
    const applied = apply(current, time < through ? lateChange(current, change) : change);
    current = { ...applied, updated: Math.max(current.updated, time) };
  }
  return current;
}

/**
 * A change that came late, as it may be applied to `chat`: without what could loosen a verdict,
 * and without a failure of another command than the chat's current one (the chat keeps one failing
 * command and its count: a late failure of another would start that count over).
 */
function lateChange(chat: Chat, change: Change): Change {
  const kept = withoutLoosening(change);
  if (kept.failed === undefined || chat.failure === undefined || chat.failure.command === kept.failed) return kept;
  const { failed: _other, ...rest } = kept;
  return rest;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStrings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every(isString);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** What each field of a change must be (a field not named here is not guard's: the change is not valid). */
const CHANGE_FIELDS: Readonly<Record<keyof Change, (value: unknown) => boolean>> = {
  announced: (value) => value === true,
  usedOnce: isString,
  flaggedAway: isString,
  asked: (value) =>
    isRecord(value) &&
    isString(value['code']) &&
    isString(value['step']) &&
    isStrings(value['keys']) &&
    isStrings(value['rules']) &&
    (value['once'] === undefined || isStrings(value['once'])) &&
    isTime(value['time']),
  created: isStrings,
  wrote: isStrings,
  approvedOnce: isString,
  approved: isStrings,
  answered: isString,
  untrusted: (value) => typeof value === 'boolean',
  injection: (value) => typeof value === 'boolean',
  keySeen: (value) => value === true,
  failed: isString,
  newAttempt: isString,
  scan: (value) =>
    isRecord(value) &&
    isTime(value['time']) &&
    isStrings(value['checked']) &&
    isStrings(value['found']) &&
    isStrings(value['unchecked']),
  poisonedRules: (value) => typeof value === 'boolean',
  poisonedServers: isStrings,
  newServers: (value) => isRecord(value) && Object.values(value).every(isString),
  uncheckedServers: (value) => isRecord(value) && Object.values(value).every(isString),
  serversChecked: isStrings,
  opinion: (value) =>
    isRecord(value) &&
    isString(value['turn']) &&
    (value['memo'] === undefined ||
      (isRecord(value['memo']) &&
        isString(value['memo']['key']) &&
        isTime(value['memo']['irreversible']) &&
        (value['memo']['outside'] === undefined || isTime(value['memo']['outside'])))),
};

/** The value as a change when it is one (read from a file), or undefined. */
export function asChange(value: unknown): Change | undefined {
  if (!isRecord(value)) return undefined;
  for (const [key, field] of Object.entries(value)) {
    const valid = Object.hasOwn(CHANGE_FIELDS, key) ? CHANGE_FIELDS[key as keyof Change] : undefined;
    if (valid === undefined || !valid(field)) return undefined;
  }
  return value;
}
