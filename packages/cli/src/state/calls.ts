import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { YesLasts } from '@guard/adapters';
import type { Verdict } from '@guard/core';
import { redactForLog } from '@guard/core';
import { writeFileAtomic } from '../fsx.js';

/**
 * One call (a tool step, its result, a chat's start, a message) that reaches guard through two of its hooks (a host's own, and the Claude Code hook
 * a host that runs Claude Code's hook files calls too) is decided once. The first hook process to
 * claim the call (a file created exclusively in guard's `calls` folder, named by a hash of the host,
 * the chat, what the host sends every hook of the call alike and the step's text, and holding the
 * hook command it came through) decides, and once its answer is out writes that answer into the file
 * (a temporary file renamed over it). A later hook of the same call through the other hook command
 * waits for that answer and gives it again, in its own event's words, without asking the chat's
 * memory, settling anything or writing a log line; one through the same hook command is the same
 * payload sent again, and decides on its own. Claims are swept after a minute.
 */

/** How long a call's claim and answer are kept for the other hooks of the same call. */
export const CALL_KEPT_MS = 60_000;

/**
 * The answer the first hook of a call gave: on a step, the verdict and what its reply said beside
 * it; on another event (a result, a chat's start, a message), the notice it gave.
 */
export type CallAnswer =
  | {
      readonly verdict: Verdict;
      readonly approvalCode?: string;
      readonly notice?: string;
      readonly yesLasts?: YesLasts;
    }
  | { readonly event: true; readonly notice?: string };

/**
 * What claiming a call gave: this hook decides (and keeps its answer), or another did or does:
 * its answer once written, undefined until then, or `'again'` when the first came through the same
 * hook command (the same payload sent again, not a second hook of one call: decided on its own).
 */
export type CallClaim =
  | { readonly first: true; keep(answer: CallAnswer): void }
  | { readonly first: false; answer(): CallAnswer | 'again' | undefined };

function callsDir(guardHome: string): string {
  return join(guardHome, 'calls');
}

/**
 * Claims the call `parts` name (host, chat, what every hook of the call is sent alike, the step),
 * through the hook command of agent `via`: first when this process created its claim file, named by
 * a hash of the parts, so nothing of the step is written in its name. Throws when guard's folder
 * cannot be written (the caller then decides on its own, as without a claim).
 */
export function claimCall(guardHome: string, parts: readonly string[], via: string): CallClaim {
  const dir = callsDir(guardHome);
  // node:crypto loaded here, not with the hook: only a host that may send a call through two hooks gets here
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  const file = join(dir, `${hash.update(JSON.stringify(parts)).digest('hex').slice(0, 40)}.json`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { first: false, answer: () => readAnswer(file, via) };
  }
  try {
    writeSync(fd, JSON.stringify({ via }));
  } finally {
    closeSync(fd);
  }
  return {
    first: true,
    keep(answer) {
      // a key in the step (quoted by a reason or a finding) is not kept on disk: the other hook
      // gives the answer with it redacted, as the log has it
      const text = JSON.stringify({ via, ...answer }, (_, value: unknown) =>
        typeof value === 'string' ? redactForLog(value) : value,
      );
      writeFileAtomic(file, text, 0o600);
      sweepCalls(dir, Date.now());
    },
  };
}

/**
 * The answer in a claim file, once the first hook wrote it; `'again'` when the first came through
 * the hook command of `via` too; undefined while it has not written (or it cannot be read).
 */
function readAnswer(file: string, via: string): CallAnswer | 'again' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const { via: first, ...parsed } = JSON.parse(text) as {
      via?: unknown;
      verdict?: Partial<Verdict>;
      event?: unknown;
      notice?: unknown;
    };
    if (first === via) return 'again';
    const decision = parsed.verdict?.decision;
    // anything but what guard wrote is no answer: the hook decides on its own
    if (parsed.event === true)
      return typeof parsed.notice === 'string' ? { event: true, notice: parsed.notice } : { event: true };
    return decision === 'allow' || decision === 'ask' || decision === 'block' ? (parsed as CallAnswer) : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the claims older than CALL_KEPT_MS (what cannot be removed, a later sweep does). */
function sweepCalls(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > CALL_KEPT_MS) rmSync(path, { force: true });
    } catch {
      // gone already, or another sweep's
    }
  }
}
