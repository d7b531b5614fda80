import { shellWord } from '../fallback.js';
import { isGuardCommand } from '../hook-config.js';

/**
 * The hook file guard writes for Cline: Cline has no hook settings, only files named after an event
 * in its hooks folders (`PreToolUse`, `PreToolUse.sh`, … every one of them runs, and any cancel
 * wins), started by their `#!` line. guard's file is its alone (setup creates it, uninstall removes
 * it), beside any file of the person's, which it never touches. All it does is run guard's hook
 * command (the pinned command the other agents run, which answers by itself when guard's files are
 * gone) with the step on stdin and print its answer; and, since Cline runs the step when a hook
 * prints nothing it can read, print a cancel of its own when that command fails without an answer
 * (Node crashed, killed by a limit).
 */

/** The first lines of every file guard writes: how guard knows the file is its own. */
export const FILE_MARK = '#!/bin/sh\n# guard: written by `guard setup`';

// The line that runs the command: read back by commandIn().
const COMMAND_LINE = /^o=\$\((.+)\)$/m;

/** The file's text, running `command`; `failed` is the one-line answer it prints when the command fails without one. */
export function hookFileText(command: string, failed: string): string {
  if (/[\r\n]/.test(command) || /[\r\n]/.test(failed))
    throw new Error('the hook command and its answer must be one line');
  return `${FILE_MARK}; removed by \`guard uninstall\`. Do not edit: guard checks it.
# Cline runs it before each tool step: guard's hook reads the step on stdin and answers on stdout.
# Cline runs the step when a hook prints nothing it can read, so a failure with no answer prints a cancel.
o=$(${command})
r=$?
if [ -n "$o" ]; then printf '%s\\n' "$o"; elif [ "$r" -ne 0 ]; then printf '%s\\n' ${shellWord(failed)}; fi
exit 0
`;
}

/** guard's command in a hook file of guard's for Cline; undefined for any other text. */
export function commandIn(text: string): string | undefined {
  if (!text.startsWith(FILE_MARK)) return undefined;
  const command = COMMAND_LINE.exec(text)?.[1];
  return command !== undefined && isGuardCommand(command, 'cline') ? command : undefined;
}
