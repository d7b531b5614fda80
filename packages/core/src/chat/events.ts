import type { Environment } from '../context/types.js';
import { buildContext } from '../context/build.js';
import type { LockedRules } from '../floor.js';
import { lockedRulesOf } from '../floor.js';
import type { ResultFacts } from '../session.js';
import { approvalScope, observe } from '../session.js';
import type { ToolResult, ToolStep } from '../types.js';
import type { Change, Draft } from './change.js';
import type { Chat } from './chat.js';
import { asksEachTime, notKeptForProject } from './chat.js';
import { commandId, fingerprint } from './ids.js';
import { ANY_SERVER } from './servers.js';

/** What an event changes in the chat, and a sentence for the agent or the person, if any. */
export interface Decided {
  readonly change: Change;
  readonly notice?: string;
  /** A yes the person gave for the whole project: memory keys to keep under its root (in guard's folder). */
  readonly project?: ProjectYes;
}

/** Memory keys the person said yes to for every chat in a project. */
export interface ProjectYes {
  /** The project root. */
  readonly root: string;
  readonly keys: readonly string[];
}

/** The person's settings that the chat's decisions depend on. */
export interface ChatSettings {
  /** Untrusted content raises the bar for the whole chat, not only until the next message. */
  readonly strict: boolean;
  /** The rules the system settings lock: a yes to a step with one of them is not kept for the project. */
  readonly lockedRules?: LockedRules;
}

/**
 * The person's message (SPEC §6 block-then-chat, §12). Only the very next message can approve, and
 * only a question asked in the chat (it has a code): a plain yes or the code approves that step
 * once, and, unless the message says "once", keeps its memory keys for the chat; "yes, for this
 * project" or "yes always" keeps them for the project as well. A destructive step's yes is never
 * kept: it has no keys to keep. Whatever the message says, the question is closed; and unless
 * strict, the bar raised by untrusted content or injection signs is lowered again. A yes for the
 * project to a step with a rule the system settings lock is kept for the chat only. (Only a message
 * of the person comes here: nothing the agent writes or a tool returns can approve.) `projectRoot`
 * is the project the message was sent in; without it a yes lasts for the chat at most.
 */
export function onPrompt(chat: Chat, prompt: string, settings: ChatSettings, projectRoot?: string): Decided {
  const change: Draft = { answered: 'all' };
  let notice: string | undefined;
  let project: ProjectYes | undefined;
  const last = chat.pending.at(-1);
  // an agent's own prompt was answered there, and its result says so
  const scope = last && last.code !== '' ? approvalScope(prompt, last.code) : undefined;
  if (last && scope !== undefined) {
    change.approvedOnce = last.step;
    if (scope !== 'once') change.approved = last.keys;
    const asked = `the step guard asked about (${last.rules.join(', ')}, code ${last.code})`;
    const again = 'run it again now and it will go ahead once';
    // a yes kept for part of the step only: the reply says what it does not cover after this time
    const partly = last.once !== undefined && last.once.length > 0 && scope !== 'once' ? last.once : undefined;
    // a yes for a step with a locked rule lasts for the chat at most: the hook would not use it for the project
    const locked = scope === 'project' ? lockedRulesOf(settings.lockedRules ?? [], last.keys) : [];
    if (locked.length > 0) {
      const after = partly === undefined ? '' : `, and after that ${asksEachTime(partly)}`;
      notice = `guard: the person approved ${asked}; ${again}${after}; ${notKeptForProject(locked)}.`;
    } else if (scope === 'project' && last.keys.length > 0 && projectRoot !== undefined && projectRoot !== '') {
      project = { root: projectRoot, keys: last.keys };
      notice =
        partly === undefined
          ? `guard: the person approved ${asked} for this project: run it again now and it will go ahead, in this chat and in later chats of this project, until they run \`guard forget\`.`
          : `guard: the person approved ${asked} for this project: ${again}; after that ${asksEachTime(partly)}, and the rest of it goes ahead in this chat and in later chats of this project, until they run \`guard forget\`.`;
    } else if (scope === 'project') {
      // a destructive step, or one with nothing to keep a yes by: the yes is for this step only
      notice = `guard: the person approved ${asked}; ${again} (a yes to this step is for this one time, not for the project).`;
    } else if (partly !== undefined) {
      notice = `guard: the person approved ${asked}; ${again}, and after that ${asksEachTime(partly)}.`;
    } else {
      notice = `guard: the person approved ${asked}; ${again}.`;
    }
  }
  if (!settings.strict) {
    change.untrusted = false;
    change.injection = false;
  }
  return { change, ...(notice === undefined ? {} : { notice }), ...(project === undefined ? {} : { project }) };
}

/**
 * A tool result (SPEC §5): the step asked in the agent's own prompt ran, so the person said yes
 * there; untrusted content, injection signs and keys raise the bar; a shell command's failures in a
 * row are counted until it works or a file changes. `facts` is what `observe` reads in the result
 * (pass it when it was read already, for example outside a lock).
 */
