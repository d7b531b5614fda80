import { posix } from 'node:path';
import type { Verdict } from '@guard/core';
import type { ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { ConfigError } from '../adapter.js';
import { fallbackReply, withFallback } from '../fallback.js';
import { blankOriginal, isGuardCommand } from '../hook-config.js';
import { clineDir, cline } from './agent.js';
import { HOOK_FILE } from './files.js';
import { commandIn, hookFileText } from './hook-file.js';
import { STEP_EVENT, toReply } from './payload.js';

const own = commandIn;

/** What guard's file prints when guard's hook fails without an answer: a cancel, whatever fail-closed says. */
function failedAnswer(): string {
  const message =
    "guard: blocked, because guard's hook failed without an answer, so this step was not checked. Run `guard doctor` in a terminal.";
  const verdict: Verdict = { decision: 'block', findings: [], agentMessage: message, userMessage: message };
  return toReply(verdict, { event: STEP_EVENT, canAsk: false, failClosed: true }).stdout.trim();
}

/** `$CLINE_DIR/hooks/PreToolUse.bash` (default `~/.cline/hooks`), or `<project>/.clinerules/hooks/PreToolUse.bash`. */
export function configPath(level: ConfigLevel, where: Locations): string {
  const dir = level === 'project' ? posix.join(where.projectRoot, '.clinerules') : clineDir(where);
  return posix.join(dir, 'hooks', HOOK_FILE);
}

/** guard's hook file, whole; refused when a file of that name is there that guard did not write. */
export function install(configText: string, options: InstallOptions): string {
  if (configText.trim() !== '' && own(configText) === undefined)
    throw new ConfigError(
      `a hook file of this name is there and it is not guard's for Cline; move it aside so guard can write its own (guard never replaces a hook file of yours)`,
    );
  if (!isGuardCommand(options.hookCommand, 'cline') || /\s--event\s/.test(options.hookCommand))
    throw new ConfigError(`the hook command must end with "hook cline": ${options.hookCommand}`);
  // the answer when guard's files are gone: a cancel, since Cline runs a step whose hook says nothing
  const command =
    options.fallback === undefined
      ? options.hookCommand
      : withFallback(options.hookCommand, options.fallback, fallbackReply(cline, STEP_EVENT, options.failClosed));
  return hookFileText(command, failedAnswer());
}

/**
 * The file is guard's alone: removed whole, or given back as the white space it was before setup
 * (a file that is not guard's stays as it is).
 */
export function uninstall(configText: string, options?: UninstallOptions): string {
  return own(configText) === undefined ? configText : blankOriginal(options);
}

/** guard's command in its hook file. */
export function installedCommands(configText: string): readonly string[] {
  const command = own(configText);
  return command === undefined ? [] : [command];
}

/** guard's command on PreToolUse (the file's one event). */
export function installedCommand(configText: string, event: string): string | undefined {
  return event === STEP_EVENT ? own(configText) : undefined;
}
