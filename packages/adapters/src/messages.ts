import type { Finding, Verdict } from '@guard/core';
import { asksEachTime, GUARD_PACKAGE, notKeptForProject } from '@guard/core';
import type { HookReply, ReplyContext, YesLasts } from './adapter.js';

/**
 * The wording of every text guard puts in an agent's reply. All four agents share it, so a person
 * reads the same sentences whichever agent they use. Texts are built from the findings' rule ids
 * and reasons only: the step itself (which may hold a key) is never echoed back.
 */

/** Longest reason quoted from a finding; the instructions around it are never cut. */
const MAX_REASON = 300;
/** Rule ids named before the rest are summed up as "+N more". */
const MAX_RULES = 4;

/** Told once per chat where the agent lets guard say something at the start. */
export const GUARD_ON_NOTICE =
  'guard is on: it checks each tool step before it runs and stops the ones that cannot be undone.';

/**
 * Told once per chat while a change to the project's `.guard.yaml` that loosens it waits for the
 * person: the policy guard pinned still applies.
 */
export const POLICY_HELD_NOTICE =
  "The project's .guard.yaml was changed in a way that loosens guard, so the policy guard pinned for this project still applies; only the person can accept the change, by running `guard policy accept` in a terminal.";

/**
 * What the hook command setup writes says by itself when guard's files are gone (its hook script or
 * the Node it names): about a step (`step`), or as a notice on the agent's other events. It names
 * both ways out, since `guard` itself may be gone too.
 */
export function filesGoneMessage(agent: string, step: boolean, system = false): string {
  const gone = `${step ? "This step was not checked: guard's" : 'guard checks no step: its'} files are gone (guard or its Node was removed or moved)`;
  return system
    ? join(
        gone,
        `This hook was set up for every user of the machine: an administrator installs guard again (sudo npm install -g ${GUARD_PACKAGE}), then runs \`sudo guard setup ${agent} --system\` to keep it or \`sudo guard uninstall --all --system\` to remove it`,
      )
    : join(
        gone,
        `Install guard again (npm install -g ${GUARD_PACKAGE}), then run \`guard setup ${agent}\` to keep it or \`guard uninstall --all\` to remove it`,
      );
}

/**
 * The chat id doctor's calls carry, so they are easy to tell apart in guard's log (and a notice
 * meant for the person is not spent on them).
 */
export const DOCTOR_CHAT = 'guard-doctor';

/**
 * guard's entries in an agent's hook file are not as setup left them (issue 25): told once, in the
 * next reply that can carry a notice, for the person (the agent is asked to pass it on word for word).
 */
export function driftNotice(sentences: readonly string[]): string {
  return join(
    "guard: tell the person this, word for word: an agent's hook file changed outside `guard setup`, so guard may no longer check that agent's steps",
    ...sentences,
  );
}

/** Why a step was stopped (a block, or an asked step the runtime decided to leave undone). */
export function blockMessage(verdict: Verdict, notice?: string): string {
  return join(head('blocked', verdict), reason(verdict), notice);
}

/** How long a yes lasts (SPEC §12), in the words of each way of asking. */
const YES_IN_PROMPT = {
  once: 'A yes counts for this step only.',
  longer: 'A yes also lets the same step go ahead again in this chat.',
  partly: (rules: readonly string[]): string =>
    `A yes counts for this step; after it, ${asksEachTime(rules)}, and the rest of the step goes ahead again in this chat.`,
} as const;
const YES_IN_CHAT = {
  once: 'Their yes counts for this step only; tell them so.',
  longer:
    'Tell them how long a yes lasts: a plain yes for this chat, "yes once" for this time only, "yes, for this project" for later chats in this project too.',
  partly: (rules: readonly string[]): string =>
    `Tell them how long a yes lasts: a plain yes for this chat, "yes once" for this time only, "yes, for this project" for later chats in this project too; but whatever they say, ${asksEachTime(rules)}.`,
  // a locked rule: the yes for the project is not offered, since the hook would not use it
  locked: (locked: readonly string[], partly: readonly string[]): string =>
    `Tell them how long a yes lasts: a plain yes for this chat, "yes once" for this time only; ${notKeptForProject(locked)}${partly.length > 0 ? `; and whatever they say, ${asksEachTime(partly)}` : ''}.`,
} as const;

