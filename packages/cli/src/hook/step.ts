// The hook's second stage: read the step (the settings it is judged under, and the payload on
// stdin as the agent's adapter reads it). What it learns goes into the call's `known` as soon as it
// is known, so a failure later in this stage is still answered in the right shape.
import type { HookInput } from '@guard/adapters';
import { AGENTS, hostOf } from '@guard/adapters/agents';
import { resolveSettings } from '../state/floor.js';
import type { Settings } from '../state/settings.js';
import { DEFAULT_SETTINGS, effectiveSettings } from '../state/settings.js';
import { SYSTEM_ROOT } from '../world/system-root.js';
import { readSystemSettings } from '../world/system-settings.js';
import type { Call } from './call.js';
import { MAX_INPUT_BYTES, readAll, sniffEvent, textOf } from './input.js';

/** The step as read: the settings it is judged under, and the payload. */
export interface ReadStep {
  readonly settings: Settings;
  /** The rules the system settings lock (state/floor.ts). */
  readonly lockedRules: readonly string[];
  readonly input: HookInput;
}

/** Reads the settings and the payload; throws what cannot be read (the failure answer follows). */
export async function readStep(call: Call): Promise<ReadStep> {
  const { io, known } = call;
  // a broken settings.yaml never loosens: the last good settings, or the strictest
  const user = await effectiveSettings(call.guardHome);
  // the system settings are a floor the user's may only tighten; one that cannot be read is the strictest
  const system = await readSystemSettings(call.deps.systemRoot ?? SYSTEM_ROOT);
  const { settings, lockedRules } = resolveSettings(system, user.settings, DEFAULT_SETTINGS);
  known.settings = settings;
  known.systemExport = system.state === 'read' && system.floor.export !== undefined;
  const problems = [
    ...(user.problem === undefined ? [] : [user.problem]),
    ...(system.state === 'unreadable'
      ? [`the system settings ${system.path}: ${system.problem}; guard works at the strictest until it is fixed`]
      : []),
  ];
  for (const problem of problems) {
    known.problems.push(problem);
    io.err(`guard: ${problem}\n`);
  }
  // what arrives is kept where the deadline can read it, should the payload never end
  const parts: Buffer[] = [];
  known.read = () => textOf(parts);
  const { text, json: parsed } = await readAll(io.stdin, MAX_INPUT_BYTES, parts);
  if (text.trim() === '') throw new Error('stdin was empty: no payload to read');
  // should the payload not be readable, a failure is still answered in its event's shape
  known.event ??= sniffEvent(text);
  let json = parsed;
  if (json === undefined) {
    try {
      json = JSON.parse(text);
    } catch {
      // the parser's own message quotes the payload, which may hold a key: keep only the fact
      throw new Error(`the payload is not valid JSON (${text.length} characters)`);
    }
  }
  hostOfPayload(call, json);
  const input = call.payload.read(json, call.event, io.parentArgs());
  known.input = input;
  known.event = input.event;
  return { settings, lockedRules, input };
}

/**
 * The call becomes the host's when the payload is from an agent that runs the hook command's
 * agent's hook files (Copilot running a repository's Claude Code hooks): read, judged, remembered
 * and answered in that host's dialect, as through its own hook. A payload no agent guard knows
 * sent is a payload guard could not read (the failure answer: asked, or blocked), never silence.
 */
function hostOfPayload(call: Call, json: unknown): void {
  const host = hostOf(call.agent, json);
  if (host === undefined)
    throw new Error(`the payload is not ${call.payload.displayName}'s, nor any other agent's guard knows`);
  if (host === call.agent) return;
  call.agent = host;
  call.payload = AGENTS[host];
}
