import { join } from 'node:path';
import { setupCommand } from '../agents/admin.js';
import type { PinLevel } from './installs.js';
import { readRegularText, writeFileAtomic } from '../fsx.js';
import { withLock } from './lock.js';

// What the hook knows of the pins on the agents' hook files (pins.json in guard's folder): when it
// last looked, the texts it found intact (by hash, so an unchanged file is never parsed again), and
// the drifts it found, each logged once and told once in a reply that can carry a notice.

/** The hook looks at the pinned files at most this often (after its answer). */
export const PIN_CHECK_MS = 60_000;

/** How guard's entries in a hook file differ from what setup left there. */
export type DriftKind = 'gone' | 'removed' | 'changed' | 'unreadable' | 'hooks-off';

/** One hook file whose guard's entries are not as setup left them. */
export interface Drift {
  readonly agent: string;
  readonly name: string;
  readonly level: PinLevel;
  readonly path: string;
  readonly kind: DriftKind;
  /** ISO time of the file's last change (its modification time), when there is a file. */
  readonly at?: string;
  /** One sentence: what is wrong. */
  readonly detail: string;
  /** What to run. */
  readonly fix: string;
}

/** A drift of one pinned file, in words: what is wrong, and `guard setup` to run again. */
export function fileDrift(
  agent: string,
  name: string,
  level: PinLevel,
  path: string,
  kind: Exclude<DriftKind, 'hooks-off'>,
  at: string | undefined,
): Drift {
  const detail: Readonly<Record<typeof kind, string>> = {
    gone: `guard's hook file for ${name}, ${path}, is gone.`,
    unreadable: `guard's hook file for ${name}, ${path}, no longer reads as ${name}'s settings, so its hooks (guard's among them) may not run.`,
    removed: `guard's hook in ${name} was removed from ${path}.`,
    changed: `guard's hook in ${name} was changed in ${path} (its command, events, matchers or time limit are not as \`guard setup\` wrote them).`,
  };
  return {
    agent,
    name,
    level,
    path,
    kind,
    ...(at === undefined ? {} : { at }),
    detail: detail[kind],
    fix: `Run ${setupCommand(agent, level, process.platform)} again.`,
  };
}

/** A word of guard's entries: a line setup added, without its spaces and a trailing comma. */
function part(line: string): string {
  return line.replace(/\s+/g, '').replace(/,$/, '');
}

/**
 * What setup added to a hook file, as the hook compares it without the agent's config editing: the
 * lines of `after` that the text without guard's entries (`rest`) does not hold, each without its
 * spaces (a file the agent lays out anew still holds them), those with a letter or digit.
 */
export function guardParts(after: string, rest: string): string[] {
  const left = new Map<string, number>();
  for (const line of rest.split('\n')) left.set(part(line), (left.get(part(line)) ?? 0) + 1);
  const parts: string[] = [];
  for (const line of after.split('\n')) {
    const word = part(line);
    const count = left.get(word) ?? 0;
    if (count > 0) left.set(word, count - 1);
    else if (/[A-Za-z0-9]/.test(word)) parts.push(word);
  }
  return parts;
}

/** Whether a text parses as JSON. */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The parts of guard's entries a text no longer holds (its spaces left out). */
export function missingParts(text: string, parts: readonly string[]): string[] {
  const flat = text.replace(/\s+/g, '');
  return parts.filter((word) => !flat.includes(word));
}

/** A drift as the hook keeps it. */
export interface KeptDrift extends Drift {
  /** Names it across calls: the file, the kind and the file's time. */
  readonly key: string;
  /** ISO time the hook noticed it. */
  readonly noticed: string;
  /** It was told in a reply. */
  readonly told?: true;
}

export interface PinsState {
  readonly checked: number;
  /** Per file, the hash of a text found intact though not the one setup wrote. */
  readonly seen: Readonly<Record<string, string>>;
  readonly drifts: readonly KeptDrift[];
}

export const NO_PINS: PinsState = { checked: 0, seen: {}, drifts: [] };

function pinsPath(guardHome: string): string {
  return join(guardHome, 'pins.json');
}

function isKeptDrift(value: unknown): value is KeptDrift {
  const drift = value as Partial<Record<keyof KeptDrift, unknown>> | null;
  return (
    typeof drift === 'object' &&
    drift !== null &&
    typeof drift.key === 'string' &&
    typeof drift.detail === 'string' &&
    typeof drift.fix === 'string'
  );
}

/** What the hook last found (none when pins.json is missing or cannot be read). */
export function readPins(guardHome: string): PinsState {
  try {
    const parsed = JSON.parse(readRegularText(pinsPath(guardHome), 256 * 1024) ?? 'null') as Partial<PinsState> | null;
    if (parsed === null || typeof parsed !== 'object') return NO_PINS;
    return {
      checked: typeof parsed.checked === 'number' ? parsed.checked : 0,
      seen: typeof parsed.seen === 'object' && parsed.seen !== null ? parsed.seen : {},
      drifts: Array.isArray(parsed.drifts) ? (parsed.drifts as unknown[]).filter(isKeptDrift) : [],
    };
  } catch {
    return NO_PINS;
  }
}

/**
 * Changes what the hook keeps under pins.json's lock (several hooks look and tell at once: a drift
 * or a "told" one of them writes must not be lost to another's older copy).
 */
export function changePins(
  guardHome: string,
  change: (state: PinsState) => PinsState | undefined,
  timeoutMs: number,
): void {
  withLock(
    `${pinsPath(guardHome)}.lock`,
    () => {
      const next = change(readPins(guardHome));
      if (next !== undefined) writeFileAtomic(pinsPath(guardHome), `${JSON.stringify(next)}\n`, 0o600);
    },
    { timeoutMs },
  );
}

/** The drifts not yet told in a reply (read on every call: one small file, usually absent). */
export function untoldDrifts(guardHome: string): readonly KeptDrift[] {
  return readPins(guardHome).drifts.filter((drift) => drift.told !== true);
}

/** The sentence a reply carries for these drifts. */
export function driftSentence(drift: Drift): string {
  const at = drift.at === undefined ? '' : ` (the file changed at ${clock(drift.at)})`;
  return `${drift.detail.replace(/\.$/, '')}${at}. ${drift.fix}`;
}

function clock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toTimeString().slice(0, 5);
}

/** Marks drifts as told (after the reply that carried them went out). */
export function markTold(guardHome: string, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const told = new Set(keys);
  // not waited for (the call may still owe its answer to a resident checker's client): a mark not
  // made now is a drift told again by the next answer that can carry it
  changePins(
    guardHome,
    (state) => ({
      ...state,
      drifts: state.drifts.map((drift) => (told.has(drift.key) ? { ...drift, told: true as const } : drift)),
    }),
    0,
  );
}