/** The sentence for how long a yes lasts, in one way of asking. */
function yesSentence(
  words: typeof YES_IN_PROMPT | typeof YES_IN_CHAT,
  yesLasts: YesLasts | undefined,
): string | undefined {
  if (yesLasts === undefined) return undefined;
  if (typeof yesLasts === 'string') return words[yesLasts];
  // the agent's own prompt offers no yes for the project: a locked rule changes nothing there
  if (yesLasts.locked !== undefined && 'locked' in words) return words.locked(yesLasts.locked, yesLasts.partly ?? []);
  return yesLasts.partly === undefined ? words.longer : words.partly(yesLasts.partly);
}

/** What the person reads in the agent's own approval prompt. */
export function askMessage(verdict: Verdict, notice?: string, yesLasts?: YesLasts): string {
  return join(head('needs your approval', verdict), reason(verdict), yesSentence(YES_IN_PROMPT, yesLasts), notice);
}

/**
 * Block-then-chat (Codex has no approval prompt): the agent must stop, explain, ask the person in
 * the chat, and try again only after a yes. The approval itself happens in the person's next message.
 */
export function askInChatMessage(
  verdict: Verdict,
  approvalCode?: string,
  notice?: string,
  yesLasts?: YesLasts,
): string {
  const code = approvalCode ? ` (approval code ${approvalCode})` : '';
  return join(
    head("this step needs the person's approval first", verdict),
    reason(verdict),
    `Stop here, tell the person what you want to do and why guard asks, and ask them in the chat to approve it${code}; run it again only after they say yes.`,
    yesSentence(YES_IN_CHAT, yesLasts),
    notice,
  );
}

/**
 * An ask where nobody can answer (headless runs, skip-permission modes, events with no prompt).
 * With an approval code (Codex `exec`, whose chat a person may resume later), it also says how
 * the person can still allow it: by resuming the chat with a yes.
 */
export function awayMessage(verdict: Verdict, notice?: string, approvalCode?: string): string {
  return join(
    head('blocked, because no one can approve this step here', verdict),
    reason(verdict),
    'Do it a safer way, or leave it out and say so in your final reply.',
    approvalCode
      ? `If the person resumes this chat and approves it (approval code ${approvalCode}), it may then run once.`
      : undefined,
    notice,
  );
}

/** `guard: <what> (id, id).`, naming every distinct rule that flagged the step, most severe first. */
function head(what: string, verdict: Verdict): string {
  const ids = [...new Set(verdict.findings.map((finding) => finding.ruleId))];
  if (ids.length === 0) return `guard: ${what}.`;
  const more = ids.length > MAX_RULES ? ` +${ids.length - MAX_RULES} more` : '';
  return `guard: ${what} (${ids.slice(0, MAX_RULES).join(', ')}${more}).`;
}

/** The top finding's reason and safer way; without findings, the engine's own message. */
function reason(verdict: Verdict): string {
  const top: Finding | undefined = verdict.findings[0];
  const text = top
    ? [top.reason, top.saferWay].map((part) => sentence(part ?? '')).join(' ')
    : sentence(capitalise(verdict.agentMessage.replace(/^\s*guard:\s*/i, '')));
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1).trimEnd()}…` : flat;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function join(...parts: readonly (string | undefined)[]): string {
  return parts
    .map((part) => sentence(part ?? '').replace(/\s+/g, ' '))
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * The reply of an agent that reads the exit code alone and has no ask (Windsurf, Kiro CLI): nothing
 * and exit 0 lets the step run; exit 2 stops it, guard's reason on stderr (where the agent reads it)
 * and the same on stdout. An ask is a block that has the agent ask the person in the chat, the yes
 * coming on the person's next message (or one saying nobody can approve it, where nobody can).
 */
export function exitTwoReply(verdict: Verdict, context: ReplyContext): HookReply {
  if (verdict.decision === 'allow') return { stdout: '', exitCode: 0 };
  const text =
    verdict.decision === 'block'
      ? blockMessage(verdict, context.notice)
      : context.canAsk
        ? askInChatMessage(verdict, context.approvalCode, context.notice, context.yesLasts)
        : awayMessage(verdict, context.notice, context.approvalCode);
  return { stdout: `${text}\n`, stderr: `${text}\n`, exitCode: 2 };
}
