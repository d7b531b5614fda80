import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Policy, PolicyRule } from '@guard/core';
import { readTextIfExists, writeFileAtomic } from '../fsx.js';
import { withLock } from './lock.js';

/**
 * The project policy guard last took, per project root: `policy-pins.json` in guard's folder. A
 * changed `.guard.yaml` that loosens anything applies only once the person runs `guard policy
 * accept`; until then the pin applies and the change waits here, with the step that saw it first.
 * Core decides what loosens (`againstPin`); this file only keeps the pins.
 */

export const POLICY_PINS_FILE = 'policy-pins.json';

/** Most projects kept; the ones pinned longest ago go first. */
export const MAX_PINS = 2_000;
/** Most chats a waiting change remembers having told. */
const MAX_TOLD = 200;

/** A project's policy as guard took it. */
export interface PolicyPin {
  /** The hash of the policy files' bytes it was taken from. */
  readonly hash: string;
  readonly policy: Policy;
  /** When it was taken (ISO time). */
  readonly time: string;
  /** A change that loosens, waiting for `guard policy accept`. */
  readonly pending?: PendingPolicy;
}

/** A change to a project's policy that loosens it, as first seen. */
export interface PendingPolicy {
  readonly hash: string;
  /** What it loosens, one line each. */
  readonly loosens: readonly string[];
  /** When, in which agent and chat, and at which step it was first seen. */
  readonly time: string;
  readonly agent: string;
  readonly chat: string;
  readonly step: string;
  /** The chats (`agent:chat`) already told to ask the person for `guard policy accept`. */
  readonly told: readonly string[];
}

interface PinsFile {
  readonly v: 1;
  readonly projects: Readonly<Record<string, PolicyPin>>;
}

export function policyPinsPath(guardHome: string): string {
  return join(guardHome, POLICY_PINS_FILE);
}

/**
 * Every pin. A file that cannot be read as one holds none, and a pin that is not whole is left out:
 * with no pin, a project's policy is measured against the built-in catalogue, where nothing it
 * allows applies before the person accepts it.
 */
export function readPins(guardHome: string): Record<string, PolicyPin> {
  const text = readTextIfExists(policyPinsPath(guardHome));
  if (text === undefined) return {};
  try {
    const parsed = JSON.parse(text) as { v?: unknown; projects?: unknown } | null;
    if (parsed?.v !== 1 || typeof parsed.projects !== 'object' || parsed.projects === null) return {};
    const out: Record<string, PolicyPin> = {};
    for (const [project, pin] of Object.entries(parsed.projects as Record<string, unknown>))
      if (isPin(pin)) out[project] = pin;
    return out;
  } catch {
    return {};
  }
}

/** The pin of one project, if any. */
export function readPin(guardHome: string, project: string): PolicyPin | undefined {
  const pins = readPins(guardHome);
  return Object.hasOwn(pins, project) ? pins[project] : undefined;
}

/**
 * Changes one project's pin under the file's lock (`change` gets the pin as it is now and returns
 * the new one, or undefined to leave it), so hooks and `guard policy accept` at once lose nothing.
 */
export function changePin(
  guardHome: string,
  project: string,
  change: (pin: PolicyPin | undefined) => PolicyPin | undefined,
): void {
  mkdirSync(guardHome, { recursive: true, mode: 0o700 });
  withLock(`${policyPinsPath(guardHome)}.lock`, () => {
    const pins = readPins(guardHome);
    const next = change(Object.hasOwn(pins, project) ? pins[project] : undefined);
    if (next === undefined) return;
    const kept = Object.entries({ ...pins, [project]: next })
      .sort(([, a], [, b]) => a.time.localeCompare(b.time))
      .slice(-MAX_PINS);
    const file: PinsFile = { v: 1, projects: Object.fromEntries(kept) };
    writeFileAtomic(policyPinsPath(guardHome), `${JSON.stringify(file, null, 1)}\n`, 0o600);
  });
}

/** Pins `policy` (its files hashing to `hash`) for the project; a waiting change is settled by it. */
export function pinPolicy(guardHome: string, project: string, hash: string, policy: Policy, now: Date): void {
  const { source: _, ...kept } = policy;
  changePin(guardHome, project, () => ({ hash, policy: kept, time: now.toISOString() }));
}

/**
 * Keeps a loosening change as waiting (the first step that saw it stays named) and, with `told`,
 * that this chat was told about it. Nothing is kept when there is no pin to wait beside: the pin
 * is then made with the built-in catalogue's empty policy.
 */
export function notePending(
  guardHome: string,
  project: string,
  seen: Omit<PendingPolicy, 'told'>,
  told: string | undefined,
): void {
  changePin(guardHome, project, (pin) => {
    const base = pin ?? { hash: 'none', policy: { secrets: [], block: [], rules: [], allow: [] }, time: seen.time };
    const same = base.pending?.hash === seen.hash ? base.pending : undefined;
    const before = same?.told ?? [];
    if (same !== undefined && (told === undefined || before.includes(told))) return undefined;
    const pending: PendingPolicy = {
      ...(same ?? seen),
      told: told === undefined || before.includes(told) ? before : [...before, told].slice(-MAX_TOLD),
    };
    return { ...base, pending };
  });
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isRule(value: unknown): value is PolicyRule {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Record<string, unknown>;
  return (
    typeof rule['id'] === 'string' &&
    typeof rule['program'] === 'string' &&
    isStrings(rule['args']) &&
    (rule['decision'] === 'ask' || rule['decision'] === 'block') &&
    typeof rule['reason'] === 'string'
  );
}

function isPolicy(value: unknown): value is Policy {
  if (typeof value !== 'object' || value === null) return false;
  const policy = value as Record<string, unknown>;
  return (
    isStrings(policy['secrets']) &&
    isStrings(policy['block']) &&
    Array.isArray(policy['rules']) &&
    policy['rules'].every(isRule) &&
    Array.isArray(policy['allow']) &&
    policy['allow'].every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as Record<string, unknown>)['rule'] === 'string' &&
        isStrings((entry as Record<string, unknown>)['paths']),
    )
  );
}

function isPending(value: unknown): value is PendingPolicy {
  if (typeof value !== 'object' || value === null) return false;
  const pending = value as Record<string, unknown>;
  return (
    ['hash', 'time', 'agent', 'chat', 'step'].every((key) => typeof pending[key] === 'string') &&
    isStrings(pending['loosens']) &&
    isStrings(pending['told'])
  );
}

function isPin(value: unknown): value is PolicyPin {
  if (typeof value !== 'object' || value === null) return false;
  const pin = value as Record<string, unknown>;
  return (
    typeof pin['hash'] === 'string' &&
    typeof pin['time'] === 'string' &&
    isPolicy(pin['policy']) &&
    (pin['pending'] === undefined || isPending(pin['pending']))
  );
}