export function onResult(
  chat: Chat,
  result: ToolResult,
  env: Environment,
  facts: ResultFacts = observe(result, env),
): Decided {
  const step = result.step;
  const print = fingerprint(step);
  const change: Draft = {};
  let notice: string | undefined;
  const asked = chat.pending.find((question) => question.step === print && question.code === '');
  if (asked) {
    change.approved = asked.keys;
    change.answered = print;
  }
  if (facts.untrusted) change.untrusted = true;
  if (facts.keySeen) change.keySeen = true;
  if (facts.injection.length > 0) {
    if (!chat.injection)
      notice = `guard: the last tool result shows signs of a prompt injection (${facts.injection.join(', ')}); until the person's next message, every step guard would ask about is blocked.`;
    change.injection = true;
  }
  const command = step.kind === 'shell' ? commandId(step.command) : undefined;
  if (command !== undefined && facts.failed) change.failed = command;
  else if (command !== undefined && chat.failure?.command === command) change.newAttempt = command;
  // a file changed: the next try of a failing command is a new attempt
  else if (chat.failure !== undefined && changesFiles(step, env)) change.newAttempt = 'any';
  return notice === undefined ? { change } : { change, notice };
}

/** What the chat-start scan read and found (names and signs only, never text). */
export interface StartScanResult {
  readonly checked: readonly string[];
  /** `<what>: <signs>`. */
  readonly found: readonly string[];
  /** `<what>: <why not>`. */
  readonly unchecked: readonly string[];
  /** A rules or memory file the agent loads showed injection signs: risky steps stop for the chat. */
  readonly poisonedRules: boolean;
  /** MCP servers whose tool descriptions showed injection signs: their tools are blocked. */
  readonly poisonedServers: readonly string[];
  /** MCP servers new or changed since guard last let one of their tools run (`checkServers`): name → print. */
  readonly newServers?: Readonly<Record<string, string>>;
  /** Local MCP servers whose tools the scan could not read (it ran out of time, one did not start …): name → why. */
  readonly uncheckedServers?: Readonly<Record<string, string>>;
  /** MCP servers whose tools the scan read (clean or not). */
  readonly serversChecked?: readonly string[];
}

/**
 * The chat-start scan's result (SPEC §5): kept in the chat (a poisoned rules file stops risky steps
 * for the chat, a poisoned server's tools are blocked, and a local server's whose tools it could not
 * read ask until a later scan reads them: `onServerScan`). The notice says what was found, if
 * anything, to follow the sentence that says guard is on.
 */
export function onStart(scan: StartScanResult, now: number): Decided {
  const unchecked = Object.keys(scan.uncheckedServers ?? {});
  const change: Change = {
    scan: { time: now, checked: scan.checked, found: scan.found, unchecked: scan.unchecked },
    poisonedRules: scan.poisonedRules,
    poisonedServers: scan.poisonedServers,
    ...(scan.newServers === undefined || Object.keys(scan.newServers).length === 0
      ? {}
      : { newServers: scan.newServers }),
    ...(unchecked.length === 0 ? {} : { uncheckedServers: scan.uncheckedServers }),
    ...(scan.serversChecked === undefined || scan.serversChecked.length === 0
      ? {}
      : { serversChecked: scan.serversChecked }),
  };
  const fresh = Object.keys(scan.newServers ?? {}).filter((name) => name !== ANY_SERVER);
  const found = [
    scan.poisonedRules ? 'a rules file shows signs of a prompt injection, so risky steps are blocked in this chat' : '',
    scan.poisonedServers.length > 0
      ? `the tools of MCP server ${scan.poisonedServers.join(', ')} are blocked (their descriptions show injection signs)`
      : '',
    fresh.length === 1
      ? `MCP server ${fresh.join('')} is new or changed since guard last let one of its tools run, so its first use asks`
      : fresh.length > 1
        ? `MCP servers ${fresh.join(', ')} are new or changed since guard last let one of their tools run, so the first use of each asks`
        : '',
    scan.newServers !== undefined && Object.hasOwn(scan.newServers, ANY_SERVER)
      ? 'a file of MCP servers could not be read, so every MCP server asks before its first use'
      : '',
    unchecked.length === 0
      ? ''
      : `the tools of MCP server${unchecked.length === 1 ? '' : 's'} ${unchecked.join(', ')} could not be checked, so ${unchecked.length === 1 ? 'its' : 'their'} tools ask until guard can check them`,
  ].filter(Boolean);
  return found.length === 0
    ? { change }
    : { change, notice: `At the start of this chat it found that ${found.join('; and ')}.` };
}

/** What a scan of one MCP server found: its tools read (with the injection signs they show), or why they could not be. */
export type ServerScan = { readonly signs: readonly string[] } | { readonly why: string };

/**
 * A scan of one local MCP server, made again when a tool of it was called after the chat-start
 * scan could not read its tools: read clean, it is no longer asked about in this chat; showing
 * injection signs, its tools are blocked; still unread, its tools ask (with the newer why).
 */
export function onServerScan(server: string, scan: ServerScan): Change {
  if ('why' in scan) return { uncheckedServers: { [server]: scan.why } };
  return scan.signs.length === 0
    ? { serversChecked: [server] }
    : { serversChecked: [server], poisonedServers: [server] };
}

/** Whether a step changes files (a write tool, or a shell command that writes, creates or deletes). */
function changesFiles(step: ToolStep, env: Environment): boolean {
  if (step.kind === 'write' || step.kind === 'patch') return true;
  if (step.kind !== 'shell') return false;
  return buildContext(step, env).files.some(
    (file) => file.op === 'write' || file.op === 'create' || file.op === 'delete',
  );
}
