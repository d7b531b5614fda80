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

/** Words that on their own say yes to a waiting step. */
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

/**
 * Whether the person's message approves a waiting step: a plain yes (every word a yes-word, at
 * least one of them a real yes, nothing else: "yes", "ok go ahead", "yes please"), or the
 * step's approval code anywhere in the message. Anything else, "yes but not to main" included,
 * does not approve.
 */
export function isApproval(message: string, code: string | undefined): boolean {
  const text = message.slice(0, 2000);
  if (code && new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(code)}([^A-Za-z0-9]|$)`, 'i').test(text)) return true;
  const words = text
    .toLowerCase()
    .replace(/[^a-z\s']/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 8) return false;
  return words.every((word) => YES_WORDS.has(word)) && words.some((word) => HAS_YES.has(word));
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
