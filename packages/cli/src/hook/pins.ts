// The pins on the agents' hook files, from the hook's side (issue 25): after the answer, at most
// once a minute, each file setup pinned is compared with what setup wrote, by hash and then by the
// parts it added (state/pins.ts), without the agents' config editing, which the hook never loads.
// A drift found is logged once and told once in the next reply that can carry a notice (decide.ts).
import { readFileSync, statSync } from 'node:fs';
import type { AgentId } from '@guard/adapters';
import { AGENTS } from '@guard/adapters/agents';
import { appendLog } from '../state/decision-log.js';
import { readRecords } from '../state/installs.js';
import type { InstallRecord } from '../state/installs.js';
import type { Drift, KeptDrift, PinsState } from '../state/pins.js';
import { changePins, driftSentence, fileDrift, isJson, missingParts, PIN_CHECK_MS, readPins } from '../state/pins.js';

/** How one pinned file stands, and the hash of a text found intact though not the one setup wrote. */
function look(path: string, record: InstallRecord, seen: string | undefined): { drift?: Drift; intact?: string } {
  const pin = record.pin;
  const agent = pin?.agent as AgentId | undefined;
  if (pin === undefined || agent === undefined || !(agent in AGENTS)) return {};
  const drift = (kind: 'gone' | 'removed' | 'changed' | 'unreadable', at?: string): { drift: Drift } => ({
    drift: fileDrift(agent, AGENTS[agent].displayName, pin.level, path, kind, at),
  });
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return drift('gone');
  }
  // node:crypto loaded here, not with the hook: the pins are looked at once a minute at most
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
  if (hash === record.after || hash === seen || pin.parts === undefined) return {};
  const text = bytes.toString('utf8');
  const at = statSync(path, { throwIfNoEntry: false })?.mtime.toISOString();
  if (pin.json === true && !isJson(text)) return drift('unreadable', at);
  // guard's own plugin code holds nothing but guard's: text added to it (a syntax error, code of
  // its own) is a change, where a JSON file laid out anew is not
  if (missingParts(text, pin.parts).length === 0) {
    if (pin.whole !== true || pin.json === true) return { intact: hash };
    return drift('changed', at);
  }
  // no command of guard's left in the file: removed; its parts otherwise (a matcher, a time limit): changed
  const script = pin.options.fallback?.script ?? pin.options.hookCommand;
  const named = text.includes(script) || text.includes(JSON.stringify(script).slice(1, -1));
  return drift(named ? 'changed' : 'removed', at);
}

/** Whether the last look is a minute old (or dated ahead: a clock set back). */
function due(state: PinsState, now: number): boolean {
  return now - state.checked >= PIN_CHECK_MS || now < state.checked;
}

/**
 * After the hook's answer, at most once a minute: every pinned file looked at (state/pins.ts). A
 * drift found for the first time is logged; one that is gone is forgotten. Never throws.
 */
export function watchPins(guardHome: string, now: number = Date.now()): void {
  try {
    const last = readPins(guardHome);
    if (!due(last, now)) return;
    // nothing pinned and nothing found: no lock taken, no file written
    if (last.drifts.length === 0 && !Object.values(readRecords(guardHome)).some((record) => record.pin !== undefined))
      return;
    changePins(
      guardHome,
      (state) => {
        // another call may have looked meanwhile
        if (!due(state, now)) return undefined;
        const pinned = Object.entries(readRecords(guardHome)).filter(([, record]) => record.pin !== undefined);
        // nothing pinned: the look is still dated, so the next calls skip it for a minute
        if (pinned.length === 0 && state.drifts.length === 0) return { ...state, checked: now };
        const seen: Record<string, string> = {};
        const kept = new Map(state.drifts.map((drift) => [drift.key, drift]));
        const drifts: KeptDrift[] = [];
        for (const [path, record] of pinned) {
          const found = look(path, record, state.seen[path]);
          if (found.intact !== undefined || (found.drift === undefined && state.seen[path] !== undefined))
            seen[path] = found.intact ?? (state.seen[path] as string);
          if (found.drift === undefined) continue;
          const key = `${path}|${found.drift.kind}|${found.drift.at ?? ''}`;
          const old = kept.get(key);
          if (old !== undefined) {
            drifts.push(old);
            continue;
          }
          const fresh: KeptDrift = { ...found.drift, key, noticed: new Date(now).toISOString() };
          drifts.push(fresh);
          appendLog(guardHome, { time: fresh.noticed, how: 'drift', agent: fresh.agent, reason: driftSentence(fresh) });
        }
        return { checked: now, seen, drifts };
        // a look under way in another call is not waited for
      },
      0,
    );
  } catch {
    // a look that could not be finished is done again by a later call
  }
}
