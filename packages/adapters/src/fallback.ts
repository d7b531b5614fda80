import type { Verdict } from '@guard/core';
import { quoteWord } from '@guard/core';
import type { AgentAnswers, HookFiles, HookReply } from './adapter.js';
import { filesGoneMessage } from './messages.js';

/**
 * The hook command that answers by itself when guard's files are gone. After `npm rm -g` without
 * `guard uninstall --all`, or once the Node setup named is upgraded away, the agent still runs
 * guard's command on every call; run bare, it fails ("Cannot find module …", exit 1), and most
 * agents then run the step unchecked. So setup writes (on POSIX)
 *
 *   /bin/sh -c 'test -x "$1" && test -f "$2" && { o=$(GUARD_HOME="${4:-$GUARD_HOME}" NODE_OPTIONS=
 *               NODE_PATH= "$1" "$2" hook <agent> [--event NAME]); r=$?; <pass it on>; };
 *               printf "%s\n" "$3"' guard '<node>' '<hook script>' '<answer>' '<guard folder>'
 *
 * (one line; script() below writes it): while both files are there the shell runs guard's hook
 * and passes its answer and exit code on; otherwise it prints the answer, what guard answers when
 * it could not check a step (ask, or block under fail-closed) in the agent's own reply for that
 * event, made at setup time from the agent's `toReply` and `toEventReply`. It prints that answer
 * too when the hook could not start or was killed (exit code 126 and above: a limit such as
 * `ulimit -v` or `-n` set around the agent) and printed nothing: no answer of guard's is replaced,
 * since the hook answers only with exit codes below 126. The hook runs with guard's folder as
 * setup found it (`$4`; an inherited GUARD_HOME, XDG_STATE_HOME or HOME does not move it) and
 * with NODE_OPTIONS and NODE_PATH emptied (an inherited `--require` loads no code into guard).
 * Below five open files the shell itself cannot run the hook (no pipe): it exits 2 and says nothing.
 * It is one program and its words, each in single quotes (a `'` escaped outside them), so every
 * agent reads it alike: those that run it through a shell (`sh -c`,
 * bash, Codex's login shell, fish included) and Cursor, which splits a command into words itself.
 * The program it runs is named by `$1` and `$2`, which guard's shell reader binds, so an agent that
 * runs the command itself is seen running guard's hook (guard.tamper). No form like it keeps the
 * quoting of cmd.exe and PowerShell, so on Windows setup writes the plain command (which neither
 * pins guard's folder nor empties NODE_OPTIONS).
 */

/** What a hook command of this form holds. */
export interface Fallback {
  /** The plain command it stands for while guard's files are there (`"<node>" "<script>" hook <agent> …`). */
  readonly command: string;
  /** The files it checks first. */
  readonly files: HookFiles;
  /** What it answers when either is gone. */
  readonly reply: HookReply;
}

/**
 * What the hook command answers for `event` when guard's files are gone: ask, or block under
 * fail-closed. An agent that asks by a block (Codex, Gemini CLI) gets the block's words either way:
 * its ask would have the agent get the person's yes for guard, which is not there to take it; and
 * so its command does not change with fail-closed (Codex trusts a hook by its command's hash).
 */
export function fallbackReply(agent: AgentAnswers, event: string, failClosed: boolean, system = false): HookReply {
  if (!agent.stepEvents.includes(event)) return agent.toEventReply(event, filesGoneMessage(agent.id, false, system));
  const message = filesGoneMessage(agent.id, true, system);
  const verdict: Verdict = {
    decision: failClosed || agent.capabilities.ask === 'block-then-chat' ? 'block' : 'ask',
    findings: [],
    agentMessage: message,
    userMessage: message,
  };
  // on stdout, and on stderr too where the agent reads its reason there (Windsurf's exit 2)
  const { stdout, stderr, exitCode } = agent.toReply(verdict, {
    event,
    canAsk: agent.capabilities.askEvents.includes(event),
    failClosed,
  });
  return stderr === undefined || stderr === '' ? { stdout, exitCode } : { stdout, stderr, exitCode };
}

// The words after the hook script in guard's plain command: `hook <agent>`, maybe `--event NAME`.
const TAIL = /\shook\s+([a-z][a-z0-9-]*(?:\s+--event\s+[A-Za-z][\w-]*)?)\s*$/;

/**
 * The script: run Node (`$1`) on the hook script (`$2`) with `tail` while both are there, in guard's
 * folder (`$4`, else the one inherited) and with no Node options, and pass on what it printed and its
 * exit code; print `$3` when either file is gone or the hook died without a word (on stderr too,
 * with `stderr`).
 */
