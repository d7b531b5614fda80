import type { Memo } from '../second-opinion/types.js';
import { OPINION_LIMITS } from '../second-opinion/types.js';
import type { Chat, Pending, StartScan } from './chat.js';
import { withinLimits } from './chat.js';

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
    untrusted,
    injection,
    keySeen,
    poisonedServers,
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
  const { failure: _before, ...rest } = chat;
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
    ...(poisonedRules === undefined ? {} : { poisonedRules }),
    ...(announced === undefined ? {} : { announced }),
    ...(scan === undefined ? {} : { scan }),
    ...(failure === undefined ? {} : { failure }),
    ...(opinion === undefined ? {} : { opinion }),
  });
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
