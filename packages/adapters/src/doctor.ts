import { guardCommandAgent } from './hook-config.js';

/**
 * What every agent's doctor kit shares (each agent's own canned payload and reading of the hook's
 * answer are in its folder, doctor.ts).
 */

export { DOCTOR_CHAT } from './messages.js';

/**
 * The first non-empty string in the hook's JSON reply at one of `paths` (each a list of keys, outer
 * first); '' when there is none or stdout is not one JSON object.
 */
export function textIn(stdout: string, ...paths: readonly (readonly string[])[]): string {
  const reply = parseObject(stdout.trim());
  for (const path of paths) {
    let value: unknown = reply;
    for (const key of path)
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

/** The words of Claude Code's nested answer (the agents that copied it read them there too). */
export const nestedText = (stdout: string): string =>
  textIn(stdout, ['hookSpecificOutput', 'permissionDecisionReason'], ['hookSpecificOutput', 'additionalContext']);

/** The words an agent that reads the exit code is given: stderr when it stops the step (2), else stdout. */
export const exitCodeText = (stdout: string, stderr: string, exitCode: number): string =>
  (exitCode === 2 ? stderr : stdout).trim();

/** The hook's stdout as one JSON object, when it is one. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `timeout` (or Copilot's `timeoutSec`) on guard's entries, as written (seconds for most agents,
 * milliseconds for Gemini CLI), when the file sets one; the shortest if they differ. `parse` reads
 * the file (plain JSON unless the agent reads it otherwise).
 */
export function configuredTimeout(
  text: string,
  parse: (text: string) => unknown = (json) => JSON.parse(json.replace(/^\uFEFF/, '')),
): number | undefined {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    return undefined;
  }
  const found: number[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const entry = value as Record<string, unknown>;
      const isGuard = Object.values(entry).some(
        (field) => typeof field === 'string' && guardCommandAgent(field) !== undefined,
      );
      const seconds = entry['timeoutSec'] ?? entry['timeout'];
      if (isGuard && typeof seconds === 'number') found.push(seconds);
      Object.values(entry).forEach(visit);
    }
  };
  visit(parsed);
  return found.length > 0 ? Math.min(...found) : undefined;
}
