import type { Verdict } from '@guard/core';
import type { AgentAnswers, HookFiles, HookReply } from './adapter.js';
import { filesGoneMessage } from './messages.js';

/**
 * The hook command that answers by itself when guard's files are gone. After `npm rm -g` without
 * `guard uninstall --all`, or once the Node setup named is upgraded away, the agent still runs
 * guard's command on every call; run bare, it fails ("Cannot find module …", exit 1), and most
 * agents then run the step unchecked. So setup writes (on POSIX)
 *
 *   test -x '<node>' && test -f '<script>' && exec <command>; printf '%s\n' '<answer>'
 *
 * around the plain command (`"<node>" "<script>" hook <agent> …`). Every agent runs a hook command
 * through a shell (`sh -c`; Codex through the person's login shell, `$SHELL -lc`), which becomes
 * guard's hook while both files are there, and otherwise prints what guard answers when it could
 * not check a step: ask, or block under fail-closed, in the agent's own reply for that event, made
 * at setup time from the agent's `toReply` and `toEventReply`. The paths and the answer are quoted
 * so that sh, bash, zsh and fish (3.0 on) read them alike: single quotes, with each `'` and `\`
 * escaped outside them. No form like this keeps the quoting of cmd.exe and PowerShell, so on
 * Windows setup writes the plain command.
 */

/** What a hook command of this form holds. */
export interface Fallback {
  /** The plain command it runs while guard's files are there. */
  readonly command: string;
  /** The files it checks first. */
  readonly files: HookFiles;
  /** What it answers when either is gone. */
  readonly reply: HookReply;
}

/** What the hook command answers for `event` when guard's files are gone: ask, or block under fail-closed. */
export function fallbackReply(agent: AgentAnswers, event: string, failClosed: boolean): HookReply {
  if (!agent.stepEvents.includes(event)) return agent.toEventReply(event, filesGoneMessage(agent.id, false));
  const message = filesGoneMessage(agent.id, true);
  const verdict: Verdict = {
    decision: failClosed ? 'block' : 'ask',
    findings: [],
    agentMessage: message,
    userMessage: message,
  };
  return agent.toReply(verdict, { event, canAsk: agent.capabilities.askEvents.includes(event), failClosed });
}

/** `command`, run only while `files` are both there; else `reply`, printed by the shell. */
export function withFallback(command: string, files: HookFiles, reply: HookReply): string {
  const newline = reply.stdout.endsWith('\n');
  const text = newline ? reply.stdout.slice(0, -1) : reply.stdout;
  // the command stays one line (an agent's file shows it, fish and sh read it alike)
  if (text.includes('\n')) throw new Error('a fallback answer must be one line');
  const exit = reply.exitCode === 0 ? '' : `; exit ${reply.exitCode}`;
  return `test -x ${shellWord(files.node)} && test -f ${shellWord(files.script)} && exec ${command}; printf '%s${newline ? '\\n' : ''}' ${shellWord(text)}${exit}`;
}

// One word as shellWord() writes it.
const WORD = String.raw`(?:'[^']*'|\\.)+`;
const FORM = new RegExp(
  String.raw`^test -x (${WORD}) && test -f (${WORD}) && exec (.+?); printf '%s(\\n)?' (${WORD})(?:; exit ([1-9][0-9]{0,2}))?$`,
);

/** What a command written by withFallback() holds; undefined for any other command. */
export function readFallback(command: string): Fallback | undefined {
  const match = FORM.exec(command);
  if (match === null) return undefined;
  const [, node = '', script = '', inner = '', newline, text = '', exit] = match;
  return {
    command: inner,
    files: { node: unquoted(node), script: unquoted(script) },
    reply: { stdout: `${unquoted(text)}${newline === undefined ? '' : '\n'}`, exitCode: Number(exit ?? 0) },
  };
}

/** The plain command inside a command written by withFallback(), or the command itself. */
export function plainCommand(command: string): string {
  return readFallback(command)?.command ?? command;
}

/** A word sh, bash, zsh and fish read alike: runs in single quotes, each `'` and `\` escaped outside them. */
function shellWord(text: string): string {
  if (text === '') return "''";
  return text.replace(/[^'\\]+|['\\]/g, (part) => (part === "'" || part === '\\' ? `\\${part}` : `'${part}'`));
}

function unquoted(word: string): string {
  return word.replace(
    /'([^']*)'|\\(.)/g,
    (_, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
  );
}
