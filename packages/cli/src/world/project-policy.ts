import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Policy } from '@guard/core';
import { againstPin, EMPTY_POLICY } from '@guard/core';
import { readRegularText } from '../fsx.js';
import type { PolicyPin } from '../state/policy-pins.js';
import { notePending, pinPolicy, readPin } from '../state/policy-pins.js';

/** The project policy as the hook uses it: never throws; a policy that cannot be read is an error to log. */
export interface PolicyResult {
  readonly policy: Policy;
  readonly error?: string;
}

/** The policy that applies against guard's pin, and what the call leaves to keep of it. */
export interface PinnedResult extends PolicyResult {
  /** A change that loosens, waiting for `guard policy accept`: what it loosens, and whether this chat is still to be told. */
  readonly held?: { readonly loosens: readonly string[]; readonly tell: boolean };
  /** Keeps what this call learnt (a new pin, or the waiting change and whether this chat was told); after the reply. */
  readonly keep?: (told: boolean) => void;
}

/** Who saw the policy: for the waiting change's record. */
export interface SeenBy {
  readonly agent: string;
  readonly chat: string;
  readonly step: string;
}

// the same name policy.ts reads; repeated here so that the hook need not load policy.ts to look
const POLICY_FILE = '.guard.yaml';
/** The most of a policy file hashed; policy.ts does not read a larger one either. */
const MAX_POLICY_BYTES = 256 * 1024;

/** The hash of a project without any policy file around it. */
export const NO_POLICY_HASH = 'none';

/**
 * The project's `.guard.yaml`, and those of the projects around it (see loadPolicies). Most projects have none, so the policy reader (and the yaml parser
 * behind it) is loaded only when the file is there.
 */
export async function projectPolicy(projectRoot: string): Promise<PolicyResult> {
  if (!existsSync(join(projectRoot, POLICY_FILE)) && !anyAbove(projectRoot)) return { policy: EMPTY_POLICY };
  const { loadPolicies } = await import('./policy.js');
  return loadPolicies(projectRoot);
}

/**
 * The project's policy held against the one guard pinned for it (core's `againstPin`): a change
 * that only tightens applies at once and is pinned after the reply; one that loosens waits for
 * the person's `guard policy accept`, the strictest of both applying meanwhile. A project guard
 * has not pinned is measured against the built-in catalogue, so a repository the agent made or
 * fetched brings no allow with it.
 */
export async function pinnedPolicy(guardHome: string, projectRoot: string, seen: SeenBy): Promise<PinnedResult> {
  const hash = policyHash(projectRoot);
  const pin = readPin(guardHome, projectRoot);
  // most projects have no policy file and never had one
  if (hash === NO_POLICY_HASH && pin === undefined) return { policy: EMPTY_POLICY };
  const current = await projectPolicy(projectRoot);
  const { policy, loosens } = againstPin(pin?.policy, current.policy);
  if (loosens.length === 0) {
    if (!stale(pin, hash)) return current;
    return { ...current, keep: () => pinPolicy(guardHome, projectRoot, hash, current.policy, new Date()) };
  }
  const chat = `${seen.agent}:${seen.chat}`;
  const told = pin?.pending?.hash === hash && pin.pending.told.includes(chat);
  return {
    policy,
    ...(current.error === undefined ? {} : { error: current.error }),
    held: { loosens, tell: !told },
    keep: (tellingNow) =>
      notePending(
        guardHome,
        projectRoot,
        { hash, loosens, time: new Date().toISOString(), ...seen },
        tellingNow ? chat : undefined,
      ),
  };
}

/** Whether the pin no longer says what the files say (or a settled change still waits in it). */
function stale(pin: PolicyPin | undefined, hash: string): boolean {
  if (pin === undefined) return hash !== NO_POLICY_HASH;
  return pin.hash !== hash || pin.pending !== undefined;
}

/**
 * The hash of the policy files that apply in a project (its own and those of the projects around
 * it): their folders and bytes. One that cannot be read counts by its error, so it still differs
 * from the pin.
 */
export function policyHash(projectRoot: string): string {
  const parts: string[] = [];
  for (const dir of [projectRoot, ...enclosingPolicyRoots(projectRoot)]) {
    let text: string | undefined;
    try {
      text = readRegularText(join(dir, POLICY_FILE), MAX_POLICY_BYTES);
    } catch (error) {
      text = `\0unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    }
    if (text !== undefined) parts.push(`${dir}\0${text.length}\0${text}\0`);
  }
  if (parts.length === 0) return NO_POLICY_HASH;
  // node:crypto only when there is a policy to hash: loading it costs milliseconds, and the hook
  // asks on every call, where most projects have none
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/** The folders above `projectRoot` that hold a `.guard.yaml`, nearest first. */
export function enclosingPolicyRoots(projectRoot: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(projectRoot); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, POLICY_FILE))) out.push(dir);
  return out;
}

/** Whether a folder above the project holds a policy (a repository nested in another project). */
function anyAbove(projectRoot: string): boolean {
  return enclosingPolicyRoots(projectRoot).length > 0;
}
