import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { againstPin } from '@guard/core';
import { GuardError } from '../errors.js';
import type { Io } from '../io.js';
import type { PendingPolicy, PolicyPin } from '../state/policy-pins.js';
import { pinPolicy, policyPinsPath, readPins } from '../state/policy-pins.js';
import { guardHomeFrom } from '../state/settings.js';
import { loadPolicies, POLICY_FILE } from '../world/policy.js';
import { NO_POLICY_HASH, policyHash } from '../world/project-policy.js';
import { findProjectRoot } from '../world/project-root.js';

export interface PolicyOptions {
  /** The project folder (`--project`); the project around the current folder when undefined. */
  readonly project: string | undefined;
  readonly json: boolean;
}

/** One project folder's policy as it reads now, against guard's pin. */
interface ProjectView {
  readonly project: string;
  readonly file: string;
  /** The hash of its policy files now (`none`: there are none). */
  readonly hash: string;
  /** Whether that is what guard pinned. */
  readonly pinned: boolean;
  /** What the files now loosen against the pin: waits for `guard policy accept`. */
  readonly loosens: readonly string[];
  /** The change as the hook first saw it, when it has. */
  readonly waiting?: Omit<PendingPolicy, 'told' | 'loosens'>;
  /** The file's mistakes, if any (what has them never loosens). */
  readonly mistakes?: string;
}

/** `guard policy [show|status]`: the project's policy against the one guard pinned, and any change that waits. */
export function showPolicy(options: PolicyOptions, io: Io): void {
  const views = viewsFor(options, io);
  if (options.json) {
    io.out(`${JSON.stringify({ projects: views }, null, 2)}\n`);
    return;
  }
  const lines = views.flatMap((view) => describe(view));
  const waiting = views.some((view) => view.loosens.length > 0);
  lines.push(
    '',
    waiting
      ? 'A change that loosens guard waits for you: `guard policy accept` (in a terminal) takes it.'
      : 'Nothing waits: a change to .guard.yaml that only tightens applies at once.',
  );
  io.out(`${lines.join('\n')}\n`);
}

/**
 * `guard policy accept`: shows what the project's `.guard.yaml` (and that of any project folder
 * within it the hook has seen) changes against the pinned policy, and pins it as it is now.
 */
export function acceptPolicy(options: PolicyOptions, io: Io): void {
  const guardHome = guardHomeFrom(io.env, io.home());
  const views = viewsFor(options, io);
  const taken = views.filter((view) => !view.pinned);
  for (const view of taken) {
    // what applies from now on is what the file says now, read again as it is pinned
    const loaded = loadPolicies(view.project);
    pinPolicy(guardHome, view.project, policyHash(view.project), loaded.policy, new Date());
  }
  if (options.json) {
    io.out(`${JSON.stringify({ accepted: taken }, null, 2)}\n`);
    return;
  }
  if (taken.length === 0) {
    io.out(`Nothing to accept: guard already applies ${views.map((view) => view.file).join(', ')} as it is.\n`);
    return;
  }
  const lines = taken.flatMap((view) => [
    ...describe(view),
    `  Pinned ${view.hash === NO_POLICY_HASH ? 'no policy file' : `${view.file} (${view.hash.slice(0, 12)})`}.`,
  ]);
  lines.push('', `guard applies these as they are now; the pins are kept in ${policyPinsPath(guardHome)}.`);
  io.out(`${lines.join('\n')}\n`);
}

function viewsFor(options: PolicyOptions, io: Io): ProjectView[] {
  const root = options.project === undefined ? findProjectRoot(io.cwd()) : resolve(io.cwd(), options.project);
  if (options.project !== undefined && !isFolder(root)) {
    throw new GuardError(
      `${root} is not a folder.`,
      'Run `guard policy --project DIR` with the project folder (the one that holds .git and .guard.yaml).',
    );
  }
  const pins = readPins(guardHomeFrom(io.env, io.home()));
  // the hook pins the folder the agent works in: those within this project count too
  const within = Object.keys(pins).filter(
    (project) => project !== root && project.startsWith(root.endsWith(sep) ? root : `${root}${sep}`),
  );
  return [root, ...within.filter((project) => existsSync(project)).sort()].map((project) =>
    viewOf(project, Object.hasOwn(pins, project) ? pins[project] : undefined),
  );
}

function viewOf(project: string, pin: PolicyPin | undefined): ProjectView {
  const loaded = loadPolicies(project);
  const hash = policyHash(project);
  const { loosens } = againstPin(pin?.policy, loaded.policy);
  const pending = pin?.pending?.hash === hash ? pin.pending : undefined;
  return {
    project,
    file: join(project, POLICY_FILE),
    hash,
    pinned: pin === undefined ? hash === NO_POLICY_HASH : pin.hash === hash,
    loosens,
    ...(pending === undefined
      ? {}
      : {
          waiting: {
            hash: pending.hash,
            time: pending.time,
            agent: pending.agent,
            chat: pending.chat,
            step: pending.step,
          },
        }),
    ...(loaded.error === undefined ? {} : { mistakes: loaded.error }),
  };
}

function describe(view: ProjectView): string[] {
  const state =
    view.loosens.length > 0
      ? 'changed in a way that loosens guard; the pinned policy applies until you accept it:'
      : view.pinned
        ? view.hash === NO_POLICY_HASH
          ? 'no policy file; the built-in rules apply.'
          : 'pinned; guard applies it as it is.'
        : 'changed and only tightens; guard applies it as it is.';
  const lines = [`${view.file}: ${state}`, ...view.loosens.map((line) => `  ${line}`)];
  if (view.waiting !== undefined)
    lines.push(
      `  first seen ${view.waiting.time} by ${view.waiting.agent} (chat ${view.waiting.chat}): ${view.waiting.step}`,
    );
  if (view.mistakes !== undefined)
    lines.push(
      `  the file has mistakes (what has them never loosens):`,
      ...view.mistakes.split('\n').map((line) => `    ${line}`),
    );
  return lines;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
