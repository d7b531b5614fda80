import { buildContext } from './context/build.js';
import type { Environment } from './context/types.js';
import type { InjectionSign } from './facts/injection.js';
import { scanInjection } from './facts/injection.js';
import { findKeys } from './facts/keys.js';
import type { ToolResult } from './types.js';

/** What a tool result tells the session (SPEC §5). Only yes/no facts: never the text. */
export interface ResultFacts {
  /** Injection signs seen in the output (empty when none or not scanned). */
  readonly injection: readonly InjectionSign[];
  /** A key-shaped value appeared in the output. */
  readonly keySeen: boolean;
  /** The output came from outside: a web page, an MCP or network result, a file outside the project. */
  readonly untrusted: boolean;
  /** The step failed (non-zero exit or the agent says so). */
  readonly failed: boolean;
  /** The result is of the agent's own write, so its text was not scanned. */
  readonly ownWrite: boolean;
}

/** Most a result is scanned for; beyond this the rest is not read (the scanners are linear). */
const MAX_SCAN = 1 << 20;

/** Reads a tool result for what it changes in the chat: injection signs, keys, untrusted content. */
export function observe(result: ToolResult, env: Environment): ResultFacts {
  const step = result.step;
  const failed = result.failed === true || (result.exitCode !== undefined && result.exitCode !== 0);
  const ownWrite = step.kind === 'write' || step.kind === 'patch';
  if (ownWrite) return { injection: [], keySeen: false, untrusted: false, failed, ownWrite };
  const text = result.output.length > MAX_SCAN ? result.output.slice(0, MAX_SCAN) : result.output;
  return {
    injection: scanInjection(text).signs,
    keySeen: findKeys(text).length > 0,
    untrusted: isUntrustedSource(result, env),
    failed,
    ownWrite,
  };
}

const OUTSIDE = new Set(['outside', 'home', 'root']);

/** Whether a step's output comes from outside this machine's project: the web, MCP, the network, files elsewhere. */
export function isUntrustedSource(result: Pick<ToolResult, 'step'>, env: Environment): boolean {
  const step = result.step;
  if (step.kind === 'fetch' || step.kind === 'mcp') return true;
  if (step.kind !== 'shell' && step.kind !== 'read' && step.kind !== 'other') return false;
  const context = buildContext(step, env);
  if (context.net.some((net) => net.hostClass !== 'loopback')) return true;
  return context.files.some((file) => file.op === 'read' && OUTSIDE.has(file.path.place));
}

/** Words that on their own say yes to a waiting step (with those that say for how long). */
const YES_WORDS = new Set([
  'y',
  'yes',
  'yep',
  'yeah',
  'yup',
  'ok',
  'okay',
  'k',
  'sure',
  'allow',
  'allowed',
  'approve',
  'approved',
  'go',
  'ahead',
  'proceed',
  'continue',
  'do',
  'it',
  'run',
  'please',
  'fine',
  'confirm',
  'confirmed',
  'that',
  'this',
  'thanks',
  'thank',
  'you',
  'once',
  'lgtm',
  'granted',
  // how long: "yes, for this project", "yes always", "ok for the whole chat", "just this once"
  'for',
  'the',
  'whole',
  'just',
  'in',
  'always',
  'forever',
  'project',
  'repo',
  'repository',
  'workspace',
  'chat',
  'session',
  'today',
]);
const HAS_YES = new Set([
  'y',
  'yes',
  'yep',
  'yeah',
  'yup',
  'ok',
  'okay',
  'k',
  'sure',
  'allow',
  'allowed',
  'approve',
  'approved',
  'proceed',
  'go',
  'confirm',
  'confirmed',
  'lgtm',
  'granted',
]);
const ONCE_WORDS = new Set(['once']);
const CHAT_WORDS = new Set(['chat', 'session', 'today']);
const PROJECT_WORDS = new Set(['project', 'repo', 'repository', 'workspace', 'always', 'forever']);

/**
 * How long a person's yes lasts (SPEC §12): `once` (that step), `chat` (this chat, under what the
 * rule is about) or `project` (every chat in this project, until `guard forget`).
 */
export type YesScope = 'once' | 'chat' | 'project';

/**
 * Whether the person's message approves a waiting step, and for how long: a plain yes (every word
 * a yes-word, at least one of them a real yes, nothing else: "yes", "ok go ahead", "yes please",
 * "yes, for this project", "yes always", "yes once"), or the step's approval code anywhere in the
 * message. Anything else, "yes but not to main" included, does not approve (undefined). A yes lasts
 * for the chat; "once" anywhere narrows it to the step; only a plain yes widens it to the project
 * ("project", "always" and the like: in free text around a code, "not for the project" would read
 * as a yes for it). Where a message says both, the narrower wins.
 */
export function approvalScope(message: string, code: string | undefined): YesScope | undefined {
  const text = message.slice(0, 2000);
  const quoted = code ? new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(code)}([^A-Za-z0-9]|$)`, 'i').test(text) : false;
  const words = text
    .toLowerCase()
    .replace(/[^a-z\s']/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const plain =
    words.length > 0 &&
    words.length <= 8 &&
    words.every((word) => YES_WORDS.has(word)) &&
    words.some((word) => HAS_YES.has(word));
  if (!plain && !quoted) return undefined;
  if (words.some((word) => ONCE_WORDS.has(word))) return 'once';
  if (!plain || words.some((word) => CHAT_WORDS.has(word))) return 'chat';
  return words.some((word) => PROJECT_WORDS.has(word)) ? 'project' : 'chat';
}

/** Whether the person's message approves a waiting step (see approvalScope). */
export function isApproval(message: string, code: string | undefined): boolean {
  return approvalScope(message, code) !== undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Injection signs that count in a file the agent loads as its own rules (AGENTS.md, …): those
 * files speak to the agent by design, so being addressed to it is not a sign there.
 */
export function rulesFileSigns(text: string): readonly InjectionSign[] {
  return scanInjection(text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text).signs.filter(
    (sign) => sign !== 'addressed-to-agent',
  );
}