function script(tail: string, newline: boolean, exitCode: number, stderr = false): string {
  const exit = exitCode === 0 ? '' : `; exit ${exitCode}`;
  const run = `o=$(GUARD_HOME="\${4:-$GUARD_HOME}" NODE_OPTIONS= NODE_PATH= "$1" "$2" hook ${tail}); r=$?`;
  const answered = `{ [ "$r" -lt 126 ] || [ -n "$o" ]; } && { [ -z "$o" ] || printf "%s\\n" "$o"; exit "$r"; }`;
  const print = `printf "%s${newline ? '\\n' : ''}" "$3"`;
  return `test -x "$1" && test -f "$2" && { ${run}; ${answered}; }; ${print}${stderr ? `; ${print} >&2` : ''}${exit}`;
}

/** The script as an earlier setup wrote it (the hook `exec`ed, no folder pinned): still read as guard's. */
function earlierScript(tail: string, newline: boolean, exitCode: number): string {
  const exit = exitCode === 0 ? '' : `; exit ${exitCode}`;
  return `test -x "$1" && test -f "$2" && exec "$1" "$2" hook ${tail}; printf "%s${newline ? '\\n' : ''}" "$3"${exit}`;
}

/** The plain command `command` (its `hook <agent> …` words), run only while `files` are both there; else `reply`. */
export function withFallback(command: string, files: HookFiles, reply: HookReply): string {
  const tail = TAIL.exec(command)?.[1]?.replace(/\s+/g, ' ');
  if (tail === undefined) throw new Error(`not a command of guard's: ${command}`);
  const newline = reply.stdout.endsWith('\n');
  const text = newline ? reply.stdout.slice(0, -1) : reply.stdout;
  // the command stays one line (an agent's file shows it)
  if (text.includes('\n')) throw new Error('a fallback answer must be one line');
  // stderr, where the agent reads it, says what stdout says
  const stderr = reply.stderr !== undefined && reply.stderr !== '';
  if (stderr && reply.stderr !== reply.stdout) throw new Error("a fallback answer's stderr must be its stdout");
  const words = [script(tail, newline, reply.exitCode, stderr), files.node, files.script, text, files.home ?? ''].map(
    shellWord,
  );
  return `/bin/sh -c ${words[0] ?? ''} guard ${words.slice(1).join(' ')}`;
}

// One word as shellWord() writes it, and the script as script() writes it (its variable parts as groups).
const WORD = String.raw`(?:'[^']*'|\\.)+`;
function formOf(write: typeof script, folder: string): RegExp {
  const text = write('@TAIL@', false, 0).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const last = text.lastIndexOf('%s');
  const form = `${text.slice(0, last)}%s((?:\\\\n)?)${text.slice(last + 2)}`
    .replace('@TAIL@', '([a-z][a-z0-9-]*(?: --event [A-Za-z][\\w-]*)?)')
    .concat(String.raw`(; printf "%s(?:\\n)?" "\$3" >&2)?`, '(?:; exit ([1-9][0-9]{0,2}))?');
  return new RegExp(String.raw`^/bin/sh -c '${form}' guard (${WORD}) (${WORD}) (${WORD})${folder}$`);
}
const FORMS = [formOf(script, ` (${WORD})`), formOf(earlierScript, '')];

/** What a command written by withFallback() (or an earlier setup) holds; undefined for any other command. */
export function readFallback(command: string): Fallback | undefined {
  const match = FORMS.map((form) => form.exec(command)).find((found) => found !== null);
  if (match === undefined) return undefined;
  const [, tail = '', newline = '', stderr, exit, node = '', path = '', text = '', folder] = match;
  const home = folder === undefined ? '' : unquoted(folder);
  const files = { node: unquoted(node), script: unquoted(path), ...(home === '' ? {} : { home }) };
  const stdout = `${unquoted(text)}${newline === '' ? '' : '\n'}`;
  return {
    command: `${quoteWord(files.node, 'double')} ${quoteWord(files.script, 'double')} hook ${tail}`,
    files,
    reply: { stdout, ...(stderr === undefined ? {} : { stderr: stdout }), exitCode: Number(exit ?? 0) },
  };
}

/** The plain command a command written by withFallback() stands for, or the command itself. */
export function plainCommand(command: string): string {
  return readFallback(command)?.command ?? command;
}

/**
 * A word every shell reads alike: runs in single quotes, each `'` escaped outside them, and so is a
 * `\` before a `'` or a `\` or at the end (fish reads those two pairs even inside single quotes).
 */
export function shellWord(text: string): string {
  if (text === '') return "''";
  return text.replace(/'|\\(?=['\\]|$)|(?:[^'\\]|\\(?!['\\]|$))+/g, (part) =>
    part === "'" || part === '\\' ? `\\${part}` : `'${part}'`,
  );
}

function unquoted(word: string): string {
  return word.replace(
    /'([^']*)'|\\(.)/g,
    (_, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
  );
}
