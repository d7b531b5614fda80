import { ExitCode, GuardError } from '../errors.js';
import type { Io } from '../io.js';
import type { AllowedEntry } from '../state/allowed.js';
import { allowedPath, forgetAllowed, readAllowed } from '../state/allowed.js';
import { isLockedKey } from '@guard/core';
import { resolveSettings } from '../state/floor.js';
import { DEFAULT_SETTINGS, guardHomeFrom } from '../state/settings.js';
import { readSystemSettings } from '../world/system-settings.js';
import { findProjectRoot } from '../world/project-root.js';

/**
 * `guard allowed [--json]`: the yeses kept for whole projects (SPEC §12), this project's first; a yes
 * for a rule the system settings lock is marked as not used.
 */
export async function listAllowed(options: { readonly json: boolean }, io: Io): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  const entries = readAllowed(guardHome);
  const { lockedRules } = resolveSettings(await readSystemSettings(io.systemRoot), DEFAULT_SETTINGS, DEFAULT_SETTINGS);
  const unused = (entry: AllowedEntry): boolean => isLockedKey(lockedRules, entry.key);
  if (options.json) {
    const shown = entries.map((entry) =>
      unused(entry) ? { ...entry, notUsed: 'locked by the system settings' } : entry,
    );
    io.out(`${JSON.stringify({ allowed: shown }, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    io.out(
      'No yes is kept for a whole project. Where the agent asks you in the chat, answer an asked step with "yes, for this project" to keep one.\n',
    );
    return;
  }
  const here = findProjectRoot(io.cwd());
  const byProject = new Map<string, AllowedEntry[]>();
  for (const entry of entries) byProject.set(entry.project, [...(byProject.get(entry.project) ?? []), entry]);
  const projects = [...byProject.keys()].sort((a, b) => (a === here ? -1 : b === here ? 1 : a.localeCompare(b)));
  const out: string[] = [];
  for (const project of projects) {
    out.push(`${project}${project === here ? ' (this project)' : ''}`);
    for (const entry of byProject.get(project) ?? [])
      out.push(
        `  ${entry.id}  ${entry.key}  (${entry.time})${unused(entry) ? '  not used: the system settings lock this rule' : ''}`,
      );
  }
  out.push(
    '',
    `Kept in ${allowedPath(guardHome)}. \`guard forget <id>\` removes one, --project this project's, --all every one.`,
  );
  io.out(`${out.join('\n')}\n`);
}

export interface ForgetOptions {
  readonly project: boolean;
  readonly all: boolean;
}

/** `guard forget <id>|--project|--all`: removes kept yeses; the next such step asks again. */
export function forget(id: string | undefined, options: ForgetOptions, io: Io): void {
  const chosen = [id !== undefined, options.project, options.all].filter(Boolean).length;
  if (chosen !== 1) {
    throw new GuardError(
      'Say which kept yes to forget: one id, --project or --all.',
      'Run `guard allowed` to see the ids, then `guard forget <id>`, `guard forget --project` or `guard forget --all`.',
      ExitCode.Usage,
    );
  }
  const guardHome = guardHomeFrom(io.env, io.home());
  const here = findProjectRoot(io.cwd());
  const gone = forgetAllowed(guardHome, (entry) =>
    options.all ? true : options.project ? entry.project === here : entry.id === id,
  );
  if (gone.length === 0) {
    if (id !== undefined) throw new GuardError(`No kept yes has the id ${id}.`, 'Run `guard allowed` to see the ids.');
    io.out(`No yes was kept${options.project ? ` for ${here}` : ''}; nothing changed.\n`);
    return;
  }
  io.out(
    `Forgot ${gone.length === 1 ? 'one yes' : `${gone.length} yeses`}: ${gone.map((entry) => entry.key).join(', ')}. Those steps ask again.\n`,
  );
}
